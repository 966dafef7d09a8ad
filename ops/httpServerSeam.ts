/**
 * The one reach into the HTTP server Ponder creates (docs/operations.md "HTTP server bounds").
 *
 * Ponder 0.17 creates its server with `http.createServer` (`ponder/dist/esm/server/index.js`
 * passes the property to `@hono/node-server`'s `serve`) after it has evaluated the API file, and
 * exposes neither the server nor its options. This seam replaces `http.createServer` once per
 * process; every server created afterwards gets the registered hooks: each wraps the request
 * listener (later registrations outside earlier ones) and configures the server before it listens.
 *
 * Hooks are registered by name, so evaluating the API file again (Ponder's dev reload) replaces a
 * hook instead of stacking a second copy.
 */
import http, { type RequestListener, type Server, type ServerOptions } from "node:http";

/** What a hook may do to a server being created. */
export type HttpServerHook = {
  /** Options merged into the server's constructor options (some, like `connectionsCheckingInterval`, are only read there). */
  options?: ServerOptions;
  /** Wraps the request listener (e.g. answers some requests itself). */
  wrapListener?: (listener: RequestListener) => RequestListener;
  /** Configures the server object (timeouts, connection bounds, listeners). */
  configure?: (server: Server) => void;
};

const INSTALLED = Symbol.for("launch-service.httpServerSeam");
type SeamState = { hooks: Map<string, HttpServerHook> };

/**
 * Registers (or replaces) a hook applied to every HTTP server this process creates from now on.
 * @param name - the hook's name (one hook per name)
 * @param hook - listener wrapper and/or server configuration
 * @example registerHttpServerHook("limits", { configure: (server) => { server.headersTimeout = 10_000; } })
 */
export function registerHttpServerHook(name: string, hook: HttpServerHook): void {
  const holder = http as unknown as Record<symbol, SeamState | undefined>;
  let state = holder[INSTALLED];
  if (!state) {
    state = { hooks: new Map() };
    holder[INSTALLED] = state;
    const seam = state;
    const original = http.createServer;
    const createServer = function createServer(this: unknown, ...args: unknown[]) {
      const hooks = [...seam.hooks.values()];
      const options = Object.assign({}, ...hooks.map((h) => h.options ?? {})) as ServerOptions;
      if (typeof args[0] === "object" && args[0] !== null) args[0] = { ...(args[0] as ServerOptions), ...options };
      else args.unshift(options);
      const at = args.findIndex((arg) => typeof arg === "function");
      if (at >= 0)
        args[at] = hooks.reduce(
          (listener, h) => (h.wrapListener ? h.wrapListener(listener) : listener),
          args[at] as RequestListener,
        );
      const server = (original as (...a: unknown[]) => Server).apply(this, args);
      for (const h of hooks) h.configure?.(server);
      return server;
    };
    (http as { createServer: unknown }).createServer = createServer;
  }
  state.hooks.set(name, hook);
}
