/**
 * The deployed devnet of a chain-tier file: an anvil of its own, started from the chain the
 * project's global set-up deployed once for the run (test/helpers/chainGlobalSetup.ts), so a file
 * pays an `anvil --load-state` instead of a full deploy. Each file still has its own node: what
 * one file mines, launches or sets never reaches another.
 */
import { inject } from "vitest";
import type { AnvilInstance } from "../../devnet/anvil";
import type { DeploymentManifest } from "../../devnet/manifest";
import { readSnapshot, startSavedDevnet } from "../../devnet/snapshot";

/**
 * Starts anvil on the run's saved deployed devnet.
 * @returns the node and the deployment manifest with the node's RPC URL (`deploymentSchema.parse`
 *   it for a `Deployment`)
 * @throws Error when the project has no saved devnet (a file run outside the `chain` project)
 */
export async function startDeployedDevnet(): Promise<{ anvil: AnvilInstance; manifest: DeploymentManifest }> {
  const dir = inject("devnetSnapshotDir");
  if (!dir) throw new Error("no saved devnet: run chain-tier files with `vitest run --project chain`");
  return startSavedDevnet(readSnapshot(dir));
}
