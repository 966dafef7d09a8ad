/**
 * The provider budget settings (`INDEXER_RPC_MAX_RPS`, `INDEXER_RPC_START_RPS`; config/indexerRpc.ts):
 * validated like every setting, and turned into the per-URL variables the patched Ponder reads.
 * The limiter's behaviour under them is tested on Ponder's real RPC client in
 * `test/unit/ponderPatch.test.ts`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadEnv } from "../../config/env";
import { indexerRpcUrls, privateIndexerUrls, rpcBudgetEnv } from "../../config/indexerRpc";

describe("indexer RPC budget settings", () => {
  it("are unset by default, which leaves Ponder's adaptive limit (safe for public RPCs)", () => {
    const env = loadEnv({});
    expect(rpcBudgetEnv(env, 1)).toEqual({});
  });

  it("give one rate to every URL, or one per URL, and start at the max unless told", () => {
    expect(rpcBudgetEnv(loadEnv({ INDEXER_RPC_MAX_RPS: "300" }), 2)).toEqual({ PONDER_RPC_MAX_RPS: "300,300" });
    expect(rpcBudgetEnv(loadEnv({ INDEXER_RPC_MAX_RPS: "300, 50", INDEXER_RPC_START_RPS: "100,50" }), 2)).toEqual({
      PONDER_RPC_MAX_RPS: "300,50",
      PONDER_RPC_START_RPS: "100,50",
    });
  });

  it.each([["0"], ["-5"], ["1.5"], ["fast"], ["100,"], ["100000000"]])("rejects INDEXER_RPC_MAX_RPS=%j", (value) => {
    expect(() => loadEnv({ INDEXER_RPC_MAX_RPS: value })).toThrow(/INDEXER_RPC_MAX_RPS: must be requests\/s/);
  });

  it("rejects a list whose length is neither 1 nor the URL count, and a start above the max", () => {
    const three = loadEnv({ INDEXER_RPC_MAX_RPS: "100,100,100" });
    expect(() => rpcBudgetEnv(three, 2)).toThrow(ConfigError);
    expect(() => rpcBudgetEnv(three, 2)).toThrow(/lists 3 rates for 2 RPC URL/);
    const above = loadEnv({ INDEXER_RPC_MAX_RPS: "100", INDEXER_RPC_START_RPS: "150" });
    expect(() => rpcBudgetEnv(above, 1)).toThrow(/INDEXER_RPC_START_RPS: must not exceed INDEXER_RPC_MAX_RPS/);
  });

  it("counts the URLs as ponder.config.ts gives them to Ponder", () => {
    expect(indexerRpcUrls(loadEnv({ INDEXER_RPC_URLS: "http://a:1, http://b:2," }), "http://c:3")).toEqual([
      "http://a:1",
      "http://b:2",
    ]);
    expect(indexerRpcUrls(loadEnv({}), "http://c:3")).toEqual(["http://c:3"]);
  });

  describe("ponder.config.ts", () => {
    const production = {
      LAUNCH_FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      RPC_URL: "https://rpc.example",
      START_BLOCK: "1",
      FEE_LOCKER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      PROTOCOL_FEE_RECIPIENT: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      WETH_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      UNISWAP_V3_FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      NONFUNGIBLE_POSITION_MANAGER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      SWAP_ROUTER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      QUOTER_V2_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      INDEXER_RPC_URLS: "https://a.example,https://b.example",
      INDEXER_RPC_MAX_RPS: "300,150",
      INDEXER_RPC_START_RPS: "",
      PONDER_RPC_MAX_RPS: undefined,
      PONDER_RPC_START_RPS: undefined,
    };
    const saved = Object.fromEntries(Object.keys(production).map((name) => [name, process.env[name]]));
    afterEach(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it("hands the budget, one rate per URL, to the patched Ponder before it builds its RPC clients", async () => {
      for (const [name, value] of Object.entries(production)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      vi.resetModules();
      const config = (await import("../../ponder.config")).default as unknown as {
        chains: { evmchain: { rpc: unknown } };
      };
      expect(config.chains.evmchain.rpc).toEqual(["https://a.example", "https://b.example"]);
      expect(process.env.PONDER_RPC_MAX_RPS).toBe("300,150");
      expect(process.env.PONDER_RPC_START_RPS).toBeUndefined();
    });
  });

  it("accepts INDEXER_WS_URL as ws:// or wss:// only, and keeps it private with the indexer's RPC URLs", () => {
    expect(() => loadEnv({ INDEXER_WS_URL: "https://rpc.example/ws" })).toThrow(
      /INDEXER_WS_URL: must be a ws:\/\/ or wss:\/\/ URL/,
    );
    const env = loadEnv({
      INDEXER_RPC_URLS: "https://a.example/v3/k1, https://b.example",
      INDEXER_WS_URL: "wss://a.example/ws/k1",
    });
    expect(privateIndexerUrls(env)).toEqual(["https://a.example/v3/k1", "https://b.example", "wss://a.example/ws/k1"]);
    expect(privateIndexerUrls(loadEnv({}))).toEqual([]);
  });
});
