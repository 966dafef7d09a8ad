import { describe, expect, it } from "vitest";
import { lower } from "./hex";
import { tokenPath, tokenUrl } from "./urls";

const TOKEN = "0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc";

describe("token page URL (the one builder)", () => {
  it("checksums the address whatever case it was given in", () => {
    expect(tokenPath(TOKEN.toLowerCase())).toBe(`/token/${TOKEN}`);
    expect(tokenUrl("https://launch.example", TOKEN.toLowerCase())).toBe(`https://launch.example/token/${TOKEN}`);
  });

  it("refuses something that is not an address", () => {
    expect(() => tokenPath("0x123")).toThrow();
  });
});

describe("lower", () => {
  it("is the stored form of an address", () => {
    expect(lower(TOKEN)).toBe(TOKEN.toLowerCase());
  });
});
