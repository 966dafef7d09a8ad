/**
 * End to end in a real browser (docs/pages.md): headless Chromium (Debian's, driven by
 * playwright-core) against the real service on anvil + real Uniswap V3. A test EIP-1193 provider
 * is injected as `window.ethereum`; it signs with an anvil dev account in this process and forwards
 * reads to anvil (the only stand-in: a browser wallet extension cannot run here). The wallet
 * starts on another chain and does not know chain 0x1237, so the page must add and switch it.
 *
 * Covered: connect -> API key from a signature -> form with logo upload and a first buy ->
 * build -> send -> verify -> token page; trades and candles shown; a later trade appears live;
 * the creator claims fees; screenshots of both pages; the CSP blocks injected inline script;
 * hostile metadata stays text; no request leaves the origin; the page reads without JavaScript;
 * wallet errors (rejection, insufficient funds) are shown in plain words.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import sharp from "sharp";
import { isHex, parseEther, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fx from "../api/media/fixtures";
import { buyToken } from "../devnet/actions";
import { startStack, type Stack } from "./harness";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUTPUT = join(process.cwd(), "test-output");
const CREATOR_INDEX = 5;

let stack: Stack;
let browser: Browser;
let origin: string;

/** How the injected wallet behaves; tests change it between steps. */
type WalletBehaviour = {
  index: number;
  chainId: string;
  knownChains: Set<string>;
  /** method -> error the wallet answers with instead of doing it. */
  fail: Map<string, { code: number; message: string }>;
  calls: { method: string; params: unknown[] }[];
};

function newBehaviour(index = CREATOR_INDEX): WalletBehaviour {
  return { index, chainId: "0x1", knownChains: new Set(["0x1"]), fail: new Map(), calls: [] };
}

/** Opens a page whose `window.ethereum` is the test wallet described by `wallet`. */
async function walletPage(context: BrowserContext, wallet: WalletBehaviour): Promise<Page> {
  const page = await context.newPage();
  await page.exposeFunction("__testWallet", async (method: string, params: unknown[]) => {
    wallet.calls.push({ method, params });
    const failure = wallet.fail.get(method);
    if (failure) return { error: failure };
    try {
      return { result: await answer(wallet, method, params) };
    } catch (err) {
      const e = err as { code?: number; shortMessage?: string; message: string };
      return { error: { code: e.code ?? -32603, message: e.shortMessage ?? e.message } };
    }
  });
  await page.addInitScript(() => {
    (globalThis as any).ethereum = {
      isTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const r = await (globalThis as any).__testWallet(method, params ?? []);
        if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
        return r.result;
      },
    };
  });
  return page;
}

async function answer(wallet: WalletBehaviour, method: string, params: unknown[]): Promise<unknown> {
  const signer = stack.wallet(wallet.index);
  switch (method) {
    case "eth_requestAccounts":
    case "eth_accounts":
      return [signer.account.address];
    case "eth_chainId":
      return wallet.chainId;
    case "wallet_switchEthereumChain": {
      const chainId = (params[0] as { chainId: string }).chainId.toLowerCase();
      if (!wallet.knownChains.has(chainId)) throw Object.assign(new Error("Unrecognized chain ID"), { code: 4902 });
      wallet.chainId = chainId;
      return null;
    }
    case "wallet_addEthereumChain": {
      const p = params[0] as { chainId: string; rpcUrls: string[] };
      wallet.knownChains.add(p.chainId.toLowerCase());
      return null;
    }
    case "personal_sign": {
      const message = params[0] as string;
      return signer.signMessage({ message: isHex(message) ? { raw: message as Hex } : message });
    }
    case "eth_sendTransaction": {
      const tx = params[0] as { chainId?: string; to: Hex; data: Hex; value?: Hex; gas?: Hex };
      if (tx.chainId && tx.chainId.toLowerCase() !== wallet.chainId) throw Object.assign(new Error("the wallet is on another chain"), { code: 4901 });
      if (wallet.chainId !== "0x1237") throw Object.assign(new Error("the wallet is on another chain"), { code: 4901 });
      return signer.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : 0n, gas: tx.gas ? BigInt(tx.gas) : undefined, chain: null });
    }
    default:
      // Reads go to the chain, as a wallet's provider does.
      return stack.publicClient.request({ method: method as never, params: params as never });
  }
}

/** Records every request the page makes and every CSP violation it reports. */
function watch(page: Page) {
  const requests: string[] = [];
  const violations: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    if (m.type() === "error") console.error(`page console: ${m.text()}`);
  });
  page.on("pageerror", (err) => {
    violations.push(`page error: ${err.message}`);
    console.error(`page error: ${err.message}`);
  });
  return { requests, violations };
}

async function checkScreenshot(path: string, minHeight: number) {
  expect(existsSync(path)).toBe(true);
  const meta = await sharp(path).metadata();
  expect(meta.format).toBe("png");
  expect(meta.width).toBe(1280);
  expect(meta.height!).toBeGreaterThanOrEqual(minHeight);
  // Not a blank image: the rendered page has contrast.
  const stats = await sharp(path).stats();
  expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(10);
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  stack = await startStack({ schema: "e2e_pages" });
  // The service's public origin is http://localhost:{port} (PUBLIC_BASE_URL default): the browser
  // must use it for the session cookie and CSRF origin check to match.
  origin = stack.service.url.replace("127.0.0.1", "localhost");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe("browser pages with a wallet", () => {
  let tokenUrl: string;
  const wallet = newBehaviour();
  let context: BrowserContext;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  it("launches from the launch page and lands on the token page", async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await walletPage(context, wallet);
    seen = watch(page);
    const res = await page.goto(`${origin}/launch`);
    expect(res!.status()).toBe(200);
    const csp = res!.headers()["content-security-policy"]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    await page.click("#connect");
    await page.waitForSelector("#status:has-text('Connected.')");
    // The key was created from a signature and is kept in this browser only.
    const stored = await page.evaluate(() => Object.entries((globalThis as any).localStorage as Record<string, string>).filter(([k]) => k.startsWith("evmchain:api-key:")));
    expect(stored).toHaveLength(1);
    expect(stored[0]![1]).toMatch(/^sk_live_/);

    await page.fill("input[name=name]", "<script>alert(1)</script>");
    await page.fill("input[name=symbol]", "XSS");
    await page.fill("textarea[name=description]", `<img src=x onerror="window.__pwned=1"> Fair launch & "quotes"`);
    await page.fill("input[name=website_url]", "https://example.org/project");
    await page.fill("input[name=first_buy_eth]", "0.0123");
    await page.setInputFiles("input[name=logo]", { name: "logo.png", mimeType: "image/png", buffer: await fx.png(64, 64) });
    await page.screenshot({ path: join(OUTPUT, "launch-page.png"), fullPage: true });
    await page.click("#launch");
    await page.waitForURL(/\/token\/0x[0-9a-fA-F]{40}$/, { timeout: 120_000 });
    tokenUrl = page.url();

    // The wallet was asked to add chain 0x1237 (it did not know it), then to switch, then to send.
    const methods = wallet.calls.map((c) => c.method);
    expect(methods).toEqual(expect.arrayContaining(["personal_sign", "wallet_addEthereumChain", "wallet_switchEthereumChain", "eth_sendTransaction"]));
    const added = wallet.calls.find((c) => c.method === "wallet_addEthereumChain")!.params[0] as { chainId: string };
    expect(added.chainId).toBe("0x1237");
    // The first buy was sent exactly: minimum liquidity + 0.0123 ETH.
    const sent = wallet.calls.find((c) => c.method === "eth_sendTransaction")!.params[0] as { value: Hex };
    expect(BigInt(sent.value)).toBe(BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei) + parseEther("0.0123"));
  });

  it("shows the token with escaped metadata, its first trade and candles", async () => {
    await expect.poll(() => page.locator("#token-name").textContent()).toBe("<script>alert(1)</script>");
    expect(await page.locator("#token-description").textContent()).toContain(`<img src=x onerror="window.__pwned=1">`);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator("#token-description img").count()).toBe(0);
    expect(await page.locator(".links a").getAttribute("href")).toBe("https://example.org/project");
    expect(await page.locator(".links a").getAttribute("rel")).toContain("noopener");
    // The uploaded logo is served by the service itself.
    expect(await page.locator("img.logo").getAttribute("src")).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    expect(await page.locator("#trades tbody tr").count()).toBe(1);
    expect(await page.locator("#trades tbody tr td").nth(1).textContent()).toBe("buy");
    await expect.poll(() => page.locator("#chart").getAttribute("data-candles"), { timeout: 15_000 }).toBe("1");
    expect(await page.locator("#chart canvas").count()).toBeGreaterThan(0);
    const token = await page.locator("#address-token").textContent();
    expect(tokenUrl.endsWith(`/token/${token}`)).toBe(true);
    expect(await page.locator("#address-locker").textContent()).toBe(stack.manifest.contracts.feeLocker);
  });

  it("switches the chart's resolution", async () => {
    await page.click(".resolutions button[data-resolution='1m']");
    await expect.poll(() => page.locator("#chart").getAttribute("data-loaded-resolution")).toBe("1m");
    expect(await page.locator("#chart").getAttribute("data-candles")).toBe("1");
  });

  it("shows a new trade live, without a reload", async () => {
    const token = (await page.locator("#address-token").textContent()) as Hex;
    await buyToken(stack.wallet(6), stack.publicClient, stack.manifest, token, parseEther("0.02"));
    await expect.poll(() => page.locator("#trades tbody tr").count(), { timeout: 20_000 }).toBe(2);
    expect(await page.locator("#trades tbody tr").first().getAttribute("class")).toBe("buy");
    await expect.poll(() => page.locator("#stat-trades").textContent()).toBe("2 (2 buys, 0 sells)");
    await page.screenshot({ path: join(OUTPUT, "token-page.png"), fullPage: true });
  });

  it("lets the creator claim fees with the wallet", async () => {
    await page.click("#connect-creator");
    await page.waitForSelector("#rewards:not([hidden])");
    const before = await page.locator("#claimable-wei").textContent();
    expect(Number(before)).toBeGreaterThan(0);
    expect(await page.locator("#claim").isEnabled()).toBe(true);
    const sendsBefore = wallet.calls.filter((c) => c.method === "eth_sendTransaction").length;
    await page.click("#claim");
    await page.waitForSelector("#rewards-status:has-text('Fees claimed')", { timeout: 60_000 });
    const claim = wallet.calls.filter((c) => c.method === "eth_sendTransaction")[sendsBefore]!.params[0] as { to: string };
    expect(claim.to).toBe(stack.manifest.contracts.feeLocker);
    // Once the claim's block is indexed, nothing is left to claim and the button turns off.
    await expect.poll(() => page.locator("#claimable-wei").textContent(), { timeout: 20_000 }).toBe("0");
    expect(await page.locator("#claim").isDisabled()).toBe(true);
    expect(await page.locator("#creator-fees-wei").textContent()).not.toBe("0 ETH");
  });

  it("made no request outside its origin and broke no CSP rule in normal use", async () => {
    expect(seen.requests.length).toBeGreaterThan(10);
    expect(seen.requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    expect(seen.violations).toEqual([]);
  });

  it("the CSP blocks injected inline script", async () => {
    const blocked = page.waitForEvent("console", (m) => /Content Security Policy/i.test(m.text()));
    await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const s = doc.createElement("script");
      s.textContent = "window.__inline = 1";
      doc.body.append(s);
    });
    await blocked;
    expect(await page.evaluate(() => (globalThis as any).__inline)).toBeUndefined();
  });

  it("screenshots of both pages are real renders", async () => {
    await checkScreenshot(join(OUTPUT, "launch-page.png"), 600);
    await checkScreenshot(join(OUTPUT, "token-page.png"), 900);
    await context.close();
  });

  it("the token page reads without JavaScript", async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const p = await noJs.newPage();
    await p.goto(tokenUrl);
    expect(await p.locator("#token-name").textContent()).toBe("<script>alert(1)</script>");
    expect(await p.locator("#trades tbody tr").count()).toBe(2);
    expect(await p.locator("noscript").count()).toBeGreaterThan(0);
    await noJs.close();
  });
});

describe("wallet errors are shown in plain words", () => {
  /** Connects, fills name and symbol (and `fields`), presses Launch. */
  async function launchWith(behaviour: WalletBehaviour, fields: Record<string, string> = {}): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext();
    const page = await walletPage(context, behaviour);
    await page.goto(`${origin}/launch`);
    await page.click("#connect");
    await page.waitForSelector("#status:has-text('Connected.')");
    await page.fill("input[name=name]", "Error Coin");
    await page.fill("input[name=symbol]", "ERR");
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name=${name}]`, value);
    await page.click("#launch");
    return { page, context };
  }

  it("a rejected transaction", async () => {
    const behaviour = newBehaviour(7);
    behaviour.fail.set("eth_sendTransaction", { code: 4001, message: "User rejected the request." });
    const { page, context } = await launchWith(behaviour);
    await page.waitForSelector("#status[data-kind='error']");
    expect(await page.locator("#status").textContent()).toBe("You rejected the request in your wallet.");
    expect(behaviour.calls.filter((c) => c.method === "eth_sendTransaction")).toHaveLength(1); // not retried
    await context.close();
  });

  it("insufficient funds", async () => {
    const behaviour = newBehaviour(8);
    behaviour.fail.set("eth_sendTransaction", { code: -32000, message: "insufficient funds for gas * price + value" });
    const { page, context } = await launchWith(behaviour);
    await page.waitForSelector("#status[data-kind='error']");
    expect(await page.locator("#status").textContent()).toContain("does not have enough ETH");
    await context.close();
  });

  it("an API refusal (a javascript: link) is shown and nothing is sent", async () => {
    const behaviour = newBehaviour(9);
    const { page, context } = await launchWith(behaviour, { website_url: "javascript:alert(1)" });
    await page.waitForSelector("#status[data-kind='error']");
    expect(await page.locator("#status").textContent()).toMatch(/website_url/);
    expect(behaviour.calls.filter((c) => c.method === "eth_sendTransaction")).toHaveLength(0);
    await context.close();
  });

  it("a page without a wallet says so", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/launch`);
    await page.click("#connect");
    await page.waitForSelector("#status[data-kind='error']");
    expect(await page.locator("#status").textContent()).toContain("No browser wallet found");
    await context.close();
  });
});

describe("short links", () => {
  it("/t/{slug} redirects to the token page; unknown slugs are 404", async () => {
    const list = await stack.request("/api/public/tokens/new");
    const slug = list.body.tokens[0].slug as string;
    const res = await fetch(`${stack.service.url}/t/${slug}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/token/${list.body.tokens[0].address}`);
    expect((await fetch(`${stack.service.url}/t/no-such-slug`)).status).toBe(404);
    expect((await fetch(`${stack.service.url}/token/0x0000000000000000000000000000000000000001`)).status).toBe(404);
  });
});

