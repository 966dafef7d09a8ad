import { describe, expect, it } from "vitest";
import { replicaConfigProblems } from "./replicaConfig";

describe("replicaConfigProblems", () => {
  it("requires PUBLIC_BASE_URL on `ponder serve` only, naming the setting", () => {
    const serve = ["node", "ponder.js", "serve", "--schema", "s", "--port", "42070"];
    expect(replicaConfigProblems({}, serve)).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL: required on an API replica \(ponder serve\)/),
    ]);
    expect(replicaConfigProblems({ PUBLIC_BASE_URL: "https://launch.example.com" }, serve)).toEqual([]);
    expect(replicaConfigProblems({}, ["node", "ponder.js", "start", "--schema", "s"])).toEqual([]);
    expect(replicaConfigProblems({}, ["node", "ponder.js", "dev"])).toEqual([]);
    // Outside Ponder (tests, scripts) nothing is required.
    expect(replicaConfigProblems({}, ["node", "vitest"])).toEqual([]);
  });
});
