/**
 * Server-Sent Events on the public surface (docs/public.md "Streams"):
 * `GET /api/public/stream/trades` and `GET /api/public/stream/events`, fed by the process's one
 * {@link StreamHub}. Frames (WHATWG HTML "Server-sent events"):
 * - default `message` type, with `id`: a confirmed row (trade record + `event_id`, or event
 *   record), ascending; the id is the events feed's id, so `Last-Event-ID` resumes like `since_id`;
 * - `event: pending`, no `id`: a row at the indexed head, not yet confirmed (a preview);
 * - `event: reorg`, no `id`: `{dropped: [...]}`, previews this connection was shown that a reorg
 *   removed or changed;
 * - `: keep-alive` comments; a first `retry:` field (reconnect delay).
 */
import { Hono, type Context } from "hono";
import type { BlankEnv } from "hono/types";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { ApiError } from "../errors";
import { TooManyStreamsError } from "../../market/errors";
import { clientIp } from "../middleware/clientIp";
import type { ProxyTrust } from "../../config/proxyTrust";
import { findTokenAddress } from "../../market/tokenLookups";
import type { MarketDb } from "../../market/db";
import type { StreamHub } from "../../market/streamHub";
import type { StreamKind } from "../../market/streamSettings";
import { FrameQueue } from "../../market/streamQueue";
import { documented } from "../openapi/describe";
import { logEvent } from "../../ops/ponderInternals";
import { validate } from "../validation";
import { addressParam } from "../../src/domain/wire";

/** What the stream router needs. */
export type StreamDeps = {
  db: MarketDb;
  hub: StreamHub;
  trustProxy?: ProxyTrust;
  /** IPv6 grouping of the per-IP stream cap (`CLIENT_IPV6_PREFIX_BITS`). */
  ipv6PrefixBits?: number;
};

/** Reconnect delay EventSource clients are told (the SSE `retry` field), milliseconds. */
const STREAM_RETRY_MS = 1_000;
/** `Retry-After` of a refused connection (cap reached), seconds. */
const CAP_RETRY_AFTER_SEC = 5;

const idText = /^\d{1,16}$/;
/** A resume position: an id this stream sent (an integer event id, 0 <= id <= 2^53 − 1). */
const sinceIdParam = z
  .string()
  .regex(idText, "since_id must be an integer event id")
  .refine((v) => Number(v) <= Number.MAX_SAFE_INTEGER, "since_id must be an integer event id")
  .optional();
const pendingFlag = z.enum(["0", "1", "true", "false"], { message: "include_pending must be 0, 1, true or false" });

/** Query of both streams. */
const streamQuery = z.object({
  token: addressParam.optional(),
  since_id: sinceIdParam,
  include_pending: pendingFlag.optional(),
});
/** The stream handler's input: the query as `validate("query", streamQuery)` parsed it. */
type StreamInput = { out: { query: z.output<typeof streamQuery> } };

const FRAMES = `Frames: the default \`message\` type carries a confirmed row with an \`id\` (the events feed's id; resume with the \`Last-Event-ID\` header or \`since_id\`); \`event: pending\` (no id) a row at the indexed head, not yet confirmed; \`event: reorg\` (no id) \`{dropped}\`, previews a reorg removed; \`: keep-alive\` comments. See docs/public.md "Streams".`;

/** Parses the resume position: `Last-Event-ID` (what EventSource sends on reconnect) wins over `since_id`. */
function resumePosition(header: string | undefined, sinceId: string | undefined): bigint | undefined {
  if (header !== undefined && header.trim() !== "") {
    const value = header.trim();
    if (!idText.test(value) || Number(value) > Number.MAX_SAFE_INTEGER)
      throw new ApiError("invalid_cursor", "Last-Event-ID is not an id this stream sent");
    return BigInt(value);
  }
  return sinceId === undefined ? undefined : BigInt(sinceId);
}

/** Builds the `/api/public/stream` router. */
export function streamRoutes(deps: StreamDeps) {
  const open = async (c: Context, kind: StreamKind, pendingDefault: boolean, query: z.infer<typeof streamQuery>) => {
    const sinceId = resumePosition(c.req.header("Last-Event-ID"), query.since_id);
    let token: `0x${string}` | undefined;
    if (query.token) {
      const found = await findTokenAddress(deps.db, query.token);
      if (!found) throw new ApiError("token_not_found", `no launched token for "${query.token}"`);
      token = found;
    }
    const includePending =
      query.include_pending === undefined
        ? pendingDefault
        : query.include_pending === "1" || query.include_pending === "true";
    let lease: { release: () => void };
    try {
      lease = deps.hub.admit(clientIp(c, deps.trustProxy ?? false, deps.ipv6PrefixBits));
    } catch (err) {
      if (err instanceof TooManyStreamsError) c.header("Retry-After", String(CAP_RETRY_AFTER_SEC));
      throw err;
    }
    try {
      await deps.hub.prepare(kind);
    } catch (err) {
      lease.release();
      throw err;
    }
    const queue = new FrameQueue(deps.hub.settings.maxQueuedFrames);
    c.header("X-Accel-Buffering", "no"); // a buffering reverse proxy would hold frames back
    return streamSSE(c, async (stream) => {
      const detach = deps.hub.attach(kind, { token, includePending, sinceId }, queue);
      stream.onAbort(() => queue.close("client", true));
      // A slow client gets nothing more: end the response and drop its socket.
      queue.onClose = (reason) => {
        if (reason !== "slow") return;
        logEvent("warn", { msg: "Dropped a slow stream client", stream: kind, max_queued_frames: queue.maxFrames });
        stream.abort();
        (c.env as { outgoing?: { destroy?: () => void } } | undefined)?.outgoing?.destroy?.();
      };
      try {
        await stream.write(`retry: ${STREAM_RETRY_MS}\n\n`);
        for (let frame = await queue.next(); frame && !stream.aborted; frame = await queue.next()) {
          if ("comment" in frame) await stream.write(`: ${frame.comment}\n\n`);
          else await stream.writeSSE(frame);
        }
      } finally {
        detach();
        lease.release();
      }
    });
  };

  /** One stream route: its OpenAPI description plus the shared validation and `open`. */
  const streamRoute = (kind: StreamKind, pendingDefault: boolean, summary: string, description: string, data: string) =>
    [
      documented({
        tag: "public",
        summary,
        description: `${description} ${FRAMES}`,
        content: { "text/event-stream": data },
        headers: [
          {
            name: "Last-Event-ID",
            required: false,
            description: "resume after this id (sent by EventSource on reconnect); wins over `since_id`",
          },
        ],
        errors: [
          "invalid_request",
          "invalid_address",
          "invalid_cursor",
          "token_not_found",
          "too_many_streams",
          "not_indexed_yet",
        ],
      }),
      validate("query", streamQuery),
      (c: Context<BlankEnv, string, StreamInput>) => open(c, kind, pendingDefault, c.req.valid("query")),
    ] as const;

  return (
    new Hono()
      /**
       * GET /api/public/stream/trades?token=&since_id=&include_pending= — trades as Server-Sent
       * Events: previews at the indexed head (`include_pending`, default 1) and every confirmed
       * trade with its events-feed id. 200 `text/event-stream`; 400 `invalid_request` /
       * `invalid_address` / `invalid_cursor` (bad `Last-Event-ID`); 404 `token_not_found`; 429
       * `too_many_streams`; 503 `not_indexed_yet`.
       */
      .get(
        "/trades",
        ...streamRoute(
          "trades",
          true,
          "Trades as Server-Sent Events (all tokens, or one), resumable with Last-Event-ID",
          "Each data line is a trade record (as `/api/public/trades/recent`) plus `event_id` and `confirmed`. `include_pending` defaults to 1 here.",
          "Server-Sent Events; data is JSON (trade record + event_id, confirmed)",
        ),
      )
      /**
       * GET /api/public/stream/events?token=&since_id=&include_pending= — the events feed as
       * Server-Sent Events: confirmed events with their ids (as `GET /api/public/events`), plus
       * previews and reorg frames with `include_pending=1` (default 0). Errors as the trades stream.
       */
      .get(
        "/events",
        ...streamRoute(
          "events",
          false,
          "The events feed as Server-Sent Events, resumable with Last-Event-ID",
          "Each data line is an event record (as `/api/public/events`). `include_pending` defaults to 0, as the events feed.",
          "Server-Sent Events; data is JSON (event record)",
        ),
      )
  );
}
