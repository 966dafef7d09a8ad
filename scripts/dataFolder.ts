/**
 * The devnet's data folders (PGlite, offchain store) are cleared at each `npm start`: a new
 * devnet has a new history.
 */
import { rmSync } from "node:fs";

/** Thrown when a data folder cannot be cleared; the message says which and what to do. */
export class DataFolderError extends Error {
  override name = "DataFolderError" as const;
}

/**
 * Removes a devnet data folder (possibly half-written by a killed run), retrying while a process
 * that is ending still writes into it (ENOTEMPTY, EBUSY).
 * @throws {DataFolderError} naming the folder and the error code, without a stack trace
 */
export function clearDataFolder(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new DataFolderError(
      `could not clear the data folder ${dir} (${code}): another process may still write into it; stop it, or delete the folder, then start again`,
    );
  }
}
