/**
 * Global set-up of the `e2e` vitest project (vitest.config.ts): runs once per test run, before
 * the first e2e file, in vitest's main process.
 * - It makes sure the machine's empty PGlite cluster exists (devnet/pgliteTemplate.ts, the one
 *   `npm start` copies too), so the stacks that start side by side copy it instead of each running
 *   PGlite's `initdb`.
 * - It deploys the stack once and saves the chain (devnet/snapshot.ts) into a temporary folder it
 *   provides to the tests as `devnetSnapshotDir`; each stack's anvil starts from it
 *   (`anvil --load-state`, test/helpers/harness.ts) instead of deploying again. The folder is removed at the
 *   end of the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensurePgliteTemplate } from "../../devnet/pgliteTemplate";
import { saveDeployedDevnet } from "../../devnet/snapshot";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of the run's saved deployed devnet (devnet/snapshot.ts `readSnapshot`). */
    devnetSnapshotDir: string;
  }
}

/**
 * Builds the empty PGlite cluster when this machine has none for the pinned PGlite version, and
 * saves one deployed devnet for the run.
 * @returns the teardown, which removes the saved devnet
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "launch-e2e-devnet-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    await Promise.all([ensurePgliteTemplate(), saveDeployedDevnet(dir)]);
  } catch (err) {
    removeDir();
    throw err;
  }
  project.provide("devnetSnapshotDir", dir);
  return removeDir;
}
