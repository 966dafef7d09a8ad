import { defineConfig } from "vitest/config";

/**
 * Three tiers (vitest projects), each runnable alone; `npm test` runs all three.
 * - `unit` (`npm run test:unit`, under a minute): modules beside the code and the tests in `test/`
 *   that need no chain and no service process.
 * - `chain` (`npm run test:chain`): contracts and the in-process app (`app.request()`) against a
 *   real anvil with the real Uniswap V3 bytecode; named `test/*.routes.test.ts`, plus the files
 *   listed below.
 * - `e2e` (`npm run test:e2e`): the real service process (`ponder start`) on anvil, PGlite or
 *   PostgreSQL, and browsers; named `test/e2e.*.test.ts` or `test/*.e2e.test.ts`, plus the start-up
 *   checks of `npm start` and `ponder start` processes (`test/ops.config.test.ts`).
 * Chain-backed tests start their own anvil on a free port, so files run in parallel; timeouts are
 * generous because a cold devnet deploy and a Ponder start take seconds on a shared machine.
 */
const CHAIN = [
  "test/*.routes.test.ts",
  "test/contracts.test.ts",
  "test/launch.writepath.test.ts",
  "test/smartwallet.test.ts",
  "devnet/anvil.test.ts",
];
const E2E = ["test/e2e.*.test.ts", "test/*.e2e.test.ts", "test/ops.config.test.ts"];
const ALWAYS_EXCLUDED = ["node_modules/**", ".ponder/**", "generated/**"];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // The service start deadline (scripts/ponderProcess.ts: startPonder, waitReady, waitIndexed)
    // doubles under the suite: files run in parallel on a shared 2-core machine. An explicit
    // SERVICE_START_TIMEOUT_MS wins.
    env: { SERVICE_START_TIMEOUT_MS: process.env.SERVICE_START_TIMEOUT_MS || "120000" },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["**/*.test.{ts,tsx}"], exclude: [...ALWAYS_EXCLUDED, ...CHAIN, ...E2E] },
      },
      { extends: true, test: { name: "chain", include: CHAIN, exclude: ALWAYS_EXCLUDED } },
      { extends: true, test: { name: "e2e", include: E2E, exclude: ALWAYS_EXCLUDED } },
    ],
  },
});
