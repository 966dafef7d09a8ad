/**
 * The operation descriptions (api/openapi/descriptions.ts) against the document the app generates:
 * every operation has one, and every entry of the table names an operation (no stale entry).
 */
import { createPublicClient, http, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import type { MarketDb } from "../market/db";
import { OPERATION_DESCRIPTIONS } from "./descriptions";

async function generatedDocument() {
  const deployment = {
    chainId: 4663,
    rpcUrl: "http://127.0.0.1:8545",
    startBlock: 0,
    protocolFeeRecipient: zeroAddress,
    contracts: {
      weth: zeroAddress,
      uniswapV3Factory: zeroAddress,
      nonfungiblePositionManager: zeroAddress,
      swapRouter: zeroAddress,
      quoterV2: zeroAddress,
      launchFactory: zeroAddress,
      feeLocker: zeroAddress,
    },
    launchFactory: { minimumPoolLiquidityWei: "0", startTick: 0, poolFee: 10_000, tickSpacing: 200 },
    acceptedFactories: [zeroAddress],
  };
  // Only the document route is called: the database, store and RPC are never reached.
  const app = createApp({
    db: {} as MarketDb,
    publicBaseUrl: "http://localhost:42069",
    store: new Promise(() => {}),
    deployment,
    publicClient: createPublicClient({ transport: http(deployment.rpcUrl) }),
  });
  const res = await app.request("/api/openapi.json");
  return (await res.json()) as { paths: Record<string, Record<string, { description?: string }>> };
}

describe("operation descriptions", () => {
  it("describe every operation of the generated document, and name no operation it lacks", async () => {
    const doc = await generatedDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.filter(({ op }) => !op.description?.trim()).map(({ key }) => key)).toEqual([]);
    const keys = new Set(operations.map(({ key }) => key));
    expect(Object.keys(OPERATION_DESCRIPTIONS).filter((key) => !keys.has(key))).toEqual([]);
  });
});
