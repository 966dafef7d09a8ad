/**
 * Pure parts of the launch write path: the state machine, the safety rule's `tx_hash` exception,
 * the metadata defaults and the `wallet_addEthereumChain` parameters.
 */
import { describe, expect, it } from "vitest";
import { findForbiddenField } from "../api/launch/forbidden";
import { resolveTokenMetadata } from "../api/launch/metadata";
import { addEthereumChainParameter } from "../launch/network";
import { intentExpired, isTerminal, LAUNCH_STATES, nextActions, nextState, TRANSITIONS, type LaunchEvent } from "../launch/states";

describe("launch state machine", () => {
  it("allows exactly the documented transitions", () => {
    const table: Record<string, string | null> = {};
    for (const state of LAUNCH_STATES) {
      for (const event of Object.keys(TRANSITIONS) as LaunchEvent[]) table[`${state} ${event}`] = nextState(state, event);
    }
    expect(Object.fromEntries(Object.entries(table).filter(([, to]) => to !== null))).toEqual({
      "intent_created build": "built",
      "intent_created expire": "expired",
      "built confirm_pending": "submitted",
      "built confirm_verified": "confirmed",
      "built confirm_failed": "failed",
      "submitted confirm_pending": "submitted",
      "submitted confirm_verified": "confirmed",
      "submitted confirm_failed": "failed",
      "failed confirm_pending": "submitted",
      "failed confirm_verified": "confirmed",
      "failed confirm_failed": "failed",
    });
  });

  it("has confirmed and expired as its only terminal states; nothing leaves them", () => {
    expect(LAUNCH_STATES.filter(isTerminal)).toEqual(["confirmed", "expired"]);
    for (const state of ["confirmed", "expired"] as const) {
      for (const event of Object.keys(TRANSITIONS) as LaunchEvent[]) expect(nextState(state, event)).toBeNull();
    }
    expect(nextActions("expired")).toEqual([]);
    expect(nextActions("built")).toEqual(["build", "confirm"]);
  });

  it("expires at expires_at_sec (exclusive)", () => {
    expect(intentExpired(100, 99)).toBe(false);
    expect(intentExpired(100, 100)).toBe(true);
    expect(intentExpired(null, 10 ** 12)).toBe(false);
  });
});

describe("safety rule", () => {
  const hash = `0x${"ab".repeat(32)}`;
  it("accepts a transaction hash in tx_hash only, and still refuses key-shaped values elsewhere", () => {
    expect(findForbiddenField({ tx_hash: hash }, "", { hashFields: ["tx_hash"] })).toBeNull();
    expect(findForbiddenField({ tx_hash: hash })).toMatch(/private key/);
    expect(findForbiddenField({ note: hash }, "", { hashFields: ["tx_hash"] })).toMatch(/private key/);
    expect(findForbiddenField({ tx_hash: "ab".repeat(32) }, "", { hashFields: ["tx_hash"] })).toMatch(/private key/);
    expect(findForbiddenField({ metadata: { tx_hash: hash } }, "", { hashFields: ["tx_hash"] })).toMatch(/private key/);
    expect(findForbiddenField({ tx_hash: hash, factory: "0x1" }, "", { hashFields: ["tx_hash"] })).toMatch(/factory/);
  });
});

describe("token metadata", () => {
  it("uses the creator's values and the platform defaults for omitted fields", () => {
    const base = "https://launch.example";
    expect(resolveTokenMetadata({ name: "Pepe", symbol: "PEPE" }, undefined, base)).toEqual({
      image_url: "https://launch.example/static/token-default.png",
      description: "Pepe (PEPE) launched on evmchain.",
      website_url: null,
      twitter_url: null,
      telegram_url: null,
      is_default: true,
    });
    const stored = { description: null, imageUrl: null, websiteUrl: "https://pepe.example", twitterUrl: null, telegramUrl: null };
    expect(resolveTokenMetadata({ name: "Pepe", symbol: "PEPE" }, stored, base)).toMatchObject({
      description: "Pepe (PEPE) launched on evmchain.",
      website_url: "https://pepe.example",
      is_default: false,
    });
  });
});

describe("wallet_addEthereumChain parameters", () => {
  it("defaults to the deployment RPC and no explorer; honours PUBLIC_RPC_URL, BLOCK_EXPLORER_URL and CHAIN_NAME", () => {
    expect(addEthereumChainParameter(4663, "http://127.0.0.1:8545", {})).toEqual({
      chainId: "0x1237",
      chainName: "evmchain",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: ["http://127.0.0.1:8545"],
    });
    expect(
      addEthereumChainParameter(4663, "http://10.0.0.5:8545", { PUBLIC_RPC_URL: "https://rpc.one.example, https://rpc.two.example", BLOCK_EXPLORER_URL: "https://scan.example", CHAIN_NAME: "Chain" }),
    ).toMatchObject({ chainName: "Chain", rpcUrls: ["https://rpc.one.example", "https://rpc.two.example"], blockExplorerUrls: ["https://scan.example"] });
    expect(() => addEthereumChainParameter(4663, "http://x", { PUBLIC_RPC_URL: "ftp://nope" })).toThrow(/PUBLIC_RPC_URL/);
  });
});
