import { describe, expect, it } from "vitest";
import { sameOriginPath, safeHttpUrl } from "./links";

describe("safeHttpUrl", () => {
  it("keeps http and https URLs", () => {
    expect(safeHttpUrl("https://example.org/a?b=1")).toBe("https://example.org/a?b=1");
    expect(safeHttpUrl("http://example.org")).toBe("http://example.org/");
  });
  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:x",
    "/relative",
    "example.org",
    "",
    null,
    undefined,
  ])("drops %s", (v) => expect(safeHttpUrl(v)).toBeNull());
});

describe("sameOriginPath", () => {
  it("turns the service's own URLs into paths and drops other origins", () => {
    expect(sameOriginPath("https://svc.example/media/ab.png", "https://svc.example")).toBe("/media/ab.png");
    expect(sameOriginPath("https://evil.example/media/ab.png", "https://svc.example")).toBeNull();
    expect(sameOriginPath("javascript:alert(1)", "https://svc.example")).toBeNull();
  });
});
