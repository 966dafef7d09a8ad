/**
 * A stop is bounded whatever the clients hold open (issue: one shutdown took 21 s against the
 * documented 10 s; docs/operations.md "Shutdown and restart").
 *
 * `npm start` (the real `scripts/start.ts`, in its own process group, as `e2e.lifecycle` runs it)
 * is stopped while clients hold what a stop must not wait for: event streams from several client
 * addresses, an authenticated request whose body trickles in, slow headers, idle keep-alive
 * connections, and a client that stops reading a large answer. Every process of the group must be
 * gone within `SHUTDOWN_TIMEOUT_MS` plus the exit margin (the documented bound: 10 s with the
 * default 8 s budget), with the service stopped in order (not killed), and the held connections
 * closed by the server.
 *
 * The service's own stop deadline (ops/shutdownDeadline.ts) is checked on `ponder start` run
 * directly: with a log reader that stopped reading (Ponder's exit would wait on its log flush) and
 * on a process whose event loop is held after the signal. A restart after a clean stop resumes
 * without a crash recovery; one after SIGKILL reports it.
 *
 * Deadlines: the stop budget is the process's own `SHUTDOWN_TIMEOUT_MS` (default 8,000); the exit
 * margin on top of it, {@link EXIT_MARGIN_MS}, is scaled by `TEST_TIMEOUT_SCALE`
 * (test/helpers/deadlines.ts). Start deadlines: `SERVICE_START_TIMEOUT_MS` x 2.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../devnet/anvil";
import { stopDeadlineMs } from "../../ops/shutdownDeadline";
import { serviceStartTimeoutMs } from "../../scripts/ponderProcess";
import { scaledMs } from "../helpers/deadlines";
import { startStack, type Stack } from "../helpers/harness";
import { groupAlive, pollUntil } from "../helpers/npmStart";

const ROOT = resolve(__dirname, "../..");
const SHUTDOWN_DEADLINE_MODULE = pathToFileURL(join(ROOT, "ops", "shutdownDeadline.ts")).href;
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const START = join(ROOT, "scripts", "start.ts");
const START_DEADLINE_MS = 2 * serviceStartTimeoutMs();
/** `npm start`'s stop budget in this test (its default). */
const SHUTDOWN_TIMEOUT_MS = 8_000;
/** What the documented bound (10 s with the default budget) allows beyond the budget: kill and exit. */
const EXIT_MARGIN_MS = 2_000;

const groups: ChildProcess[] = [];
const dirs: string[] = [];
const sockets: net.Socket[] = [];
let stack: Stack | undefined;
afterAll(async () => {
  await stack?.stop();
  for (const s of sockets) s.destroy();
  for (const child of groups) if (groupAlive(child.pid!)) process.kill(-child.pid!, "SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A raw client connection: what it received and whether the server closed it. */
type Held = { socket: net.Socket; received: string; closed: boolean; what: string };

/**
 * Opens a raw connection from `localAddress`, sends `head`, then `trickle` (one character at a
 * time every `trickleMs`) while it is open; `paused` stops reading what the server sends.
 */
function hold(
  what: string,
  port: number,
  localAddress: string,
  head: string,
  options: { trickle?: string; trickleMs?: number; paused?: boolean } = {},
): Held {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  sockets.push(socket);
  const held: Held = { socket, received: "", closed: false, what };
  socket.on("connect", () => {
    socket.write(head);
    if (options.paused) socket.pause();
  });
  socket.on("data", (chunk) => {
    if (held.received.length < 10_000) held.received += chunk.toString();
  });
  socket.on("error", () => {});
  let at = 0;
  const timer = options.trickle
    ? setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(options.trickle![at++ % options.trickle!.length]!);
      }, options.trickleMs ?? 500)
    : undefined;
  socket.on("close", () => {
    held.closed = true;
    clearInterval(timer);
  });
  return held;
}

/**
 * Opens what a stop must not wait for, against the service on `port`: 20 event streams from five
 * client addresses (under the per-IP cap of 5), four authenticated bodies trickling in, four slow
 * headers, four idle keep-alive connections and four clients that stop reading a ~230 KB answer;
 * resolves once every stream and keep-alive answer has begun.
 */
async function holdEverything(port: number, apiKey: string): Promise<Held[]> {
  const held: Held[] = [];
  // Event streams: 4 per address (under the per-IP cap of 5) from 5 addresses.
  for (let a = 0; a < 5; a++)
    for (let i = 0; i < 4; i++)
      held.push(
        hold(
          "event stream",
          port,
          `127.0.1.${a + 2}`,
          "GET /api/public/stream/trades HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
        ),
      );
  // Authenticated bodies that trickle in (under the minimum rate only after its grace period).
  for (let i = 0; i < 4; i++)
    held.push(
      hold(
        "slow body",
        port,
        "127.0.2.2",
        `POST /api/v1/evmchain/launches/intent HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nIdempotency-Key: shutdown-${i}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{`,
        { trickle: " ", trickleMs: 200 },
      ),
    );
  // Slow headers.
  for (let i = 0; i < 4; i++)
    held.push(
      hold("slow headers", port, "127.0.2.3", "GET /api/public/tokens/new HTTP/1.1\r\nHost: x\r\n", {
        trickle: "X-Slow: y\r\n",
        trickleMs: 300,
      }),
    );
  // Idle keep-alive connections after one answer each.
  for (let i = 0; i < 4; i++)
    held.push(hold("idle keep-alive", port, "127.0.2.4", "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"));
  // A client that stops reading a large answer (the OpenAPI document, ~230 KB).
  for (let i = 0; i < 4; i++)
    held.push(
      hold("stalled reader", port, "127.0.2.5", "GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", {
        paused: true,
      }),
    );
  // Every stream is open (its first frame arrived) and the keep-alive answers came back.
  await pollUntil("the streams and keep-alive answers", scaledMs(20_000), () =>
    held
      .filter((h) => h.what === "event stream" || h.what === "idle keep-alive")
      .every((h) => h.received.includes("HTTP/1.1 200"))
      ? true
      : undefined,
  );
  return held;
}

describe("npm start: a stop with long-lived connections open", () => {
  it(
    `SIGTERM with event streams, slow bodies, slow headers, idle keep-alive and a stalled reader open: every process ends within SHUTDOWN_TIMEOUT_MS + ${EXIT_MARGIN_MS} ms (scaled)`,
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), "shutdown-"));
      dirs.push(cwd);
      const port = await findFreePort();
      writeFileSync(join(cwd, ".env"), `PORT=${port}\nLOG_FORMAT=json\nSHUTDOWN_TIMEOUT_MS=${SHUTDOWN_TIMEOUT_MS}\n`);
      const env = { ...process.env };
      delete env.PORT;
      delete env.DEVNET_DIR;
      delete env.SHUTDOWN_TIMEOUT_MS;
      const child = spawn(
        process.execPath,
        ["--import", TSX_LOADER, START, "--no-seed", "--rpc-port", String(await findFreePort())],
        { cwd, env: { ...env, LOG_PONDER: "1" }, detached: true, stdio: ["ignore", "pipe", "pipe"] },
      );
      groups.push(child);
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((r) => child.once("close", (code) => r(code)));
      const base = `http://127.0.0.1:${port}`;
      await pollUntil(`"ready" not printed (output:\n${output.slice(-3000)})`, START_DEADLINE_MS, () => {
        if (child.exitCode !== null) throw new Error(`start exited with ${child.exitCode}:\n${output.slice(-3000)}`);
        return output.includes(`ready: ${base}`) ? true : undefined;
      });
      const apiKey = /devnet API key \(dev account 0\): (\S+)/.exec(output)?.[1];
      expect(apiKey).toBeDefined();

      const held = await holdEverything(port, apiKey!);
      const openBefore = held.filter((h) => !h.closed).map((h) => h.what);
      expect(openBefore.filter((w) => w === "event stream")).toHaveLength(20);

      const pgid = child.pid!;
      const sentAt = Date.now();
      process.kill(pgid, "SIGTERM");
      const boundMs = SHUTDOWN_TIMEOUT_MS + scaledMs(EXIT_MARGIN_MS);
      await pollUntil(`processes of the group still running (output:\n${output.slice(-4000)})`, 60_000, () =>
        groupAlive(pgid) ? undefined : true,
      );
      const tookMs = Date.now() - sentAt;
      console.log(JSON.stringify({ shutdown_ms: tookMs, open_at_signal: openBefore.length, bound_ms: boundMs }));
      expect(await exited).toBe(0);
      expect(tookMs).toBeLessThan(boundMs);
      expect(output).toContain("stopped the service");
      expect(output).not.toContain("did not stop within");
      expect(output).not.toContain("Stop deadline passed");
      // The server closed every held connection (a paused reader sees the end once it reads on).
      for (const h of held) h.socket.resume();
      await pollUntil(
        `connections the server left open: ${held.filter((h) => !h.closed).map((h) => h.what)}`,
        scaledMs(5_000),
        () => (held.every((h) => h.closed) ? true : undefined),
      );
    },
    2 * START_DEADLINE_MS + 120_000,
  );
});

describe("ponder start run directly (a container's main process): stop and start again", () => {
  it(
    "SIGTERM with the same connections open: the process exits 0 within Ponder's 5 s bound, the next start on the same PGlite folder resumes without a crash recovery; after SIGKILL the next start reports one",
    async () => {
      stack = await startStack({ schema: "e2e_shutdown", database: "pglite" });
      const port = Number(new URL(stack.service.url).port);
      const held = await holdEverything(port, stack.apiKey);
      const first = stack.service;
      const sentAt = Date.now();
      first.child.kill("SIGTERM");
      const code = await first.exited;
      const tookMs = Date.now() - sentAt;
      console.log(JSON.stringify({ direct_shutdown_ms: tookMs, open_at_signal: held.length }));
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(5_000 + scaledMs(1_000));
      expect(first.output()).toContain("Drained in-flight API requests");
      expect(first.output()).toContain("Closed offchain store");
      expect(first.output()).not.toContain("Failed to shutdown");
      for (const h of held) h.socket.resume();
      await pollUntil("connections left open", scaledMs(5_000), () => (held.every((h) => h.closed) ? true : undefined));

      // A clean stop unlocked the schema: the next start resumes at once (no wait for the lock)
      // and says so, without calling it a crash.
      const restartAt = Date.now();
      await stack.restart();
      console.log(JSON.stringify({ restart_after_clean_stop_ms: Date.now() - restartAt }));
      const resumed = stack.service.output();
      expect(resumed).toContain("Resumed from the checkpoint of a cleanly stopped run");
      expect(resumed).not.toContain("Detected crash recovery");
      expect(resumed).not.toContain("Schema is locked");

      // A killed process left the schema locked: the next start waits for the lock to expire and
      // reports the crash recovery.
      const killed = stack.service;
      killed.child.kill("SIGKILL");
      await killed.exited;
      const lockedAt = Date.now();
      await stack.restart();
      console.log(JSON.stringify({ restart_after_kill_ms: Date.now() - lockedAt }));
      expect(stack.service.output()).toContain("Detected crash recovery");
      expect(stack.service.output()).not.toContain("Resumed from the checkpoint of a cleanly stopped run");
    },
    2 * START_DEADLINE_MS + scaledMs(120_000),
  );
});

describe("the service's stop deadline (ops/shutdownDeadline.ts)", () => {
  it("ends a service whose log reader stopped reading (its exit would wait on the log flush) at the deadline", async () => {
    stack ??= await startStack({ schema: "e2e_shutdown", database: "pglite" });
    const service = stack.service;
    // The reader of the service's output stops reading; each request below adds a log line, which
    // fill the pipe and then Ponder's logger buffer.
    service.child.stdout!.pause();
    service.child.stderr!.pause();
    for (let i = 0; i < 2_000; i++) await fetch(`${service.url}/api/public/tokens/new`);
    const exited = new Promise<NodeJS.Signals | null>((r) => service.child.once("exit", (_code, signal) => r(signal)));
    const sentAt = Date.now();
    service.child.kill("SIGTERM");
    const ended = await Promise.race([exited, new Promise<"alive">((r) => setTimeout(() => r("alive"), 60_000))]);
    const tookMs = Date.now() - sentAt;
    console.log(JSON.stringify({ stalled_log_reader_shutdown_ms: tookMs, ended }));
    service.child.stdout!.resume();
    service.child.stderr!.resume();
    if (ended === "alive") service.child.kill("SIGKILL");
    expect(ended).toBe("SIGKILL");
    expect(tookMs).toBeLessThan(stopDeadlineMs(SHUTDOWN_TIMEOUT_MS) + scaledMs(1_000));
  });

  it("kills a process whose event loop is held after the stop signal, at the deadline", async () => {
    const deadlineMs = 500;
    // The process arms the deadline, then holds its event loop for a minute at SIGTERM (as a long
    // synchronous database call would), so no timer of its own can end it.
    const program = `
      const { armStopDeadlineOnSignal } = await import(${JSON.stringify(SHUTDOWN_DEADLINE_MODULE)});
      armStopDeadlineOnSignal(${deadlineMs});
      process.on("SIGTERM", () => { const end = Date.now() + 60_000; while (Date.now() < end) {} });
      setInterval(() => {}, 1_000);
      console.log("armed");
    `;
    const child = spawn(process.execPath, ["--import", TSX_LOADER, "--input-type=module", "-e", program], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("close", (_code, signal) => r(signal)));
    await pollUntil(`the program did not arm (output: ${output})`, scaledMs(10_000), () =>
      output.includes("armed") ? true : undefined,
    );
    const sentAt = Date.now();
    child.kill("SIGTERM");
    const signal = await Promise.race([exited, new Promise<"alive">((r) => setTimeout(() => r("alive"), 30_000))]);
    if (signal === "alive") child.kill("SIGKILL");
    expect(signal).toBe("SIGKILL");
    expect(Date.now() - sentAt).toBeLessThan(deadlineMs + scaledMs(1_000));
    expect(output).toContain('"msg":"Stop deadline passed; killing the process"');
  });

  it("is SHUTDOWN_TIMEOUT_MS less 1.5 s for npm start's anvil and exit, and never under 1 s", () => {
    expect(stopDeadlineMs(8_000)).toBe(6_500);
    expect(stopDeadlineMs(2_000)).toBe(1_000);
  });
});
