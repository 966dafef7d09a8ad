/**
 * The allowed import directions between the project's folders (ARCHITECTURE "layer per folder";
 * docs/architecture.md shows the table). Checked in CI by `npm run check:imports`.
 * Each layer imports only the layers below it:
 *   src/domain <- config <- chain, store, feeds, media <- market <- launches <- http <- entry shims
 * and `ops/` (metrics, readiness, every reach into Ponder or Node internals) is imported only by
 * `http/` and `scripts/`. Nothing below `http/` imports Hono. Tests, benchmarks and scripts may
 * import anything.
 */
const BELOW_HTTP = "^(src|market|launches|chain|store|feeds|media|config)/";

/** A rule forbidding imports from `from` to anything outside `allowed` (both path regexes). */
function onlyImports(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from },
    to: { pathNot: [`^(${allowed.join("|")})`, "^node_modules/", "^ponder:"], dependencyTypesNot: ["core"] },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycles, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-hono-below-http",
      comment: "Read models, use cases, chain code and stores take plain inputs: no Hono Context below http/.",
      severity: "error",
      from: { path: BELOW_HTTP },
      to: { path: "^node_modules/hono(-openapi|-rate-limiter)?/|^node_modules/@hono/" },
    },
    {
      name: "http-only-from-entry",
      comment: "Nothing imports http/ but Ponder's API entry shim, scripts, benchmarks and tests.",
      severity: "error",
      from: { pathNot: "^(http|src/api|scripts|bench|test|pages)/" },
      to: { path: "^http/" },
    },
    {
      name: "ops-only-from-http-and-scripts",
      comment: "ops/ (metrics, readiness, Ponder and Node internals) is reached through http/ and scripts/ only.",
      severity: "error",
      from: { pathNot: "^(ops|http|src/api|scripts|bench|test|devnet)/" },
      to: { path: "^ops/" },
    },
    onlyImports("domain-is-pure", "^src/domain/", ["src/domain/"], "Pure math and rules import nothing of ours."),
    onlyImports(
      "indexing-imports-domain",
      "^src/indexing/",
      ["src/domain/", "src/indexing/", "config/", "abis/", "ponder\\.schema\\.ts$", "ponder\\.config\\.ts$"],
      "Indexing handlers use only the domain, config, ABIs and the schema.",
    ),
    onlyImports(
      "chain-is-viem-only",
      "^chain/",
      ["chain/", "src/domain/", "config/", "abis/"],
      "chain/ builds and verifies transactions with viem: no store, no HTTP.",
    ),
    onlyImports("store-below-market", "^store/", ["store/", "src/domain/", "config/"], "Data access only."),
    onlyImports("feeds-are-renderers", "^feeds/", ["feeds/", "src/domain/", "config/"], "Pure renderers."),
    onlyImports("media-is-sanitiser", "^media/", ["media/", "src/domain/", "config/"], "Pure sanitiser."),
    onlyImports(
      "market-reads",
      "^market/",
      ["market/", "store/", "src/domain/", "config/", "abis/", "ponder\\.schema\\.ts$"],
      "Read models: plain inputs, typed rows.",
    ),
    onlyImports(
      "launches-use-cases",
      "^launches/",
      ["launches/", "chain/", "store/", "market/", "media/", "src/domain/", "config/", "abis/", "ponder\\.schema\\.ts$"],
      "Launch and swap use cases: typed results, no HTTP.",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.ponder|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
    moduleSystems: ["es6", "cjs"],
  },
};
