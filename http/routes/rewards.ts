/**
 * Creator rewards on the session surface `/api/evm/evmchain` (spec: Endpoints, session surface:
 * `creator-rewards`, `build-creator-rewards-claim`; docs/public.md "Creator rewards").
 *
 * - `GET /creator-rewards?wallet=` — per token the wallet created: fees already collected (from the
 *   index: creator and protocol shares, WETH and token) and fees accrued but not yet collected
 *   (`readAccruedFees`: an `eth_call` of the position manager's `collect` from the fee locker),
 *   both stated at one block: the indexer's head (`as_of_block`), so the two never overlap.
 * - `POST /build-creator-rewards-claim` — an unsigned transaction calling
 *   `FeeLocker.collectFeesMany(positionIds)` for every position of the wallet's tokens with
 *   uncollected fees (batches of at most 40 positions). The only client input is `wallet`; the
 *   target (fee locker), calldata and value are the service's own. Behind the session surface's
 *   one CSRF guard and sign-in rule, as every session POST.
 *
 * `createApp` mounts this router inside the session surface, under its per-IP session limit.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { createPublicClient, encodeFunctionData, getAddress, http, type PublicClient } from "viem";
import { z } from "zod";
import { feeLockerAbi } from "../../abis/FeeLocker";
import type { Deployment } from "../../config/deployment";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { indexedHead, type IndexedHead } from "../../market/indexedHead";
import { LRUCache } from "lru-cache";
import { tokensByCreator } from "../../market/tokenLookups";
import type { MarketDb } from "../../market/db";
import type { TrustEnv } from "../middleware/context";
import { assertSessionWallet } from "../session/csrf";
import { validate } from "../validation";
import { addressParam } from "../../src/domain/wire";
import { documented } from "../openapi/describe";
import { addressWire, okBody, uintString } from "../../src/domain/wire";
import { transactionWire } from "../../launches/wire";
import { readAccruedFees } from "../../market/rewards/accrued";
import { splitFeesPerPosition } from "../../market/rewards/split";
import { claimedFeesOf, NOTHING_CLAIMED, statedAt } from "../../market/rewards/claimed";
import { decodePositionIds } from "../../src/domain/positions";
import { lower } from "../../src/domain/hex";

/** Most tokens of one creator served (and claimed) per request. */
const MAX_CREATOR_TOKENS = 100;
/** Most positions per claim transaction (~235k gas each with the split transfers). */
const MAX_POSITIONS_PER_CLAIM = 40;

/** Dependencies of the rewards router. */
export type RewardsDeps = {
  db: MarketDb;
  /** Chain id and contract addresses (`config/deployment.ts`). */
  deployment: Deployment;
  /** Chain client (default: one for the deployment's RPC URL). */
  client?: PublicClient;
};

const walletQuery = z.object({ wallet: addressParam });
const claimBody = z.object({ wallet: addressParam, csrf_token: z.string() });

/**
 * Builds the creator-rewards router (mount at `/api/evm/evmchain`, inside the session surface).
 * @param csrf - the session surface's `requireCsrf` guard (sets the context's `session`)
 */
export function creatorRewardsRoutes(deps: RewardsDeps, csrf: MiddlewareHandler<TrustEnv>) {
  const deployment = deps.deployment;
  const client = deps.client ?? (createPublicClient({ transport: http(deployment.rpcUrl) }) as PublicClient);
  const contracts = { nonfungiblePositionManager: deployment.contracts.nonfungiblePositionManager };
  /**
   * Answers per (indexed head, wallet): requests for one wallet at one head share one read
   * (concurrent ones included), so repeating a GET costs no RPC call until the next indexed block.
   */
  const answers = new LRUCache<string, ReturnType<typeof readRewards>>({ max: 1_000 });
  async function rewardsOf(wallet: `0x${string}`) {
    const head = await indexedHead(deps.db);
    if (!head) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
    const key = `${head.blockNumber}:${lower(wallet)}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = readRewards(wallet, head);
      answers.set(key, answer);
      // A failed read is not kept: the next request tries again.
      answer.catch(() => answers.delete(key));
    }
    return answer;
  }

  /**
   * The creator's tokens with their claimed fees, and the block the answer is stated at
   * (`statedAt`: the head read before the rows, or a newer collection found in them).
   */
  async function readRewards(wallet: `0x${string}`, headBeforeRows: IndexedHead) {
    const rows = await tokensByCreator(deps.db, lower(wallet), MAX_CREATOR_TOKENS);
    const tokens = rows.map((row) => ({ ...row, positionIds: decodePositionIds(row.positionIdsCsv) }));
    const claimed = await claimedFeesOf(
      deps.db,
      rows.map((r) => r.address),
    );
    const head = statedAt(headBeforeRows, claimed.newest);
    let accrued;
    try {
      accrued = await readAccruedFees(
        client,
        contracts,
        tokens.flatMap((t) => t.positionIds.map((positionId) => ({ positionId, pool: getAddress(t.pool) }))),
        head.blockNumber,
      );
    } catch (err) {
      throw new ApiError(
        "chain_unavailable",
        `could not read uncollected fees at block ${head.blockNumber}: ${(err as Error).message.split("\n")[0]}`,
      );
    }
    const byId = new Map(accrued.map((a) => [a.positionId, a]));
    return {
      head,
      tokens: tokens.map((t) => {
        const positions = t.positionIds.map((id) => {
          const a = byId.get(id)!;
          const [aTok, aWei] = t.tokenIsToken0 ? [a.amount0, a.amount1] : [a.amount1, a.amount0];
          return { position_id: id.toString(), uncollected_wei: aWei, uncollected_token: aTok };
        });
        // The locker floors the creator's 70 % per position (FeeLocker._collect -> _pay), so the
        // split is applied to each position's amounts and then summed, never to the sum.
        const w = splitFeesPerPosition(positions.map((p) => p.uncollected_wei));
        const k = splitFeesPerPosition(positions.map((p) => p.uncollected_token));
        const paid = claimed.byToken.get(t.address) ?? NOTHING_CLAIMED;
        return {
          token: getAddress(t.address),
          slug: t.slug,
          name: t.name,
          symbol: t.symbol,
          positions,
          claimed: {
            creator_wei: paid.creatorWei,
            creator_token: paid.creatorToken,
            protocol_wei: paid.protocolWei,
            protocol_token: paid.protocolToken,
          },
          unclaimed: {
            creator_wei: w.creator,
            creator_token: k.creator,
            protocol_wei: w.protocol,
            protocol_token: k.protocol,
          },
        };
      }),
    };
  }

  return (
    new Hono<TrustEnv>()
      /**
       * GET /creator-rewards?wallet= — 200 `{ok, wallet, as_of_block, as_of_timestamp_sec,
       * creator_share_bps, tokens: [{token, slug, name, symbol, positions, claimed, unclaimed}],
       * totals}`; amounts decimal strings (wei / token base units). 400 `invalid_address`;
       * 503 `chain_unavailable` / `not_indexed_yet`.
       */
      .get(
        "/creator-rewards",
        documented({
          tag: "session",
          summary:
            "A creator's LP fees: claimed and uncollected (70% creator share, floored per position as the fee locker pays it), per token",
          ok: okBody({
            wallet: addressWire,
            as_of_block: z.number().int(),
            as_of_timestamp_sec: z.number().int(),
            creator_share_bps: z.literal(7000),
            tokens: z.array(z.looseObject({})),
            totals: z.looseObject({}),
          }),
          errors: ["invalid_request", "invalid_address", "not_indexed_yet", "chain_unavailable"],
        }),
        validate("query", walletQuery),
        async (c) => {
          const { wallet } = c.req.valid("query");
          const r = await rewardsOf(wallet);
          const sum = (pick: (t: (typeof r.tokens)[number]) => bigint) => r.tokens.reduce((s, t) => s + pick(t), 0n);
          return sendOk(c, {
            wallet,
            as_of_block: Number(r.head.blockNumber),
            as_of_timestamp_sec: Number(r.head.timestampSec),
            creator_share_bps: 7000,
            tokens: r.tokens,
            totals: {
              claimed_creator_wei: sum((t) => t.claimed.creator_wei),
              unclaimed_creator_wei: sum((t) => t.unclaimed.creator_wei),
            },
          });
        },
      )
      /**
       * POST /build-creator-rewards-claim — body `{wallet, csrf_token}` (+ header `X-CSRF-Token`).
       * 200 `{ok, transaction, transactions, position_ids, as_of_block}` where each transaction is
       * `{chainId: "0x1237", from: wallet, to: fee locker, value: "0x0", data}` (spec: Transaction).
       * 400 `invalid_address`/`invalid_request`; 403 `csrf_failed`, `sign_in_required` /
       * `wallet_mismatch` (the session must have signed in as `wallet`); 409 `nothing_to_claim`.
       */
      .post(
        "/build-creator-rewards-claim",
        documented({
          tag: "session",
          summary: "Unsigned collectFeesMany transaction(s) for the creator's positions",
          ok: okBody({
            transaction: transactionWire,
            transactions: z.array(transactionWire),
            position_ids: z.array(uintString),
            as_of_block: z.number().int(),
          }),
          errors: [
            "invalid_request",
            "invalid_address",
            "sign_in_required",
            "wallet_mismatch",
            "nothing_to_claim",
            "not_indexed_yet",
            "chain_unavailable",
          ],
        }),
        csrf,
        validate("json", claimBody),
        async (c) => {
          const { wallet } = c.req.valid("json");
          assertSessionWallet(c, wallet, "wallet");
          const r = await rewardsOf(wallet);
          const ids = r.tokens.flatMap((t) =>
            t.positions
              .filter((p) => p.uncollected_wei > 0n || p.uncollected_token > 0n)
              .map((p) => BigInt(p.position_id)),
          );
          if (ids.length === 0)
            throw new ApiError("nothing_to_claim", `no uncollected fees for ${wallet} at block ${r.head.blockNumber}`);
          const transactions = [];
          for (let i = 0; i < ids.length; i += MAX_POSITIONS_PER_CLAIM) {
            transactions.push({
              chainId: `0x${deployment.chainId.toString(16)}`,
              from: wallet,
              to: deployment.contracts.feeLocker,
              value: "0x0",
              data: encodeFunctionData({
                abi: feeLockerAbi,
                functionName: "collectFeesMany",
                args: [ids.slice(i, i + MAX_POSITIONS_PER_CLAIM)],
              }),
            });
          }
          return sendOk(c, {
            transaction: transactions[0],
            transactions,
            position_ids: ids.map(String),
            as_of_block: Number(r.head.blockNumber),
          });
        },
      )
  );
}
