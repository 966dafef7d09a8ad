/**
 * Configuration (config/env.ts): every setting validated at start with a message naming the
 * variable; `npm start` and the service (`ponder start`) exit non-zero on a bad value; every
 * variable the code reads is declared in the schema and listed in `.env.example`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, ENV_NAMES, loadEnv } from "../../config/env";
import { serviceStartTimeoutMs, startPonder } from "../../scripts/ponderProcess";
import { findFreePort } from "../../devnet/anvil";
import { scaledMs } from "../helpers/deadlines";
import { runToExit } from "../helpers/runToExit";

const FACTORY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
/** tsx as a module loader: `npm start` runs `node --import tsx scripts/start.ts`. */
const TSX_LOADER = pathToFileURL(join(process.cwd(), "node_modules", "tsx", "dist", "loader.mjs")).href;

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadEnv(env);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
}

describe("loadEnv", () => {
  it("applies the documented defaults and treats empty values as unset", () => {
    const env = loadEnv({ PORT: "", DATABASE_URL: "" });
    expect(env).toMatchObject({
      PORT: 42069,
      DATABASE_SCHEMA: "evmchain",
      STORE_SCHEMA: "launch_store",
      V1_RATE_LIMIT_PER_MINUTE: 60,
      PUBLIC_RATE_LIMIT_PER_MINUTE: 600,
      SESSION_RATE_LIMIT_PER_MINUTE: 120,
      EVENTS_CONFIRMATION_BLOCKS: 30,
      POLLING_INTERVAL_MS: 100,
      LOG_FORMAT: "json",
      TRUST_PROXY: false, // compiled once by loadEnv: no proxy trusted
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("names each bad variable, what is wrong and the value received", () => {
    expect(
      problemsOf({
        PORT: "http",
        V1_RATE_LIMIT_PER_MINUTE: "0",
        TRUST_PROXY: "yes",
        BIG_BUY_THRESHOLD_WEI: "0.05",
        PARTNER_A_SLUG: "Partner A",
        LOG_FORMAT: "xml",
        STORE_SCHEMA: "Launch-Store",
        PUBLIC_BASE_URL: "launch.example",
        WETH_ADDRESS: "0x1234",
      }),
    ).toEqual([
      'WETH_ADDRESS: must be a 20-byte hex address (0x + 40 hex digits), got "0x1234"',
      'STORE_SCHEMA: must be a lowercase identifier ([a-z_][a-z0-9_]*), at most 63 characters, got "Launch-Store"',
      'PORT: must be an integer from 1 to 65535, got "http"',
      'PUBLIC_BASE_URL: must be an http(s) URL (origin of the public site, no trailing path), got "launch.example"',
      'TRUST_PROXY: must be 0, a hop count from 1 to 32, or comma-separated proxy addresses, CIDR ranges and loopback/linklocal/uniquelocal ("yes" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal), got "yes"',
      'V1_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got "0"',
      'BIG_BUY_THRESHOLD_WEI: must be a decimal integer in wei, got "0.05"',
      'PARTNER_A_SLUG: must be 1-40 characters of [a-z0-9-], starting with a letter or digit, got "Partner A"',
      'LOG_FORMAT: must be "json" or "pretty", got "xml"',
    ]);
  });

  it("requires the production variables once LAUNCH_FACTORY_ADDRESS is set, and never echoes DATABASE_URL", () => {
    const problems = problemsOf({ LAUNCH_FACTORY_ADDRESS: FACTORY, DATABASE_URL: "mysql://user:hunter2@db/x" });
    expect(problems[0]).toBe("DATABASE_URL: must be a postgres:// or postgresql:// connection URL");
    expect(problems.join("\n")).not.toContain("hunter2");
    expect(problems).toContain("RPC_URL: is required when LAUNCH_FACTORY_ADDRESS is set (production configuration)");
    expect(problems).toContain(
      "QUOTER_V2_ADDRESS: is required when LAUNCH_FACTORY_ADDRESS is set (production configuration)",
    );
  });

  it("validates METRICS_TOKEN as a bearer token of 32+ characters and never echoes it; the abuse limits have their documented defaults", () => {
    const short = "hunter2-metrics-token";
    const problems = problemsOf({ METRICS_TOKEN: short });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^METRICS_TOKEN: must be 32-512 characters/);
    expect(problems.join("\n")).not.toContain("hunter2");
    expect(problemsOf({ METRICS_TOKEN: `${"a".repeat(31)} ` })[0]).toMatch(/^METRICS_TOKEN:/);
    const token = "qL0m7cT1Zt3oX9m9aO5bUGr0p6t2S0f3m9JYxkq0wA4=";
    expect(loadEnv({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(loadEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({})).toMatchObject({
      PAGES_RATE_LIMIT_PER_MINUTE: 120,
      HEALTH_RATE_LIMIT_PER_MINUTE: 60,
      IMAGE_DECODE_WAIT_MS: 10_000,
    });
    expect(loadEnv({}).IMAGE_DECODE_CONCURRENCY).toBeUndefined();
    expect(problemsOf({ PAGES_RATE_LIMIT_PER_MINUTE: "0", IMAGE_DECODE_CONCURRENCY: "0" })).toEqual([
      'PAGES_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got "0"',
      'IMAGE_DECODE_CONCURRENCY: must be an integer from 1 to 256, got "0"',
    ]);
  });

  it("declares every variable the code reads, and .env.example lists each one", () => {
    const files: string[] = ["ponder.config.ts"];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) files.push(path);
      }
    };
    for (const dir of [
      "http",
      "market",
      "launches",
      "media",
      "ops",
      "chain",
      "config",
      "store",
      "scripts",
      "src",
      "devnet",
      "feeds",
    ])
      walk(dir);
    const used = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\b(?:process\.env|env)(?:\.([A-Z][A-Z0-9_]+)|\[\s*"([A-Z][A-Z0-9_]+)"\s*\])/g))
        used.add((m[1] ?? m[2])!);
      // Names passed to small readers, e.g. readWei(env, "BIG_BUY_THRESHOLD_WEI", …)
      if (file.startsWith("config")) for (const m of text.matchAll(/\(env, "([A-Z][A-Z0-9_]+)"/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    const undeclared = [...used].filter((name) => !ENV_NAMES.includes(name));
    expect(undeclared).toEqual([]);
    const example = readFileSync(".env.example", "utf8");
    const unlisted = ENV_NAMES.filter((name) => !new RegExp(`^#?\\s*${name}=`, "m").test(example));
    expect(unlisted).toEqual([]);
  });
});

describe("start deadline", () => {
  it("SERVICE_START_TIMEOUT_MS and SHUTDOWN_TIMEOUT_MS are validated", () => {
    expect(loadEnv({}).SERVICE_START_TIMEOUT_MS).toBe(180_000);
    expect(loadEnv({ SERVICE_START_TIMEOUT_MS: "60000" }).SERVICE_START_TIMEOUT_MS).toBe(60_000);
    expect(problemsOf({ SERVICE_START_TIMEOUT_MS: "soon", SHUTDOWN_TIMEOUT_MS: "5" })).toEqual([
      'SERVICE_START_TIMEOUT_MS: must be an integer >= 1000, got "soon"',
      'SHUTDOWN_TIMEOUT_MS: must be an integer from 1000 to 600000, got "5"',
    ]);
    expect(serviceStartTimeoutMs({ SERVICE_START_TIMEOUT_MS: "90000" })).toBe(90_000);
  });

  it("startPonder gives up after the configured deadline and says what it waited for", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ops-deadline-"));
    try {
      const port = await findFreePort();
      const started = Date.now();
      // Ponder needs several seconds to answer /health: a 1.5 s deadline cannot be met.
      const error = await startPonder({
        port,
        schema: "ops_deadline",
        env: {
          PONDER_PGLITE_DIR: join(dir, "pglite"),
          STORE_PGLITE_DIR: join(dir, "store"),
          DATABASE_URL: "",
          DEPLOYMENT_MANIFEST: join(dir, "none.json"),
        },
        startTimeoutMs: 1500,
      }).then(
        async (service) => {
          await service.stop();
          return undefined;
        },
        (err: Error) => err,
      );
      // Ponder takes seconds to load its build tooling before it could even fail on the missing
      // manifest: the deadline ends the wait first, and the child is stopped.
      expect(error?.message).toContain(
        `ponder did not answer http://127.0.0.1:${port}/health within 1500 ms (SERVICE_START_TIMEOUT_MS)`,
      );
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("fail fast at start", () => {
  it("refuses a mixed-case address with a wrong EIP-55 checksum, naming the checksummed form", () => {
    const wrong = "0x5fbDB2315678afecb367f032d93F642f64180aa3"; // FACTORY with one letter's case flipped
    const problems = problemsOf({ WETH_ADDRESS: wrong, ACCEPTED_FACTORIES: `${FACTORY},${wrong}` });
    expect(problems).toContain(
      `WETH_ADDRESS: has a wrong EIP-55 checksum (mixed case): the checksummed form is ${FACTORY}, got "${wrong}"`,
    );
    expect(problems.find((p) => p.startsWith("ACCEPTED_FACTORIES:"))).toContain(
      `(${wrong}: has a wrong EIP-55 checksum (mixed case): the checksummed form is ${FACTORY})`,
    );
    expect(problems).toHaveLength(2);
    // No checksum to check in one case only.
    expect(problemsOf({ WETH_ADDRESS: FACTORY.toLowerCase(), FEE_LOCKER_ADDRESS: FACTORY })).toEqual([]);
  });

  it("npm start (production) checks the RPC and DATABASE_URL within START_DEPENDENCY_TIMEOUT_MS and names each setting", async () => {
    const deadPort = await findFreePort();
    const started = Date.now();
    const result = await runToExit(process.execPath, ["--import", TSX_LOADER, "scripts/start.ts"], {
      env: {
        ...process.env,
        PORT: String(await findFreePort()),
        LAUNCH_FACTORY_ADDRESS: FACTORY,
        RPC_URL: `http://127.0.0.1:${deadPort}`,
        START_BLOCK: "0",
        FEE_LOCKER_ADDRESS: FACTORY,
        PROTOCOL_FEE_RECIPIENT: FACTORY,
        WETH_ADDRESS: FACTORY,
        UNISWAP_V3_FACTORY_ADDRESS: FACTORY,
        NONFUNGIBLE_POSITION_MANAGER_ADDRESS: FACTORY,
        SWAP_ROUTER_ADDRESS: FACTORY,
        QUOTER_V2_ADDRESS: FACTORY,
        DATABASE_URL: `postgres://launch:secret-pw@127.0.0.1:${deadPort}/launch`,
        START_DEPENDENCY_TIMEOUT_MS: "2000",
      },
      timeout: scaledMs(60_000),
    });
    const output = result.stdout + result.stderr;
    expect(result.status, output).toBe(1);
    expect(output).toContain("START_DEPENDENCY_TIMEOUT_MS");
    expect(result.stderr).toMatch(new RegExp(`\\n  RPC_URL: http://127\\.0\\.0\\.1:${deadPort} cannot be reached`));
    expect(result.stderr).toMatch(/\n {2}DATABASE_URL: the database cannot be reached \(ECONNREFUSED/);
    expect(output).not.toContain("secret-pw");
    expect(output).not.toContain("starting the service");
    expect(output).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeLessThan(scaledMs(15_000));
  });

  it("npm start (scripts/start.ts) exits 1 with the message before starting anything", async () => {
    const started = Date.now();
    const result = await runToExit(process.execPath, ["--import", TSX_LOADER, "scripts/start.ts", "--no-seed"], {
      env: { ...process.env, PORT: "http", SESSION_RATE_LIMIT_PER_MINUTE: "-5" },
      timeout: scaledMs(60_000),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT: must be an integer from 1 to 65535, got "http"');
    expect(result.stderr).toContain('SESSION_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got "-5"');
    expect(result.stdout).not.toContain("anvil on");
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("npm start reads .env from its working directory, and the real environment wins over the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ops-dotenv-"));
    try {
      // Copied as is, .env.example is a valid devnet configuration (no production variable set).
      const fromExample = Object.fromEntries(
        readFileSync(".env.example", "utf8")
          .split("\n")
          .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      expect(loadEnv(fromExample).LAUNCH_FACTORY_ADDRESS).toBeUndefined();

      writeFileSync(join(dir, ".env"), "# only in the file\nPORT=http\nV1_RATE_LIMIT_PER_MINUTE=0\n");
      const env: NodeJS.ProcessEnv = { ...process.env, V1_RATE_LIMIT_PER_MINUTE: "60" };
      delete env.PORT;
      const start = join(process.cwd(), "scripts", "start.ts");
      const result = await runToExit(process.execPath, ["--import", TSX_LOADER, start, "--no-seed"], {
        cwd: dir,
        env,
        timeout: scaledMs(60_000),
      });
      expect(result.status).toBe(1);
      // PORT came from .env only; V1_RATE_LIMIT_PER_MINUTE is set in both, the environment's 60 wins.
      expect(result.stderr).toContain('PORT: must be an integer from 1 to 65535, got "http"');
      expect(result.stderr).not.toContain("V1_RATE_LIMIT_PER_MINUTE");
      expect(result.stdout).not.toContain("anvil on");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the production command (npm run ponder) reads .env: a bad value only in .env stops the service", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ops-dotenv-ponder-"));
    try {
      writeFileSync(join(dir, ".env"), "V1_RATE_LIMIT_PER_MINUTE=lots\n");
      // The package script as npm runs it, from a folder holding the .env (npm itself always runs
      // in the project root, whose .env this test must not touch): the script's command line with
      // the project's paths made absolute, and `--root` pointing Ponder at the project.
      const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts
        .ponder!;
      expect(script).toContain("--env-file-if-exists=.env");
      const [node, ...args] = script
        .split(" ")
        .map((part) => (part.startsWith("node_modules/") ? join(process.cwd(), part) : part));
      expect(node).toBe("node");
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PONDER_PGLITE_DIR: join(dir, "pglite"),
        STORE_PGLITE_DIR: join(dir, "store"),
        DATABASE_URL: "",
      };
      delete env.V1_RATE_LIMIT_PER_MINUTE;
      const result = await runToExit(
        process.execPath,
        [...args, "--root", process.cwd(), "start", "--schema", "ops_dotenv", "--port", "1", "--log-format", "json"],
        { cwd: dir, env, timeout: scaledMs(60_000) },
      );
      expect(result.status).not.toBe(0);
      expect(result.status).not.toBeNull();
      expect(`${result.stdout}${result.stderr}`).toContain(
        'V1_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got \\"lots\\"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the service (ponder start) stops at its config build with the message and a non-zero exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ops-config-"));
    try {
      const error = await startPonder({
        port: await findFreePort(),
        schema: "ops_config",
        env: {
          PONDER_PGLITE_DIR: join(dir, "pglite"),
          STORE_PGLITE_DIR: join(dir, "store"),
          DATABASE_URL: "",
          V1_RATE_LIMIT_PER_MINUTE: "lots",
        },
      }).then(
        async (service) => {
          await service.stop();
          return undefined;
        },
        (err: Error) => err,
      );
      expect(error?.message).toMatch(/ponder exited with code [1-9]/);
      expect(error?.message).toContain('V1_RATE_LIMIT_PER_MINUTE: must be an integer >= 1, got \\"lots\\"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
