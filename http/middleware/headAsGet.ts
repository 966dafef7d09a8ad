/**
 * HEAD = GET without a body (RFC 9110 §9.3.2): a HEAD request is answered by running the same
 * request as a GET through the whole app (limits, validators, caching, compression) and sending
 * that answer's status and headers, `Content-Length` included, without its body. An event stream's
 * body is cancelled unread (its length is unknown, so it has no `Content-Length`).
 */
import type { MiddlewareHandler } from "hono";

/**
 * The HEAD middleware (mount before every other middleware but the CORS filter: the GET it runs
 * passes them all once).
 * @param fetchAsGet - the app's own `fetch` (`app.fetch`), given the GET request and the server's env
 * @returns the middleware
 */
export function headAsGet(
  fetchAsGet: (request: Request, env: unknown) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "HEAD") return next();
    const answer = await fetchAsGet(new Request(c.req.raw, { method: "GET" }), c.env);
    const headers = new Headers(answer.headers);
    if (answer.body && /^\s*text\/event-stream/i.test(headers.get("Content-Type") ?? "")) {
      await answer.body.cancel();
    } else if (answer.body && !headers.has("Content-Length")) {
      headers.set("Content-Length", String((await answer.arrayBuffer()).byteLength));
    } else await answer.body?.cancel();
    return new Response(null, { status: answer.status, statusText: answer.statusText, headers });
  };
}
