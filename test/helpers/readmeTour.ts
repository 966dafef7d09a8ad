/**
 * The README's tour as data: the fenced `sh` blocks under its "## Tour" heading, and the bash script
 * that runs one of them as a reader pasting the tour into one shell would (the blocks before it run
 * first, their output discarded, so variables and functions they define carry over). Used by
 * `test/e2e/readme.test.ts` (runs every block against a started stack) and `test/readme.test.ts`.
 */
import { readFileSync } from "node:fs";

/** The heading whose section holds the tour. */
export const TOUR_HEADING = "## Tour";

/**
 * The fenced ```sh blocks of the section under `heading` (up to the next `## ` heading), in order.
 * @param markdown - the README's text
 * @returns each block's body (without the fences); empty when the heading is missing
 * @example
 * tourBlocks("## Tour\n\n```sh\necho hi\n```\n\n## Next\n```sh\nno\n```\n"); // ["echo hi"]
 */
export function tourBlocks(markdown: string, heading = TOUR_HEADING): string[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) return [];
  const blocks: string[] = [];
  let current: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (current === undefined && line.startsWith("## ")) break;
    if (current === undefined && line.trim() === "```sh") current = [];
    else if (current !== undefined && line.trim() === "```") {
      blocks.push(current.join("\n"));
      current = undefined;
    } else current?.push(line);
  }
  return blocks;
}

/** The tour blocks of the checkout's README.md. */
export function readmeTourBlocks(path = "README.md"): string[] {
  return tourBlocks(readFileSync(path, "utf8"));
}

/**
 * The bash script that runs block `index` after the blocks before it (their output discarded),
 * stopping at the first failing command (`set -euo pipefail`).
 * @returns the script's text, for `bash -c`
 */
export function tourScript(blocks: readonly string[], index: number): string {
  const before = blocks.slice(0, index);
  return ["set -euo pipefail", ...(before.length > 0 ? ["{", ...before, "} >/dev/null"] : []), blocks[index]!].join(
    "\n",
  );
}

/**
 * Every fenced ```sh block of a markdown document, in order (for the examples of docs/api.md that a
 * wallet runs: node + viem scripts in a heredoc).
 * @example
 * shellBlocks("a\n```sh\necho 1\n```\nb\n```json\n{}\n```\n"); // ["echo 1"]
 */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\n$/, ""));
}
