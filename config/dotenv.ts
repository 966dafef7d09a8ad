/**
 * Loads `.env` from the working directory into `process.env`, for `npm start` and the operator
 * CLI (imported first, before any module reads the environment). Uses Node's own loader
 * (`process.loadEnvFile`, the parser behind `node --env-file`): variables already set in the real
 * environment win over the file; a missing file is not an error. `npm run ponder` (the production
 * command) gets the same through `node --env-file-if-exists=.env`. The values are validated like
 * any other setting (`config/env.ts`).
 */
import { existsSync } from "node:fs";

/**
 * Loads an env file into `process.env` without overriding variables that are already set.
 * @param path - file path, relative to the working directory (default `.env`)
 * @returns `true` when the file existed and was loaded
 * @throws the file system's error when the file exists but cannot be read
 * @example loadDotEnv() // true when ./.env exists; PORT=8080 in it -> process.env.PORT === "8080" unless PORT was set
 */
function loadDotEnv(path = ".env"): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

loadDotEnv();
