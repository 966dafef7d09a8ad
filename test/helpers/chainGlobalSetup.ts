/**
 * Global set-up of the `chain` vitest project (vitest.config.ts): runs once per test run, before
 * the first chain file, in vitest's main process. It deploys the stack once and saves the chain
 * (devnet/snapshot.ts) into a temporary folder it provides to the tests as `devnetSnapshotDir`;
 * each chain file's anvil starts from it (`anvil --load-state`, test/helpers/chainDevnet.ts)
 * instead of deploying again. The folder is removed at the end of the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { saveDeployedDevnet } from "../../devnet/snapshot";

declare module "vitest" {
  export interface ProvidedContext {
    /** Folder of the run's saved deployed devnet (devnet/snapshot.ts `readSnapshot`). */
    devnetSnapshotDir: string;
  }
}

/**
 * Saves one deployed devnet for the run.
 * @returns the teardown, which removes the saved devnet
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "launch-chain-devnet-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    await saveDeployedDevnet(dir);
  } catch (err) {
    removeDir();
    throw err;
  }
  project.provide("devnetSnapshotDir", dir);
  return removeDir;
}
