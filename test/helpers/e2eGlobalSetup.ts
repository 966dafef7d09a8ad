/**
 * Global set-up of the `e2e` vitest project (vitest.config.ts): runs once per test run, before
 * the first e2e file, in vitest's main process. It makes sure the machine's empty PGlite cluster
 * exists (devnet/pgliteTemplate.ts, the one `npm start` copies too), so the stacks that start side
 * by side copy it instead of each running PGlite's `initdb`.
 */
import { ensurePgliteTemplate } from "../../devnet/pgliteTemplate";

/** Builds the empty PGlite cluster when this machine has none for the pinned PGlite version. */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}
