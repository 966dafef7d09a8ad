/**
 * Preload (`node --import`) that counts the SQL statements the process sends through `pg`, by kind
 * (verb + first table), and writes the cumulative counts with a timestamp to `$QUERY_COUNT_FILE`
 * every second (one JSON line each). Bench-only: it measures Ponder's database round trips per
 * live block (bench/README.md "round trips").
 */
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const out = process.env.QUERY_COUNT_FILE;
if (out) {
  const require = createRequire(`${process.cwd()}/`);
  const pg = require("pg");
  const counts = new Map();
  const kindOf = (text) => {
    const sql = String(text).replace(/\s+/g, " ").trim();
    const verb = (sql.match(/^\w+/)?.[0] ?? "?").toLowerCase();
    const table =
      sql.match(/\b(?:update|into|from|table|truncate)\s+((?:"?[\w]+"?\.)?"?[\w]+"?)/i)?.[1]?.replace(/"/g, "") ?? "";
    return `${verb} ${table}`.trim();
  };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    const text = typeof config === "string" ? config : config?.text;
    const kind = kindOf(text ?? "?");
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    return original.call(this, config, ...rest);
  };
  setInterval(() => {
    appendFileSync(out, `${JSON.stringify({ t: Date.now(), counts: Object.fromEntries(counts) })}\n`);
  }, 1000).unref();
}
