import { describe, expect, it } from "vitest";
import { routeProcessWarnings, warningLogFields } from "./processWarnings";

describe("process warnings as log lines", () => {
  it("carries the warning's name, code and message", () => {
    const warning = Object.assign(new Error("Calling client.query() when the client is already executing a query"), {
      name: "DeprecationWarning",
    });
    expect(warningLogFields(warning)).toEqual({
      msg: "Process warning",
      warning: "DeprecationWarning",
      message: "Calling client.query() when the client is already executing a query",
    });
    expect(
      warningLogFields(Object.assign(new Error("x"), { name: "DeprecationWarning", code: "DEP0005" })),
    ).toMatchObject({ code: "DEP0005" });
  });

  it("leaves Node's printer in place outside Ponder (no logger to route to)", () => {
    const before = process.listeners("warning").length;
    expect(routeProcessWarnings(() => {})).toBe(false);
    expect(process.listeners("warning")).toHaveLength(before);
  });
});
