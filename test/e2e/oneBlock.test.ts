/**
 * One record, one block (docs/public.md "One record, one block"): every figure of a token record —
 * all-time, 24 h and the activity windows — is read at one indexed block, named by `as_of_block`.
 *
 * Two wallets trade one token back to back while reads hammer the token record, the lists and the
 * batch read. Every trade of the token is younger than 24 h (the devnet's clock is the wall clock),
 * so on every read the 24 h figures and the h24 window must equal the all-time ones, and
 * `as_of_block` must never go back across sequential reads. Before the fix the record's row and its
 * 24 h figures were separate statements on separate pool connections, and a block the indexer
 * committed between them showed up in one and not the other.
 *
 * On PostgreSQL (the production database) and on PGlite (the devnet's `npm start`). On PGlite
 * Ponder has no real transactions: a block's writes are separate statements, and before
 * `market/pgliteBlocks.ts` about half the records read while trades were indexed showed the 24 h
 * figures one trade behind the all-time ones.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import { buyToken, launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable } from "../helpers/postgres";
import { scaledMs } from "../helpers/deadlines";

type Rec = {
  address: string;
  volume_wei: string;
  volume_24h_wei: string | null;
  volume_usd: string | null;
  volume_24h_usd: string | null;
  trade_count: number;
  trade_count_24h: number | null;
  windows: { h24: { volume_wei: string; buys: number; sells: number } } | null;
  as_of_block: number | null;
  price_usd: string | null;
  usd_stale: boolean | null;
  usd_source_age_sec: number | null;
};

const postgres = await postgresAvailable();
const databases = [...(postgres ? (["postgres"] as const) : []), "pglite" as const];

describe.each(databases)("one record, one block on %s", (database) => {
  let stack: Stack;
  let token: Address;

  beforeAll(async () => {
    stack = await startStack({
      schema: `e2e_oneblock_${database}`,
      database,
      env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "1000000" },
    });
    const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
      name: "One Block",
      symbol: "ONEB",
      firstBuyWei: parseEther("0.01"),
    });
    token = getAddress(launched.event.token);
    await until(
      "token indexed",
      async () => ((await stack.request(`/api/public/token/${token}`)).status === 200 ? true : undefined),
      60_000,
    );
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("serve all-time, 24 h and window figures of one block on every read while trades are indexed", async () => {
    const violations: string[] = [];
    const blockViolations: string[] = [];
    const check = (where: string, r: Rec, lastBlock: { n: number }) => {
      const tag = `${where} @${r.as_of_block}`;
      if (typeof r.as_of_block !== "number") blockViolations.push(`${tag}: no as_of_block`);
      else {
        if (r.as_of_block < lastBlock.n) blockViolations.push(`${tag}: as_of_block went back from ${lastBlock.n}`);
        lastBlock.n = r.as_of_block;
      }
      // Every trade is younger than 24 h: the 24 h figures and h24 equal the all-time ones.
      if (r.trade_count_24h !== r.trade_count)
        violations.push(`${tag}: trade_count_24h ${r.trade_count_24h} vs ${r.trade_count}`);
      if (r.volume_24h_wei !== r.volume_wei)
        violations.push(`${tag}: volume_24h_wei ${r.volume_24h_wei} vs ${r.volume_wei}`);
      if (r.volume_24h_usd !== r.volume_usd)
        violations.push(`${tag}: volume_24h_usd ${r.volume_24h_usd} vs ${r.volume_usd}`);
      const h24 = r.windows?.h24;
      if (!h24 || h24.buys + h24.sells !== r.trade_count || h24.volume_wei !== r.volume_wei)
        violations.push(`${tag}: h24 ${JSON.stringify(h24)} vs ${r.trade_count} / ${r.volume_wei}`);
      // The devnet's reference pool was priced minutes ago: a live source, a non-zero USD price.
      if (r.usd_stale !== false || !(Number(r.price_usd) > 0) || r.usd_source_age_sec === null)
        violations.push(`${tag}: usd ${r.price_usd} stale ${r.usd_stale} age ${r.usd_source_age_sec}`);
      if (BigInt(r.volume_24h_wei ?? "0") > BigInt(r.volume_wei)) violations.push(`${tag}: 24 h volume above all-time`);
    };

    // The trader trades until the reader has done its rounds; the reader reads while trades land.
    let reading = true;
    let tradesMade = 0;
    const tradesAtRound: number[] = [];
    const trader = (async () => {
      while (reading) {
        await buyToken(
          stack.wallet(2 + (tradesMade % 2)),
          stack.publicClient,
          stack.manifest,
          token,
          parseEther("0.001"),
        );
        tradesMade++;
      }
    })();

    const lists = [
      { path: `/api/public/token/${token}`, pick: (b: any) => [b.token] },
      { path: "/api/public/tokens/new?limit=100", pick: (b: any) => b.tokens },
      { path: "/api/public/tokens/graduating?limit=100", pick: (b: any) => b.tokens },
      { path: "/api/public/tokens/trending?limit=100", pick: (b: any) => b.tokens },
      { path: `/api/public/tokens?addresses=${token}`, pick: (b: any) => b.tokens.map((i: any) => i.token) },
    ];
    // as_of_block per endpoint: sequential reads of one endpoint never go back.
    const lastBlocks = lists.map(() => ({ n: 0 }));
    let reads = 0;
    let recordsChecked = 0;
    const deadline = Date.now() + scaledMs(90_000);
    try {
      for (let round = 0; round < 30 && Date.now() < deadline; round++) {
        tradesAtRound.push(tradesMade);
        for (const [i, l] of lists.entries()) {
          const { status, body, headers } = await stack.request(l.path);
          expect(status, l.path).toBe(200);
          // freshness_sec: the indexed head is seconds old while blocks are being indexed.
          const freshness = headers.get("Freshness-Sec");
          // On PGlite the reads hold the indexer's next block (market/pgliteBlocks.ts) and it falls
          // behind under this read load (over 60 s measured): checked there for presence only.
          const bound = database === "postgres" ? 60 : Number.POSITIVE_INFINITY;
          if (freshness === null || !(Number(freshness) >= 0 && Number(freshness) <= bound))
            violations.push(`${l.path}: Freshness-Sec ${freshness}`);
          reads++;
          for (const r of l.pick(body) as Rec[]) {
            if (r?.address?.toLowerCase() !== token.toLowerCase()) continue;
            check(l.path, r, lastBlocks[i]!);
            recordsChecked++;
          }
        }
      }
    } finally {
      reading = false;
    }
    await trader;
    // Trades landed during most rounds of reads.
    const roundsWithTrades = tradesAtRound.filter((n, i) => (tradesAtRound[i + 1] ?? tradesMade) > n).length;
    expect(roundsWithTrades).toBeGreaterThanOrEqual(tradesAtRound.length / 2);
    expect(recordsChecked).toBeGreaterThan(reads / 2);
    expect(violations.slice(0, 10), `${violations.length} of ${recordsChecked} records`).toEqual([]);
    expect(blockViolations.slice(0, 10)).toEqual([]);
  });
});
