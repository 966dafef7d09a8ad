/**
 * The pages' static files: their own scripts and stylesheet (`pages/assets/`), two browser modules
 * of vendored libraries (viem's exact ETH <-> wei conversion and lightweight-charts) served from
 * the installed npm packages, and the default token image.
 *
 * Fingerprints: pages link `/assets/{name}?v={hash}` ({@link assetUrl}), where the hash covers the
 * served bytes; a module's imports of other assets are rewritten to their fingerprinted URLs, so
 * a module's hash covers what it imports (a changed import changes every importer's URL) and each
 * module has one URL (one instance in the browser). A request naming the current hash is cached
 * for a year, `immutable`; any other request for the file (no `v`, an old `v`) for 300 s.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { ApiError } from "../http/errors";
import { documented } from "../http/openapi/describe";
import { viemEsmUnitFile } from "../ops/ponderInternals";
import { IMMUTABLE_CACHE_CONTROL } from "../http/middleware/cachePolicy";
import { init as initModuleLexer, parse as parseModule } from "es-module-lexer";

await initModuleLexer;

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** `/assets/{name}` -> file and content type. Our files live in `pages/assets/`. */
const ASSETS: Record<string, { file: () => string; type: string }> = {
  "site.css": { file: () => join(here, "assets/site.css"), type: "text/css; charset=utf-8" },
  "wallet.js": { file: () => join(here, "assets/wallet.js"), type: "text/javascript; charset=utf-8" },
  "launch.js": { file: () => join(here, "assets/launch.js"), type: "text/javascript; charset=utf-8" },
  "token.js": { file: () => join(here, "assets/token.js"), type: "text/javascript; charset=utf-8" },
  "tokenChart.js": { file: () => join(here, "assets/tokenChart.js"), type: "text/javascript; charset=utf-8" },
  "tokenHolders.js": { file: () => join(here, "assets/tokenHolders.js"), type: "text/javascript; charset=utf-8" },
  "tokenPageData.js": { file: () => join(here, "assets/tokenPageData.js"), type: "text/javascript; charset=utf-8" },
  "tokenRewards.js": { file: () => join(here, "assets/tokenRewards.js"), type: "text/javascript; charset=utf-8" },
  "tokenStats.js": { file: () => join(here, "assets/tokenStats.js"), type: "text/javascript; charset=utf-8" },
  "tokenTrades.js": { file: () => join(here, "assets/tokenTrades.js"), type: "text/javascript; charset=utf-8" },
  "trade.js": { file: () => join(here, "assets/trade.js"), type: "text/javascript; charset=utf-8" },
  "review.js": { file: () => join(here, "assets/review.js"), type: "text/javascript; charset=utf-8" },
  "copy.js": { file: () => join(here, "assets/copy.js"), type: "text/javascript; charset=utf-8" },
  "walletChip.js": { file: () => join(here, "assets/walletChip.js"), type: "text/javascript; charset=utf-8" },
  "format.js": { file: () => join(here, "assets/format.js"), type: "text/javascript; charset=utf-8" },
  // viem's unit conversions: self-contained ES modules (parseEther/formatEther import only Value.js).
  "vendor/viem/parseEther.js": { file: () => viemEsmUnitFile("parseEther.js"), type: "text/javascript; charset=utf-8" },
  "vendor/viem/formatEther.js": {
    file: () => viemEsmUnitFile("formatEther.js"),
    type: "text/javascript; charset=utf-8",
  },
  "vendor/viem/Value.js": { file: () => viemEsmUnitFile("Value.js"), type: "text/javascript; charset=utf-8" },
  "vendor/lightweight-charts.mjs": {
    // The standalone build has no imports; the package's exports map hides its path, so it is
    // found next to the (exported) package.json.
    file: () =>
      join(
        dirname(require.resolve("lightweight-charts/package.json")),
        "dist/lightweight-charts.standalone.production.mjs",
      ),
    type: "text/javascript; charset=utf-8",
  },
};

const ASSET_PREFIX = "/assets/";

/** A served asset: its bytes (imports rewritten) and their fingerprint. */
type ServedAsset = { text: string; hash: string };
const served = new Map<string, ServedAsset>();

/**
 * The served text of an asset and its fingerprint (first 16 base64url characters of the SHA-256 of
 * the served text), computed once per process; a JavaScript asset's imports of other assets
 * (absolute `/assets/…` or relative) name their fingerprinted URLs.
 * @param name - the asset name, e.g. `"token.js"` or `"vendor/viem/Value.js"`
 * @param importers - the chain of modules importing this one (cycle guard)
 * @throws Error on an unknown asset or an import cycle between assets
 */
function servedAsset(name: string, importers: readonly string[] = []): ServedAsset {
  const known = served.get(name);
  if (known) return known;
  const asset = ASSETS[name];
  if (!asset) throw new Error(`no asset ${name}`);
  if (importers.includes(name)) throw new Error(`asset import cycle: ${[...importers, name].join(" -> ")}`);
  const source = readFileSync(asset.file(), "utf8");
  let text = source;
  if (asset.type.startsWith("text/javascript")) {
    const [imports] = parseModule(source, name);
    // Rewritten back to front, so earlier offsets stay valid.
    for (const entry of [...imports].sort((a, b) => b.s - a.s)) {
      if (!entry.n) continue;
      const target = new URL(entry.n, `http://assets.invalid${ASSET_PREFIX}${name}`);
      if (target.host !== "assets.invalid" || !target.pathname.startsWith(ASSET_PREFIX)) continue;
      const targetName = target.pathname.slice(ASSET_PREFIX.length);
      if (!ASSETS[targetName]) continue;
      const url = `${ASSET_PREFIX}${targetName}?v=${servedAsset(targetName, [...importers, name]).hash}`;
      // Static imports: [s, e) is the bare specifier; dynamic ones include the quotes.
      const [start, end] = entry.d === -1 ? [entry.s, entry.e] : [entry.s + 1, entry.e - 1];
      text = `${text.slice(0, start)}${url}${text.slice(end)}`;
    }
  }
  const result = { text, hash: createHash("sha256").update(text).digest("base64url").slice(0, 16) };
  served.set(name, result);
  return result;
}

/**
 * The fingerprinted URL of an asset path (what pages link).
 * @param path - e.g. `"/assets/token.js"`
 * @returns e.g. `"/assets/token.js?v=3q2-7wX0aYc1Lm9P"`; a path that is not an asset unchanged
 */
export function assetUrl(path: string): string {
  if (!path.startsWith(ASSET_PREFIX)) return path;
  const name = path.slice(ASSET_PREFIX.length);
  return ASSETS[name] ? `${path}?v=${servedAsset(name).hash}` : path;
}

/** Builds the static-file routes of the pages (mounted inside the pages router). */
export function assetRoutes() {
  let defaultImage: Uint8Array | undefined;
  return new Hono()
    .get(
      "/static/token-default.png",
      documented({ tag: "pages", summary: "Default token image", content: { "image/png": "PNG" } }),
      async (c) => {
        defaultImage ??= await defaultTokenImage();
        return c.body(defaultImage as Uint8Array<ArrayBuffer>, 200, {
          "content-type": "image/png",
          "cache-control": "public, max-age=86400",
        });
      },
    )
    .get(
      "/assets/:name{.+}",
      documented({
        tag: "pages",
        summary: "Page assets (scripts, stylesheet, vendored browser modules)",
        content: { "text/javascript": "script", "text/css": "stylesheet" },
        errors: ["not_found"],
      }),
      (c) => {
        const name = c.req.param("name");
        const asset = ASSETS[name];
        if (!asset) throw new ApiError("not_found", `no asset ${name}`);
        const { text, hash } = servedAsset(name);
        return c.body(text, 200, {
          "content-type": asset.type,
          "cache-control": c.req.query("v") === hash ? IMMUTABLE_CACHE_CONTROL : "public, max-age=300",
          "x-content-type-options": "nosniff",
        });
      },
    );
}

/** A 96×96 PNG in a neutral grey, drawn with sharp (no file to ship). */
async function defaultTokenImage(): Promise<Uint8Array> {
  const sharp = (await import("sharp")).default;
  return new Uint8Array(
    await sharp({ create: { width: 96, height: 96, channels: 4, background: "#8a94a6" } })
      .png()
      .toBuffer(),
  );
}
