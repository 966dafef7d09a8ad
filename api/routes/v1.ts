/**
 * Key-authenticated surface `/api/v1/evmchain` — market-data reads (spec: Endpoints, key-
 * authenticated surface). Key authentication arrives with the trust layer; these reads are open
 * until then.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { candleWindow, candlesQuery, tradesQuery } from "../market/params";
import { findToken, tokenCandles, tokenTrades, type MarketDb } from "../market/queries";
import { candleRecord, tokenRecord, tradeRecord } from "../market/records";
import { addressParam, validate } from "../validation";

/** What the v1 router reads. */
export type V1Deps = { db: MarketDb; publicBaseUrl: string; nowSec?: () => number };

const addressPath = z.object({ address: addressParam });

/** Builds the `/api/v1/evmchain` router. */
export function v1Routes(deps: V1Deps) {
  const nowSec = deps.nowSec ?? (() => Math.floor(Date.now() / 1000));
  return (
    new Hono()
      /**
       * GET /api/v1/evmchain/tokens/{address} — canonical token record.
       * 200 `{ok, token}`; 400 `invalid_address`; 404 `token_not_found`.
       */
      .get("/tokens/:address", validate("param", addressPath), async (c) => {
        const { address } = c.req.valid("param");
        const row = await findToken(deps.db, address);
        if (!row) throw new ApiError("token_not_found", `no launched token at ${address}`);
        return sendOk(c, { token: tokenRecord(row, deps.publicBaseUrl) });
      })
      /**
       * GET /api/v1/evmchain/tokens/{address}/trades?limit= — swaps mirrored as trades, newest
       * first. `limit` default 50, max 200. 200 `{ok, token, trades}`; 400; 404.
       */
      .get("/tokens/:address/trades", validate("param", addressPath), validate("query", tradesQuery), async (c) => {
        const { address } = c.req.valid("param");
        const { limit } = c.req.valid("query");
        if (!(await findToken(deps.db, address))) throw new ApiError("token_not_found", `no launched token at ${address}`);
        const rows = await tokenTrades(deps.db, address, limit);
        return sendOk(c, { token: address, trades: rows.map(tradeRecord) });
      })
      /**
       * GET /api/v1/evmchain/tokens/{address}/candles?resolution=&from=&to= — OHLCV candles,
       * oldest first. `resolution` one of 1m, 5m, 15m, 1h, 4h, 1d; `from`/`to` unix seconds,
       * inclusive bounds on bucket start; default window: 300 buckets ending now; at most 1,000
       * buckets. Only buckets with trades are returned. 200 `{ok, token, resolution, from_sec,
       * to_sec, candles}`; 400 `invalid_request`/`invalid_range`/`invalid_address`; 404.
       */
      .get("/tokens/:address/candles", validate("param", addressPath), validate("query", candlesQuery), async (c) => {
        const { address } = c.req.valid("param");
        const { resolution, from, to } = c.req.valid("query");
        const window = candleWindow(resolution, from, to, nowSec());
        if (!(await findToken(deps.db, address))) throw new ApiError("token_not_found", `no launched token at ${address}`);
        const rows = await tokenCandles(deps.db, address, resolution, window.fromSec, window.toSec);
        return sendOk(c, {
          token: address,
          resolution,
          from_sec: Number(window.fromSec),
          to_sec: Number(window.toSec),
          candles: rows.map(candleRecord),
        });
      })
  );
}
