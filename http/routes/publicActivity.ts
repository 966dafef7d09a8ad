/**
 * The activity half of the public surface `/api/public` (docs/public.md): trades of every token
 * and the events feed. No authentication.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { PublicConfig } from "../../config/public";
import { firstEventIdAfterBlock } from "../../src/domain/events";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import type { MarketDb } from "../../market/db";
import { eventRange } from "../../market/eventQueries";
import { eventRecord } from "../../market/eventRecord";
import { confirmedBlock, confirmedEventBound, indexerProgress } from "../../market/confirmedBound";
import { tradeListPage } from "../../market/tradeQueries";
import { tradeRecord } from "../../market/tradeRecord";
import { documented } from "../openapi/describe";
import { eventWire, tradePage as tradePageWire } from "../../market/wire";
import { okBody } from "../../src/domain/wire";
import { limitParam, validate } from "../validation";
import { tradeListQuery } from "./publicTokens";

/** What the activity routes read. */
export type PublicActivityDeps = { db: MarketDb; publicConfig: PublicConfig };

const eventsQuery = z.object({
  since_id: z.coerce
    .number({ message: "since_id must be an integer" })
    .int("since_id must be an integer")
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0),
  limit: limitParam(100, 500),
  include_pending: z.enum(["0", "1", "true", "false"]).default("0"),
});

/** Builds the activity routes of `/api/public`. */
export function publicActivityRoutes(deps: PublicActivityDeps) {
  const { db } = deps;
  const confirmationBlocks = deps.publicConfig.confirmationBlocks;
  return (
    new Hono()
      .get(
        "/trades/recent",
        documented({
          tag: "public",
          summary: "Trades of every launched token, newest first",
          ok: tradePageWire,
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", tradeListQuery),
        async (c) => {
          const { limit, cursor } = c.req.valid("query");
          const page = await tradeListPage(db, { limit, cursor });
          return sendOk(c, { trades: page.rows.map(tradeRecord), next_cursor: page.next_cursor });
        },
      )
      // Confirmed events (head ≥ `EVENTS_CONFIRMATION_BLOCKS` past their block and at or below the
      // indexer's finalized block: market/confirmedBound.ts) never change or disappear, not even
      // after a crash recovery, so `next_since_id` is a safe cursor across reorgs and restarts; it
      // never moves past the `pending` events, which a reorg may remove or replace.
      .get(
        "/events",
        documented({
          tag: "public",
          summary: "Events feed: confirmed events after since_id, in chain order",
          ok: okBody({
            events: z.array(eventWire),
            pending: z.array(eventWire).optional(),
            next_since_id: z.number().int().nonnegative(),
            head_block: z.number().int(),
            confirmed_block: z.number().int(),
            confirmation_blocks: z.number().int(),
          }),
          errors: ["invalid_request", "not_indexed_yet"],
        }),
        validate("query", eventsQuery),
        async (c) => {
          const { since_id, limit, include_pending } = c.req.valid("query");
          const progress = await indexerProgress(db);
          if (!progress) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
          const head = { blockNumber: progress.headBlock };
          const confirmed = confirmedBlock(progress, confirmationBlocks);
          const sinceId = BigInt(since_id);
          const confirmedBound = confirmedEventBound(progress, confirmationBlocks);
          const rows = await eventRange(db, sinceId, confirmedBound, limit);
          // Fewer than `limit` rows: everything up to the confirmed boundary has been served.
          const lastId = rows.at(-1)?.id;
          const next =
            rows.length === limit && lastId !== undefined
              ? lastId
              : confirmedBound - 1n > sinceId
                ? confirmedBound - 1n
                : sinceId;
          const body: Record<string, unknown> = {
            events: rows.map((r) => eventRecord(r, true)),
            next_since_id: Number(next),
            head_block: Number(head.blockNumber),
            confirmed_block: Number(confirmed),
            confirmation_blocks: confirmationBlocks,
          };
          if (include_pending === "1" || include_pending === "true") {
            const from = sinceId > confirmedBound - 1n ? sinceId : confirmedBound - 1n;
            const pending =
              rows.length < limit
                ? await eventRange(db, from, firstEventIdAfterBlock(head.blockNumber + 1_000_000n), limit - rows.length)
                : [];
            body.pending = pending.map((r) => eventRecord(r, false));
          }
          return sendOk(c, body);
        },
      )
  );
}
