import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { timeoutScale } from "./test/helpers/deadlines";

/**
 * Three tiers (vitest projects), each runnable alone; `npm test` runs all three. A file's tier is the
 * folder it lives in, never a list (docs/testing.md):
 * - `unit` (`npm run test:unit`, under a minute): `test/unit/` and the `*.test.ts` files beside the
 *   code; no chain and no service process.
 * - `chain` (`npm run test:chain`): `test/chain/`: contracts and the in-process app
 *   (`app.request()`) against a real anvil with the real Uniswap V3 bytecode.
 * - `e2e` (`npm run test:e2e`): `test/e2e/`: the real service process (`ponder start`, `npm start`)
 *   on anvil, PGlite or PostgreSQL, and browsers.
 * Chain-backed tests start their own anvil on a free port, so files run in parallel; the chain
 * project's global set-up (test/helpers/chainGlobalSetup.ts) deploys the stack once per run into a
 * saved chain that each chain file's anvil starts from (test/helpers/chainDevnet.ts); timeouts are
 * generous because a cold devnet deploy and a Ponder start take seconds on a shared machine.
 *
 * Parallelism: `TEST_MAX_FORKS` test files at once (default 4; vitest's own default is one fewer
 * than the cores, i.e. one file at a time on 2 cores). An e2e file spends most of its time waiting
 * for its service to start and index, so several run side by side on 2 cores: idle, the whole
 * suite took 632 s with 2, 492 s with 3 and 462 s with 4 (docs/testing.md).
 *
 * Deadlines: `TEST_TIMEOUT_SCALE` (default 2, test/helpers/deadlines.ts) multiplies the test and
 * hook timeouts, the service start deadline and the deadlines tests set (`scaledMs`); a loaded or
 * slower CI machine raises it instead of editing tests.
 *
 * The e2e project's global set-up (test/helpers/e2eGlobalSetup.ts) makes sure the machine's empty
 * PGlite cluster exists (devnet/pgliteTemplate.ts, made once per PGlite version), which every stack
 * copies instead of running PGlite's `initdb` twice, and deploys the stack once per run into a saved
 * chain (devnet/snapshot.ts) that every default stack's anvil starts from instead of deploying.
 */
const CHAIN = ["test/chain/**/*.test.{ts,tsx}"];
const E2E = ["test/e2e/**/*.test.{ts,tsx}"];
const ALWAYS_EXCLUDED = ["node_modules/**", ".ponder/**", "generated/**"];
const MAX_FORKS = positiveInt("TEST_MAX_FORKS", 4);
const TIMEOUT_SCALE = timeoutScale();

/**
 * The slowest files, slowest first (idle 4-at-once runs: each 1-3.5 min, mostly waiting on chain
 * time by design). They start first so that none of them is left running alone at the end: a
 * fresh clone has no timing cache from an earlier run, and vitest's default order (by cached
 * duration, else by file size) started `e2e.lifecycle` and `e2e.readiness` last, 8.7 min in all
 * against 7.7 min with the cache.
 */
const SLOW_FIRST = [
  "test/e2e/lifecycle.test.ts",
  "test/e2e/readiness.test.ts",
  "test/e2e/faults.test.ts",
  "test/e2e/crash.confirm.test.ts",
  "test/e2e/rpcfault.test.ts",
  "test/e2e/pages.test.ts",
  "test/e2e/prelaunch.test.ts",
  "test/e2e/crash.intent.test.ts",
  "test/e2e/fuzz.test.ts",
];

/** vitest's order (cached durations), with {@link SLOW_FIRST} moved to the front in its order. */
class SlowFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b)); // stable: the rest keep their order
  }
}

/** An integer >= 1 from the environment, or `fallback` when unset; anything else stops the run. */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be an integer >= 1, got "${raw}"`);
  return value;
}

export default defineConfig({
  test: {
    testTimeout: 120_000 * TIMEOUT_SCALE,
    // A hook may start a whole stack (anvil, deploy, service start and catch-up) while other files
    // do the same beside it.
    hookTimeout: 300_000 * TIMEOUT_SCALE,
    pool: "forks",
    sequence: { sequencer: SlowFirstSequencer },
    poolOptions: { forks: { maxForks: MAX_FORKS, minForks: 1 } },
    // The service start deadline (scripts/ponderProcess.ts: startPonder, waitReady, waitIndexed) is
    // 60 s alone; under the suite `TEST_MAX_FORKS` files start services side by side on a shared
    // 2-core machine, so it is 180 s times TEST_TIMEOUT_SCALE. An explicit SERVICE_START_TIMEOUT_MS
    // wins. The workers get the resolved scale for `scaledMs`.
    env: {
      SERVICE_START_TIMEOUT_MS: process.env.SERVICE_START_TIMEOUT_MS || String(Math.round(180_000 * TIMEOUT_SCALE)),
      TEST_TIMEOUT_SCALE: String(TIMEOUT_SCALE),
    },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["**/*.test.{ts,tsx}"], exclude: [...ALWAYS_EXCLUDED, ...CHAIN, ...E2E] },
      },
      {
        extends: true,
        test: {
          name: "chain",
          include: CHAIN,
          exclude: ALWAYS_EXCLUDED,
          globalSetup: ["test/helpers/chainGlobalSetup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
          exclude: ALWAYS_EXCLUDED,
          globalSetup: ["test/helpers/e2eGlobalSetup.ts"],
        },
      },
    ],
  },
});
