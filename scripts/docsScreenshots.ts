/**
 * Copies the pages' screenshots that `test/e2e/pages.test.ts` writes to `test-output/` into
 * `docs/screenshots/`, reduced to a 64-colour palette (small PNGs for the repository), for
 * docs/pages.md. Run after the pages e2e test:
 * `npx tsx scripts/docsScreenshots.ts`. Prints each file and its size; fails when one is missing.
 */
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

/** The screenshots the docs show (`{page}-{phone|desktop}.png`). */
export const DOC_SCREENSHOTS = [
  "home-phone",
  "home-desktop",
  "home-search-phone",
  "launch-phone",
  "launch-desktop",
  "launch-review-desktop",
  "launch-connected-phone",
  "token-phone",
  "token-desktop",
  "token-connected-phone",
  "token-connected-desktop",
  "token-holders-phone",
  "token-holders-desktop",
  "token-no-trades-phone",
  "token-no-trades-desktop",
  "not-found-phone",
  "not-found-desktop",
  "home-dark-phone",
  "home-dark-desktop",
  "launch-dark-phone",
  "launch-dark-desktop",
  "token-dark-phone",
  "token-dark-desktop",
] as const;

async function main() {
  const from = join(process.cwd(), "test-output");
  const to = join(process.cwd(), "docs", "screenshots");
  mkdirSync(to, { recursive: true });
  for (const name of DOC_SCREENSHOTS) {
    const target = join(to, `${name}.png`);
    await sharp(join(from, `${name}.png`))
      .png({ palette: true, colours: 64, compressionLevel: 9, effort: 10 })
      .toFile(target);
    console.log(`${name}.png ${Math.round(statSync(target).size / 1024)} KiB`);
  }
}

await main();
