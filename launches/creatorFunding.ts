/**
 * The creator-funding scan (docs/public.md "Launch integrity", `creator_funded`): for every
 * launch, once its sniper window is confirmed (market/confirmedBound.ts), read the creator's
 * native ETH transfers in the funding window from the chain (`chain/directTransfers.ts`), keep
 * the snipers they reached before their first buy (`src/domain/creatorFunding.ts`) and write one
 * row per launch to the store. Launches are taken in `launch_seq` order and the scan never passes
 * one it has not written. A node that does not answer (connection refused, timeout, HTTP error,
 * rate limit) delays the scan: the same launch is retried with backoff, without end. A node that
 * answers with a JSON-RPC error (e.g. "missing trie node": it does not keep historical state)
 * refuses: after `giveUpAfterFailures` refusals in a row the launch is written `unavailable` with
 * the node's message, so such a node does not hold every later launch. Every process may run it:
 * the facts are final, so a launch scanned twice is written twice with the same row.
 */
import { type Address, LimitExceededRpcError, type PublicClient, RpcError } from "viem";
import { directTransfersFrom } from "../chain/directTransfers";
import { backgroundLoop } from "../ops/backgroundLoop";
import { confirmedBlock, indexerProgress } from "../market/confirmedBound";
import { earlyBuysOf, type LaunchToScan, launchesToScan } from "../market/creatorFundingReads";
import type { MarketDb } from "../market/db";
import { type CreatorFundingRow, lastFundingScannedSeq, recordCreatorFunding } from "../store/creatorFunding";
import type { Store } from "../store/index";
import { CREATOR_FUNDING_MAX_TRANSACTIONS, creatorFundedSnipers, fundingWindow } from "../src/domain/creatorFunding";

/** Settings and seams of {@link creatorFundingScanner}. */
export type CreatorFundingDeps = {
  db: MarketDb;
  store: Store;
  client: PublicClient;
  /** `EVENTS_CONFIRMATION_BLOCKS`: the confirmed bound's depth. */
  confirmationBlocks: number;
  /** Unix ms (default: the wall clock). */
  nowMs?: () => number;
  /** Launches read per round (default 16). */
  batch?: number;
  /** The node's refusals (JSON-RPC error answers) in a row before a launch is written `unavailable` (default 3). */
  giveUpAfterFailures?: number;
  /** Pause between rounds with nothing to do, ms (default 1,000); after a failure it doubles up to 256 s. */
  idleMs?: number;
  /** Called after each row written (the service bumps the read cache's content version). */
  onRecorded?: (row: CreatorFundingRow) => void;
  /** A round that failed. */
  onError?: (err: Error) => void;
};

/** The RPC failed while reading the creator's transactions; `refused`: the node answered with a JSON-RPC error. */
export class FundingRpcError extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The node's own JSON-RPC error answer inside a viem error (it refuses the call), or null for no
 * answer (connection, timeout, HTTP status) or a rate limit (code -32005 or 429), which only delay.
 */
export function nodeRefusal(err: unknown): RpcError | null {
  const walk = (err as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk;
  if (typeof walk !== "function") return null;
  const rpc = walk.call(err, (e) => e instanceof RpcError) as RpcError | null;
  if (!rpc || rpc instanceof LimitExceededRpcError || rpc.code === 429) return null;
  return rpc;
}

/** The fields every row of `launch` carries, whatever its status: the launch and its funding window. */
function rowBase(launch: LaunchToScan, nowMs: number) {
  const window = fundingWindow(launch.launchBlockNumber);
  return {
    token: launch.token,
    launchSeq: launch.launchSeq,
    launchBlockNumber: launch.launchBlockNumber,
    windowStartBlock: window.fromBlock,
    windowEndBlock: window.toBlock,
    measuredAtMs: nowMs,
  };
}

/** Scans one launch; the row to write. @throws FundingRpcError when the node cannot answer */
export async function scanLaunch(
  deps: Pick<CreatorFundingDeps, "db" | "client">,
  launch: LaunchToScan,
  nowMs: number,
): Promise<CreatorFundingRow> {
  const base = rowBase(launch, nowMs);
  const buys = await earlyBuysOf(deps.db, launch);
  const sent = await directTransfersFrom(deps.client, {
    sender: launch.creator as Address,
    fromBlock: base.windowStartBlock,
    toBlock: base.windowEndBlock,
    maxTransactions: CREATOR_FUNDING_MAX_TRANSACTIONS,
  }).catch((err: Error) => {
    const refusal = nodeRefusal(err);
    throw new FundingRpcError(
      refusal ? `${refusal.code}: ${refusal.details || refusal.shortMessage}` : err.message,
      !!refusal,
      {
        cause: err,
      },
    );
  });
  if (sent.kind === "too_many_transactions")
    return {
      ...base,
      status: "unavailable",
      reason: `the creator sent ${sent.transactionCount} transactions in the window (more than ${CREATOR_FUNDING_MAX_TRANSACTIONS} are not read)`,
      creatorTransactionCount: sent.transactionCount,
      funded: [],
    };
  const funded = creatorFundedSnipers(buys, sent.transfers).map((f) => ({
    address: f.address,
    fundedWei: f.fundedWei.toString(),
    transferCount: f.transferCount,
  }));
  return { ...base, status: "measured", reason: null, creatorTransactionCount: sent.transactionCount, funded };
}

/** A running (or manually ticked) scanner. */
export type CreatorFundingScanner = {
  /** One round: scans the launches due. @returns rows written */
  tick: () => Promise<number>;
  start: () => void;
  stop: () => Promise<void>;
};

/**
 * Builds the scanner.
 * @example const scanner = creatorFundingScanner({ db, store, client, confirmationBlocks: 3 }); scanner.start();
 */
export function creatorFundingScanner(deps: CreatorFundingDeps): CreatorFundingScanner {
  const nowMs = deps.nowMs ?? (() => Date.now());
  const giveUpAfter = deps.giveUpAfterFailures ?? 3;
  const idleMs = deps.idleMs ?? 1_000;
  // Failures in a row (the backoff) and, of those, refusals in a row (giving up).
  let failures = 0;
  let refusals = 0;

  async function tick(): Promise<number> {
    const progress = await indexerProgress(deps.db);
    if (!progress) return 0;
    const due = await launchesToScan(deps.db, {
      afterSeq: await lastFundingScannedSeq(deps.store),
      confirmedBlock: confirmedBlock(progress, deps.confirmationBlocks),
      limit: deps.batch ?? 16,
    });
    let written = 0;
    for (const launch of due) {
      let row: CreatorFundingRow;
      try {
        row = await scanLaunch(deps, launch, nowMs());
        failures = 0;
        refusals = 0;
      } catch (err) {
        if (!(err instanceof FundingRpcError)) throw err;
        failures++;
        refusals = err.refused ? refusals + 1 : 0;
        if (refusals < giveUpAfter) throw err;
        failures = 0;
        refusals = 0;
        row = {
          ...rowBase(launch, nowMs()),
          status: "unavailable",
          reason: `the RPC refused: ${err.message.split("\n")[0]!.slice(0, 200)}`,
          creatorTransactionCount: null,
          funded: [],
        };
      }
      await recordCreatorFunding(deps.store, row);
      deps.onRecorded?.(row);
      written++;
    }
    return written;
  }

  const loop = backgroundLoop({
    step: tick,
    delayAfterMs: (written) => (written > 0 ? 0 : idleMs),
    onError: (err) => deps.onError?.(err),
    // Backoff while the same launch keeps failing: 1 s, 2 s, 4 s … 256 s.
    delayAfterErrorMs: () => Math.min(256_000, idleMs * 2 ** Math.max(0, failures - 1)),
  });
  return { tick, start: loop.start, stop: loop.stop };
}
