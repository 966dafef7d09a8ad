/**
 * End to end, the Server-Sent Events streams (docs/public.md "Streams") with a real EventSource
 * client (the `eventsource` package) against the real service: live trades at the indexed head,
 * resuming with `Last-Event-ID` across a service restart (compared with the REST feeds: no gap,
 * no duplicate), a reorg (`anvil_reorg`) that drops a previewed trade, keep-alive comments, the
 * per-IP connection cap and the catalogued 400s.
 */
import { EventSource } from "eventsource";
import { encodeFunctionData, getAddress, parseEther, type Address, type Hash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { swapRouterAbi } from "../../abis/SwapRouter";
import { buyToken, launchToken } from "../../devnet/actions";
import { startStack, until, type Stack } from "../helpers/harness";
import { confirmedFeedEvents, FINALIZED_DEPTH } from "../helpers/eventsFeed";

const CONFIRMATIONS = 3;
const MAX_PER_IP = 3;
let stack: Stack;
let token: Address;

type Frame = { type: "message" | "pending" | "reorg"; id: string; data: any };
type Ev = { id: number; kind: string; tx_hash: string; payload: { trade_id?: string } };

async function rpc(method: string, params: unknown[]) {
  return stack.publicClient.request({ method: method as never, params: params as never });
}
const mine = (blocks: number) => rpc("anvil_mine", [`0x${blocks.toString(16)}`]);

/** An EventSource on `path`, collecting `message`, `pending` and `reorg` frames; `lastEventId` sets the header of the first request. */
function listen(path: string, lastEventId?: string) {
  const frames: Frame[] = [];
  let opens = 0;
  const es = new EventSource(`${stack.service.url}${path}`, {
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      // Only the first request: later reconnects send EventSource's own Last-Event-ID.
      if (lastEventId !== undefined && opens === 0 && !headers.has("Last-Event-ID"))
        headers.set("Last-Event-ID", lastEventId);
      return fetch(url, { ...init, headers });
    },
  });
  es.addEventListener("open", () => opens++);
  for (const type of ["message", "pending", "reorg"] as const)
    es.addEventListener(type, (e) => frames.push({ type, id: e.lastEventId, data: JSON.parse(e.data) }));
  return {
    es,
    frames,
    opens: () => opens,
    confirmed: () => frames.filter((f) => f.type === "message"),
    close: () => es.close(),
  };
}

/** Every confirmed trade event of the REST events feed, ascending (following `next_since_id`). */
const restTradeEvents = async (): Promise<Ev[]> =>
  (await confirmedFeedEvents(stack, (e) => e.kind === "trade")) as unknown as Ev[];

/** Mines the confirmation depth and waits until the REST feed has confirmed the newest trade. */
async function confirmAll(txHash: Hash) {
  await mine(FINALIZED_DEPTH);
  await until("trade confirmed in the REST feed", async () =>
    (await restTradeEvents()).some((e) => e.tx_hash === txHash) ? true : undefined,
  );
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_stream",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      PUBLIC_RATE_LIMIT_PER_MINUTE: "100000",
      STREAM_KEEPALIVE_SEC: "1",
      STREAM_MAX_PER_IP: String(MAX_PER_IP),
      STREAM_POLL_INTERVAL_MS: "20",
    },
  });
  const launched = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Stream",
    symbol: "STRM",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(launched.event.token);
  await confirmAll(launched.hash);
});

afterAll(async () => {
  await stack?.stop();
});

describe("trade stream", () => {
  it("pushes a trade at the indexed head, then confirms it under its events-feed id", async () => {
    const s = listen(`/api/public/stream/trades?token=${token}`);
    try {
      await expect.poll(() => s.opens(), { timeout: 10_000 }).toBe(1);
      const buy = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.002"));
      // Pushed before any confirmation block is mined: a preview without an id.
      await expect
        .poll(() => s.frames.find((f) => f.type === "pending" && f.data.tx_hash === buy.hash), { timeout: 10_000 })
        .toBeTruthy();
      const preview = s.frames.find((f) => f.type === "pending")!;
      expect(preview.data).toMatchObject({
        confirmed: false,
        token,
        side: "buy",
        block_number: Number(buy.receipt.blockNumber),
      });
      expect(s.confirmed()).toEqual([]);

      await confirmAll(buy.hash);
      await expect.poll(() => s.confirmed().length, { timeout: 10_000 }).toBe(1);
      const [confirmed] = s.confirmed();
      const rest = (await restTradeEvents()).find((e) => e.tx_hash === buy.hash)!;
      expect(confirmed!.id).toBe(String(rest.id));
      expect(confirmed!.data).toMatchObject({ event_id: rest.id, id: rest.payload.trade_id, confirmed: true });
      // The record is the REST trade record.
      const { body } = await stack.request(`/api/public/token/${token}/trades?limit=1`);
      const { confirmed: _c, event_id: _e, ...record } = confirmed!.data;
      expect(record).toEqual(body.trades[0]);
    } finally {
      s.close();
    }
  });

  it("resumes across a service restart with Last-Event-ID: no gap, no duplicate (against the REST feed)", async () => {
    // A first client reads the history from the start, then goes away.
    const first = listen(`/api/public/stream/trades?since_id=0&include_pending=0`);
    const before = await restTradeEvents();
    await expect.poll(() => first.confirmed().length, { timeout: 10_000 }).toBe(before.length);
    first.close();
    const lastId = first.confirmed().at(-1)!.id;
    // A second client stays connected through the restart and reconnects on its own.
    const staying = listen(`/api/public/stream/trades?include_pending=0`, lastId);
    await expect.poll(() => staying.opens(), { timeout: 10_000 }).toBe(1);

    const during = await buyToken(stack.wallet(3), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await stack.restart();
    const after = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await confirmAll(after.hash);
    // Older trades may still reach the confirmed bound (the indexer's finalized block advances in
    // steps), so the expectation is the REST feed after lastId at the moment each client matches it.
    const restAfter = async () =>
      (await restTradeEvents()).filter((e) => e.id > Number(lastId)).map((e) => String(e.id));
    const matchesRest = async (client: { confirmed: () => Array<{ id: string }> }) =>
      JSON.stringify(client.confirmed().map((f) => f.id)) === JSON.stringify(await restAfter());

    // The first client comes back with its Last-Event-ID (and a since_id the header overrides).
    const back = listen(`/api/public/stream/trades?since_id=0&include_pending=0`, lastId);
    try {
      await expect.poll(() => matchesRest(back), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => matchesRest(staying), { timeout: 15_000 }).toBe(true);
      const rest = await restTradeEvents();
      expect(rest.map((e) => e.tx_hash)).toEqual(expect.arrayContaining([during.hash, after.hash]));
      expect((await restAfter()).length).toBeGreaterThanOrEqual(2);
      expect(staying.opens()).toBeGreaterThanOrEqual(2); // it did reconnect
      const seen = [...first.confirmed(), ...back.confirmed()].map((f) => f.id);
      expect(seen).toEqual(rest.map((e) => String(e.id)));
      // Same trades as the REST trades feed, each once.
      const { body } = await stack.request(`/api/public/trades/recent?limit=200`);
      const tradeIds = [...first.confirmed(), ...back.confirmed()].map((f) => f.data.id);
      expect(new Set(tradeIds).size).toBe(tradeIds.length);
      expect([...tradeIds].sort()).toEqual(body.trades.map((t: { id: string }) => t.id).sort());
    } finally {
      back.close();
      staying.close();
    }
  });

  it("across a reorg: the dropped preview is retracted and never confirmed; a resuming client sees only the replacement", async () => {
    const resumeFrom = String((await restTradeEvents()).at(-1)!.id);
    const live = listen(`/api/public/stream/trades?token=${token}`);
    try {
      await expect.poll(() => live.opens(), { timeout: 10_000 }).toBe(1);
      const x = await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.002"));
      const n = x.receipt.blockNumber;
      await expect
        .poll(() => live.frames.some((f) => f.type === "pending" && f.data.tx_hash === x.hash), { timeout: 10_000 })
        .toBe(true);
      const xPreview = live.frames.find((f) => f.type === "pending" && f.data.tx_hash === x.hash)!;

      // Replace block n with one holding buy Y from another wallet.
      const buyer = stack.wallet(3).account.address;
      const block = await stack.publicClient.getBlock({ blockNumber: n });
      const data = encodeFunctionData({
        abi: swapRouterAbi,
        functionName: "exactInputSingle",
        args: [
          {
            tokenIn: stack.manifest.contracts.weth,
            tokenOut: token,
            fee: 10_000,
            recipient: buyer,
            deadline: block.timestamp + 3600n,
            amountIn: parseEther("0.003"),
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      });
      const value = `0x${parseEther("0.003").toString(16)}`;
      await rpc("anvil_reorg", [
        1,
        [[{ from: buyer, to: stack.manifest.contracts.swapRouter, data, value, gas: "0x7a120" }, 0]],
      ]);
      const replaced = await stack.publicClient.getBlock({ blockNumber: n });
      expect(replaced.hash).not.toBe(block.hash);
      const yHash = replaced.transactions[0] as Hash;
      await mine(1);

      // The live client is told X is gone, and sees Y as a preview.
      await expect
        .poll(
          () =>
            live.frames.some(
              (f) => f.type === "reorg" && f.data.dropped.some((d: { tx_hash: string }) => d.tx_hash === x.hash),
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
      const reorg = live.frames.find((f) => f.type === "reorg")!;
      expect(reorg.data.dropped).toEqual([
        { event_id: xPreview.data.event_id, id: xPreview.data.id, tx_hash: x.hash, block_number: Number(n) },
      ]);
      await expect
        .poll(() => live.frames.some((f) => f.type === "pending" && f.data.tx_hash === yHash), { timeout: 15_000 })
        .toBe(true);

      await confirmAll(yHash);
      await expect.poll(() => live.confirmed().some((f) => f.data.tx_hash === yHash), { timeout: 15_000 }).toBe(true);
      expect(live.confirmed().map((f) => f.data.tx_hash)).not.toContain(x.hash);

      // A client resuming from before the reorg receives Y once and never X.
      const resumed = listen(`/api/public/stream/trades?include_pending=0`, resumeFrom);
      try {
        const rest = (await restTradeEvents()).filter((e) => e.id > Number(resumeFrom));
        await expect
          .poll(() => resumed.confirmed().map((f) => f.id), { timeout: 15_000 })
          .toEqual(rest.map((e) => String(e.id)));
        expect(resumed.confirmed().map((f) => f.data.tx_hash)).toEqual([yHash]);
      } finally {
        resumed.close();
      }
    } finally {
      live.close();
    }
  });
});

describe("events stream", () => {
  it("serves the confirmed events feed, with the same ids", async () => {
    const s = listen(`/api/public/stream/events?since_id=0`);
    try {
      const rest: Ev[] = [];
      let since = 0;
      for (;;) {
        const { body } = await stack.request(`/api/public/events?since_id=${since}&limit=500`);
        rest.push(...body.events);
        if (body.events.length === 0 || body.next_since_id === since) break;
        since = body.next_since_id;
      }
      await expect
        .poll(() => s.confirmed().map((f) => Number(f.id)), { timeout: 10_000 })
        .toEqual(rest.map((e) => e.id));
      expect(s.confirmed().map((f) => f.data)).toEqual(rest);
      expect(s.frames.filter((f) => f.type !== "message")).toEqual([]); // no previews unless asked
    } finally {
      s.close();
    }
  });

  it("sends keep-alive comments", async () => {
    const res = await fetch(`${stack.service.url}/api/public/stream/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    try {
      while (!text.includes(": keep-alive\n\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    } finally {
      await reader.cancel();
    }
    expect(text).toMatch(/^retry: \d+\n\n/);
    expect(text).toContain(": keep-alive\n\n");
  });
});

describe("limits and bad input", () => {
  it("caps open streams per client IP with 429 too_many_streams", async () => {
    const open: AbortController[] = [];
    try {
      // Streams the earlier tests closed are released as the server sees their sockets close.
      for (let i = 0; i < MAX_PER_IP; i++) {
        await expect
          .poll(
            async () => {
              const ctrl = new AbortController();
              const res = await fetch(`${stack.service.url}/api/public/stream/events`, { signal: ctrl.signal });
              if (res.status === 200) open.push(ctrl);
              else ctrl.abort();
              return res.status;
            },
            { timeout: 10_000 },
          )
          .toBe(200);
      }
      const refused = await stack.request(`/api/public/stream/trades`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ ok: false, error: "too_many_streams" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // A closed stream frees its slot.
      open.shift()!.abort();
      await expect
        .poll(
          async () => {
            const ctrl = new AbortController();
            const res = await fetch(`${stack.service.url}/api/public/stream/trades`, { signal: ctrl.signal });
            ctrl.abort();
            return res.status;
          },
          { timeout: 10_000 },
        )
        .toBe(200);
    } finally {
      for (const ctrl of open) ctrl.abort();
    }
  });

  it("answers bad parameters with the catalogued 400 and 404", async () => {
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [`/api/public/stream/trades?token=0x123`, {}, 400, "invalid_address"],
      [`/api/public/stream/trades?since_id=abc`, {}, 400, "invalid_request"],
      [`/api/public/stream/events?since_id=-1`, {}, 400, "invalid_request"],
      [`/api/public/stream/events?include_pending=maybe`, {}, 400, "invalid_request"],
      [`/api/public/stream/trades`, { "Last-Event-ID": "not-an-id" }, 400, "invalid_cursor"],
      [`/api/public/stream/trades?token=0x000000000000000000000000000000000000dEaD`, {}, 404, "token_not_found"],
    ];
    for (const [path, headers, status, error] of cases) {
      const res = await stack.request(path, { headers });
      expect({ path, status: res.status, error: res.body.error, ok: res.body.ok }).toEqual({
        path,
        status,
        error,
        ok: false,
      });
    }
  });
});
