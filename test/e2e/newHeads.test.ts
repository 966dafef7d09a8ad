/**
 * Live heads over WebSocket (`INDEXER_WS_URL`; docs/operations.md "Live heads over WebSocket"), end
 * to end: the real service on anvil, subscribed to newHeads on anvil's WebSocket, with its poll
 * slowed to 10 minutes (`POLLING_INTERVAL_MS`). A launch and a buy mined after the start are indexed
 * long before the poll's first tick: only the subscription can have announced their blocks. The
 * patched client's rules (the poll beside a silent subscription, no head handed on below the other
 * source's) are test/unit/ponderNewHeads.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther } from "viem";
import { buyToken, launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";

/** Far beyond the test's deadlines: the poll never ticks during the test. */
const POLL_MS = 600_000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_newheads",
    newHeadsOverWebSocket: true,
    env: { POLLING_INTERVAL_MS: String(POLL_MS) },
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe("newHeads over WebSocket (INDEXER_WS_URL)", () => {
  it("indexes a launch and a buy mined after the start without waiting for a poll", async () => {
    const startedAt = Date.now();
    const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
      name: "Heads",
      symbol: "HEADS",
      firstBuyWei: parseEther("0.01"),
    });
    const token = getAddress(launched.event.token);
    await until("launch indexed", async () =>
      (await stack.request(`/api/public/token/${token}`)).status === 200 ? true : undefined,
    );
    const buy = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.02"));
    const trades = await until("buy indexed", async () => {
      const res = await stack.request(`/api/public/token/${token}/trades?limit=10`);
      const rows = (res.body.trades ?? []) as { tx_hash: string }[];
      return rows.some((t) => t.tx_hash === buy.hash) ? rows : undefined;
    });
    expect(trades.map((t) => t.tx_hash)).toContain(buy.hash);
    expect(Date.now() - startedAt, "indexed before the poll's first tick").toBeLessThan(POLL_MS);
  });
});
