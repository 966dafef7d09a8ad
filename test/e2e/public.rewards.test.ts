/**
 * End to end, creator rewards: a creator launches, traders pay fees, the service reports the
 * uncollected fees read from the chain at its indexed head, builds the claim transaction behind
 * the session CSRF check, the creator's wallet sends it as is, and balances move exactly 70/30
 * while the indexed claimed totals update.
 *
 * The served `unclaimed` split is checked against the fee locker itself: `collectFees` and
 * `collectFeesMany` simulated (eth_call / eth_simulateV1) at the reported `as_of_block`, their
 * `FeesCollected` logs giving the creator's per-position shares. The trades are chosen so that
 * the locker's per-position floor and a 70 % floor of the summed amounts differ.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, getAddress, parseEther, parseEventLogs, type Address, type Hex } from "viem";
import { feeLockerAbi } from "../../abis/FeeLocker";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { startStack, until, type Stack } from "../helpers/harness";
import { openSession, sessionPost, signedInSession, type Fetcher } from "../helpers/session";

let stack: Stack;
let token: Address;

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_public_rewards",
    env: { PUBLIC_RATE_LIMIT_PER_MINUTE: "100000", SESSION_RATE_LIMIT_PER_MINUTE: "100000" },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Fee Maker",
    symbol: "FEE",
    firstBuyWei: parseEther("0.1"),
  });
  token = getAddress(launched.event.token);
  await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.5"));
  const bal = await stack.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [stack.wallet(2).account.address],
  });
  await sellToken(stack.wallet(2), stack.publicClient, stack.manifest, token, bal / 2n);
  // Small buys until the locker's per-position floor pays the creator less WETH than 70 % of the
  // summed amounts would (each buy adds fees to both positions; a handful suffices).
  for (let i = 0; ; i++) {
    const { perPosition, ofSum } = await creatorWeiSplits(await stack.publicClient.getBlockNumber({ cacheTime: 0 }));
    if (perPosition !== ofSum) break;
    if (i >= 40) throw new Error("no fee amounts where the two splits differ");
    await buyToken(stack.wallet(3), stack.publicClient, stack.manifest, token, 7_777n + BigInt(i) * 1_013n);
  }
});

/** The launch's locked position ids (both carry WETH fees after a buy). */
async function positionIds(): Promise<bigint[]> {
  const logs = await stack.publicClient.getContractEvents({
    address: stack.manifest.contracts.feeLocker,
    abi: feeLockerAbi,
    eventName: "PositionLocked",
    fromBlock: 0n,
  });
  return logs.filter((l) => getAddress(l.args.token!) === token).map((l) => l.args.positionId!);
}

/**
 * What the fee locker pays at `blockNumber`, from `collectFeesMany` simulated with eth_simulateV1
 * (its FeesCollected logs): per position the WETH collected and the creator's WETH share, plus
 * the creator's total and 70 % of the summed WETH floored (what a split of the sum would give).
 */
async function creatorWeiSplits(blockNumber: bigint) {
  const ids = await positionIds();
  const [block] = await stack.publicClient.simulateBlocks({
    blockNumber,
    blocks: [
      {
        calls: [
          {
            account: stack.wallet(4).account.address,
            to: stack.manifest.contracts.feeLocker,
            data: encodeFunctionData({ abi: feeLockerAbi, functionName: "collectFeesMany", args: [ids] }),
          },
        ],
      },
    ],
  });
  const call = block!.calls[0]!;
  if (call.status !== "success") throw new Error(`collectFeesMany simulation failed: ${call.error?.message}`);
  const collected = parseEventLogs({ abi: feeLockerAbi, eventName: "FeesCollected", logs: call.logs ?? [] });
  const wethIs0 = getAddress(stack.manifest.contracts.weth) === getAddress(collected[0]!.args.token0);
  const positions = collected.map((l) => ({
    positionId: l.args.positionId,
    wei: wethIs0 ? l.args.amount0 : l.args.amount1,
    creatorWei: wethIs0 ? l.args.creatorAmount0 : l.args.creatorAmount1,
    token: wethIs0 ? l.args.amount1 : l.args.amount0,
    creatorToken: wethIs0 ? l.args.creatorAmount1 : l.args.creatorAmount0,
  }));
  const sumWei = positions.reduce((s, p) => s + p.wei, 0n);
  return {
    ids,
    positions,
    perPosition: positions.reduce((s, p) => s + p.creatorWei, 0n),
    ofSum: (sumWei * 7000n) / 10000n,
  };
}

afterAll(async () => {
  await stack?.stop();
});

const fetcher: Fetcher = (path, init) => fetch(`${stack.service.url}${path}`, init);

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
    const uncollectedWei = entry.positions.reduce(
      (s: bigint, p: { uncollected_wei: string }) => s + BigInt(p.uncollected_wei),
      0n,
    );
    const uncollectedToken = entry.positions.reduce(
      (s: bigint, p: { uncollected_token: string }) => s + BigInt(p.uncollected_token),
      0n,
    );
    // 1% of the WETH paid in by the buys (0.1 + 0.5 + a few small ones), rounded down by the pool.
    expect(uncollectedWei).toBeGreaterThan(parseEther("0.0059"));
    expect(uncollectedWei).toBeLessThanOrEqual(parseEther("0.0061"));
    expect(uncollectedToken, JSON.stringify(entry)).toBeGreaterThan(0n);
    // The locker itself, simulated at the stated block: per position, collectFees collects what
    // is reported, and collectFeesMany pays the creator exactly the served split.
    const asOf = BigInt(before.as_of_block);
    const locker = await creatorWeiSplits(asOf);
    expect(entry.positions.map((p: { position_id: string }) => BigInt(p.position_id))).toEqual(locker.ids);
    for (const p of entry.positions) {
      const { result } = await stack.publicClient.simulateContract({
        address: stack.manifest.contracts.feeLocker,
        abi: feeLockerAbi,
        functionName: "collectFees",
        args: [BigInt(p.position_id)],
        account: stack.wallet(4).account,
        blockNumber: asOf,
      });
      const wethIs0 = getAddress(stack.manifest.contracts.weth).toLowerCase() < token.toLowerCase();
      expect([p.uncollected_wei, p.uncollected_token]).toEqual(
        (wethIs0 ? [result[0], result[1]] : [result[1], result[0]]).map(String),
      );
    }
    expect(locker.perPosition).not.toBe(locker.ofSum); // the amounts tell the two rules apart
    expect(entry.unclaimed.creator_wei).toBe(locker.perPosition.toString());
    expect(entry.unclaimed.creator_token).toBe(locker.positions.reduce((s, p) => s + p.creatorToken, 0n).toString());
    expect(BigInt(entry.unclaimed.protocol_wei)).toBe(uncollectedWei - BigInt(entry.unclaimed.creator_wei));
    expect(before.totals.unclaimed_creator_wei).toBe(entry.unclaimed.creator_wei);

    // The claim builder requires the session CSRF token (header + body) and a session cookie.
    const noCsrf = await stack.request(`/api/evm/evmchain/build-creator-rewards-claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ wallet: creator }),
    });
    expect([noCsrf.status, noCsrf.body.error]).toEqual([403, "csrf_failed"]);
    // ... and a session signed in as the creator (EIP-4361): not anonymous, not another wallet.
    const anonymous = await openSession(fetcher);
    const refused = await sessionPost(fetcher, stack.service.url, anonymous, "build-creator-rewards-claim", {
      wallet: creator,
    });
    expect([refused.status, refused.body.error]).toEqual([403, "sign_in_required"]);
    const other = await signedInSession(fetcher, stack.service.url, devAccount(5));
    const foreign = await sessionPost(fetcher, stack.service.url, other, "build-creator-rewards-claim", {
      wallet: creator,
    });
    expect([foreign.status, foreign.body.error]).toEqual([403, "wallet_mismatch"]);
    const mine = await signedInSession(fetcher, stack.service.url, devAccount(1));
    const claim = () =>
      sessionPost(fetcher, stack.service.url, mine, "build-creator-rewards-claim", { wallet: creator });
    const built = await claim();
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const tx = built.body.transaction;
    expect(tx).toMatchObject({
      chainId: "0x1237",
      from: creator,
      to: stack.manifest.contracts.feeLocker,
      value: "0x0",
    });
    expect(built.body.transactions).toHaveLength(1);

    const weth = stack.manifest.contracts.weth;
    const recipient = stack.manifest.protocolFeeRecipient;
    const balances = async () =>
      Promise.all(
        [weth, token].flatMap((asset) =>
          [creator, recipient].map((who) =>
            stack.publicClient.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [who] }),
          ),
        ),
      );
    const [cw0, pw0, ct0, pt0] = await balances();
    // Every answer while the claim is mined and indexed states claimed and unclaimed at one block:
    // with no trade in between, their sum per field stays what it was before the claim.
    const fields = ["creator_wei", "creator_token", "protocol_wei", "protocol_token"] as const;
    type Halves = Record<(typeof fields)[number], string>;
    const samples: { as_of_block: number; claimed: Halves; unclaimed: Halves }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { body } = await stack.request(`/api/evm/evmchain/creator-rewards?wallet=${creator}`);
        if (body.ok) samples.push({ as_of_block: body.as_of_block, ...body.tokens[0] });
      }
    })();
    const hash = await stack.wallet(1).sendTransaction({
      chain: null,
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      gas: 1_500_000n,
    });
    const receipt = await stack.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    const [cw1, pw1, ct1, pt1] = await balances();
    const gotWei = cw1! - cw0! + (pw1! - pw0!);
    const gotToken = ct1! - ct0! + (pt1! - pt0!);
    // Nothing traded since the stated block, so the claim collects exactly what was reported.
    expect(gotWei).toBe(uncollectedWei);
    expect(gotToken).toBe(uncollectedToken);
    // The claim pays exactly the served split (per position floored), not 70 % of the sum.
    expect(cw1! - cw0!).toBe(BigInt(entry.unclaimed.creator_wei));
    expect(pw1! - pw0!).toBe(BigInt(entry.unclaimed.protocol_wei));
    expect(ct1! - ct0!).toBe(BigInt(entry.unclaimed.creator_token));

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
    expect(after.tokens[0].unclaimed).toEqual({
      creator_wei: "0",
      creator_token: "0",
      protocol_wei: "0",
      protocol_token: "0",
    });
    sampling = false;
    await sampler;
    expect(samples.some((x) => x.claimed.creator_wei === "0")).toBe(true);
    expect(samples.at(-1)!.claimed.creator_wei).not.toBe("0");
    for (const x of samples)
      for (const f of fields)
        expect(BigInt(x.claimed[f]) + BigInt(x.unclaimed[f]), `${f} at block ${x.as_of_block}`).toBe(
          BigInt(entry.unclaimed[f]),
        );
    const again = await claim();
    expect([again.status, again.body.error]).toEqual([409, "nothing_to_claim"]);
    const none = await stack.request(`/api/evm/evmchain/creator-rewards?wallet=${stack.wallet(5).account.address}`);
    expect(none.body.tokens).toEqual([]);
    expect((await stack.request(`/api/evm/evmchain/creator-rewards?wallet=nope`)).body.error).toBe("invalid_address");
  });
});
