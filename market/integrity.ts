/**
 * Launch-integrity read (docs/public.md "Launch integrity"): one token's figures, read in one SQL
 * statement from the indexer's `token_integrity` row, the creator's `holder` row and the ten
 * largest holders from the (token, balance desc, address) index — a bounded number of rows per
 * request, whatever the token's trading (test/e2e/integrity.test.ts checks the plan).
 */
import { sql } from "ponder";
import { getAddress } from "viem";
import type { Deployment } from "../config/deployment";
import * as schema from "../ponder.schema";
import { holderShareBps } from "../src/domain/holders";
import { lower } from "../src/domain/hex";
import { SNIPER_WINDOW_BLOCKS, TOP_BALANCES, topBalancesBps } from "../src/domain/integrity";
import { creatorFundedRecord, type CreatorFundingSource } from "./creatorFundingRecord";
import { rowsOf, type MarketDb } from "./db";

/**
 * The integrity record of one launched token, or null when none is indexed at this address.
 *
 * Figures (token base units, bps of the total supply rounded down): the creator's balance now and
 * right after the launch transaction; snipers (recipients, other than the creator, of a buy in the
 * launch block or the next {@link SNIPER_WINDOW_BLOCKS} blocks): count, tokens those buys
 * delivered, balance still held; bundled (such recipients of a buy in the launch block itself):
 * the same; the ten largest balances other than the pool's and the fee locker's; the holder count;
 * `creator_funded` (market/creatorFundingRecord.ts): the creator-funded snipers of the store's row
 * and their balances now, read in the same statement as the rest.
 * @param address - the token (any case)
 * @param deps.deployment - the fee locker left out of `top10_balance_bps`
 * @param deps.creatorFunding - the store's rows (absent: served as pending)
 */
export async function tokenIntegrity(
  db: MarketDb,
  address: string,
  deps: { deployment: Pick<Deployment, "contracts">; creatorFunding?: CreatorFundingSource },
) {
  const { deployment } = deps;
  const funding = deps.creatorFunding ? await deps.creatorFunding(address) : null;
  const funded = funding?.status === "measured" ? funding.funded.map((f) => lower(f.address)) : [];
  const t = schema.token;
  const i = schema.tokenIntegrity;
  const h = schema.holder;
  const token = lower(address);
  const feeLocker = lower(deployment.contracts.feeLocker);
  // `${t}` renders the schema-qualified table (market/ponderTables.ts); the subqueries read the
  // holder index: one primary-key probe and one descent of at most TOP_BALANCES + 2 entries.
  const rows = rowsOf(
    await db.execute(sql`
      SELECT ${t.totalSupply}::text AS total_supply, ${t.creator} AS creator, ${t.holderCount} AS holder_count,
        ${t.launchBlockNumber}::text AS launch_block,
        ${i.creatorBalanceAtLaunchWei}::text AS creator_at_launch, ${i.sniperCount} AS sniper_count,
        ${i.sniperBoughtWei}::text AS sniper_bought, ${i.sniperHeldWei}::text AS sniper_held,
        ${i.bundledCount} AS bundled_count, ${i.bundledBoughtWei}::text AS bundled_bought,
        ${i.bundledHeldWei}::text AS bundled_held,
        (SELECT ${h.balanceWei}::text FROM ${h} WHERE ${h.token} = ${token} AND ${h.address} = ${t.creator}) AS creator_now,
        (SELECT string_agg(top.b, ',') FROM (
          SELECT ${h.balanceWei}::text AS b FROM ${h}
          WHERE ${h.token} = ${token} AND ${h.balanceWei} > 0 AND ${h.address} <> ${t.pool} AND ${h.address} <> ${feeLocker}
          ORDER BY ${h.balanceWei} DESC, ${h.address} ASC LIMIT ${TOP_BALANCES}
        ) AS top) AS top_balances,
        ${
          funded.length === 0
            ? sql`NULL`
            : sql`(SELECT sum(${h.balanceWei})::text FROM ${h} WHERE ${h.token} = ${token} AND ${h.address} IN (${sql.join(
                funded.map((a) => sql`${a}`),
                sql`, `,
              )}))`
        } AS funded_held
      FROM ${t} JOIN ${i} ON ${i.token} = ${t.address}
      WHERE ${t.address} = ${token}`),
  );
  const row = rows[0];
  if (!row) return null;
  const supply = BigInt(String(row.total_supply));
  const big = (v: unknown) => (v === null || v === undefined ? 0n : BigInt(String(v)));
  const creatorNow = big(row.creator_now);
  const creatorAtLaunch = big(row.creator_at_launch);
  const top = row.top_balances ? String(row.top_balances).split(",").map(BigInt) : [];
  return {
    token: getAddress(token),
    creator: getAddress(String(row.creator)),
    launch_block_number: Number(row.launch_block),
    total_supply: supply,
    creator_balance_wei: creatorNow,
    creator_balance_bps: holderShareBps(creatorNow, supply),
    creator_balance_at_launch_wei: creatorAtLaunch,
    creator_balance_at_launch_bps: holderShareBps(creatorAtLaunch, supply),
    snipers: {
      window_blocks: Number(SNIPER_WINDOW_BLOCKS),
      count: Number(row.sniper_count),
      tokens_bought_wei: big(row.sniper_bought),
      held_wei: big(row.sniper_held),
      held_bps: holderShareBps(big(row.sniper_held), supply),
    },
    bundled: {
      count: Number(row.bundled_count),
      tokens_bought_wei: big(row.bundled_bought),
      held_wei: big(row.bundled_held),
      held_bps: holderShareBps(big(row.bundled_held), supply),
    },
    top10_balance_bps: topBalancesBps(top, supply),
    holder_count: Number(row.holder_count),
    creator_funded: creatorFundedRecord(funding, big(row.funded_held), supply),
  };
}

/** The integrity record as served (`GET …/integrity`, and `integrity` on the token detail record). */
export type IntegrityRecord = NonNullable<Awaited<ReturnType<typeof tokenIntegrity>>>;

/** The integrity figures a list record carries (`launch_integrity`), per token; amounts in token base units. */
export type IntegritySummary = {
  creatorBalanceWei: bigint;
  sniperCount: number;
  sniperHeldWei: bigint;
  bundledCount: number;
  bundledHeldWei: bigint;
};

/**
 * The integrity summary of many tokens in one statement (docs/public.md "Launch integrity", "On
 * list records"): per token its `token_integrity` row and the creator's `holder` row, both by
 * primary key, so the cost is two index probes per token whatever its trading. The ten largest
 * holders (`top10_balance_bps`) are left to the token's own integrity record: they cost one holder
 * index descent per token.
 * @param addresses - lower-case token addresses (a list page: at most a few hundred)
 * @returns by lower-case address; a token without an integrity row is absent
 */
export async function integritySummaries(
  db: MarketDb,
  addresses: readonly string[],
): Promise<Map<string, IntegritySummary>> {
  if (addresses.length === 0) return new Map();
  const t = schema.token;
  const i = schema.tokenIntegrity;
  const h = schema.holder;
  const rows = rowsOf(
    await db.execute(sql`
      SELECT ${i.token} AS token, ${h.balanceWei}::text AS creator_now, ${i.sniperCount} AS sniper_count,
        ${i.sniperHeldWei}::text AS sniper_held, ${i.bundledCount} AS bundled_count, ${i.bundledHeldWei}::text AS bundled_held
      FROM ${i} JOIN ${t} ON ${t.address} = ${i.token}
      LEFT JOIN ${h} ON ${h.token} = ${i.token} AND ${h.address} = ${t.creator}
      WHERE ${i.token} IN (${sql.join(
        addresses.map((a) => sql`${lower(a)}`),
        sql`, `,
      )})`),
  );
  const big = (v: unknown) => (v === null || v === undefined ? 0n : BigInt(String(v)));
  return new Map(
    rows.map((row) => [
      String(row.token).toLowerCase(),
      {
        creatorBalanceWei: big(row.creator_now),
        sniperCount: Number(row.sniper_count),
        sniperHeldWei: big(row.sniper_held),
        bundledCount: Number(row.bundled_count),
        bundledHeldWei: big(row.bundled_held),
      },
    ]),
  );
}
