/**
 * Query parameters and paths are text (docs/trust.md "Text rules"): a control character (NUL, C0,
 * DEL, C1, U+2028/U+2029) or a lone surrogate in a decoded query value, query name or path segment
 * is refused with 400 `invalid_request` naming the parameter, before any route runs. PostgreSQL
 * refuses the NUL byte in text, so `GET /api/public/search?q=%00` was a 500; no route may
 * reach the database with such a value.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import { hasControlCharacter } from "./textRules";

/**
 * The middleware (register once, before the routers).
 * @throws ApiError 400 `invalid_request` (`q: must not contain control characters`)
 */
export function rejectControlCharactersInUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      throw new ApiError("invalid_request", "path: malformed percent-encoding");
    }
    if (hasControlCharacter(path)) throw new ApiError("invalid_request", "path: must not contain control characters");
    for (const [name, value] of url.searchParams) {
      if (hasControlCharacter(name))
        throw new ApiError("invalid_request", "a query parameter name contains control characters");
      if (hasControlCharacter(value))
        throw new ApiError("invalid_request", `${name}: must not contain control characters`);
    }
    return next();
  };
}
