/**
 * End to end, creator rewards: a creator launches, traders pay fees, the service reports the
 * uncollected fees read from the chain at its indexed head, builds the claim transaction behind
 * the session CSRF check, the creator's wallet sends it as is, and balances move exactly 70/30
 * while the indexed claimed totals update.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erc20Abi, getAddress, parseEther, type Address, type Hex } from "viem";
import { buyToken, launchToken, sellToken } from "../devnet/actions";
import { startStack, until, type Stack } from "./harness";

let stack: Stack;
let token: Address;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_public_rewards", env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000", SESSION_RATE_LIMIT_PER_MINUTE: "100000" } });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, { name: "Fee Maker", symbol: "FEE", firstBuyWei: parseEther("0.1") });
  token = getAddress(launched.event.token);
  await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.5"));
  const bal = await stack.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [stack.wallet(2).account.address] });
  await sellToken(stack.wallet(2), stack.publicClient, stack.manifest, token, bal / 2n);
});

afterAll(async () => {
  await stack?.stop();
});

async function session(): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${stack.service.url}/api/evm/evmchain/session`);
  const body = (await res.json()) as { csrf_token: string };
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  return { cookie, csrf: body.csrf_token };
}

describe("creator rewards", () => {
  it("reports claimed and uncollected fees, builds the claim, and the claim pays exactly 70/30", async () => {
    const creator = stack.wallet(1).account.address;
    const chainHead = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
    const before = await until("rewards at the chain head", async () => {
      const { body } = await stack.request(`/api/evm/evmchain/creator-rewards?wallet=${creator.toLowerCase()}`);
      return body.ok && body.as_of_block >= Number(chainHead) ? body : undefined;
    });
    expect(before.tokens).toHaveLength(1);
    const entry = before.tokens[0];
    expect(entry.token).toBe(token);
    expect(entry.claimed).toEqual({ creator_wei: "0", creator_token: "0", protocol_wei: "0", protocol_token: "0" });
    const uncollectedWei = entry.positions.reduce((s: bigint, p: { uncollected_wei: string }) => s + BigInt(p.uncollected_wei), 0n);
    const uncollectedToken = entry.positions.reduce((s: bigint, p: { uncollected_token: string }) => s + BigInt(p.uncollected_token), 0n);
    // 1% of the WETH paid in by the two buys (0.1 + 0.5), rounded down by the pool per swap.
    expect(uncollectedWei).toBeGreaterThan(parseEther("0.0059"));
    expect(uncollectedWei).toBeLessThanOrEqual(parseEther("0.006"));
    expect(uncollectedToken, JSON.stringify(entry)).toBeGreaterThan(0n);
    expect(entry.unclaimed.creator_wei).toBe(((uncollectedWei * 7000n) / 10000n).toString());
    expect(BigInt(entry.unclaimed.protocol_wei)).toBe(uncollectedWei - BigInt(entry.unclaimed.creator_wei));

    // The claim builder requires the session CSRF token (header + body) and a session cookie.
    const noCsrf = await stack.request(`/api/evm/evmchain/build-creator-rewards-claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ wallet: creator }),
    });
    expect([noCsrf.status, noCsrf.body.error]).toEqual([403, "csrf_failed"]);
    const { cookie, csrf } = await session();
    const built = await stack.request(`/api/evm/evmchain/build-creator-rewards-claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Cookie: cookie, Origin: stack.service.url },
      body: JSON.stringify({ wallet: creator, csrf_token: csrf }),
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const tx = built.body.transaction;
    expect(tx).toMatchObject({ chainId: "0x1237", from: creator, to: stack.manifest.contracts.feeLocker, value: "0x0" });
    expect(built.body.transactions).toHaveLength(1);

    const weth = stack.manifest.contracts.weth;
    const recipient = stack.manifest.protocolFeeRecipient;
    const balances = async () =>
      Promise.all(
        [weth, token].flatMap((asset) =>
          [creator, recipient].map((who) => stack.publicClient.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [who] })),
        ),
      );
    const [cw0, pw0, ct0, pt0] = await balances();
    const hash = await stack.wallet(1).sendTransaction({ chain: null, to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value), gas: 1_500_000n });
    const receipt = await stack.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    const [cw1, pw1, ct1, pt1] = await balances();
    const gotWei = cw1! - cw0! + (pw1! - pw0!);
    const gotToken = ct1! - ct0! + (pt1! - pt0!);
    // Nothing traded since the stated block, so the claim collects exactly what was reported.
    expect(gotWei).toBe(uncollectedWei);
    expect(gotToken).toBe(uncollectedToken);
    // Per position the locker floors 70% for the creator; summed over the two positions.
    const expectedCreatorWei = entry.positions.reduce((s: bigint, p: { uncollected_wei: string }) => s + (BigInt(p.uncollected_wei) * 7000n) / 10000n, 0n);
    expect(cw1! - cw0!).toBe(expectedCreatorWei);
    expect(pw1! - pw0!).toBe(uncollectedWei - expectedCreatorWei);

    const after = await until("claim indexed", async () => {
      const { body } = await stack.request(`/api/evm/evmchain/creator-rewards?wallet=${creator}`);
      return body.ok && body.tokens[0].claimed.creator_wei !== "0" ? body : undefined;
    });
    expect(after.tokens[0].claimed).toEqual({
      creator_wei: (cw1! - cw0!).toString(),
      creator_token: (ct1! - ct0!).toString(),
      protocol_wei: (pw1! - pw0!).toString(),
      protocol_token: (pt1! - pt0!).toString(),
    });
    expect(after.tokens[0].unclaimed).toEqual({ creator_wei: "0", creator_token: "0", protocol_wei: "0", protocol_token: "0" });
    const again = await stack.request(`/api/evm/evmchain/build-creator-rewards-claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Cookie: cookie, Origin: stack.service.url },
      body: JSON.stringify({ wallet: creator, csrf_token: csrf }),
    });
    expect([again.status, again.body.error]).toEqual([409, "nothing_to_claim"]);
    const none = await stack.request(`/api/evm/evmchain/creator-rewards?wallet=${stack.wallet(5).account.address}`);
    expect(none.body.tokens).toEqual([]);
    expect((await stack.request(`/api/evm/evmchain/creator-rewards?wallet=nope`)).body.error).toBe("invalid_address");
  });
});
