/**
 * Pure parts of the launch write path: the state machine, the safety rule's `tx_hash` exception,
 * the metadata defaults and the `wallet_addEthereumChain` parameters.
 */
import { describe, expect, it } from "vitest";
import { findForbiddenField } from "../../http/middleware/forbidden";
import { resolveTokenMetadata } from "../../market/metadata";
import { addEthereumChainParameter, hasPublicRpc } from "../../chain/network";
import { loadDeployment } from "../../config/deployment";
import { loadEnv } from "../../config/env";
import { loadPublicConfig, publicConfigOf } from "../../config/public";
import { redactPrivateUrls, REDACTED_URL } from "../../config/redact";
import {
  intentExpired,
  isTerminal,
  LAUNCH_STATES,
  nextActions,
  nextState,
  TRANSITIONS,
  type LaunchEvent,
} from "../../src/domain/launchStates";

describe("launch state machine", () => {
  it("allows exactly the documented transitions", () => {
    const table: Record<string, string | null> = {};
    for (const state of LAUNCH_STATES) {
      for (const event of Object.keys(TRANSITIONS) as LaunchEvent[])
        table[`${state} ${event}`] = nextState(state, event);
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
    const base = { publicBaseUrl: "https://launch.example", publicConfig: loadPublicConfig({}) };
    expect(resolveTokenMetadata({ name: "Pepe", symbol: "PEPE" }, undefined, base)).toEqual({
      image_url: "https://launch.example/static/token-default.png",
      description: "Pepe (PEPE) launched on evmchain.",
      website_url: null,
      twitter_url: null,
      telegram_url: null,
      is_default: true,
    });
    const stored = {
      description: null,
      imageUrl: null,
      websiteUrl: "https://pepe.example",
      twitterUrl: null,
      telegramUrl: null,
    };
    expect(resolveTokenMetadata({ name: "Pepe", symbol: "PEPE" }, stored, base)).toMatchObject({
      description: "Pepe (PEPE) launched on evmchain.",
      website_url: "https://pepe.example",
      is_default: false,
    });
  });
});

describe("wallet_addEthereumChain parameters", () => {
  it("serves PUBLIC_RPC_URL only (no fallback: an empty list without it), no explorer by default; honours BLOCK_EXPLORER_URL and CHAIN_NAME", () => {
    expect(addEthereumChainParameter(4663, {})).toEqual({
      chainId: "0x1237",
      chainName: "evmchain",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: [],
    });
    expect(hasPublicRpc(addEthereumChainParameter(4663, {}))).toBe(false);
    expect(addEthereumChainParameter(4663, { PUBLIC_RPC_URL: "http://127.0.0.1:8545" }).rpcUrls).toEqual([
      "http://127.0.0.1:8545",
    ]);
    expect(
      addEthereumChainParameter(4663, {
        PUBLIC_RPC_URL: "https://rpc.one.example, https://rpc.two.example",
        BLOCK_EXPLORER_URL: "https://scan.example",
        CHAIN_NAME: "Chain",
      }),
    ).toMatchObject({
      chainName: "Chain",
      rpcUrls: ["https://rpc.one.example", "https://rpc.two.example"],
      blockExplorerUrls: ["https://scan.example"],
    });
    expect(() => addEthereumChainParameter(4663, { PUBLIC_RPC_URL: "ftp://nope" })).toThrow(/PUBLIC_RPC_URL/);
  });

  it("never publishes a production RPC_URL: the parsed configuration without PUBLIC_RPC_URL serves no RPC URL", () => {
    const secret = "https://rpc.provider.example/v3/0123456789abcdef?apikey=SECRET-4663";
    const production = {
      LAUNCH_FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      RPC_URL: secret,
      START_BLOCK: "1",
      FEE_LOCKER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      PROTOCOL_FEE_RECIPIENT: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      WETH_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      UNISWAP_V3_FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      NONFUNGIBLE_POSITION_MANAGER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      SWAP_ROUTER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      QUOTER_V2_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    };
    const env = loadEnv(production);
    expect(env.RPC_URL).toBe(secret);
    expect(env.PUBLIC_RPC_URL).toBeUndefined();
    const deployment = loadDeployment(production);
    expect(deployment.rpcUrl).toBe(secret);
    const network = addEthereumChainParameter(deployment.chainId, publicConfigOf(env).network);
    expect(network.rpcUrls).toEqual([]);
    expect(JSON.stringify(network)).not.toContain("SECRET");
    expect(
      addEthereumChainParameter(
        deployment.chainId,
        publicConfigOf(loadEnv({ ...production, PUBLIC_RPC_URL: "https://public.example" })).network,
      ).rpcUrls,
    ).toEqual(["https://public.example"]);
  });
});

describe("redactPrivateUrls", () => {
  const url = "https://user:pw-12345678@rpc.provider.example/v3/0123456789abcdef?apikey=SECRET-4663";
  it("hides a private URL in any form viem or a log prints it, and its secret parts on their own", () => {
    const viemLike = `HTTP request failed.\n\nURL: https://rpc.provider.example/v3/0123456789abcdef?apikey=SECRET-4663\nRequest body: {}`;
    for (const text of [
      url,
      viemLike,
      `key SECRET-4663 in apikey=SECRET-4663`,
      `path /v3/0123456789abcdef`,
      `password pw-12345678`,
    ]) {
      const out = redactPrivateUrls(text, [url]);
      expect(out).not.toMatch(/SECRET-4663|0123456789abcdef|pw-12345678/);
    }
    expect(redactPrivateUrls(viemLike, [url])).toContain(`URL: ${REDACTED_URL}`);
  });

  it("leaves ordinary text alone (short parts such as /rpc are not secrets)", () => {
    expect(redactPrivateUrls("no route for GET /rpc/x", ["http://127.0.0.1:8545/rpc"])).toBe("no route for GET /rpc/x");
    expect(redactPrivateUrls("nothing to hide", [])).toBe("nothing to hide");
  });
});
