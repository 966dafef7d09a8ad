import { defineConfig } from "vitest/config";

/**
 * Unit tests live beside the code (`*.test.ts`); anvil-backed contract tests and end-to-end tests
 * live in `test/`. Chain-backed tests start their own anvil on a free port, so files may run in
 * parallel; timeouts are generous because a cold devnet deploy and a Ponder start take seconds.
 */
export default defineConfig({
  test: {
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", ".ponder/**", "generated/**"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // The service start deadline (scripts/ponderProcess.ts: startPonder, waitReady, waitIndexed)
    // doubles under the suite: files run in parallel on a shared 2-core machine. An explicit
    // SERVICE_START_TIMEOUT_MS wins.
    env: { SERVICE_START_TIMEOUT_MS: process.env.SERVICE_START_TIMEOUT_MS || "120000" },
  },
});
