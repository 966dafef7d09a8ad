/**
 * A deployed devnet saved to a folder once and started from it many times: the e2e tests deploy
 * the stack once per run (test/helpers/e2eGlobalSetup.ts) and every stack's anvil then starts
 * from the saved chain (`anvil --load-state`) instead of deploying again.
 *
 * The folder holds `state.json` (anvil's dump of the chain, with the states at past blocks) and
 * `devnet.json` (the deployment manifest without an RPC URL, and the saved head).
 * Invariant: a restored node is the same chain as the saved one (same block hashes, logs, and
 * calls at every saved block answer), and new blocks go on top of the saved head.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, http, type Hash } from "viem";
import { startAnvil, type AnvilInstance, type StartAnvilOptions } from "./anvil";
import { deployStack, type DeployStackOptions } from "./deploy";
import { normalizeManifest, type DeploymentManifest } from "./manifest";

/** What `saveDeployedDevnet` wrote: where the chain is, its deployment, and its head when saved. */
export type DevnetSnapshot = {
  /** anvil's state file (`--load-state`). */
  stateFile: string;
  /** The deployment on the saved chain; `rpcUrl` is empty (a restored node has a URL of its own). */
  manifest: DeploymentManifest;
  /** The saved head: its number and hash. */
  head: { number: number; hash: Hash };
};

const STATE_FILE = "state.json";
const DESCRIPTION_FILE = "devnet.json";

/**
 * Starts anvil, deploys the stack (`deployStack`), stops anvil so that it writes its chain to
 * `dir`, and describes the result in `dir/devnet.json`.
 * @param dir - folder to write into (created when missing)
 * @param deployOptions - `deployStack` options other than the RPC URL (e.g. `ethUsdReference`)
 * @returns the snapshot (as `readSnapshot(dir)` returns it)
 * @throws AnvilStartError, DeploymentFailedError; Error when anvil wrote no state file
 */
export async function saveDeployedDevnet(
  dir: string,
  deployOptions: Omit<DeployStackOptions, "rpcUrl"> = {},
): Promise<DevnetSnapshot> {
  mkdirSync(dir, { recursive: true });
  const stateFile = join(dir, STATE_FILE);
  const anvil = await startAnvil({ dumpStateFile: stateFile });
  let snapshot: DevnetSnapshot;
  try {
    const manifest = await deployStack({ ...deployOptions, rpcUrl: anvil.rpcUrl });
    const block = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlock({ blockTag: "latest" });
    snapshot = {
      stateFile,
      manifest: { ...manifest, rpcUrl: "" },
      head: { number: Number(block.number), hash: block.hash },
    };
  } finally {
    await anvil.stop(); // anvil writes the state file as it exits
  }
  if (!existsSync(stateFile)) throw new Error(`anvil wrote no state file at ${stateFile}`);
  writeFileSync(join(dir, DESCRIPTION_FILE), `${JSON.stringify(snapshot, null, 2)}\n`);
  return snapshot;
}

/**
 * Reads what `saveDeployedDevnet` wrote to `dir`.
 * @throws Error when `dir` holds no snapshot or the manifest has a malformed address
 */
export function readSnapshot(dir: string): DevnetSnapshot {
  const file = join(dir, DESCRIPTION_FILE);
  if (!existsSync(file)) throw new Error(`no saved devnet in ${dir} (${DESCRIPTION_FILE} missing)`);
  const saved = JSON.parse(readFileSync(file, "utf8")) as DevnetSnapshot;
  // normalizeManifest checks the fields; the RPC URL is filled in by startSavedDevnet.
  return { ...saved, manifest: normalizeManifest({ ...saved.manifest, rpcUrl: "" }) };
}

/**
 * Starts anvil on the saved chain.
 * @param snapshot - from `readSnapshot` or `saveDeployedDevnet`
 * @param options - other anvil options (port, block time, ...); not `loadStateFile`/`dumpStateFile`
 * @returns the node and the deployment manifest with the node's RPC URL
 * @throws AnvilStartError
 */
export async function startSavedDevnet(
  snapshot: DevnetSnapshot,
  options: Omit<StartAnvilOptions, "loadStateFile" | "dumpStateFile"> = {},
): Promise<{ anvil: AnvilInstance; manifest: DeploymentManifest }> {
  const anvil = await startAnvil({ ...options, loadStateFile: snapshot.stateFile });
  return { anvil, manifest: { ...snapshot.manifest, rpcUrl: anvil.rpcUrl } };
}
