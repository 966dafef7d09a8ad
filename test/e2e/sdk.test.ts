/**
 * The SDK (`sdk/`, @evmchain/launch-sdk) against the real service on the devnet: a full launch with
 * a first buy through `launchToken`, a launch that crashes between send and confirm and is resumed
 * from its `launchId` alone (the sent transaction is found on chain, not sent twice), every read
 * helper compared with the raw HTTP answer of the same path, a swap and a creator rewards claim
 * built by the helpers and mined, and `watchTrades` receiving a trade made during the test, then
 * resuming with `Last-Event-ID` after the service restarts (the server closes the stream).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address, type Hash } from "viem";
import {
  createLaunchClient,
  LaunchApiError,
  RateLimitedError,
  type LaunchClient,
  type LaunchStep,
  type TradeFrame,
} from "../../sdk/src/index";
import { startStack, until, type Stack } from "../helpers/harness";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";
import { scaledMs } from "../helpers/deadlines";

const CONFIRMATIONS = 3;
const STREAMS_PER_IP = 2;
let stack: Stack;
let client: LaunchClient;
/** Every stream request the client made: its URL and `Last-Event-ID`. */
const streamRequests: Array<{ url: string; lastEventId: string | null; status?: number }> = [];
let launched: { launchId: string; tokenAddress: Address; txHash: Hash; tokenUrl: string };

const mine = (blocks: number) =>
  stack.publicClient.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

/** The raw JSON answer of `path` (the API key on /api/v1). */
async function raw(path: string) {
  const { status, body } = await stack.request(path);
  expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** Builds a buy through the SDK and mines it; returns its hash. */
async function buy(token: Address, amountInWei: bigint): Promise<Hash> {
  const built = await client.buildSwap({ token, side: "buy", amountInWei });
  const wallet = stack.wallet(0);
  const hash = await wallet.sendTransaction({
    account: wallet.account,
    chain: null,
    to: built.transaction.to as Address,
    data: built.transaction.data as Hash,
    value: BigInt(built.transaction.value),
  });
  expect((await stack.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  return hash;
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_sdk",
    env: {
      EVENTS_CONFIRMATION_BLOCKS: String(CONFIRMATIONS),
      V1_RATE_LIMIT_PER_MINUTE: "10000",
      STREAM_POLL_INTERVAL_MS: "20",
      // Ready (and so `restart` resolved) only with every block indexed.
      READY_MAX_LAG_BLOCKS: "0",
      STREAM_MAX_PER_IP: String(STREAMS_PER_IP),
    },
  });
  client = createLaunchClient({
    baseUrl: stack.service.url,
    apiKey: stack.apiKey,
    walletClient: stack.wallet(0),
    publicClient: stack.publicClient,
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes("/stream/")) return fetch(input, init);
      const request: (typeof streamRequests)[number] = {
        url,
        lastEventId: new Headers(init?.headers).get("Last-Event-ID"),
      };
      streamRequests.push(request);
      const response = await fetch(input, init);
      request.status = response.status;
      return response;
    },
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe("launchToken", () => {
  it("launches a token with a first buy: upload, intent, signature, build, send, confirm", async () => {
    const steps: LaunchStep["step"][] = [];
    const firstBuyWei = parseEther("0.01");
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3366ff" } })
      .png()
      .toBuffer();
    launched = await client.launchToken({
      name: "Sdk Coin",
      symbol: "SDKC",
      firstBuyWei,
      image: new Blob([new Uint8Array(png)], { type: "image/png" }),
      metadata: { description: "Launched by the SDK." },
      onStep: (s) => {
        steps.push(s.step);
      },
    });
    expect(steps.slice(0, 2)).toEqual(["uploaded", "intent"]);
    expect(steps).toContain("built");
    expect(steps).toContain("sent");
    expect(steps.at(-1)).toBe("confirmed");
    expect(launched.tokenUrl).toContain(launched.tokenAddress);
    const code = await stack.publicClient.getCode({ address: launched.tokenAddress });
    expect(code?.length).toBeGreaterThan(2);
    const status = await client.getLaunch({ txHash: launched.txHash });
    expect(status.state).toBe("confirmed");
    expect(status.launch_id).toBe(launched.launchId);
    expect(getAddress(status.token_address!)).toBe(launched.tokenAddress);
    expect(status.first_buy_wei).toBe(firstBuyWei.toString());
    expect(status.metadata.description).toBe("Launched by the SDK.");
    // The uploaded image is the launch's image, served by the service.
    expect(status.metadata.image_url).toMatch(/\/media\//);
    const image = await fetch(new URL(status.metadata.image_url!, stack.service.url));
    expect(image.status).toBe(200);
    // The first buy is the launch transaction's Swap: the creator holds tokens.
    const receipt = await stack.publicClient.getTransactionReceipt({ hash: launched.txHash });
    expect(receipt.status).toBe("success");
  });

  it("resumes a launch that crashed between send and confirm from its launchId alone", async () => {
    const crash = new Error("crash after send");
    let sentHash: Hash | undefined;
    let launchId: string | undefined;
    await expect(
      client.launchToken({
        name: "Resumed Coin",
        symbol: "RESM",
        firstBuyWei: parseEther("0.002"),
        onStep: (s) => {
          if (s.step === "intent") launchId = s.launchId;
          if (s.step === "sent") {
            sentHash = s.txHash;
            throw crash;
          }
        },
      }),
    ).rejects.toBe(crash);
    expect(launchId).toBeDefined();
    expect(sentHash).toBeDefined();
    // The service never heard of the transaction: the launch is still `built`.
    expect((await client.getLaunch({ launchId: launchId! })).state).toBe("built");
    const account = stack.wallet(0).account.address;
    await stack.publicClient.waitForTransactionReceipt({ hash: sentHash! });
    const nonceBefore = await stack.publicClient.getTransactionCount({ address: account });
    const resumed = await client.launchToken({ name: "Resumed Coin", symbol: "RESM", resume: { launchId: launchId! } });
    expect(resumed.launchId).toBe(launchId);
    expect(resumed.txHash).toBe(sentHash);
    expect((await client.getLaunch({ launchId: launchId! })).state).toBe("confirmed");
    // Nothing was sent again.
    expect(await stack.publicClient.getTransactionCount({ address: account })).toBe(nonceBefore);
    // Resuming a confirmed launch answers the same result without any step.
    const again = await client.launchToken({
      name: "Resumed Coin",
      symbol: "RESM",
      resume: { launchId: launchId! },
      onStep: () => {
        throw new Error("no step expected");
      },
    });
    expect(again).toEqual(resumed);
  });
});

describe("read helpers answer what the raw HTTP paths answer", () => {
  beforeAll(async () => {
    // Index the launch and its first buy before comparing.
    await until(
      "the launched token indexed",
      async () => {
        const { status, body } = await stack.request(`/api/v1/evmchain/tokens/${launched.tokenAddress}/trades`);
        return status === 200 && body.trades.length > 0 ? true : undefined;
      },
      scaledMs(60_000),
    );
  });

  it("getToken", async () => {
    const token = await client.getToken({ address: launched.tokenAddress });
    expect(token).toEqual((await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}`)).token);
    expect(token.symbol).toBe("SDKC");
  });

  it("getTrades iterates every cursor page", async () => {
    await buy(launched.tokenAddress, parseEther("0.001"));
    await until(
      "the second trade indexed",
      async () => {
        const body = await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}/trades`);
        return body.trades.length >= 2 ? true : undefined;
      },
      scaledMs(60_000),
    );
    const pages = [];
    for await (const page of client.getTrades({ address: launched.tokenAddress, limit: 1 })) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const all = await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}/trades?limit=200`);
    expect(pages.flatMap((p) => p.trades)).toEqual(all.trades);
    expect(pages[0]).toEqual(await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}/trades?limit=1`));
  });

  it("getCandles", async () => {
    const candles = await client.getCandles({ address: launched.tokenAddress, resolution: "1h" });
    expect(candles).toEqual(await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}/candles?resolution=1h`));
    expect(candles.candles.length).toBeGreaterThan(0);
  });

  it("search", async () => {
    const found = await client.search({ query: "SDKC" });
    expect(found).toEqual(await raw("/api/public/search?q=SDKC"));
    expect(JSON.stringify(found)).toContain(launched.tokenAddress);
  });

  it("getTopTokens and getTrending", async () => {
    const top = await client.getTopTokens({ window: "h24", sort: "volume", limit: 100 });
    expect(top).toEqual(await raw("/api/public/tokens/top?window=h24&sort=volume&limit=100"));
    expect(top.tokens.map((t) => t.address)).toContain(launched.tokenAddress);
    const trending = await client.getTrending({ limit: 100 });
    expect(trending).toEqual(await raw("/api/public/tokens/trending?limit=100"));
    expect(trending.tokens.map((t) => t.address)).toContain(launched.tokenAddress);
  });

  it("getHolders", async () => {
    const holders = await client.getHolders({ address: launched.tokenAddress, limit: 5 });
    expect(holders).toEqual(await raw(`/api/v1/evmchain/tokens/${launched.tokenAddress}/holders?limit=5`));
    expect(holders.holders.length).toBeGreaterThan(0);
  });

  it("getCreatorRewards, and buildClaim builds a claim the wallet mines", async () => {
    const wallet = stack.wallet(0).account.address;
    const rewards = await client.getCreatorRewards();
    expect(rewards).toEqual(await raw(`/api/evm/evmchain/creator-rewards?wallet=${wallet}`));
    expect(rewards.wallet).toBe(wallet);
    const claim = await client.buildClaim();
    expect(claim.transactions.length).toBeGreaterThan(0);
    const w = stack.wallet(0);
    for (const tx of claim.transactions) {
      const hash = await w.sendTransaction({
        account: w.account,
        chain: null,
        to: tx.to as Address,
        data: tx.data as Hash,
        value: BigInt(tx.value),
      });
      expect((await stack.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    }
  });

  it("a refusal is a typed error carrying the catalogue code", async () => {
    const error = await client
      .getToken({ address: "0x000000000000000000000000000000000000dEaD" })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(LaunchApiError);
    expect((error as LaunchApiError).code).toBe("token_not_found");
    expect((error as LaunchApiError).status).toBe(404);
  });
});

describe("watchTrades", () => {
  it("receives a trade made during the test and resumes after the service closes the stream", async () => {
    const abort = new AbortController();
    const frames: TradeFrame[] = [];
    // Every token's trades: a token filter would make a reconnect during the restart's catch-up a 404.
    const iterator = client.watchTrades({ includePending: false, signal: abort.signal });
    const reading = (async () => {
      for await (const frame of iterator) frames.push(frame);
    })();
    const confirmedHashes = () =>
      frames.filter((f) => f.event === "message").map((f) => (f.data as { tx_hash: string }).tx_hash);
    try {
      await until("the stream opened", async () => (streamRequests.length > 0 ? true : undefined), scaledMs(30_000));
      const first = await buy(launched.tokenAddress, parseEther("0.001"));
      await mine(FINALIZED_DEPTH);
      await until(
        "the first trade pushed",
        async () => (confirmedHashes().includes(first) ? true : undefined),
        scaledMs(60_000),
      );
      const lastId = frames.at(-1)!.id;
      expect(lastId).toBeDefined();

      const opened = streamRequests.length;
      await stack.restart(); // the service closes every stream on its way down
      await until(
        "the token served again",
        () => client.getToken({ address: launched.tokenAddress }).catch(() => undefined),
        scaledMs(60_000),
      );
      const second = await buy(launched.tokenAddress, parseEther("0.001"));
      await mine(FINALIZED_DEPTH);
      await until(
        "the second trade pushed",
        async () => (confirmedHashes().includes(second) ? true : undefined),
        scaledMs(120_000),
      );
      // It reconnected by itself, from the last id it had seen, and saw no frame twice.
      const reconnect = streamRequests.slice(opened).find((r) => r.lastEventId !== null);
      expect(reconnect?.lastEventId).toBe(lastId);
      const ids = frames.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(confirmedHashes().filter((h) => h === first)).toHaveLength(1);
    } finally {
      abort.abort();
      await reading;
    }
  });
});

describe("rate limits", () => {
  it("a 429 is a RateLimitedError with the Retry-After seconds, and a watcher waits it out", async () => {
    const held = new AbortController();
    const opened = await Promise.all(
      Array.from({ length: STREAMS_PER_IP }, () =>
        fetch(`${stack.service.url}/api/public/stream/events`, { signal: held.signal }),
      ),
    );
    expect(opened.map((r) => r.status)).toEqual(Array(STREAMS_PER_IP).fill(200));
    try {
      const refused = await client
        .watchEvents({ maxReconnects: 0 })
        .next()
        .catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(RateLimitedError);
      expect((refused as RateLimitedError).code).toBe("too_many_streams");
      expect((refused as RateLimitedError).retryAfterSec).toBeGreaterThan(0);

      // A watcher that may retry: refused first, it opens once a slot frees.
      const before = streamRequests.length;
      const abort = new AbortController();
      const watcher = client.watchEvents({ signal: abort.signal, sinceId: 0 });
      const first = watcher.next();
      await until("the watcher refused once", async () =>
        streamRequests.slice(before).some((r) => r.status === 429) ? true : undefined,
      );
      held.abort();
      const frame = await first;
      expect(frame.done).toBe(false);
      const statuses = streamRequests.slice(before).map((r) => r.status);
      expect(statuses[0]).toBe(429);
      expect(statuses.at(-1)).toBe(200);
      abort.abort();
      await watcher.return(undefined);
    } finally {
      held.abort();
    }
  });
});
