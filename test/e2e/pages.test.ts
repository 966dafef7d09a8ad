/**
 * End to end in a real browser (docs/pages.md): headless Chromium (Debian's, driven by
 * playwright-core) against the real service on anvil + real Uniswap V3. A test EIP-1193 provider
 * is injected as `window.ethereum`; it signs with an anvil dev account in this process and forwards
 * reads to anvil (the only stand-in: a browser wallet extension cannot run here). The wallet
 * starts on another chain and does not know chain 0x1237, so the page must add and switch it.
 *
 * Covered: connect -> API key from a signature -> form with logo upload and a first buy ->
 * build -> review (total ETH, expected tokens, predicted address) -> send -> verify -> token page;
 * trades and a visible candle shown; later trades (a buy and a sell) arrive over the trade stream
 * without a reload, in the table, the figures and the chart (its last candle and its buy (green) /
 * sell (red) volume bars), and the page falls back to polling, saying so, while the stream is
 * down; the creator claims fees (in
 * WETH); the CSP blocks injected inline script; hostile metadata stays text; no request leaves the
 * origin; the page reads without JavaScript; wallet, form and API errors are shown in words next
 * to the field; failed loads and polls say so; every page at phone (390x844) and desktop size has
 * no horizontal overflow and no serious or critical axe-core violation, with screenshots of each
 * in `test-output/`; browsers get HTML error pages and a home page, API clients JSON.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Route } from "playwright-core";
import sharp from "sharp";
import { erc20Abi, formatEther, hexToString, isHex, parseEther, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fx from "../fixtures/images";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { startStack, type Stack } from "../helpers/harness";
import { formatAmount, usdText } from "../../pages/format";
import { scaledMs } from "../helpers/deadlines";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUTPUT = join(process.cwd(), "test-output");
const CREATOR_INDEX = 5;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** axe-core's browser build, evaluated in the page (the CSP admits no injected script tag). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** A 32-character token name without spaces (the widest name the service accepts). */
const LONG_NAME = "Supercalifragilisticexpialidocio";
/** The block explorer the service is configured with (BLOCK_EXPLORER_URL). */
const EXPLORER = "https://explorer.example";

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

/** Every text the page showed in its status lines, progress list, field errors and review card. */
type Shown = string[];

/**
 * Records what the page shows in its status lines, progress, field errors and review card, across
 * navigations (the recorder runs as a test init script, which the CSP does not govern).
 */
async function recordShownTexts(page: Page): Promise<Shown> {
  const shown: Shown = [];
  await page.exposeFunction("__shown", (text: string) => void shown.push(text));
  await page.addInitScript(() => {
    const g = globalThis as any;
    const seen = new Map<unknown, string>();
    const scan = () => {
      for (const el of g.document.querySelectorAll(
        "#status, #progress li, .field-error, #review dd, #rewards-status, #trades-status, #chart-status, #live-status, #chart-legend",
      )) {
        const text = el.textContent as string;
        if (text && seen.get(el) !== text) {
          seen.set(el, text);
          g.__shown(text);
        }
      }
    };
    g.document.addEventListener("DOMContentLoaded", () =>
      new g.MutationObserver(scan).observe(g.document.body, { subtree: true, childList: true, characterData: true }),
    );
  });
  return shown;
}

/** An address as the pages shorten it ("0x1234…abcd"). */
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Jargon a person should never read: hex chain ids, wei, long raw integers, error codes. */
function expectNoJargon(shown: Shown) {
  const jargon = shown.filter((t) =>
    /0x1237|\bwei\b|(?<![0-9a-fx])\d{15,}|invalid_request|\((?:[a-z]+_)+[a-z]+\)/i.test(t),
  );
  expect(jargon).toEqual([]);
}

/**
 * The page is no wider than its viewport (no sideways scrolling): `scrollWidth <= innerWidth`, and
 * both within the viewport the test set (a phone browser widens its layout viewport to fit wide
 * content, so `innerWidth` alone could grow with the overflow). Names the elements that stick out.
 */
async function expectNoOverflow(page: Page, what: string) {
  const viewport = page.viewportSize()!.width;
  const size = await page.evaluate((vw) => {
    const g = globalThis as any;
    const offenders: string[] = [];
    for (const el of g.document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > vw + 0.5 && offenders.length < 5)
        offenders.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ").join(".")}` : ""} (right ${Math.round(r.right)})`,
        );
    }
    return {
      scrollWidth: g.document.documentElement.scrollWidth as number,
      innerWidth: g.innerWidth as number,
      offenders,
    };
  }, viewport);
  const message = `${what}: page ${size.scrollWidth} px wide, window ${size.innerWidth} px, viewport ${viewport} px; sticking out: ${size.offenders.join(", ")}`;
  expect(size.scrollWidth, message).toBeLessThanOrEqual(size.innerWidth);
  expect(size.scrollWidth, message).toBeLessThanOrEqual(viewport);
}

/** Runs axe-core in the page; fails on any serious or critical violation (WCAG A/AA and best practices). */
async function expectAccessible(page: Page, what: string) {
  if (!(await page.evaluate(() => Boolean((globalThis as any).axe)))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ["violations"] });
    return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(violations, what).toEqual([]);
}

/**
 * Input borders contrast at least 3:1 with the page background (WCAG 2.1 AA 1.4.11, non-text
 * contrast, which axe-core does not check), computed from the rendered colours.
 */
async function expectInputBordersVisible(page: Page) {
  const ratios = await page.evaluate(() => {
    const g = globalThis as any;
    const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const luminance = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const background = luminance(rgb(g.getComputedStyle(g.document.body).backgroundColor));
    return [...g.document.querySelectorAll("input:not([type=file]), textarea")].map((el: any) => {
      const border = luminance(rgb(g.getComputedStyle(el).borderTopColor));
      return {
        name: el.name as string,
        ratio: (Math.max(border, background) + 0.05) / (Math.min(border, background) + 0.05),
      };
    });
  });
  expect(ratios.length).toBeGreaterThan(5);
  for (const { name, ratio } of ratios) expect(ratio, `border of ${name}`).toBeGreaterThanOrEqual(3);
}

/** A full-page screenshot named after the page and the viewport, checked to be a real render. */
async function screenshot(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  const path = join(OUTPUT, `${name}-${width === PHONE.width ? "phone" : "desktop"}.png`);
  await page.evaluate(() => (globalThis as any).document.activeElement?.blur?.()); // no focus ring in the picture
  await page.screenshot({ path, fullPage: true });
  await checkScreenshot(path, width, 500);
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
      if (tx.chainId && tx.chainId.toLowerCase() !== wallet.chainId)
        throw Object.assign(new Error("the wallet is on another chain"), { code: 4901 });
      if (wallet.chainId !== "0x1237") throw Object.assign(new Error("the wallet is on another chain"), { code: 4901 });
      return signer.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: tx.value ? BigInt(tx.value) : 0n,
        gas: tx.gas ? BigInt(tx.gas) : undefined,
        chain: null,
      });
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

async function checkScreenshot(path: string, width: number, minHeight: number) {
  expect(existsSync(path)).toBe(true);
  const meta = await sharp(path).metadata();
  expect(meta.format).toBe("png");
  // A full-page screenshot is as wide as the page: the viewport's width when nothing overflows.
  expect(meta.width).toBe(width);
  expect(meta.height!).toBeGreaterThanOrEqual(minHeight);
  // Not a blank image: the rendered page has contrast.
  const stats = await sharp(path).stats();
  expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(10);
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  // An explorer is configured, so the pages link addresses and transactions to it (nothing is
  // fetched from it: links only).
  // Every browser here shares one client address and signs in far faster than a person does:
  // the session surface's per-address limit is raised (as the harness raises the others) so that
  // a fast run never meets it; the session and rate-limit tests check the limits themselves.
  stack = await startStack({
    schema: "e2e_pages",
    env: { BLOCK_EXPLORER_URL: EXPLORER, SESSION_RATE_LIMIT_PER_MINUTE: "100000" },
  });
  // The service's public origin is http://localhost:{port} (PUBLIC_BASE_URL default): the browser
  // must use it for the session cookie and CSRF origin check to match.
  origin = stack.service.url.replace("127.0.0.1", "localhost");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/**
 * Pixels of `rgb` (within a small tolerance) in the rows of a PNG from `fromFraction` (default the
 * top) to `fraction` of its height: how many, and where they sit across the image (mean x as a
 * fraction of the width).
 */
async function findPixels(
  png: Buffer,
  rgb: [number, number, number],
  fraction: number,
  fromFraction = 0,
): Promise<{ count: number; meanX: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rows = Math.floor(info.height * fraction);
  let count = 0;
  let sumX = 0;
  for (let i = Math.floor(info.height * fromFraction) * info.width * 3; i < rows * info.width * 3; i += 3) {
    if (
      Math.abs(data[i]! - rgb[0]) < 12 &&
      Math.abs(data[i + 1]! - rgb[1]) < 12 &&
      Math.abs(data[i + 2]! - rgb[2]) < 12
    ) {
      count++;
      sumX += (i / 3) % info.width;
    }
  }
  return { count, meanX: count ? sumX / count / info.width : 0 };
}

const GREEN: [number, number, number] = [0x1a, 0x7f, 0x4b];
const RED: [number, number, number] = [0xb3, 0x26, 0x1e];
/** The light scheme's live line while the trade stream is open. */
const LIVE = "Live: new trades appear as they happen.";

/**
 * The chart's volume pane (below the price pane, above the time axis) has green (buy) and red
 * (sell) bars; polls until both show.
 */
async function expectBuyAndSellVolume(page: Page) {
  await expect
    .poll(
      async () => {
        const shot = await page.locator("#chart").screenshot();
        const green = (await findPixels(shot, GREEN, 0.91, 0.7)).count;
        const red = (await findPixels(shot, RED, 0.91, 0.7)).count;
        return Math.min(green, red);
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(20);
}

/** Waits until the chart has answered (its status no longer says it is loading). */
async function chartSettled(page: Page) {
  await expect
    .poll(() => page.locator("#chart-status").textContent(), { timeout: 15_000 })
    .not.toBe("Loading the chart…");
}

/**
 * Clicks the copy button named `name` and waits for the page's status line to announce the copy
 * (`"<what> copied."`, copy.js). The button's own "Copied" label lasts 2 s and the holder rows it
 * sits in may be re-rendered meanwhile, so on a loaded machine the announcement is what a test
 * can rely on seeing.
 */
async function clickAndSeeCopied(page: Page, button: Locator, name: string) {
  await button.click();
  const announced = `${name.replace(/^Copy /, "")} copied.`;
  await expect
    .poll(() => page.locator(".visually-hidden[role=status]").allInnerTexts(), { timeout: scaledMs(15_000) })
    .toContain(announced);
}

/** The token launched through the launch page (with trades) and one launched directly with no trade. */
let tokenUrl: string;
let quietTokenUrl: string;

describe("browser pages with a wallet", () => {
  const wallet = newBehaviour();
  let context: BrowserContext;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  let shown: Shown;
  let predicted: string;

  it("launches from the launch page, after a review of the amounts, and lands on the token page", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    page = await walletPage(context, wallet);
    seen = watch(page);
    shown = await recordShownTexts(page);
    const res = await page.goto(`${origin}/launch`);
    expect(res!.status()).toBe(200);
    const csp = res!.headers()["content-security-policy"]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    // The limits are stated up front.
    await expect
      .poll(() => page.locator("form").innerText())
      .toMatch(/1 to 32 characters[\s\S]*0 to 100 ETH[\s\S]*0 to 50 %/);
    await page.click("#connect");
    await page.waitForSelector("#status:has-text('Connected.')");
    // The key was created from a signature and is kept in this browser only.
    const stored = await page.evaluate(() =>
      Object.entries((globalThis as any).localStorage as Record<string, string>).filter(([k]) =>
        k.startsWith("evmchain:api-key:"),
      ),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]![1]).toMatch(/^sk_live_/);

    await page.fill("input[name=name]", "<script>alert(1)</script>");
    await page.fill("input[name=symbol]", "XSS");
    await page.fill("textarea[name=description]", `<img src=x onerror="window.__pwned=1"> Fair launch & "quotes"`);
    await page.fill("input[name=website_url]", "https://example.org/project");
    await page.fill("input[name=first_buy_eth]", "0.0123");
    await page.setInputFiles("input[name=logo]", {
      name: "logo.png",
      mimeType: "image/png",
      buffer: await fx.png(64, 64),
    });
    expect(await page.locator("#counter-name").innerText()).toBe("25 / 32");
    await page.click("#launch");

    // The review comes before any wallet prompt: total ETH, expected tokens, predicted address.
    await page.locator("#review").waitFor({ state: "visible" });
    const total = BigInt(stack.manifest.launchFactory.minimumPoolLiquidityWei) + parseEther("0.0123");
    expect(await page.locator("#review-total").innerText()).toBe(`${formatEther(total)} ETH`);
    expect(await page.locator("#review-tokens").innerText()).toMatch(
      /^about [\d,]+(\.\d+)? XSS \(at least [\d,]+(\.\d+)? with 3 % slippage\)$/,
    );
    predicted = await page.locator("#review-address").innerText();
    expect(predicted).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(wallet.calls.filter((c) => c.method === "eth_sendTransaction")).toHaveLength(0);
    await screenshot(page, "launch-review");
    await page.click("#review-confirm");
    await page.waitForURL(/\/token\/0x[0-9a-fA-F]{40}$/, { timeout: scaledMs(120_000) });
    tokenUrl = page.url();
    expect(tokenUrl.endsWith(`/token/${predicted}`)).toBe(true);

    // The wallet was asked to add chain 0x1237 (it did not know it), then to switch, then to send.
    const methods = wallet.calls.map((c) => c.method);
    expect(methods).toEqual(
      expect.arrayContaining([
        "personal_sign",
        "wallet_addEthereumChain",
        "wallet_switchEthereumChain",
        "eth_sendTransaction",
      ]),
    );
    // One signature signed the session in (EIP-4361) and created the browser's API key.
    expect(methods.filter((m) => m === "personal_sign")).toHaveLength(1);
    const signed = wallet.calls.find((c) => c.method === "personal_sign")!.params[0] as string;
    expect(isHex(signed) ? hexToString(signed as Hex) : signed).toMatch(
      /wants you to sign in with your Ethereum account:[\s\S]*create an API key[\s\S]*Chain ID: 4663/,
    );
    const added = wallet.calls.find((c) => c.method === "wallet_addEthereumChain")!.params[0] as { chainId: string };
    expect(added.chainId).toBe("0x1237");
    // The first buy was sent exactly: minimum liquidity + 0.0123 ETH.
    const sent = wallet.calls.find((c) => c.method === "eth_sendTransaction")!.params[0] as { value: Hex };
    expect(BigInt(sent.value)).toBe(total);
    // Everything the page said was in words: the network by name, amounts in ETH.
    expect(shown.some((t) => /Switch your wallet to the evmchain network/.test(t))).toBe(true);
    expect(shown.some((t) => t.includes(`sends ${formatEther(total)} ETH`))).toBe(true);
    expectNoJargon(shown);
  });

  it("keeps the wallet connected from the launch page to the token page, without a prompt", async () => {
    // Signed in on the launch page, and the wallet still shares the account (eth_accounts): the
    // token page shows the chip at once; no eth_requestAccounts, no second signature.
    const chip = page.getByRole("group", { name: "Connected wallet" });
    await expect
      .poll(() => chip.innerText(), { timeout: 15_000 })
      .toContain(short(stack.wallet(CREATOR_INDEX).account.address));
    expect(await page.getByRole("button", { name: "Review buy" }).isVisible()).toBe(true);
    const methods = wallet.calls.map((c) => c.method);
    expect(methods.filter((m) => m === "eth_requestAccounts")).toHaveLength(1);
    expect(methods.filter((m) => m === "personal_sign")).toHaveLength(1);
    // The creator holds the first buy: that row, and only it, says "You".
    const creator = stack.wallet(CREATOR_INDEX).account.address;
    const own = page.locator(`#holders li[data-address="${creator}"]`);
    await expect.poll(() => own.locator(".tag").allInnerTexts(), { timeout: 15_000 }).toEqual(["Creator", "You"]);
    expect(await page.locator("#holders .tag.you").count()).toBe(1);
  });

  it("shows the token with escaped metadata, its first trade and a visible one-trade candle", async () => {
    await expect.poll(() => page.locator("#token-name").textContent()).toBe("<script>alert(1)</script>");
    expect(await page.locator("#token-description").textContent()).toContain(`<img src=x onerror="window.__pwned=1">`);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator("#token-description img").count()).toBe(0);
    expect(await page.locator(".links a").getAttribute("href")).toBe("https://example.org/project");
    expect(await page.locator(".links a").getAttribute("rel")).toContain("noopener");
    // The uploaded logo is served by the service itself.
    expect(await page.locator("img.logo").getAttribute("src")).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    // The first buy is in the page, or arrives with the live poll if it was indexed just after.
    await expect.poll(() => page.locator("#trades tbody tr").count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator("#trades tbody tr td").nth(1).innerText()).toBe("buy");
    // Prices are compact (four significant digits), never 12 decimals.
    expect(await page.locator("#stat-price").innerText()).toMatch(/^(0\.0[₀-₉]+\d{1,4}|[\d,]+(\.\d{1,4})?) ETH$/);
    expect(await page.locator("#trades tbody tr td").nth(4).innerText()).toMatch(/^(0\.0[₀-₉]+\d{1,4}|[\d.]{1,6})$/);
    // The chart may have been read before the trade reached the table ("No trades yet"); the
    // trade's arrival reads it again.
    await expect.poll(() => page.locator("#chart-status").innerText(), { timeout: scaledMs(15_000) }).toBe("");
    expect(await page.locator("#chart canvas").count()).toBeGreaterThan(0);
    // The single trade's candle is drawn as a green body in the price pane (the top part), not a
    // flat line: it opens at the launch price.
    await expect
      .poll(async () => (await findPixels(await page.locator("#chart").screenshot(), [0x1a, 0x7f, 0x4b], 0.6)).count, {
        timeout: 10_000,
      })
      .toBeGreaterThan(150);
    // Fitted to its data: the lone candle is in the middle of the chart, not squeezed at an edge.
    const { meanX } = await findPixels(await page.locator("#chart").screenshot(), [0x1a, 0x7f, 0x4b], 0.6);
    expect(meanX).toBeGreaterThan(0.25);
    expect(meanX).toBeLessThan(0.75);
    const token = await page.locator("#address-token").textContent();
    expect(tokenUrl.endsWith(`/token/${token}`)).toBe(true);
    expect(await page.locator("#address-locker").textContent()).toBe(stack.manifest.contracts.feeLocker);
  });

  it("switches the chart's resolution and marks the pressed button", async () => {
    expect(await page.locator(".resolutions button", { hasText: "1h" }).getAttribute("aria-pressed")).toBe("true");
    await page.click(".resolutions button:text-is('1m')");
    await expect
      .poll(() => page.locator(".resolutions button:text-is('1m')").getAttribute("aria-pressed"))
      .toBe("true");
    expect(await page.locator(".resolutions button:text-is('1h')").getAttribute("aria-pressed")).toBe("false");
    await chartSettled(page);
    expect(await page.locator("#chart-status").innerText()).toBe("");
  });

  it("shows new trades from the trade stream without a reload: table, figures, last candle, buy and sell volume", async () => {
    // The page follows the token's trade stream on its own origin (the CSP's connect-src 'self').
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 }).toBe(LIVE);
    expect(seen.requests.some((u) => u.startsWith(`${origin}/api/public/stream/trades?token=`))).toBe(true);
    const polls = () => seen.requests.filter((u) => u.includes("/trades?limit=")).length;
    const pollsBefore = polls();
    await page.evaluate(() => ((globalThis as any).__sameDocument = true)); // gone if the page reloads
    const token = (await page.locator("#address-token").textContent()) as Hex;
    const trader = stack.wallet(6);
    await buyToken(trader, stack.publicClient, stack.manifest, token, parseEther("0.02"));
    await expect.poll(() => page.locator("#trades tbody tr").count(), { timeout: 20_000 }).toBe(2);
    expect(await page.locator("#trades tbody tr").first().getAttribute("class")).toBe("buy");
    await expect.poll(() => page.locator("#stat-trades").textContent()).toBe("2 (2 buys, 0 sells)");
    // The top holders follow the figures: the buyer is listed, with a share of the supply.
    await expect
      .poll(() => page.locator("#holders").innerText(), { timeout: 20_000 })
      .toContain(short(trader.account.address));
    const held = await stack.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [trader.account.address],
    });
    await sellToken(trader, stack.publicClient, stack.manifest, token, held / 2n);
    await expect.poll(() => page.locator("#trades tbody tr").count(), { timeout: 20_000 }).toBe(3);
    expect(await page.locator("#trades tbody tr").first().getAttribute("class")).toBe("sell");
    await expect.poll(() => page.locator("#stat-trades").textContent()).toBe("3 (2 buys, 1 sells)");
    // The chart took the sell too: the line under it (the last candle in words) equals the
    // service's last candle of the shown resolution (1m), whose sell volume is the sell's WETH.
    type Candle = { volume_wei: string; volume_buy_wei: string; volume_sell_wei: string; trade_count: number };
    const candlesNow = async () =>
      (
        (await (await fetch(`${origin}/api/public/token/${token}/candles?resolution=1m`)).json()) as {
          candles: Candle[];
        }
      ).candles;
    await expect
      .poll(
        async () => {
          const last = (await candlesNow()).at(-1)!;
          expect(BigInt(last.volume_buy_wei) + BigInt(last.volume_sell_wei)).toBe(BigInt(last.volume_wei));
          expect(BigInt(last.volume_sell_wei)).toBeGreaterThan(0n);
          const trades = last.trade_count === 1 ? "1 trade" : `${last.trade_count} trades`;
          const expected = `volume ${formatAmount(last.volume_wei, 18, 6)} ETH, ${formatAmount(last.volume_buy_wei, 18, 6)} bought (green), ${formatAmount(last.volume_sell_wei, 18, 6)} sold (red); ${trades}.`;
          return (await page.locator("#chart-legend").innerText()).endsWith(expected);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await page.locator("#chart-legend").innerText()).toMatch(/^1m candle from .+ UTC: close .+ ETH; volume /);
    await expectBuyAndSellVolume(page);
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
    // The stream brought them: the page did not poll meanwhile (a poll runs every 2 s without it).
    expect(await page.locator("#live-status").innerText()).toBe(LIVE);
    expect(polls() - pollsBefore).toBeLessThanOrEqual(1);
    await screenshot(page, "token");
  });

  it("falls back to polling when the stream fails, says so when polls and the chart fail, and recovers", async () => {
    await context.setOffline(true);
    await expect
      .poll(() => page.locator("#live-status").innerText(), { timeout: 10_000 })
      .toBe("Reconnecting to live updates… meanwhile trades are checked every 2 s.");
    await expect
      .poll(() => page.locator("#trades-status").innerText(), { timeout: 10_000 })
      .toMatch(/^Live updates paused: The service could not be reached\..*may be out of date\.$/);
    await page.click(".resolutions button:text-is('1d')");
    await expect
      .poll(() => page.locator("#chart-status").innerText(), { timeout: 10_000 })
      .toMatch(/^The chart could not be loaded: The service could not be reached\./);
    await context.setOffline(false);
    await expect.poll(() => page.locator("#trades-status").innerText(), { timeout: 10_000 }).toBe("");
    await expect.poll(() => page.locator("#chart-status").innerText(), { timeout: 10_000 }).toBe("");
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 }).toBe(LIVE);
  });

  it("lets the creator claim fees with the wallet, in WETH", async () => {
    await page.click("#connect-creator");
    await page.waitForSelector("#rewards:not([hidden])");
    expect(await page.locator("#rewards").innerText()).toMatch(/Claimable now: [\d.,]+ WETH and [\d.,]+ XSS/);
    const before = await page.locator("#claimable-wei").textContent();
    expect(Number(before)).toBeGreaterThan(0);
    expect(await page.locator("#claim").isEnabled()).toBe(true);
    // The session is already signed in as the creator: no second signature.
    expect(wallet.calls.filter((c) => c.method === "personal_sign")).toHaveLength(1);
    const sendsBefore = wallet.calls.filter((c) => c.method === "eth_sendTransaction").length;
    await page.click("#claim");
    await page.waitForSelector("#rewards-status:has-text('Fees claimed')", { timeout: scaledMs(60_000) });
    expect(await page.locator("#rewards-status").innerText()).toContain("WETH");
    const claim = wallet.calls.filter((c) => c.method === "eth_sendTransaction")[sendsBefore]!.params[0] as {
      to: string;
    };
    expect(claim.to).toBe(stack.manifest.contracts.feeLocker);
    // Once the claim's block is indexed, nothing is left to claim and the button turns off.
    await expect.poll(() => page.locator("#claimable-wei").textContent(), { timeout: 20_000 }).toBe("0");
    expect(await page.locator("#claim").isDisabled()).toBe(true);
    expect(await page.locator("#creator-fees-wei").innerText()).toMatch(/^[\d.,]+ WETH$/);
    expect(await page.locator("#creator-fees-wei").innerText()).not.toBe("0 WETH");
    expectNoJargon(shown);
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
    await context.close();
  });

  it("the token page reads without JavaScript", async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const p = await noJs.newPage();
    await p.goto(tokenUrl);
    expect(await p.locator("#token-name").textContent()).toBe("<script>alert(1)</script>");
    expect(await p.locator("#trades tbody tr").count()).toBe(3);
    expect(await p.locator("#live-status").isVisible()).toBe(false); // nothing claims "live" without the script
    expect(await p.locator("noscript").count()).toBeGreaterThan(0);
    // Copy buttons need the script: without it none is shown (no button that does nothing).
    expect(await p.getByRole("button", { name: /^Copy / }).count()).toBe(0);
    expect(await p.locator("#address-token").isVisible()).toBe(true);
    await noJs.close();
  });
});

describe("a refused trade stream", () => {
  it("the page polls and says it is reconnecting, then goes live once the stream is admitted", async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const seen = watch(page);
    // The service refuses the stream as it does over its per-IP cap (429 too_many_streams).
    let refused = 0;
    await page.route("**/api/public/stream/**", (route) => {
      refused++;
      return route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "Retry-After": "5" },
        body: JSON.stringify({
          ok: false,
          error: "too_many_streams",
          message: "this client already holds 5 open streams",
        }),
      });
    });
    await page.goto(tokenUrl);
    await expect
      .poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 })
      .toBe("Reconnecting to live updates… meanwhile trades are checked every 2 s.");
    expect(refused).toBeGreaterThan(0);
    // Polling instead: the trades are read again and again, and nothing says they are stale.
    const polls = () => seen.requests.filter((u) => u.includes("/trades?limit=")).length;
    await expect.poll(polls, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    expect(await page.locator("#trades-status").innerText()).toBe("");
    expect(await page.locator("#trades tbody tr").count()).toBe(3);
    await expectNoOverflow(page, "phone token page, reconnecting");
    await expectAccessible(page, "phone token page, reconnecting");
    await page.unroute("**/api/public/stream/**");
    // The page asks again (after 5 s) and the stream is admitted: live again.
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 20_000 }).toBe(LIVE);
    await context.close();
  });
});

describe("a token without trades", () => {
  it("shows a message in the chart's place, not an empty box", async () => {
    const launched = await launchToken(stack.wallet(4), stack.publicClient, stack.manifest, {
      name: LONG_NAME,
      symbol: "LONG",
    });
    quietTokenUrl = `${origin}/token/${launched.event.token}`;
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await expect.poll(async () => (await page.goto(quietTokenUrl))!.status(), { timeout: 20_000 }).toBe(200);
    await chartSettled(page);
    expect(await page.locator("#chart-status").innerText()).toBe(
      "No trades yet: the chart starts with the first trade.",
    );
    // The message covers the chart's box (it is what a person sees there, not the empty canvas).
    const onTop = await page.evaluate(() => {
      const g = globalThis as any;
      const box = g.document.getElementById("chart").getBoundingClientRect();
      return g.document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.textContent;
    });
    expect(onTop).toBe("No trades yet: the chart starts with the first trade.");
    expect(await page.locator("#trades-empty").innerText()).toBe("No trades yet.");
    await context.close();
  });
});

describe("a chart read before its trade was indexed", () => {
  /** Answers a candle read with no candles: what a read made before the trade was indexed returns. */
  const answerNoCandles = (route: Route) => {
    const resolution = new URL(route.request().url()).searchParams.get("resolution");
    const nowSec = Math.floor(Date.now() / 1000);
    return route.fulfill({ json: { ok: true, resolution, from_sec: 0, to_sec: nowSec, candles: [] } });
  };

  it("is read again until it holds the newest trade the table shows", async () => {
    // Candle answers come back empty at first: what a read made just before the trade was
    // indexed (or an answer cached at the same indexed block) looks like.
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    let emptyCandles = true;
    let candleReads = 0;
    await page.route("**/api/public/token/*/candles?*", (route) => {
      candleReads += 1;
      if (!emptyCandles) return route.continue();
      return answerNoCandles(route);
    });
    await page.goto(tokenUrl);
    expect(await page.locator("#trades tbody tr").count()).toBeGreaterThan(0);
    // The page reads the chart again on its own (a page that gave up after the first empty
    // answer would stop at the one or two reads of its start).
    await expect.poll(() => candleReads, { timeout: scaledMs(15_000) }).toBeGreaterThanOrEqual(4);
    expect(await page.locator("#chart-status").innerText()).toBe("Loading the chart…");
    emptyCandles = false;
    await expect
      .poll(async () => Number(await page.locator("#chart").getAttribute("data-candles")), {
        timeout: scaledMs(15_000),
      })
      .toBeGreaterThan(0);
    await chartSettled(page);
    expect(await page.locator("#chart-status").innerText()).toBe("");
    await context.close();
  });

  it("gives up after its budget of reads, and gets a new budget with the next trade", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    let emptyReadsLeft = Number.POSITIVE_INFINITY;
    await page.route("**/api/public/token/*/candles?*", (route) => {
      if (emptyReadsLeft <= 0) return route.continue();
      emptyReadsLeft -= 1;
      return answerNoCandles(route);
    });
    await page.goto(tokenUrl);
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: scaledMs(15_000) }).toBe(LIVE);
    // Every read comes back empty: after its budget the page stops reading and says so.
    await expect
      .poll(() => page.locator("#chart-status").innerText(), { timeout: scaledMs(40_000) })
      .toMatch(/^No trades in the time range of \w+ candles; choose a longer resolution\.$/);
    // A new trade: its first four chart reads are still empty (more than the reads the trade
    // itself causes), the ones after them are not. A page whose budget stayed spent would stop
    // at those reads; a fresh budget reads on until the chart holds the trade.
    emptyReadsLeft = 4;
    const token = tokenUrl.split("/").at(-1) as Hex;
    await buyToken(stack.wallet(7), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await expect
      .poll(async () => Number(await page.locator("#chart").getAttribute("data-candles")), {
        timeout: scaledMs(20_000),
      })
      .toBeGreaterThan(0);
    await chartSettled(page);
    expect(await page.locator("#chart-status").innerText()).toBe("");
    await context.close();
  });
});

describe("the launch form speaks plainly", () => {
  /** Connects wallet `index` at `viewport`, fills name and symbol (and `fields`). */
  async function connectedForm(behaviour: WalletBehaviour, fields: Record<string, string> = {}, viewport = DESKTOP) {
    const context = await browser.newContext({ viewport, hasTouch: viewport === PHONE, isMobile: viewport === PHONE });
    const page = await walletPage(context, behaviour);
    const shown = await recordShownTexts(page);
    const requests: { url: string; body: string | null }[] = [];
    page.on("request", (r) => requests.push({ url: r.url(), body: r.postData() }));
    await page.goto(`${origin}/launch`);
    await page.click("#connect");
    await page.waitForSelector("#status:has-text('Connected.')");
    await page.fill("input[name=name]", "Error Coin");
    await page.fill("input[name=symbol]", "ERR");
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name=${name}]`, value);
    return { context, page, shown, requests };
  }

  it("refuses a name that is too long, next to the field, without cutting it", async () => {
    const behaviour = newBehaviour(1);
    const long = "A very long token name that would be cut silently".repeat(4); // 196 characters
    const { context, page, requests } = await connectedForm(behaviour, { name: long });
    expect(await page.locator("input[name=name]").inputValue()).toBe(long);
    expect(await page.locator("#counter-name").innerText()).toBe("196 / 32");
    await page.click("#launch");
    await expect
      .poll(() => page.locator("#error-name").innerText())
      .toBe("The name has 196 characters; at most 32 are allowed. Shorten it: it is permanent once launched.");
    expect(await page.locator("input[name=name]").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.name)).toBe("name");
    expect(await page.locator("#status").innerText()).toMatch(/^Check Name: The name has 196 characters/);
    expect(requests.filter((r) => r.url.includes("build-direct-v3-launch"))).toEqual([]);
    // Fixing the field clears the mark on the next try.
    await page.fill("input[name=name]", "Short");
    await page.fill("input[name=first_buy_eth]", "101");
    await page.click("#launch");
    await expect
      .poll(() => page.locator("#error-first_buy_eth").innerText())
      .toBe("The first buy can be at most 100 ETH.");
    expect(await page.locator("input[name=name]").getAttribute("aria-invalid")).toBeNull();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.name)).toBe("first_buy_eth");
    await context.close();
  });

  it("takes slippage in percent exactly (0.5 % is 50 bps) and sends nothing when the review is cancelled", async () => {
    const behaviour = newBehaviour(3);
    const { context, page, requests, shown } = await connectedForm(behaviour, {
      first_buy_eth: "0.01",
      slippage_pct: "0.5",
    });
    await page.click("#launch");
    await page.locator("#review").waitFor({ state: "visible" });
    const build = requests.find((r) => r.url.endsWith("/build-direct-v3-launch"))!;
    expect(JSON.parse(build.body!).slippage_bps).toBe(50);
    expect(await page.locator("#review-tokens").innerText()).toMatch(/with 0\.5 % slippage\)$/);
    await page.click("#review-cancel");
    await expect.poll(() => page.locator("#status").innerText()).toBe("Cancelled: nothing was sent.");
    expect(await page.locator("#review").isHidden()).toBe(true);
    expect(
      behaviour.calls.filter((c) => c.method === "eth_sendTransaction" || c.method === "wallet_switchEthereumChain"),
    ).toEqual([]);
    expect(await page.locator("#launch").isEnabled()).toBe(true);
    expectNoJargon(shown);
    await context.close();
  });

  it("an API refusal (a javascript: link) is shown next to its field in words, and nothing is sent", async () => {
    const behaviour = newBehaviour(9);
    const { context, page, shown } = await connectedForm(behaviour, { website_url: "javascript:alert(1)" });
    await page.click("#launch");
    await page.waitForSelector("#status[data-kind='error']");
    const message = await page.locator("#error-website_url").innerText();
    expect(message.length).toBeGreaterThan(5);
    expect(await page.locator("input[name=website_url]").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.name)).toBe("website_url");
    expect(await page.locator("#status").innerText()).toBe(`Check Website: ${message}`);
    expect(behaviour.calls.filter((c) => c.method === "eth_sendTransaction")).toHaveLength(0);
    expectNoJargon(shown);
    await context.close();
  });
});

describe("wallet errors are shown in plain words", () => {
  /** Connects, fills name and symbol, presses Launch and confirms the review. */
  async function launchWith(behaviour: WalletBehaviour): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext();
    const page = await walletPage(context, behaviour);
    await page.goto(`${origin}/launch`);
    await page.click("#connect");
    await page.waitForSelector("#status:has-text('Connected.')");
    await page.fill("input[name=name]", "Error Coin");
    await page.fill("input[name=symbol]", "ERR");
    await page.click("#launch");
    await page.click("#review-confirm");
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

  it("a rejected sign-in leaves the page disconnected, with no address shown", async () => {
    const behaviour = newBehaviour(5);
    behaviour.fail.set("personal_sign", { code: 4001, message: "User rejected the request." });
    const context = await browser.newContext();
    const page = await walletPage(context, behaviour);
    await page.goto(`${origin}/launch`);
    await page.click("#connect");
    await page.waitForSelector("#status[data-kind='error']");
    expect(await page.locator("#status").textContent()).toBe("You rejected the request in your wallet.");
    expect(((await page.locator("#account").textContent()) ?? "").trim()).toBe("");
    expect(await page.locator("#launch").isDisabled()).toBe(true);
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

describe("every page at phone and desktop size: no sideways scrolling, accessible, screenshots", () => {
  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${size}: home, launch (before and after Connect, review), token pages, error page`, async () => {
      const context = await browser.newContext({ viewport, hasTouch: size === "phone", isMobile: size === "phone" });
      const behaviour = newBehaviour(size === "phone" ? 2 : 1);
      const page = await walletPage(context, behaviour);

      await page.goto(`${origin}/launch`);
      await expectNoOverflow(page, `${size} launch page`);
      await expectAccessible(page, `${size} launch page`);
      await expectInputBordersVisible(page);
      await page.click("#connect");
      await page.waitForSelector("#status:has-text('Connected.')");
      await expectNoOverflow(page, `${size} launch page after Connect`);
      await expectAccessible(page, `${size} launch page after Connect`);
      await page.fill("input[name=name]", LONG_NAME);
      await page.fill("input[name=symbol]", "WIDE");
      // Launch is tappable (nothing lies over it).
      if (size === "phone") await page.locator("#launch").tap();
      else await page.locator("#launch").click();
      await page.locator("#review").waitFor({ state: "visible" });
      await expectNoOverflow(page, `${size} launch review`);
      await expectAccessible(page, `${size} launch review`);
      await screenshot(page, "launch");
      await page.click("#review-cancel");

      await page.goto(`${origin}/`);
      expect(await page.locator("#newest").innerText()).toContain(LONG_NAME);
      await expectNoOverflow(page, `${size} home`);
      await expectAccessible(page, `${size} home`);
      await screenshot(page, "home");

      for (const [name, url] of [
        ["token", tokenUrl],
        ["token-no-trades", quietTokenUrl],
      ] as const) {
        await page.goto(url);
        await chartSettled(page);
        if (name === "token") {
          await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 }).toBe(LIVE);
          await expectBuyAndSellVolume(page);
        }
        await expectNoOverflow(page, `${size} ${name} page`);
        await expectAccessible(page, `${size} ${name} page`);
        await screenshot(page, name);
      }

      const res = await page.goto(`${origin}/token/0x0000000000000000000000000000000000000001`);
      expect(res!.status()).toBe(404);
      await expectNoOverflow(page, `${size} error page`);
      await expectAccessible(page, `${size} error page`);
      await screenshot(page, "not-found");
      await context.close();
    });
  }
});

describe("HTML where a browser expects a page, JSON for API clients", () => {
  it("a browser gets HTML pages with the right status", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cases = [
      ["/token/0x0000000000000000000000000000000000000001", 404, "Token not found"],
      ["/token/notanaddress", 400, "Not a token address"],
      ["/t/no-such-slug", 404, "Token not found"],
    ] as const;
    for (const [path, status, title] of cases) {
      const res = await page.goto(`${origin}${path}`);
      expect(res!.status(), path).toBe(status);
      expect(res!.headers()["content-type"]).toMatch(/^text\/html/);
      expect(res!.headers()["content-security-policy"]).toContain("script-src 'self'");
      expect(await page.locator("h1").innerText()).toBe(title);
      expect(await page.locator("main a[href='/launch']").count()).toBe(1);
    }
    const home = await page.goto(`${origin}/`);
    expect(home!.status()).toBe(200);
    expect(await page.locator("h1").innerText()).toBe("Discover tokens");
    await page.click("#newest a:has-text('XSS')");
    await page.waitForURL(tokenUrl);
    await context.close();
  });

  it("API clients keep the JSON error bodies", async () => {
    // `/` is the home page for any client that does not ask for JSON (curl's */* included); a client
    // that asks for JSON gets the API's 404 (docs/pages.md).
    for (const accept of [undefined, "*/*"]) {
      const res = await fetch(`${stack.service.url}/`, { headers: accept ? { accept } : {} });
      expect({ accept, status: res.status, type: res.headers.get("content-type") }).toEqual({
        accept,
        status: 200,
        type: expect.stringContaining("text/html"),
      });
      expect(res.headers.get("vary")?.toLowerCase()).toContain("accept");
    }
    const json = await fetch(`${stack.service.url}/`, { headers: { accept: "application/json" } });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([404, "not_found"]);
    for (const [path, status, error] of [
      ["/token/0x0000000000000000000000000000000000000001", 404, "token_not_found"],
      ["/token/notanaddress", 400, "invalid_address"],
      ["/t/no-such-slug", 404, "token_not_found"],
    ] as const) {
      for (const accept of [undefined, "application/json", "*/*"]) {
        const res = await fetch(`${stack.service.url}${path}`, { headers: accept ? { accept } : {} });
        expect(res.status, `${path} ${accept}`).toBe(status);
        expect(((await res.json()) as { error: string }).error).toBe(error);
      }
    }
  });

  it("/t/{slug} redirects to the token page", async () => {
    const list = await stack.request("/api/public/tokens/new");
    const slug = list.body.tokens[0].slug as string;
    const res = await fetch(`${stack.service.url}/t/${slug}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/token/${list.body.tokens[0].address}`);
  });
});

describe("buy and sell on the token page", () => {
  const PHONE_TRADER = 3;
  let swapToken: Hex;

  /** Gas fees (wei) `address` paid in blocks after `fromBlock` (anvil mines one block per transaction). */
  async function feesPaidSince(address: string, fromBlock: bigint): Promise<{ fees: bigint; sent: number }> {
    let fees = 0n;
    let sent = 0;
    const head = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
    for (let n = fromBlock + 1n; n <= head; n++) {
      const block = await stack.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() !== address.toLowerCase()) continue;
        const receipt = await stack.publicClient.getTransactionReceipt({ hash: tx.hash });
        fees += receipt.gasUsed * receipt.effectiveGasPrice;
        sent++;
      }
    }
    return { fees, sent };
  }

  const tokenBalance = (owner: Hex) =>
    stack.publicClient.readContract({ address: swapToken, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

  /** What the page shows in the widget's status, field errors and review card. */
  const widgetTexts = (page: Page) =>
    page.locator("#trade-status, #trade .field-error, #trade-review dd, #hint-amount").allInnerTexts();

  it("buys and then sells through the widget at phone size: balances change as quoted, within the slippage", async () => {
    const launched = await launchToken(stack.wallet(0), stack.publicClient, stack.manifest, {
      name: "Swap Coin",
      symbol: "SWAP",
      firstBuyWei: parseEther("0.01"),
    });
    swapToken = launched.event.token;
    const behaviour = newBehaviour(PHONE_TRADER);
    const trader = stack.wallet(PHONE_TRADER).account.address;
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await walletPage(context, behaviour);
    const seenTexts: string[] = [];
    const builds: { request: Record<string, unknown>; response: Record<string, any> }[] = [];
    page.on("response", async (res) => {
      if (!res.url().endsWith("/api/evm/evmchain/build-swap")) return;
      builds.push({ request: JSON.parse(res.request().postData() ?? "{}"), response: await res.json() });
    });
    await expect
      .poll(async () => (await page.goto(`${origin}/token/${swapToken}`))!.status(), { timeout: 20_000 })
      .toBe(200);
    await expectNoOverflow(page, "phone token page with the trade widget");
    await page.locator("#trade-submit").tap();
    await page.waitForSelector("#trade-status:has-text('Connected.')");

    // ---- buy 0.05 ETH at the default 1 % slippage ----
    await page.fill("#trade-amount", "0.05");
    await page.locator("#trade-submit").tap();
    await page.locator("#trade-review").waitFor({ state: "visible" });
    expect(await page.locator("#trade-review-pay").innerText()).toBe("0.05 ETH");
    expect(await page.locator("#trade-review-receive").innerText()).toMatch(/^[\d,]+(\.\d+)? SWAP$/);
    expect(await page.locator("#trade-review-minimum").innerText()).toMatch(
      /^[\d,]+(\.\d+)? SWAP \(with 1 % slippage\)$/,
    );
    expect(await page.locator("#trade-review-steps").innerText()).toBe("One: the swap.");
    expect(behaviour.calls.filter((c) => c.method === "eth_sendTransaction")).toHaveLength(0);
    await expectNoOverflow(page, "phone trade review");
    await expectAccessible(page, "phone trade review");
    await screenshot(page, "token-trade-review");
    const buy = builds.at(-1)!;
    expect(buy.request).toMatchObject({ side: "buy", amount_in_wei: parseEther("0.05").toString(), slippage_bps: 100 });
    const startBlock = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
    const [ethBefore, tokensBefore] = [
      await stack.publicClient.getBalance({ address: trader }),
      await tokenBalance(trader),
    ];
    await page.locator("#trade-confirm").tap();
    await page.waitForSelector("#trade-status:has-text('Bought:')", { timeout: scaledMs(60_000) });
    const bought = (await tokenBalance(trader)) - tokensBefore;
    expect(bought).toBeGreaterThanOrEqual(BigInt(buy.response.minimum_amount_out_wei));
    expect(bought).toBe(BigInt(buy.response.expected_amount_out_wei)); // nobody traded in between
    const buyFees = await feesPaidSince(trader, startBlock);
    expect(buyFees.sent).toBe(1);
    expect(ethBefore - (await stack.publicClient.getBalance({ address: trader }))).toBe(
      parseEther("0.05") + buyFees.fees,
    );
    // The wallet sent exactly what was built, to the service's own router.
    const sentBuy = behaviour.calls.filter((c) => c.method === "eth_sendTransaction").at(-1)!.params[0] as {
      to: string;
      data: string;
    };
    expect(sentBuy).toMatchObject({ to: stack.manifest.contracts.swapRouter, data: buy.response.transaction.data });
    seenTexts.push(...(await widgetTexts(page)));

    // ---- sell half of it at 0.5 % slippage: approval first, then the sell ----
    await page.locator("#tab-sell").tap();
    expect(await page.locator("#trade-amount-label").innerText()).toBe("You sell (SWAP)");
    const sellAmount = bought / 2n;
    await page.fill("#trade-amount", formatEther(sellAmount));
    await page.fill("#trade-slippage", "0.5");
    await page.locator("#trade-submit").tap();
    await page.locator("#trade-review").waitFor({ state: "visible" });
    expect(await page.locator("#trade-review-minimum").innerText()).toMatch(/ ETH \(with 0\.5 % slippage\)$/);
    expect(await page.locator("#trade-review-steps").innerText()).toMatch(/^Two: first allow the exchange/);
    const sell = builds.at(-1)!;
    expect(sell.request).toMatchObject({ side: "sell", amount_in_wei: sellAmount.toString(), slippage_bps: 50 });
    const sellStart = await stack.publicClient.getBlockNumber({ cacheTime: 0 });
    const ethBeforeSell = await stack.publicClient.getBalance({ address: trader });
    await page.locator("#trade-confirm").tap();
    await page.waitForSelector("#trade-status:has-text('Sold:')", { timeout: scaledMs(60_000) });
    expect(await tokenBalance(trader)).toBe(tokensBefore + bought - sellAmount);
    const sellFees = await feesPaidSince(trader, sellStart);
    expect(sellFees.sent).toBe(2); // the approval and the sell
    const receivedWei = (await stack.publicClient.getBalance({ address: trader })) - ethBeforeSell + sellFees.fees;
    expect(receivedWei).toBeGreaterThanOrEqual(BigInt(sell.response.minimum_amount_out_wei));
    expect(receivedWei).toBe(BigInt(sell.response.expected_amount_out_wei));
    await expectNoOverflow(page, "phone token page after a sell");
    seenTexts.push(...(await widgetTexts(page)));

    // ---- a refusal in words, next to the field: selling more than the wallet holds ----
    await page.fill("#trade-amount", "999999999");
    await page.locator("#trade-submit").tap();
    await expect
      .poll(() => page.locator("#error-amount").innerText(), { timeout: 15_000 })
      .toBe("Your wallet holds less SWAP than this amount.");
    expect(await page.locator("#trade-amount").getAttribute("aria-invalid")).toBe("true");
    await expectNoOverflow(page, "phone trade error");
    seenTexts.push(...(await widgetTexts(page)));
    expectNoJargon(seenTexts.filter(Boolean));
    await context.close();
  });
});

describe("token page details: change, graduation bar, copy, explorer links, times, share card, socials", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    page = await context.newPage();
    await page.goto(tokenUrl);
  });
  afterAll(async () => context?.close());

  it("shows the 24 h change and the graduation progress as a labelled bar", async () => {
    expect(await page.locator("#stat-change-24h").innerText()).toMatch(/^([+-]?\d+\.\d{2} %|—)$/);
    const bar = page.getByRole("progressbar", { name: /% to graduation$/ });
    await expect.poll(() => bar.count()).toBe(1);
    const label = await page.locator("#stat-graduation").innerText();
    expect(label).toMatch(/^\d+\.\d{2} % to graduation$/);
    // The bar's value is the label's percentage (basis points of 10,000).
    expect(Number(await bar.getAttribute("value")) / 100).toBeCloseTo(Number.parseFloat(label), 2);
    expect(await bar.isVisible()).toBe(true);
  });

  it("shows price, market cap, volume and liquidity in ETH and in USD, as the token record", async () => {
    const token = await page.locator("#address-token").innerText();
    const record = (await stack.request(`/api/public/token/${token}`)).body.token as Record<string, any>;
    expect(record.eth_price_usd).not.toBeNull(); // the devnet has its ETH/USD reference pool
    for (const [id, usd] of [
      ["#stat-price-usd", record.price_usd],
      ["#stat-mcap-usd", record.market_cap_usd],
      ["#stat-volume-usd", record.volume_usd],
      ["#stat-liquidity-usd", record.liquidity.total_value_usd],
    ] as const) {
      expect(await page.locator(id).innerText(), id).toBe(`≈ ${usdText(usd)}`);
      expect(await page.locator(id).isVisible()).toBe(true);
    }
    expect(await page.locator("#stat-price").innerText()).toMatch(/ ETH$/);
  });

  it("copies the token, pool and creator addresses", async () => {
    for (const [name, id] of [
      ["Copy token address", "#address-token"],
      ["Copy pool address", "#address-pool"],
      ["Copy creator address", "#address-creator"],
    ] as const) {
      const button = page.getByRole("button", { name, exact: true });
      await clickAndSeeCopied(page, button, name);
      const copied = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
      expect(copied).toBe(await page.locator(id).innerText());
      expect(copied).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
  });

  it("links addresses and trades to the configured explorer", async () => {
    const token = await page.locator("#address-token").innerText();
    const link = page.getByRole("link", { name: "View on explorer (token address)" });
    expect(await link.getAttribute("href")).toBe(`${EXPLORER}/address/${token}`);
    expect(await link.getAttribute("rel")).toContain("noopener");
    const tx = page.locator("#trades tbody tr").first().locator("td").nth(6).getByRole("link");
    expect(await tx.getAttribute("href")).toMatch(new RegExp(`^${EXPLORER}/tx/0x[0-9a-f]{64}$`));
  });

  it("shows trade times relative to now, with the absolute time as a title", async () => {
    const time = page.locator("#trades tbody tr").first().locator("time");
    expect(await time.innerText()).toMatch(/^(just now|\d+ s ago|\d+ min ago|\d+ h ago)$/);
    expect(await time.getAttribute("title")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await page.locator("#trades thead th").first().innerText()).toBe("Time");
  });

  it("shows the socials as icons with names, and the share link", async () => {
    const website = page.getByRole("link", { name: "Website", exact: true });
    expect(await website.getAttribute("href")).toBe("https://example.org/project");
    expect(await website.locator("svg").count()).toBe(1);
    expect(await website.isVisible()).toBe(true);
    const slug = (await stack.request(`/api/public/token/${await page.locator("#address-token").innerText()}`)).body
      .token.slug as string;
    expect(await page.locator(".share").innerText()).toContain(`/t/${slug}`);
    await expectNoOverflow(page, "phone token page after copying");
  });

  it("the /t/{slug} share link leads to the Open Graph and Twitter card tags", async () => {
    const token = await page.locator("#address-token").innerText();
    const slug = (await stack.request(`/api/public/token/${token}`)).body.token.slug as string;
    const res = await page.goto(`${origin}/t/${slug}`);
    expect(res!.url()).toBe(`${origin}/token/${token}`);
    const meta = (key: string) =>
      page.locator(`meta[property="${key}"], meta[name="${key}"]`).first().getAttribute("content");
    expect(await meta("og:title")).toBe("<script>alert(1)</script> (XSS)");
    expect(await meta("og:url")).toMatch(new RegExp(`^https?://[^/]+/t/${slug}$`));
    expect(await meta("og:image")).toMatch(/^https?:\/\/[^/]+\/media\/[0-9a-f]{32}\.png$/);
    expect(await meta("og:description")).toMatch(/^Price .+ ETH, market cap .+ ETH\. <img src=x/);
    expect(await meta("twitter:card")).toBe("summary");
    expect(await meta("twitter:title")).toBe("<script>alert(1)</script> (XSS)");
    // Tag values are attributes, escaped: the hostile name adds no element to the head.
    expect(await page.locator("head script").count()).toBe(0);
  });

  it("remembers the chart resolution across a reload", async () => {
    await page.goto(tokenUrl);
    await page.getByRole("button", { name: "15m", exact: true }).click();
    await chartSettled(page);
    await page.reload();
    await expect
      .poll(() => page.getByRole("button", { name: "15m", exact: true }).getAttribute("aria-pressed"))
      .toBe("true");
    expect(await page.getByRole("button", { name: "1h", exact: true }).getAttribute("aria-pressed")).toBe("false");
    await chartSettled(page);
    expect(await page.locator("#chart-status").innerText()).toBe("");
    // Another token page opens at the same resolution.
    await page.goto(quietTokenUrl);
    await expect
      .poll(() => page.getByRole("button", { name: "15m", exact: true }).getAttribute("aria-pressed"))
      .toBe("true");
  });
});

describe("home page: trending, about to graduate, new, search", () => {
  it("lists the tokens in their sections and finds one by search", async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    for (const heading of ["Trending", "About to graduate", "New launches"])
      expect(await page.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
    // The launched token was traded in the last 24 h; neither token has graduated.
    expect(await page.locator("#trending").innerText()).toContain("<script>alert(1)</script> (XSS)");
    expect(await page.locator("#graduating").innerText()).toContain(`${LONG_NAME} (LONG)`);
    expect(await page.locator("#newest").innerText()).toMatch(/\d+\.\d{2} % to graduation/);
    expect(await page.getByRole("link", { name: "Launch your own token" }).getAttribute("href")).toBe("/launch");

    await page.getByRole("searchbox", { name: "Search tokens" }).fill("LONG");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(`${origin}/?q=LONG`);
    expect(await page.getByRole("heading", { name: "Results for “LONG”" }).isVisible()).toBe(true);
    expect(await page.locator("#results").innerText()).toContain(`${LONG_NAME} (LONG)`);
    await expectNoOverflow(page, "phone home with search results");
    await expectAccessible(page, "phone home with search results");
    await screenshot(page, "home-search");
    await page
      .locator("#results")
      .getByRole("link", { name: `${LONG_NAME} (LONG)` })
      .click();
    await page.waitForURL(quietTokenUrl);

    await page.goto(`${origin}/?q=${encodeURIComponent("no such token zz")}`);
    expect(await page.locator("#no-results").innerText()).toMatch(/^No token matches “no such token zz”\./);
    expect(await page.locator("#no-results a").getAttribute("href")).toBe("/launch");
    await page.goto(`${origin}/?q=${"x".repeat(80)}`);
    expect(await page.locator("main").innerText()).toContain("Search for at most 64 characters.");
    await expectNoOverflow(page, "phone home with a refused search");
    await context.close();
  });
});

describe("wallet chip: address, network, balance, wrong network, disconnect, several wallets", () => {
  it("shows the wrong network with a switch button, then the network and balance, and disconnects", async () => {
    const behaviour = newBehaviour(3);
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await walletPage(context, behaviour);
    await page.goto(`${origin}/launch`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.waitForSelector("#status:has-text('Connected.')");
    const chip = page.getByRole("group", { name: "Connected wallet" });
    const address = stack.wallet(3).account.address;
    await expect.poll(() => chip.innerText()).toContain("Wrong network");
    expect(await chip.innerText()).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`);
    const switchButton = chip.getByRole("button", { name: "Switch to evmchain" });
    expect(await switchButton.isVisible()).toBe(true);
    await expectNoOverflow(page, "phone launch page, wallet on the wrong network");
    await expectAccessible(page, "phone launch page, wallet on the wrong network");
    await switchButton.tap();
    // The wallet did not know the network: it was added, then switched to.
    await expect.poll(() => chip.innerText()).not.toContain("Wrong network");
    expect(behaviour.chainId).toBe("0x1237");
    expect(behaviour.calls.map((c) => c.method)).toEqual(
      expect.arrayContaining(["wallet_addEthereumChain", "wallet_switchEthereumChain"]),
    );
    const balance = formatAmount(await stack.publicClient.getBalance({ address }), 18, 4);
    expect(await chip.innerText()).toMatch(new RegExp(`evmchain\\s+${balance.replace(/[.,]/g, "\\$&")} ETH`));
    expect(await switchButton.isHidden()).toBe(true);
    await expectNoOverflow(page, "phone launch page, wallet connected");
    await expectAccessible(page, "phone launch page, wallet connected");
    await screenshot(page, "launch-connected");

    await chip.getByRole("button", { name: "Disconnect" }).tap();
    await expect.poll(() => page.locator("#status").innerText()).toBe("Disconnected. Connect a wallet to launch.");
    expect(await chip.count()).toBe(0);
    expect(await page.getByRole("button", { name: "Connect wallet" }).isVisible()).toBe(true);
    expect(await page.locator("#launch").isDisabled()).toBe(true);
    // The session forgot the wallet too.
    const session = (await page.evaluate(async () => (await fetch("/api/evm/evmchain/session")).json())) as {
      wallet: string | null;
    };
    expect(session.wallet).toBeNull();
    await context.close();
  });

  it("offers every wallet announced by EIP-6963 and uses the one chosen", async () => {
    const behaviour = newBehaviour(2);
    const context = await browser.newContext();
    const page = await walletPage(context, behaviour);
    await page.addInitScript(() => {
      const g = globalThis as any;
      g.__used = [];
      const wallet = (name: string, uuid: string) => ({
        info: {
          uuid,
          name,
          icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
          rdns: `test.${uuid}`,
        },
        provider: {
          async request({ method, params }: { method: string; params?: unknown[] }) {
            g.__used.push(name);
            return g.ethereum.request({ method, params });
          },
        },
      });
      const wallets = [wallet("Alpha Wallet", "a1"), wallet("Beta Wallet", "b2")];
      const announce = () => {
        for (const w of wallets)
          g.dispatchEvent(new g.CustomEvent("eip6963:announceProvider", { detail: Object.freeze(w) }));
      };
      g.addEventListener("eip6963:requestProvider", announce);
      announce();
    });
    await page.goto(`${origin}/launch`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await expect.poll(() => page.locator("#wallet-choices").innerText()).toMatch(/Choose a wallet:/);
    expect(await page.getByRole("button", { name: "Alpha Wallet" }).isVisible()).toBe(true);
    await expectAccessible(page, "wallet choice");
    await page.getByRole("button", { name: "Beta Wallet" }).click();
    await page.waitForSelector("#status:has-text('Connected.')");
    const used = (await page.evaluate(() => (globalThis as any).__used)) as string[];
    expect(used.length).toBeGreaterThan(0);
    expect(new Set(used)).toEqual(new Set(["Beta Wallet"]));
    await context.close();
  });
});

describe("wallet chip on the token page: connect from the trade widget, wrong network, switch, disconnect", () => {
  for (const [size, viewport, index] of [
    ["phone", PHONE, 8],
    ["desktop", DESKTOP, 9],
  ] as const) {
    it(`${size}: one connection for trading and the creator's fees, the chip in the trade widget`, async () => {
      const behaviour = newBehaviour(index);
      const context = await browser.newContext({ viewport, hasTouch: size === "phone", isMobile: size === "phone" });
      const page = await walletPage(context, behaviour);
      const press = (locator: ReturnType<Page["locator"]>) => (size === "phone" ? locator.tap() : locator.click());
      await page.goto(tokenUrl);
      const chip = page.getByRole("group", { name: "Connected wallet" });
      expect(await chip.count()).toBe(0);
      await press(page.getByRole("button", { name: "Connect wallet to trade" }));
      await expect
        .poll(() => page.locator("#trade-status").innerText(), { timeout: 15_000 })
        .toBe("Connected. Enter an amount and review the trade.");
      const address = stack.wallet(index).account.address;
      // The chip sits in the trade widget: short address, "Wrong network" and a switch button.
      await expect.poll(() => chip.innerText(), { timeout: 15_000 }).toContain("Wrong network");
      expect(await page.locator("#trade").getByRole("group", { name: "Connected wallet" }).count()).toBe(1);
      expect(await chip.innerText()).toContain(short(address));
      const switchButton = chip.getByRole("button", { name: "Switch to evmchain" });
      expect(await switchButton.isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Review buy" }).isVisible()).toBe(true);
      await expectNoOverflow(page, `${size} token page, wallet on the wrong network`);
      await expectAccessible(page, `${size} token page, wallet on the wrong network`);
      await press(switchButton);
      await expect.poll(() => chip.innerText(), { timeout: 15_000 }).not.toContain("Wrong network");
      expect(behaviour.chainId).toBe("0x1237");
      expect(behaviour.calls.map((c) => c.method)).toEqual(
        expect.arrayContaining(["wallet_addEthereumChain", "wallet_switchEthereumChain"]),
      );
      const balance = formatAmount(await stack.publicClient.getBalance({ address }), 18, 4);
      expect(await chip.innerText()).toMatch(new RegExp(`evmchain\\s+${balance.replace(/[.,]/g, "\\$&")} ETH`));
      expect(await switchButton.isHidden()).toBe(true);
      await expectNoOverflow(page, `${size} token page, wallet connected`);
      await expectAccessible(page, `${size} token page, wallet connected`);
      await screenshot(page, "token-connected");

      // The creator's button uses the same connection: no second wallet prompt, no second signature.
      const requestsBefore = behaviour.calls.filter((c) => c.method === "eth_requestAccounts").length;
      await press(page.getByRole("button", { name: "I am the creator: connect wallet" }));
      await expect
        .poll(() => page.locator("#rewards-status").innerText(), { timeout: 15_000 })
        .toBe(`This wallet (${address}) did not create this token; only its creator can claim its fees.`);
      expect(behaviour.calls.filter((c) => c.method === "eth_requestAccounts")).toHaveLength(requestsBefore);
      expect(behaviour.calls.filter((c) => c.method === "personal_sign")).toHaveLength(1);
      await expectNoOverflow(page, `${size} token page, not the creator`);

      await press(chip.getByRole("button", { name: "Disconnect" }));
      await expect
        .poll(() => page.locator("#trade-status").innerText(), { timeout: 15_000 })
        .toBe("Disconnected. Connect a wallet to trade.");
      expect(await chip.count()).toBe(0);
      expect(await page.getByRole("button", { name: "Connect wallet to trade" }).isVisible()).toBe(true);
      expect(await page.locator("#rewards-status").innerText()).toBe("");
      const session = (await page.evaluate(async () => (await fetch("/api/evm/evmchain/session")).json())) as {
        wallet: string | null;
      };
      expect(session.wallet).toBeNull();
      await expectNoOverflow(page, `${size} token page, disconnected`);
      await context.close();
    });
  }

  it("a rejected sign-in on the token page leaves it disconnected, with no chip", async () => {
    const behaviour = newBehaviour(8);
    behaviour.fail.set("personal_sign", { code: 4001, message: "User rejected the request." });
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await walletPage(context, behaviour);
    await page.goto(tokenUrl);
    await page.getByRole("button", { name: "Connect wallet to trade" }).tap();
    await expect
      .poll(() => page.locator("#trade-status").innerText(), { timeout: 15_000 })
      .toBe("You rejected the request in your wallet.");
    expect(await page.getByRole("group", { name: "Connected wallet" }).count()).toBe(0);
    expect(await page.locator("#trade").innerText()).not.toContain(short(stack.wallet(8).account.address));
    expect(await page.getByRole("button", { name: "Connect wallet to trade" }).isVisible()).toBe(true);
    await context.close();
  });
});

describe("top holders on the token page", () => {
  type Holder = { address: string; balance_wei: string; share_bps: number; label: string | null };
  const detail = async (token: string) =>
    (await stack.request(`/api/public/token/${token}`)).body.token as {
      creator: string;
      symbol: string;
      holder_count: number;
      top_holders: Holder[];
    };

  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${size}: each holder's short address, tag, balance and share in %, copy and explorer link`, async () => {
      const context = await browser.newContext({ viewport, hasTouch: size === "phone", isMobile: size === "phone" });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      const page = await context.newPage();
      await page.goto(tokenUrl);
      const token = await page.locator("#address-token").innerText();
      const record = await detail(token);
      const section = page.getByRole("region", { name: "Top holders" });
      expect(await section.getByRole("heading", { name: "Top holders" }).isVisible()).toBe(true);
      const rows = section.getByRole("listitem");
      expect(await rows.count()).toBe(record.top_holders.length);
      expect(record.top_holders.length).toBeGreaterThanOrEqual(3); // the pool, the creator, a buyer
      expect(await page.locator("#holders-summary").innerText()).toBe(
        record.holder_count > record.top_holders.length
          ? `The largest ${record.top_holders.length} of ${record.holder_count} holders, with their share of the total supply.`
          : `All ${record.holder_count} holders, with their share of the total supply.`,
      );
      for (const [i, h] of record.top_holders.entries()) {
        const text = (await rows.nth(i).innerText()).replace(/\s+/g, " ");
        const share = h.share_bps > 0 ? `${(h.share_bps / 100).toString()} %` : "< 0.01 %";
        expect(text).toContain(short(h.address));
        expect(text).toContain(`${formatAmount(h.balance_wei, 18, 2)} ${record.symbol}`);
        expect(text).toMatch(new RegExp(`${share.replace(/[.<]/g, "\\$&")}$`));
        if (h.label === "pool") expect(text).toContain("Pool");
        if (h.address.toLowerCase() === record.creator.toLowerCase()) expect(text).toContain("Creator");
        const link = rows.nth(i).getByRole("link", { name: `Explorer (holder ${i + 1})` });
        expect(await link.getAttribute("href")).toBe(`${EXPLORER}/address/${h.address}`);
      }
      // The largest holder first; the shares sum to at most 100 %.
      const shares = record.top_holders.map((h) => h.share_bps);
      expect([...shares].sort((a, b) => b - a)).toEqual(shares);
      const copy = section.getByRole("button", { name: "Copy address of holder 1", exact: true });
      await clickAndSeeCopied(page, copy, "Copy address of holder 1");
      expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(
        record.top_holders[0]!.address,
      );
      await expectNoOverflow(page, `${size} token page, top holders`);
      await expectAccessible(page, `${size} token page, top holders`);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, "token-holders");
      await context.close();
    });
  }

  it("says when the holders could not be read again after a trade, keeps the rows, and recovers", async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(tokenUrl);
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 }).toBe(LIVE);
    const token = (await page.locator("#address-token").innerText()) as Hex;
    const rowsBefore = await page.locator("#holders li").count();
    // The holders list cannot be read: the connection fails.
    const isHolders = (url: URL) => url.pathname === `/api/public/token/${token}/holders`; // unroute needs this same function
    await page.route(isHolders, (route) => route.abort("connectionfailed"));
    const buyer = stack.wallet(7);
    await buyToken(buyer, stack.publicClient, stack.manifest, token, parseEther("0.01"));
    await expect
      .poll(() => page.locator("#holders-status").innerText(), { timeout: 20_000 })
      .toMatch(
        /^The holders could not be updated: The service could not be reached\. .*The list below is as of \d\d:\d\d:\d\d UTC; it is read again with the next trade\.$/,
      );
    expect(await page.locator("#holders li").count()).toBe(rowsBefore);
    await expectNoOverflow(page, "phone token page, holders not updated");
    await expectAccessible(page, "phone token page, holders not updated");
    await page.unroute(isHolders);
    await buyToken(buyer, stack.publicClient, stack.manifest, token, parseEther("0.01"));
    await expect.poll(() => page.locator("#holders-status").innerText(), { timeout: 20_000 }).toBe("");
    await expect
      .poll(() => page.locator("#holders").innerText(), { timeout: 15_000 })
      .toContain(short(buyer.account.address));
    await context.close();
  });

  it("shows the largest 10, then the next page with Show more holders", async () => {
    const token = tokenUrl.split("/").at(-1) as Hex;
    // Six more wallets buy: more than ten holders.
    for (const index of [1, 2, 3, 4, 8, 9])
      await buyToken(stack.wallet(index), stack.publicClient, stack.manifest, token, parseEther("0.001"));
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    // Wait until every buy is indexed: all six buyers are holders.
    const buyers = [1, 2, 3, 4, 8, 9].map((i) => stack.wallet(i).account.address.toLowerCase());
    await expect
      .poll(
        async () => {
          const listed = (await stack.request(`/api/public/token/${token}/holders?limit=50`)).body.holders as Holder[];
          return buyers.filter((b) => !listed.some((h) => h.address.toLowerCase() === b));
        },
        { timeout: 20_000 },
      )
      .toEqual([]);
    const record = await detail(token);
    expect(record.holder_count).toBeGreaterThan(10);
    await page.goto(tokenUrl);
    const rows = page.locator("#holders li");
    expect(await rows.count()).toBe(10);
    expect(await page.locator("#holders-summary").innerText()).toBe(
      `The largest 10 of ${record.holder_count} holders, with their share of the total supply.`,
    );
    const more = page.getByRole("button", { name: "Show more holders" });
    await more.tap();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(record.holder_count);
    expect(await page.locator("#holders-summary").innerText()).toBe(
      `All ${record.holder_count} holders, with their share of the total supply.`,
    );
    expect(await more.isHidden()).toBe(true);
    // The 11th row is the API's 11th holder, numbered on.
    const all = (await stack.request(`/api/public/token/${token}/holders?limit=50`)).body.holders as Holder[];
    const eleventh = (await rows.nth(10).innerText()).replace(/\s+/g, " ");
    expect(eleventh).toContain(short(all[10]!.address));
    expect(eleventh).toContain(`${formatAmount(all[10]!.balance_wei, 18, 2)} ${record.symbol}`);
    expect(await rows.nth(10).getByRole("button", { name: "Copy address of holder 11" }).count()).toBe(1);
    await expectNoOverflow(page, "phone token page, all holders");
    await expectAccessible(page, "phone token page, all holders");
    await context.close();
  });

  it("a read-again still in flight when Show more holders is pressed does not cut the list back", async () => {
    const token = tokenUrl.split("/").at(-1) as Hex;
    const record = await detail(token);
    expect(record.holder_count).toBeGreaterThan(10); // the test above added holders
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(tokenUrl);
    await expect.poll(() => page.locator("#live-status").innerText(), { timeout: 15_000 }).toBe(LIVE);
    const rows = page.locator("#holders li");
    expect(await rows.count()).toBe(10);
    // The read-again after the next trade is held until the button has been pressed.
    const isReadAgain = (url: URL) =>
      url.pathname === `/api/public/token/${token}/holders` && !url.searchParams.has("cursor");
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const readAgainHeld = new Promise<void>((resolve) => (held = resolve));
    await page.route(isReadAgain, async (route) => {
      held();
      await released;
      await route.continue();
    });
    const holder = stack.wallet(1); // already a holder: the count stays
    await buyToken(holder, stack.publicClient, stack.manifest, token, parseEther("0.001"));
    await readAgainHeld;
    await page.getByRole("button", { name: "Show more holders" }).tap();
    release();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(record.holder_count);
    // One more trade: the list is read again at its full length and stays so.
    await page.unroute(isReadAgain);
    const readAgain = page.waitForResponse((response) => isReadAgain(new URL(response.url())), { timeout: 20_000 });
    await buyToken(holder, stack.publicClient, stack.manifest, token, parseEther("0.001"));
    expect(new URL((await readAgain).url()).searchParams.get("limit")).toBe(String(record.holder_count));
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(record.holder_count);
    expect(await page.locator("#holders-summary").innerText()).toBe(
      `All ${record.holder_count} holders, with their share of the total supply.`,
    );
    await context.close();
  });
});

describe("dark mode (prefers-color-scheme: dark): every page readable, accessible, no overflow", () => {
  for (const [size, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${size}: home, launch, token pages, error page`, async () => {
      const context = await browser.newContext({
        viewport,
        colorScheme: "dark",
        hasTouch: size === "phone",
        isMobile: size === "phone",
      });
      const page = await context.newPage();
      for (const [name, url] of [
        ["home-dark", `${origin}/`],
        ["launch-dark", `${origin}/launch`],
        ["token-dark", tokenUrl],
        ["token-no-trades-dark", quietTokenUrl],
        ["not-found-dark", `${origin}/token/0x0000000000000000000000000000000000000001`],
      ] as const) {
        await page.goto(url);
        if (name.startsWith("token")) await chartSettled(page);
        // The page itself is dark (the stylesheet's dark scheme applies).
        const background = await page.evaluate(
          () => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor,
        );
        expect(background, name).toBe("rgb(15, 20, 25)");
        await expectNoOverflow(page, `${size} ${name}`);
        await expectAccessible(page, `${size} ${name}`);
        if (name === "launch-dark") await expectInputBordersVisible(page);
        if (name === "token-dark") {
          // The chart follows: its background is the dark card colour, its candle the dark green.
          const shot = await page.locator("#chart").screenshot();
          expect((await findPixels(shot, [0x17, 0x1c, 0x23], 0.6)).count).toBeGreaterThan(5000);
          expect((await findPixels(shot, [0xff, 0xff, 0xff], 0.6)).count).toBeLessThan(50);
        }
        await screenshot(page, name);
      }
      await context.close();
    });
  }
});
