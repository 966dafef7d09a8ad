/**
 * CORS for what never reaches the app (docs/trust.md "CORS"; the app's own rule is
 * http/middleware/cors.ts). Ponder's `cors()` answers every `OPTIONS` preflight itself (204 with
 * `Allow-Origin: *`, every method and the requested headers echoed, e.g. `x-csrf-token`,
 * `authorization`) and serves `/metrics`, `/status`, `/ready`, `/health` outside the app. This seam
 * subscribes to Node's documented `http.server.request.start` diagnostics channel and, for
 * responses of Ponder's API server on a non-public path, drops `Access-Control-*` headers as they
 * are written, so a preflight there grants nothing and the browser refuses the cross-origin request.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from "node:http";

type RequestStart = { request: IncomingMessage; response: ServerResponse; server: Server };

/** Drops `Access-Control-*` from the headers a `writeHead` call is given (object or flat array form). */
function withoutCorsHeaders(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0]))
      return (headers as [string, unknown][]).filter(([name]) => !isCorsHeader(String(name)));
    const out: unknown[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2)
      if (!isCorsHeader(String(headers[i]))) out.push(headers[i], headers[i + 1]);
    return out;
  }
  if (headers && typeof headers === "object") {
    return Object.fromEntries(Object.entries(headers as OutgoingHttpHeaders).filter(([name]) => !isCorsHeader(name)));
  }
  return headers;
}

/** Whether a response header is a CORS header. */
const isCorsHeader = (name: string) => /^access-control-/i.test(name);

const shared = globalThis as {
  __launchCorsSeam?: { apiPort: () => number | undefined; isPublic: (path: string) => boolean };
};

/**
 * Installs the transport seam (see the module comment) for the HTTP server listening on the API
 * port. Idempotent per process: a re-evaluated API module only replaces the port source. Other
 * servers in the process are untouched.
 * @param apiPort - the API server's port, read at each request (Ponder sets it once it listens)
 * @param isPublic - whether a path may answer cross-origin (`isPublicCorsPath`, http/middleware/cors.ts)
 * @returns whether this call subscribed (false when already installed)
 * @example stripPonderCorsOutsidePublic(() => ponderApiPort() ?? 42069, isPublicCorsPath) // true
 */
export function stripPonderCorsOutsidePublic(
  apiPort: () => number | undefined,
  isPublic: (path: string) => boolean,
): boolean {
  if (shared.__launchCorsSeam) {
    shared.__launchCorsSeam.apiPort = apiPort;
    shared.__launchCorsSeam.isPublic = isPublic;
    return false;
  }
  const state = { apiPort, isPublic };
  shared.__launchCorsSeam = state;
  diagnosticsChannel.subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as RequestStart;
    const address = server.address();
    if (!address || typeof address === "string" || address.port !== state.apiPort()) return;
    const path = (request.url ?? "/").split("?")[0]!;
    if (state.isPublic(path)) return;
    const writeHead = response.writeHead;
    response.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
      for (const name of this.getHeaderNames()) if (isCorsHeader(name)) this.removeHeader(name);
      return (writeHead as (...args: unknown[]) => ServerResponse).call(
        this,
        statusCode,
        ...rest.map(withoutCorsHeaders),
      );
    } as ServerResponse["writeHead"];
  });
  return true;
}
