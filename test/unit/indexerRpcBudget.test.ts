/**
 * The provider budget settings (`INDEXER_RPC_MAX_RPS`, `INDEXER_RPC_START_RPS`; config/indexerRpc.ts):
 * validated like every setting, and turned into the per-URL variables the patched Ponder reads.
 * The limiter's behaviour under them is tested on Ponder's real RPC client in
 * `test/unit/ponderPatch.test.ts`.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "../../config/env";
import { indexerRpcUrls, rpcBudgetEnv } from "../../config/indexerRpc";

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
});
