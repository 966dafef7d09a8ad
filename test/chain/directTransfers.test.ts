/**
 * chain/directTransfers.ts on a real anvil: the nonce bisection finds exactly the creator's
 * transactions that a full read of every block finds (ETH transfers, a zero-value call, a
 * contract creation, several in one block, blocks of other senders between them), the range's
 * ends are inclusive, and a sender over the bound is refused from the nonce alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Address,
  type Hash,
  type PublicClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { startAnvil } from "../../devnet/anvil.js";
import { directTransfersFrom } from "../../chain/directTransfers";

const MNEMONIC = "test test test test test test test test test test test junk";
let node: Awaited<ReturnType<typeof startAnvil>>;
let client: PublicClient;
const account = (i: number) => mnemonicToAccount(MNEMONIC, { addressIndex: i });
const wallet = (i: number) => createWalletClient({ account: account(i), transport: http(node.rpcUrl) });
const rpc = (method: string, params: unknown[]) => client.request({ method: method as never, params: params as never });

/** The sender's transfers found by reading every block of the range with its transactions. */
async function fullScan(sender: Address, fromBlock: bigint, toBlock: bigint) {
  const found: { to: string; valueWei: bigint; txHash: string; blockNumber: bigint; txIndex: number }[] = [];
  for (let b = fromBlock; b <= toBlock; b++) {
    const block = await client.getBlock({ blockNumber: b, includeTransactions: true });
    for (const tx of block.transactions)
      if (getAddress(tx.from) === getAddress(sender) && tx.to && tx.value > 0n)
        found.push({
          to: tx.to.toLowerCase(),
          valueWei: tx.value,
          txHash: tx.hash,
          blockNumber: b,
          txIndex: tx.transactionIndex,
        });
  }
  return found;
}

describe("directTransfersFrom (nonce bisection)", () => {
  let sender: Address;
  let last: bigint;
  beforeAll(async () => {
    node = await startAnvil();
    client = createPublicClient({ transport: http(node.rpcUrl) }) as PublicClient;
    sender = account(1).address;
    const send = async (i: number, to: Address, value: bigint, data?: `0x${string}`) =>
      wallet(i).sendTransaction({ chain: null, to, value, data });
    const mined = (hash: Hash) => client.waitForTransactionReceipt({ hash });
    await rpc("anvil_mine", ["0x20"]);
    await mined(await send(1, account(2).address, parseEther("1")));
    await mined(await send(3, account(4).address, parseEther("2"))); // another sender
    await rpc("anvil_mine", ["0x40"]);
    await mined(await send(1, account(5).address, 0n, "0x1234")); // a call carrying no ETH
    // A contract creation (no `to`) with value.
    await mined(await wallet(1).deployContract({ chain: null, abi: [], bytecode: "0x00", value: 7n }));
    // Two of the sender's transfers and one of another sender in one block.
    await rpc("evm_setAutomine", [false]);
    const hashes = [
      await send(1, account(6).address, 11n),
      await send(2, account(6).address, 12n),
      await send(1, account(7).address, 13n),
    ];
    await rpc("evm_mine", []);
    await rpc("evm_setAutomine", [true]);
    await Promise.all(hashes.map(mined));
    await rpc("anvil_mine", ["0x7"]);
    await mined(await send(1, account(8).address, 14n));
    last = await client.getBlockNumber({ cacheTime: 0 });
    await rpc("anvil_mine", ["0x5"]);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("finds the same transfers as a read of every block, in chain order", async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const result = await directTransfersFrom(client, { sender, fromBlock: 0n, toBlock: head, maxTransactions: 10 });
    const expected = await fullScan(sender, 0n, head);
    expect(expected.map((t) => t.valueWei)).toEqual([parseEther("1"), 11n, 13n, 14n]);
    expect(result).toEqual({ kind: "scanned", transactionCount: 6, transfers: expected });
  });

  it("includes both ends of the range and nothing outside it", async () => {
    const one = await directTransfersFrom(client, { sender, fromBlock: last, toBlock: last, maxTransactions: 10 });
    expect(one).toEqual({ kind: "scanned", transactionCount: 1, transfers: await fullScan(sender, last, last) });
    const before = await directTransfersFrom(client, {
      sender,
      fromBlock: 0n,
      toBlock: last - 1n,
      maxTransactions: 10,
    });
    expect(before.kind === "scanned" && before.transfers.map((t) => t.valueWei)).toEqual([parseEther("1"), 11n, 13n]);
    const after = await directTransfersFrom(client, {
      sender,
      fromBlock: last + 1n,
      toBlock: last + 5n,
      maxTransactions: 10,
    });
    expect(after).toEqual({ kind: "scanned", transactionCount: 0, transfers: [] });
  });

  it("refuses a sender over the bound without reading its blocks", async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const calls: string[] = [];
    const counting = createPublicClient({
      transport: http(node.rpcUrl, { onFetchRequest: async (r) => void calls.push(String(await r.clone().text())) }),
    }) as PublicClient;
    const result = await directTransfersFrom(counting, { sender, fromBlock: 0n, toBlock: head, maxTransactions: 5 });
    expect(result).toEqual({ kind: "too_many_transactions", transactionCount: 6 });
    expect(calls.join()).not.toContain("eth_getBlockByNumber");
  });
});
