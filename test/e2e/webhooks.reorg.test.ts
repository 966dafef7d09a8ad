/**
 * End to end, an `include_unconfirmed` webhook subscription across chain reorganisations (anvil
 * `anvil_reorg`) with a real local receiver: events arrive as soon as they are indexed (marked
 * `confirmed: false`); a sent event whose block is replaced by one holding another transaction is
 * retracted (`event.retracted` naming its id and transaction) before its replacement is sent; a
 * sent event whose blocks are replaced by empty ones (depth 2) is retracted once its block is final;
 * at depth 3 (three blocks replaced, one holding another transaction) both sent events are
 * retracted and the new one is sent. End
 * state: replaying the acknowledged messages (events add, retractions remove) leaves exactly the
 * feed's confirmed events of the token, every retraction follows the event it names, every
 * signature verifies.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { encodeFunctionData, getAddress, parseEther, type Address, type Hash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { buyToken, launchToken } from "../../devnet/actions";
import { scaledMs } from "../helpers/deadlines";
import { jsonPost, startStack, until, type Stack } from "../helpers/harness";
import { confirmedFeedEvents } from "../helpers/eventsFeed";

const CONFIRMATIONS = 3;
/** Blocks past an event after which its block is at or below the indexer's finalized block (webhooks/feedSource.ts). */
const FINAL_DEPTH = 60;
let stack: Stack;
let server: Server;
let receiverUrl: string;
let token: Address;

type Message = { headers: Record<string, string>; body: string; json: any };
const received: Message[] = [];
const eventMessages = () => received.filter((m) => m.json.type !== "ping");

async function rpc(method: string, params: unknown[]) {
  return stack.publicClient.request({ method: method as never, params: params as never });
}
const mine = (blocks: number) => rpc("anvil_mine", [`0x${blocks.toString(16)}`]);

/** Every confirmed event of the REST events feed for `token`, ascending. */
const confirmedEvents = (): Promise<any[]> => confirmedFeedEvents(stack, (e) => e.token === token);

/** A buy by `wallet` of `token`, as calldata for `anvil_reorg`'s replacement block. */
function buyTx(from: Address, wei: bigint, deadlineSec: bigint) {
  const data = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactInputSingle",
    args: [
      {
        tokenIn: stack.manifest.contracts.weth,
        tokenOut: token,
        fee: 10_000,
        recipient: from,
        deadline: deadlineSec,
        amountIn: wei,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
  return { from, to: stack.manifest.contracts.swapRouter, data, value: `0x${wei.toString(16)}`, gas: "0x7a120" };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers as Record<string, string>, body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  stack = await startStack({
    schema: "e2e_webhooks_reorg",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      WEBHOOKS_ALLOW_LOOPBACK_HTTP: "1",
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
      V1_RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Retract",
    symbol: "RTRC",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(launched.event.token);
});

afterAll(async () => {
  await stack?.stop();
  server?.closeAllConnections();
  server?.close();
});

describe("include_unconfirmed webhooks across reorgs", () => {
  it("sends events as indexed, retracts a replaced event before its replacement and a dropped one once final; the acknowledged stream replays to the confirmed feed", async () => {
    const created = await stack.request(
      "/api/v1/evmchain/webhooks",
      jsonPost({
        url: receiverUrl,
        events: ["trade", "big_buy"],
        token_address: token,
        since_id: 0,
        include_unconfirmed: true,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.webhook.include_unconfirmed).toBe(true);
    const secret: string = created.body.secret;
    const hook = created.body.webhook.id;

    // X lands in block n and is sent while unconfirmed (no block mined after it).
    const x = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.002"));
    const sentX = await until("X sent unconfirmed", async () =>
      eventMessages().find((m) => m.json.data.tx_hash === x.hash),
    );
    expect(sentX.json.data.confirmed).toBe(false);
    const xId = sentX.json.data.id;

    // Block n is replaced by one holding buy Y of another wallet: X is retracted, then Y is sent.
    const n = x.receipt.blockNumber;
    const block = await stack.publicClient.getBlock({ blockNumber: n });
    await rpc("anvil_reorg", [
      1,
      [[buyTx(stack.wallet(3).account.address, parseEther("0.003"), block.timestamp + 3600n), 0]],
    ]);
    const yHash = (await stack.publicClient.getBlock({ blockNumber: n })).transactions[0] as Hash;
    await mine(1);
    await until(
      "Y sent",
      async () => (eventMessages().some((m) => m.json.data.tx_hash === yHash) ? true : undefined),
      scaledMs(30_000),
    );
    const types = eventMessages().map((m) => [m.json.type, m.json.data.tx_hash]);
    const retractX = types.findIndex(([t, h]) => t === "event.retracted" && h === x.hash);
    const firstY = types.findIndex(([, h]) => h === yHash);
    expect(retractX).toBeGreaterThan(-1);
    expect(retractX).toBeLessThan(firstY);
    const retraction = eventMessages()[retractX]!;
    expect(retraction.json.data).toMatchObject({ id: xId, tx_hash: x.hash, block_number: Number(n) });
    expect(retraction.headers["webhook-id"]).toBe(`retracted_${xId}_${x.hash.toLowerCase()}`);

    // Z lands in block m, is sent, and blocks m-1 and m are replaced by empty blocks (depth 2): Z's
    // row is gone, so its retraction waits until block m is final.
    await mine(2);
    const z = await buyToken(stack.wallet(4), stack.publicClient, stack.manifest, token, parseEther("0.004"));
    await until("Z sent unconfirmed", async () =>
      eventMessages().some((m) => m.json.data.tx_hash === z.hash) ? true : undefined,
    );
    await rpc("anvil_reorg", [2, []]);
    await mine(FINAL_DEPTH + 1);
    await until(
      "Z retracted once final",
      async () =>
        eventMessages().some((m) => m.json.type === "event.retracted" && m.json.data.tx_hash === z.hash)
          ? true
          : undefined,
      scaledMs(60_000),
    ).catch(async (err) => {
      const sub = await stack.request(`/api/v1/evmchain/webhooks/${hook}`);
      console.error(
        "DIAG",
        JSON.stringify(
          {
            sub: sub.body,
            checkpoint: stack.serviceEnv.DATABASE_URL
              ? await (async () => {
                  const pg = (await import("pg")).default;
                  const c = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
                  await c.connect();
                  const r = await c.query(`select * from "${stack.schema}"._ponder_checkpoint`);
                  await c.end();
                  return r.rows;
                })()
              : "pglite",
            z: z.hash,
            head: Number(await stack.publicClient.getBlockNumber({ cacheTime: 0 })),
            got: eventMessages().map((m) => [
              m.headers["webhook-id"],
              m.json.type,
              m.json.data.tx_hash,
              m.json.data.block_number,
            ]),
            feed: (await confirmedEvents()).map((e) => [e.id, e.tx_hash]),
            out: stack.service.output().slice(-3000),
          },
          null,
          1,
        ),
      );
      throw err;
    });

    // Depth 3: W1 in block k and W2 in block k+1 are sent, then blocks k..k+2 are replaced by three
    // blocks whose second holds buy V of another wallet: W2's position is taken (retracted at
    // once), W1's row is gone (retracted once final); V is sent; nothing else is missing.
    const w1 = await buyToken(stack.wallet(5), stack.publicClient, stack.manifest, token, parseEther("0.002"));
    const w2 = await buyToken(stack.wallet(6), stack.publicClient, stack.manifest, token, parseEther("0.002"));
    await until("W1 and W2 sent unconfirmed", async () =>
      [w1, w2].every((w) => eventMessages().some((m) => m.json.data.tx_hash === w.hash)) ? true : undefined,
    );
    const k = w1.receipt.blockNumber;
    expect(w2.receipt.blockNumber).toBe(k + 1n);
    await mine(1);
    const kBlock = await stack.publicClient.getBlock({ blockNumber: k });
    await rpc("anvil_reorg", [
      3,
      [[buyTx(stack.wallet(7).account.address, parseEther("0.003"), kBlock.timestamp + 3600n), 1]],
    ]);
    const vHash = (await stack.publicClient.getBlock({ blockNumber: k + 1n })).transactions[0] as Hash;
    await mine(FINAL_DEPTH + 1);
    await until(
      "W1 and W2 retracted, V sent",
      async () => {
        const got = eventMessages();
        const retracted = (h: string) =>
          got.some((m) => m.json.type === "event.retracted" && m.json.data.tx_hash === h);
        return retracted(w1.hash) && retracted(w2.hash) && got.some((m) => m.json.data.tx_hash === vHash)
          ? true
          : undefined;
      },
      scaledMs(60_000),
    );
    for (const w of [w1, w2]) {
      const order = eventMessages().map((m) => [m.json.type, m.json.data.tx_hash]);
      const sent = order.findIndex(([t, h]) => t !== "event.retracted" && h === w.hash);
      expect(order.findIndex(([t, h]) => t === "event.retracted" && h === w.hash)).toBeGreaterThan(sent);
    }

    // End state: replaying the stream leaves the confirmed feed's events, field for field.
    const final = await until(
      "the feed confirmed everything mined",
      async () => {
        const all = await confirmedEvents();
        const sub = await stack.request(`/api/v1/evmchain/webhooks/${hook}`);
        return sub.body.webhook.cursor_event_id >= (all.at(-1)?.id ?? 0) && sub.body.webhook.pending_event_id === null
          ? all
          : undefined;
      },
      scaledMs(60_000),
    );
    const live = new Map<string, any>();
    for (const m of eventMessages()) {
      expect(() => new Webhook(secret).verify(m.body, m.headers)).not.toThrow();
      const k = `${m.json.data.id}:${m.json.data.tx_hash}`;
      if (m.json.type === "event.retracted") {
        expect(live.has(k)).toBe(true); // a retraction names an event sent before
        live.delete(k);
      } else live.set(k, m.json.data);
    }
    const trades = final.filter((e) => e.kind === "trade" || e.kind === "big_buy");
    expect([...live.keys()].sort()).toEqual(trades.map((e) => `${e.id}:${e.tx_hash}`).sort());
    expect(trades.map((e) => e.tx_hash)).toEqual(expect.arrayContaining([yHash, vHash]));
    for (const gone of [x.hash, z.hash, w1.hash, w2.hash]) expect(trades.map((e) => e.tx_hash)).not.toContain(gone);
    for (const e of trades) expect({ ...live.get(`${e.id}:${e.tx_hash}`), confirmed: true }).toEqual(e);
  });
});
