/**
 * Wires operations into the running service (called once by `http/index.ts`): the service's
 * metrics into Ponder's `/metrics`, the scrape-time gauges onto Ponder's database and the API's
 * RPC client, request logs into Ponder's logger, and the shutdown sequence (drain in-flight
 * requests, then close the offchain store).
 */
import { confirmedHeadBlock } from "../../market/confirmedBound";
import { lt, sql } from "ponder";
import type { PublicClient } from "viem";
import * as schema from "../../ponder.schema";
import type { Store } from "../../store/index";
import type { Readiness } from "../readiness";
import { indexedHead } from "../../market/indexedHead";
import type { MarketDb } from "../../market/db";
import { serializePgliteBlocks } from "../../market/pgliteBlocks";
import { registerServiceGauges } from "./gauges";
import { drainRequests, requestsInFlight, type RequestLogger } from "./http";
import {
  attachToPonder,
  detachViteSigtermExit,
  logEvent,
  onPonderShutdown,
  ponderRequestLogger,
} from "../ponderInternals";

/** How long shutdown waits for in-flight requests before closing the store, milliseconds. */
const SHUTDOWN_DRAIN_MS = 4_000;

/**
 * Newest event id overall and newest confirmed one (market/confirmedBound.ts: at or below
 * min(indexed head − `EVENTS_CONFIRMATION_BLOCKS`, the indexer's finalized block)), as
 * `GET /api/public/events` defines them.
 * @returns ids, null when no such event exists
 */
async function eventsFeedHead(
  db: MarketDb,
  confirmationBlocks: number,
): Promise<{ newestId: bigint | null; confirmedId: bigint | null }> {
  const e = schema.event;
  const [newest] = await db.select({ id: sql<string | null>`max(${e.id})::text` }).from(e);
  const confirmedBlock = (await confirmedHeadBlock(db, confirmationBlocks)) ?? -1n;
  let confirmedId: bigint | null = null;
  if (confirmedBlock >= 0n) {
    const [row] = await db
      .select({ id: sql<string | null>`max(${e.id})::text` })
      .from(e)
      .where(lt(e.id, (confirmedBlock + 1n) * 1_000_000n));
    confirmedId = row?.id ? BigInt(row.id) : null;
  }
  return { newestId: newest?.id ? BigInt(newest.id) : null, confirmedId };
}

/**
 * Connects metrics, gauges, logs and shutdown to the Ponder process.
 * @param deps.db - Ponder's read-only database (`ponder:api`)
 * @param deps.publicClient - the API's RPC client (use an instrumented transport)
 * @param deps.store - the offchain store being opened
 * @param deps.confirmationBlocks - `EVENTS_CONFIRMATION_BLOCKS`
 * @param deps.onShutdown - extra cleanup run before the store closes (timers)
 * @param deps.readiness - the readiness check shared with `/api/v1/ready` (status gauges)
 * @returns the request logger to pass to `createApp` (undefined outside Ponder)
 */
export function wireOperations(deps: {
  db: MarketDb;
  publicClient: PublicClient;
  store: Promise<Store>;
  confirmationBlocks: number;
  onShutdown?: () => void;
  /** The service's readiness check (ops/readiness.ts) behind the `launchpad_indexer_*` status gauges. */
  readiness?: () => Promise<Readiness>;
}): RequestLogger | undefined {
  registerServiceGauges({
    indexedHead: () => indexedHead(deps.db),
    chainHead: () => deps.publicClient.getBlockNumber({ cacheTime: 0 }),
    eventsHead: () => eventsFeedHead(deps.db, deps.confirmationBlocks),
    readiness: deps.readiness,
  });
  // After the gauges exist: every service metric joins the registry Ponder serves.
  attachToPonder();
  // On PGlite: each indexed block runs holding the lock record reads take (one record, one block).
  serializePgliteBlocks();
  // Let Ponder's SIGTERM sequence (drain, unlock, close) finish instead of Vite's early exit.
  detachViteSigtermExit();
  onPonderShutdown(async () => {
    deps.onShutdown?.();
    const started = Date.now();
    const before = requestsInFlight();
    const drained = await drainRequests(SHUTDOWN_DRAIN_MS);
    logEvent(drained ? "info" : "warn", {
      msg: drained ? "Drained in-flight API requests" : "In-flight API requests still running at store close",
      in_flight_at_signal: before,
      in_flight: requestsInFlight(),
      duration_ms: Date.now() - started,
    });
    try {
      const store = await deps.store;
      await store.close();
      logEvent("info", { msg: "Closed offchain store", kind: store.kind });
    } catch (err) {
      logEvent("error", { msg: "Offchain store close failed", error: (err as Error).message });
    }
  });
  return ponderRequestLogger();
}
