/**
 * The app as Ponder serves it: wired to Ponder's read-only database. Loaded only by Ponder (through
 * `src/api/index.ts`); tests build their own app with `createApp`.
 */
import { db } from "ponder:api";
import { createApp } from "./app";

export default createApp({
  db,
  publicBaseUrl: (process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 42069}`).replace(/\/$/, ""),
});
