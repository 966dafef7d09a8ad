/**
 * drizzle-kit configuration of the offchain store (`npm run store:generate`): reads
 * `store/schema.ts` and writes versioned SQL migrations to `store/migrations/`. The SQL is
 * schema-less on purpose; `openStore` runs it with `search_path` set to `STORE_SCHEMA`.
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./store/schema.ts",
  out: "./store/migrations",
});
