/**
 * OpenAPI descriptions of the token detail, holder list, integrity and candle routes, shared by the public surface
 * (by address or slug) and the key-authenticated surface (by address): the same records, the
 * surface's own tag and path errors.
 */
import type { ErrorCode } from "../errors";
import type { RouteDoc } from "./describe";
import { holderPageWire, tokenDetailWire } from "../../market/wire";
import { okBody } from "../../src/domain/wire";
import { integrityBody } from "../../market/integrityWire";
import { candlesBody } from "../../market/candleWire";

/**
 * The token detail route: one token record with `top_holders`.
 * @param errors - the catalogue errors of the surface's path and lookup
 */
export function tokenDetailDoc(tag: "public" | "v1", summary: string, errors: readonly ErrorCode[]): RouteDoc {
  return { tag, summary, ok: okBody({ token: tokenDetailWire }), errors };
}

/**
 * The holder list route: non-zero balances, largest first, then by address (docs/public.md "Holders").
 * @param errors - the catalogue errors of the surface's path, query and lookup
 */
export function holderListDoc(tag: "public" | "v1", errors: readonly ErrorCode[]): RouteDoc {
  return { tag, summary: "A token's holders, largest balance first", ok: holderPageWire, errors };
}

/**
 * The launch-integrity route (docs/public.md "Launch integrity"): the token's creator share, snipers,
 * bundled buys, top-10 concentration and holder count.
 * @param errors - the catalogue errors of the surface's path and lookup
 */
export function integrityDoc(tag: "public" | "v1", errors: readonly ErrorCode[]): RouteDoc {
  return {
    tag,
    summary: "A token's launch integrity: creator share, snipers, bundled buys, top-10 concentration",
    description:
      "Shares in basis points of the total supply (rounded down), amounts in token base units; updated per indexed " +
      'block. Snipers: recipients other than the creator of a buy in the launch block or the next 10 blocks; bundled: of a buy in the launch block. `creator_funded`: snipers the creator sent native ETH to before their first buy, measured once the sniper window is confirmed (`status`). Definitions: docs/public.md "Launch integrity".' +
      (tag === "v1" ? " Scope `evmchain:market:read`." : ""),
    ok: integrityBody,
    errors,
  };
}

/**
 * The catalogue errors of a candle read (the candles routes and UDF `/history`): bad query, bad
 * resolution or range, second bars out of their 24 h retention, unknown token, nothing indexed yet.
 * @param pathErrors - the surface's own path errors (v1: `invalid_address`), listed after `invalid_request`
 */
export function candleReadErrors(pathErrors: readonly ErrorCode[] = []): ErrorCode[] {
  return [
    "invalid_request",
    ...pathErrors,
    "invalid_resolution",
    "invalid_range",
    "out_of_retention",
    "token_not_found",
    "not_indexed_yet",
  ];
}

/**
 * The candles route (docs/public.md "Candles", "Second bars"): OHLCV oldest first; second bars
 * within their 24 h retention, clamped or refused as the description says.
 * @param lead - the surface's own first sentences of the description (empty for none)
 * @param pathErrors - the surface's own path errors ({@link candleReadErrors})
 */
export function candlesDoc(
  tag: "public" | "v1",
  summary: string,
  lead: string,
  pathErrors: readonly ErrorCode[] = [],
): RouteDoc {
  return {
    tag,
    summary,
    description: `${lead}Second bars (\`1s\`, \`15s\`; UDF \`1S\`, \`15S\`) are aggregated from the trades and served for 24 h before the indexed head's block time: a window entirely older is 400 \`out_of_retention\`; a window straddling the edge is clamped to it (\`from_sec\` is the clamped start, header \`X-Bars-From-Clamped\` the requested one); every second-bar answer carries \`X-Bars-Retention-Start-Sec\` (docs/public.md "Second bars").`,
    ok: candlesBody,
    errors: candleReadErrors(pathErrors),
  };
}
