/**
 * The committed `abis/*.ts` modules must equal a fresh compile (run `npm run compile` after
 * changing a contract or upgrading a Uniswap/OpenZeppelin package).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildAbiModules, projectRoot } from "../../scripts/compile.js";

describe("abis/", () => {
  const fresh = buildAbiModules();

  it("has exactly the generated modules", () => {
    const committed = readdirSync(path.join(projectRoot, "abis"))
      .filter((f) => f.endsWith(".ts"))
      .sort();
    expect(committed).toEqual([...fresh.keys()].sort());
  });

  for (const [file, text] of fresh) {
    it(`${file} matches a fresh compile`, () => {
      const committed = readFileSync(path.join(projectRoot, "abis", file), "utf8");
      // Compare without a full dump on failure: a bytecode diff is unreadable anyway.
      expect(committed === text, `abis/${file} is stale: run \`npm run compile\``).toBe(true);
    });
  }

  it("produces identical output on a second run", () => {
    expect(buildAbiModules()).toEqual(fresh);
  });

  it("exports the expected names", async () => {
    const factory = await import("../../abis/LaunchFactory.js");
    const weth = await import("../../abis/WETH9.js");
    const pool = await import("../../abis/UniswapV3Pool.js");
    expect(Object.keys(factory).sort()).toEqual(["launchFactoryAbi", "launchFactoryBytecode"]);
    expect(weth.weth9Bytecode.startsWith("0x60")).toBe(true);
    expect(Object.keys(pool)).toEqual(["uniswapV3PoolAbi"]);
  });
});
