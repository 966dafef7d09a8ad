/**
 * Global set-up of the `e2e` vitest project (vitest.config.ts): runs once per test run, before
 * the first e2e file, in vitest's main process. It initialises one empty PGlite cluster
 * (`pgliteTemplate.ts`) in a temporary folder, provides its path to the test files, and removes
 * the folder after the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createPgliteTemplate, PGLITE_TEMPLATE_KEY } from "./pgliteTemplate";

/**
 * Creates the PGlite template and provides it as `pgliteTemplateDir`.
 * @param project - the e2e project (vitest passes it)
 * @returns the teardown, which deletes the template folder
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "launch-e2e-template-"));
  const template = join(dir, "pglite");
  await createPgliteTemplate(template);
  project.provide(PGLITE_TEMPLATE_KEY, template);
  return () => rmSync(dir, { recursive: true, force: true });
}
