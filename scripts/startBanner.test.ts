import { describe, expect, it } from "vitest";
import { devnetReadyBanner } from "./startBanner";

const base = {
  baseUrl: "http://127.0.0.1:42069",
  devnetKey: "evmk_test",
  metricsToken: "metrics-token",
  storeDir: ".devnet/store",
  dataDir: ".devnet",
};

describe("npm start ready banner", () => {
  it("shows a candles command for a seeded token, never a placeholder", () => {
    const text = devnetReadyBanner({ ...base, exampleToken: "0x00000000000000000000000000000000000000aa" });
    expect(text).toContain(
      '"http://127.0.0.1:42069/api/v1/evmchain/tokens/0x00000000000000000000000000000000000000aa/candles?resolution=1m"',
    );
    expect(text).not.toContain("<address>");
    expect(text).toContain("devnet API key (dev account 0): evmk_test");
  });

  it("leaves the candles command out without a seeded token and names a custom data folder", () => {
    const text = devnetReadyBanner({ ...base, dataDir: "/tmp/other" });
    expect(text).not.toContain("/candles");
    expect(text).toContain("--data-dir /tmp/other");
  });
});
