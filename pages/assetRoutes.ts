/**
 * The pages' static files: their own scripts and stylesheet (`pages/assets/`), two browser modules
 * of vendored libraries (viem's exact ETH <-> wei conversion and lightweight-charts) served from
 * the installed npm packages, and the default token image.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { ApiError } from "../api/errors";
import { documented } from "../api/openapi/describe";
import { viemEsmUnitFile } from "../ops/ponderInternals";

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

/** Builds the static-file routes of the pages (mounted inside the pages router). */
export function assetRoutes() {
  const cache = new Map<string, string>();
  const readAsset = (name: string) => {
    if (!cache.has(name)) cache.set(name, readFileSync(ASSETS[name]!.file(), "utf8"));
    return cache.get(name)!;
  };
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
        return c.body(readAsset(name), 200, {
          "content-type": asset.type,
          "cache-control": "public, max-age=300",
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
