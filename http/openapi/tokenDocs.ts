/**
 * OpenAPI descriptions of the token detail and holder list routes, shared by the public surface
 * (by address or slug) and the key-authenticated surface (by address): the same records, the
 * surface's own tag and path errors.
 */
import type { ErrorCode } from "../errors";
import type { RouteDoc } from "./describe";
import { holderPageWire, tokenDetailWire } from "../../market/wire";
import { okBody } from "../../src/domain/wire";
import { integrityBody } from "../../market/integrityWire";

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
      'block. Snipers: recipients other than the creator of a buy in the launch block or the next 10 blocks; bundled: of a buy in the launch block. `creator_funded` is not measured (see its `reason`). Definitions: docs/public.md "Launch integrity".' +
      (tag === "v1" ? " Scope `evmchain:market:read`." : ""),
    ok: integrityBody,
    errors,
  };
}
