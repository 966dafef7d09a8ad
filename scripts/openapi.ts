/**
 * Writes the OpenAPI 3.1 document the service serves at `/api/openapi.json` to a file, without a
 * chain or a database (docs/openapi.md): the document is generated from the app's routes, so an app
 * built on placeholder dependencies describes exactly what the service serves. `.ci/run` lints the
 * file with Spectral's `spectral:oas` ruleset (`.spectral.yaml`); the SDK generator reads it too.
 *
 *   npm run openapi -- [--out generated/openapi.json] [--base-url http://localhost:42069]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { placeholderApp } from "../http/openapi/placeholderApp";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "generated/openapi.json" },
    "base-url": { type: "string", default: "http://localhost:42069" },
  },
});

// No request below reaches the database, the store or the RPC: only the document route is called.
const app = placeholderApp(values["base-url"]!.replace(/\/$/, ""));
const res = await app.request("/api/openapi.json");
if (res.status !== 200) throw new Error(`the document route answered ${res.status}`);
const out = resolve(values.out!);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await res.json(), null, 2)}\n`);
console.log(`wrote ${out}`);
process.exit(0);
