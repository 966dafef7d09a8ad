/**
 * Market reads of the key-authenticated surface `/api/v1/evmchain/tokens/*` (spec: Endpoints,
 * key-authenticated surface): the canonical token record with its top holders, the holder list,
 * trades and candles. Mounted behind the v1 auth, per-key rate limit and scope table
 * (`./surface.ts`); the same records as the public surface (docs/public.md).
 */
import { Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../../errors";
import { sendOk } from "../../json";
import { candlesResponse } from "../../market/candlesResponse";
import { decodeCursor, encodeCursor, tradeCursorShape } from "../../../market/cursor";
import { holderList, holderPosition, tokenDetail } from "../../../market/holders";
import { candlesQuery, tokenBatchQuery, tradePageQuery } from "../../market/params";
import { tradePage } from "../../../market/tradeQueries";
import { findToken, findTokens, TOKEN_BATCH_MAX } from "../../../market/tokenReads";
import { findTokenAddress } from "../../../market/tokenLookups";
import { tokenRecord } from "../../../market/tokenRecord";
import type { MarketReadDeps } from "../../../market/readDeps";
import { tradeRecord } from "../../../market/tradeRecord";
import { documented } from "../../openapi/describe";
import { addressWire, okBody } from "../../../src/domain/wire";
import { tokenBatchBody, tradeWire } from "../../../market/wire";
import { candlesDoc, holderListDoc, integrityDoc, tokenDetailDoc } from "../../openapi/tokenDocs";
import { tokenIntegrity } from "../../../market/integrity";
import { limitParam, validate } from "../../validation";
import { addressParam } from "../../../src/domain/wire";

/** What the v1 market reads need. */
export type V1MarketDeps = MarketReadDeps;

const addressPath = z.object({ address: addressParam });
/** Holder lists: `limit` default 50, max 200; `cursor` (as the public holder list). */
const holderListQuery = z.object({ limit: limitParam(50, 200), cursor: z.string().max(400).optional() });

/** Builds the market reads of `/api/v1/evmchain` (mount at `/api/v1/evmchain`, behind the v1 auth). */
export function v1MarketRoutes(deps: V1MarketDeps) {
  const nowSec = deps.nowSec;
  return (
    new Hono()
      /**
       * GET /api/v1/evmchain/tokens?addresses=0x…,0x… — the public batch read (docs/public.md
       * "Batch reads"): up to 30 token records in the order asked, `found: false` for unknown
       * addresses. 200 `{ok, tokens}`; 400 `invalid_request`/`invalid_address`.
       */
      .get(
        "/tokens",
        documented({
          tag: "v1",
          summary: `Token records of up to ${TOKEN_BATCH_MAX} addresses in one call (as the public batch read)`,
          description:
            `\`addresses\`: 1 to ${TOKEN_BATCH_MAX} comma-separated addresses, no duplicates. One item per address, in ` +
            "the order asked, `found: false` and `token: null` for an address with no launched token. The public " +
            "batch read's answer (`GET /api/public/tokens`). Scope `evmchain:market:read`.",
          ok: tokenBatchBody,
          errors: ["invalid_request", "invalid_address"],
        }),
        validate("query", tokenBatchQuery),
        async (c) => {
          const { addresses } = c.req.valid("query");
          const rows = await findTokens(deps.db, addresses, nowSec(), deps.storedMetadata);
          return sendOk(c, {
            tokens: addresses.map((address, i) => {
              const row = rows[i] ?? null;
              return { address, found: row !== null, token: row ? tokenRecord(row, deps) : null };
            }),
          });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address} — canonical token record with `top_holders` (the
       * public token detail record). 200 `{ok, token}`; 400 `invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address",
        documented(
          tokenDetailDoc("v1", "Canonical token record, with its top holders", ["invalid_address", "token_not_found"]),
        ),
        validate("param", addressPath),
        async (c) => {
          const { address } = c.req.valid("param");
          const row = await findToken(deps.db, address, nowSec(), deps.storedMetadata);
          if (!row) throw new ApiError("token_not_found", `no launched token at ${address}`);
          return sendOk(c, { token: await tokenDetail(deps.db, row, deps) });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/integrity — the public launch-integrity record
       * (docs/public.md "Launch integrity"). 200 `{ok, integrity}`; 400 `invalid_address`; 404
       * `token_not_found`.
       */
      .get(
        "/tokens/:address/integrity",
        documented(integrityDoc("v1", ["invalid_address", "token_not_found"])),
        validate("param", addressPath),
        async (c) => {
          const { address } = c.req.valid("param");
          const integrity = await tokenIntegrity(deps.db, address, deps);
          if (!integrity) throw new ApiError("token_not_found", `no launched token at ${address}`);
          return sendOk(c, { integrity });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/holders?limit=&cursor= — the public holder list
       * (docs/public.md "Holders"): non-zero balances, largest first, then by address; `limit`
       * default 50, max 200. 200 `{ok, token, holder_count, holders, next_cursor}`; 400
       * `invalid_request`/`invalid_cursor`/`invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address/holders",
        documented(holderListDoc("v1", ["invalid_request", "invalid_cursor", "invalid_address", "token_not_found"])),
        validate("param", addressPath),
        validate("query", holderListQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          const { limit, cursor } = c.req.valid("query");
          const after = cursor !== undefined ? holderPosition(cursor) : undefined;
          return sendOk(c, await holderList(deps.db, address, limit, after, deps.deployment));
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/trades?limit=&cursor=&before_timestamp= — swaps
       * mirrored as trades, newest first (block, log index). `limit` default 50, max 200;
       * `cursor` = the previous page's `next_cursor` (the public trade lists' keyset cursor,
       * docs/public.md "Lists and cursors"); `before_timestamp` (unix seconds) keeps trades with an
       * earlier block time. 200 `{ok, token, trades, next_cursor}` (`next_cursor` null after a
       * short page); 400 `invalid_request`/`invalid_cursor`/`invalid_address`; 404 `token_not_found`.
       */
      .get(
        "/tokens/:address/trades",
        documented({
          tag: "v1",
          summary: "Swaps mirrored as trades, newest first, paged by cursor and/or before_timestamp",
          ok: okBody({ token: addressWire, trades: z.array(tradeWire), next_cursor: z.string().nullable() }),
          errors: ["invalid_request", "invalid_cursor", "invalid_address", "token_not_found"],
        }),
        validate("param", addressPath),
        validate("query", tradePageQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          const { limit, cursor, before_timestamp } = c.req.valid("query");
          const position = cursor !== undefined ? decodeCursor(cursor, tradeCursorShape) : undefined;
          const token = await findTokenAddress(deps.db, address);
          if (!token) throw new ApiError("token_not_found", `no launched token at ${address}`);
          const rows = await tradePage(deps.db, {
            limit,
            token,
            before: position ? { b: BigInt(position.b), l: position.l } : undefined,
            beforeTimestampSec: before_timestamp !== undefined ? BigInt(before_timestamp) : undefined,
          });
          const last = rows.at(-1);
          return sendOk(c, {
            token: address,
            trades: rows.map(tradeRecord),
            next_cursor:
              rows.length === limit && last ? encodeCursor({ b: last.blockNumber.toString(), l: last.logIndex }) : null,
          });
        },
      )
      /**
       * GET /api/v1/evmchain/tokens/{address}/candles?resolution=&from=&to= — OHLCV candles,
       * oldest first. `resolution` one of 1m, 5m, 15m, 1h, 4h, 1d; `from`/`to` unix seconds,
       * inclusive bounds on bucket start; default window: 300 buckets ending now; at most 1,440
       * buckets. Only buckets with trades are returned. 200 `{ok, token, resolution, from_sec,
       * to_sec, candles}`; 400 `invalid_request`/`invalid_range`/`invalid_address`/
       * `out_of_retention` (second bars 1s/15s: 24 h before the indexed head); 404.
       * `format=udf` answers in the TradingView UDF `/history` shape instead (`fill`, `countback`;
       * docs/public.md "Candles for charting libraries").
       */
      .get(
        "/tokens/:address/candles",
        documented(
          candlesDoc(
            "v1",
            "OHLCV candles, oldest first",
            "`format=udf` answers in the TradingView UDF `/history` shape instead (docs/public.md). ",
            ["invalid_address"],
          ),
        ),
        validate("param", addressPath),
        validate("query", candlesQuery),
        async (c) => {
          const { address } = c.req.valid("param");
          if (!(await findTokenAddress(deps.db, address)))
            throw new ApiError("token_not_found", `no launched token at ${address}`);
          return candlesResponse(c, deps.db, address, c.req.valid("query"), nowSec());
        },
      )
  );
}
