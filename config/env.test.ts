import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env";

describe("loadEnv", () => {
  it("compiles TRUST_PROXY once: unset trusts no proxy, a hop count trusts that many hops", () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    const oneHop = loadEnv({ TRUST_PROXY: "1" }).TRUST_PROXY;
    if (typeof oneHop !== "function") throw new Error("TRUST_PROXY=1 must compile to a trust function");
    expect(oneHop("203.0.113.9", 0)).toBe(true);
    expect(oneHop("203.0.113.9", 1)).toBe(false);
    const ranges = loadEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY;
    if (typeof ranges !== "function") throw new Error("a TRUST_PROXY list must compile to a trust function");
    expect(ranges("10.1.2.3", 0)).toBe(true);
    expect(ranges("192.0.2.1", 0)).toBe(false);
  });

  it("refuses a bad TRUST_PROXY naming the variable and the bad entry", () => {
    expect(() => loadEnv({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(ConfigError);
    expect(() => loadEnv({ TRUST_PROXY: "10.0.0.0/99" })).toThrow(
      /TRUST_PROXY: must be 0, a hop count.*10\.0\.0\.0\/99/,
    );
    expect(() => loadEnv({ TRUST_PROXY: "33" })).toThrow(/hop count 33 is above 32/);
  });

  it("lists every bad variable at once and never echoes a secret", () => {
    let error: unknown;
    try {
      loadEnv({ PORT: "http", METRICS_TOKEN: "short", CHAIN_ID: "0" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems).toContain('PORT: must be an integer from 1 to 65535, got "http"');
    expect(problems.find((p) => p.startsWith("METRICS_TOKEN:"))).not.toContain("short");
  });
});
