export {};

/**
 * `npm run bench -- <name> [flags]`: runs one benchmark from `bench/` (kept out of `npm test`).
 * Benchmarks: `backfill`, `live`, `read`, `build`, `search`, `scale`, `scale-live`, `rewards`, `compression`, `rpc`.
 */
const name = process.argv[2];
const benchmarks: Record<string, () => Promise<unknown>> = {
  backfill: () => import("./backfill"),
  live: () => import("./live"),
  read: () => import("./read"),
  build: () => import("./build"),
  search: () => import("./search"),
  scale: () => import("./scale"),
  "scale-live": () => import("./scaleLive"),
  rewards: () => import("./rewards"),
  compression: () => import("./compression"),
  rpc: () => import("./rpc"),
  webhooks: () => import("./webhooks"),
};
const run = name ? benchmarks[name] : undefined;
if (!run) {
  console.error(`usage: npm run bench -- <${Object.keys(benchmarks).join("|")}> [flags]`);
  process.exit(2);
}
await run();
