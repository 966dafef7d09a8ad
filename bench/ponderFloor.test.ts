/**
 * The Ponder floor (`bench/ponder-floor`) must register exactly the events the service indexes:
 * Ponder syncs only events that have a function, so a floor missing one fetches and dispatches
 * less than the service and makes the service/floor ratio look worse than it is (it did: the
 * holder and ETH/USD events were added to the service and not to the floor).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Event names in `ponder.on("<Contract>:<Event>", ...)` calls of the given files. */
function registeredEvents(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, "utf8").matchAll(/ponder\.on\(\s*"([A-Za-z0-9]+:[A-Za-z0-9]+)"/g))
      names.add(match[1]!);
  }
  return [...names].sort();
}

describe("Ponder floor", () => {
  it("registers every event the service's indexing functions register, and no other", () => {
    const serviceFiles = readdirSync("src/indexing")
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => join("src/indexing", f));
    const service = registeredEvents(serviceFiles);
    expect(service).toContain("LaunchToken:HolderBalances");
    expect(registeredEvents([join("bench", "ponder-floor", "src", "index.ts")])).toEqual(service);
  });
});
