/**
 * The allowed import directions between the project's folders (ARCHITECTURE "layer per folder";
 * docs/architecture.md shows the table). Checked in CI by `npm run check:imports`.
 * Each layer imports only the layers below it:
 *   src/domain <- config <- chain, store, feeds, media <- market <- launches <- http <- entry shims
 * and `ops/` (metrics, readiness, every reach into Ponder or Node internals) is imported only by
 * `http/`, `pages/` and `scripts/`, with one exception: the read models read Ponder's checkpoint
 * through `ops/ponderInternals.ts`, the one seam that knows its format, and the background workers
 * (`launches/`, `webhooks/`) share one timer loop, `ops/backgroundLoop.ts`. Nothing below `http/`
 * imports Hono. `sdk/` (the published client) imports nothing of the service. Tests (`*.test.ts`, `test/`), benchmarks, the devnet and scripts may import anything.
 */
const TESTS = "\\.test\\.tsx?$";
const BELOW_HTTP = "^(src|market|launches|webhooks|chain|store|feeds|media|config)/";

/** A rule forbidding imports from `from` to anything outside `allowed` (both path regexes). */
function onlyImports(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from, pathNot: TESTS },
    to: { pathNot: [`^(${allowed.join("|")})`, "(^|/)node_modules/", "^ponder:"], dependencyTypesNot: ["core"] },
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
      from: { path: BELOW_HTTP, pathNot: TESTS },
      to: { path: "(^|/node_modules/|^node_modules/)(hono|hono-openapi|hono-rate-limiter|@hono/[^/]+)(/|$)" },
    },
    {
      name: "http-only-from-entry",
      comment: "Nothing imports http/ but Ponder's API entry shim, scripts, benchmarks and tests.",
      severity: "error",
      from: { pathNot: ["^(http|src/api|scripts|bench|test|pages)/", TESTS] },
      to: { path: "^http/" },
    },
    {
      name: "ops-only-from-http-and-scripts",
      comment:
        "ops/ (metrics, readiness, Ponder and Node internals) is reached through http/, pages/ and scripts/ only.",
      severity: "error",
      from: { pathNot: ["^(ops|http|pages|src/api|scripts|bench|test|devnet)/", TESTS] },
      to: { path: "^ops/", pathNot: ["^ops/ponderInternals\\.ts$", "^ops/backgroundLoop\\.ts$"] },
    },
    {
      name: "ponder-seam-only-from-reads",
      comment: "Below http/, only the read models reach Ponder's internals, and only through ops/ponderInternals.ts.",
      severity: "error",
      from: { path: BELOW_HTTP, pathNot: ["^market/", TESTS] },
      to: { path: "^ops/ponderInternals\\.ts$" },
    },
    onlyImports("domain-is-pure", "^src/domain/", ["src/domain/"], "Pure math and rules import nothing of ours."),
    onlyImports(
      "schema-is-tables",
      "^src/schema/",
      ["src/schema/"],
      "Table groups of ponder.schema.ts import nothing of ours.",
    ),
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
    onlyImports(
      "config-is-settings",
      "^config/",
      ["config/", "src/domain/", "devnet/manifest\\.ts$"],
      "Settings only.",
    ),
    onlyImports("store-below-market", "^store/", ["store/", "src/domain/", "config/"], "Data access only."),
    onlyImports("feeds-are-renderers", "^feeds/", ["feeds/", "src/domain/", "config/"], "Pure renderers."),
    onlyImports("media-is-sanitiser", "^media/", ["media/", "src/domain/", "config/"], "Pure sanitiser."),
    onlyImports(
      "market-reads",
      "^market/",
      ["market/", "store/", "src/domain/", "config/", "abis/", "ponder\\.schema\\.ts$", "ops/ponderInternals\\.ts$"],
      "Read models: plain inputs, typed rows.",
    ),
    onlyImports(
      "webhooks-deliver",
      "^webhooks/",
      ["webhooks/", "store/", "market/", "src/domain/", "config/", "ponder\\.schema\\.ts$", "ops/backgroundLoop\\.ts$"],
      "Webhook delivery: the store's outbox and the events feed, no HTTP framework.",
    ),
    onlyImports(
      "launches-use-cases",
      "^launches/",
      [
        "launches/",
        "chain/",
        "store/",
        "market/",
        "media/",
        "src/domain/",
        "config/",
        "abis/",
        "ponder\\.schema\\.ts$",
        "ops/backgroundLoop\\.ts$",
      ],
      "Launch and swap use cases: typed results, no HTTP.",
    ),
    onlyImports(
      "sdk-is-standalone",
      "^sdk/",
      ["sdk/"],
      "The published client imports only itself and its packages: the service's types reach it only as generated files.",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.ponder|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
    moduleSystems: ["es6", "cjs"],
  },
};
