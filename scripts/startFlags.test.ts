import { describe, expect, it } from "vitest";
import { parseStartFlags, StartFlagError } from "./startFlags";

const env = { PORT: 42069, DEVNET_DIR: ".devnet" };

describe("npm start flags", () => {
  it("takes the defaults from the environment", () => {
    expect(parseStartFlags(env, [])).toEqual({
      noSeed: false,
      port: 42069,
      rpcPort: 8545,
      blockTimeSec: 1,
      tradeIntervalMs: 2000,
      dataDir: ".devnet",
    });
  });

  it("parses every flag", () => {
    const flags = parseStartFlags(env, [
      "--no-seed",
      "--port=8080",
      "--rpc-port",
      "9545",
      "--block-time=0",
      "--trade-interval-ms=0",
      "--data-dir",
      "/tmp/x",
    ]);
    expect(flags).toEqual({
      noSeed: true,
      port: 8080,
      rpcPort: 9545,
      blockTimeSec: 0,
      tradeIntervalMs: 0,
      dataDir: "/tmp/x",
    });
  });

  it.each([
    [["--port", "0"], 'invalid flag --port: expected a port from 1 to 65535, got "0"'],
    [["--rpc-port", "65536"], 'invalid flag --rpc-port: expected a port from 1 to 65535, got "65536"'],
    [["--block-time=-1"], 'invalid flag --block-time: expected a non-negative integer, got "-1"'],
    [["--trade-interval-ms", "1.5"], 'invalid flag --trade-interval-ms: expected a non-negative integer, got "1.5"'],
    [["--data-dir="], 'invalid flag --data-dir: expected a folder path, got ""'],
  ])("refuses %j", (argv, message) => {
    expect(() => parseStartFlags(env, argv)).toThrow(new StartFlagError(message));
  });

  it("refuses an unknown flag", () => {
    expect(() => parseStartFlags(env, ["--bogus"])).toThrow(StartFlagError);
    expect(() => parseStartFlags(env, ["--bogus"])).toThrow(/bogus/);
  });
});
