import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidManifestError, readManifest, writeManifest, type DeploymentManifest } from "./manifest.js";

const dir = mkdtempSync(path.join(tmpdir(), "manifest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lower = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const checksummed = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

const manifest: DeploymentManifest = {
  chainId: 4663,
  rpcUrl: "http://127.0.0.1:8545",
  startBlock: 1,
  protocolFeeRecipient: lower,
  contracts: {
    weth: lower,
    uniswapV3Factory: lower,
    nonfungiblePositionManager: lower,
    swapRouter: lower,
    quoterV2: lower,
    launchFactory: lower,
    feeLocker: lower,
  },
  launchFactory: { minimumPoolLiquidityWei: "1000000000000000", startTick: -196000, poolFee: 10000, tickSpacing: 200 },
  acceptedFactories: [lower],
};

describe("manifest", () => {
  it("round-trips with checksummed addresses", () => {
    const file = path.join(dir, "nested", "manifest.json");
    writeManifest(file, manifest);
    const read = readManifest(file);
    expect(read.contracts.weth).toBe(checksummed);
    expect(read.protocolFeeRecipient).toBe(checksummed);
    expect(read.acceptedFactories).toEqual([checksummed]);
    expect(read.launchFactory).toEqual(manifest.launchFactory);
    expect(read.startBlock).toBe(1);
  });

  it("rejects a manifest with a missing or malformed field", () => {
    const missing = path.join(dir, "missing.json");
    writeFileSync(missing, JSON.stringify({ ...manifest, contracts: undefined }));
    expect(() => readManifest(missing)).toThrow(InvalidManifestError);
    const malformed = path.join(dir, "malformed.json");
    writeFileSync(malformed, JSON.stringify({ ...manifest, contracts: { ...manifest.contracts, weth: "0x1234" } }));
    expect(() => readManifest(malformed)).toThrow(InvalidManifestError);
  });
});
