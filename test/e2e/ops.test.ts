/**
 * Operations through the real service (anvil + `ponder start` on PGlite, JSON logs):
 *
 * 1. one `/metrics` scrape returns Ponder's `ponder_*` families and the service's, parsed with a
 *    Prometheus text-format parser, labelled by route template (never a raw path);
 *    `docs/alerts.yml` only uses metric families the scrape has; `/metrics` answers only with
 *    `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise, 404 with no token configured);
 * 2. request logs are JSON lines with request id, method, route template, status and duration,
 *    and never contain an API key, cookie, CSRF token or signature;
 * 3. SIGTERM drains, closes the offchain store and exits 0; a restart on the same folders keeps
 *    the indexed rows and the store, and indexes new blocks.
 */
import { request as httpRequest } from "node:http";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import promClient from "prom-client";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchToken } from "../../devnet/actions";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";
import { startStack, until, type Stack } from "../helpers/harness";
import { analysePromQl, loadAlertRules } from "../helpers/alertRules";

type Family = {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }>;
};

let stack: Stack;

let lastScrape = "";

async function scrape(): Promise<Map<string, Family>> {
  const res = await fetch(`${stack.service.url}/metrics`, {
    headers: { Authorization: `Bearer ${stack.metricsToken}` },
  });
  expect(res.status).toBe(200);
  lastScrape = await res.text();
  const families = parsePrometheusTextFormat(lastScrape) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/**
 * Value of one histogram series line (`name{labels} value`) of the last scrape. The parser keeps
 * histogram labels only for unlabelled histograms (it merges every series into one), so labelled
 * histogram series are read from the text lines.
 */
function seriesValue(name: string, labels: Record<string, string>): string | undefined {
  for (const line of lastScrape.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries(
      [...m[2]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return m[3];
  }
  return undefined;
}

function samples(families: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const family = families.get(name);
  if (!family) throw new Error(`metric family ${name} missing from /metrics`);
  return family.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

beforeAll(async () => {
  stack = await startStack({
    schema: "e2e_ops",
    env: { SESSION_RATE_LIMIT_PER_MINUTE: "6", LOG_FORMAT: "json", EVENTS_CONFIRMATION_BLOCKS: "3" },
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe("operations through the real service", () => {
  const secrets: string[] = [];
  const requestIds: string[] = [];

  it("serves Ponder's and the service's metrics in one scrape, labelled by route template", async () => {
    secrets.push(stack.apiKey);
    // A launch, then blocks past the confirmation depth: events exist and some are confirmed.
    const creator = stack.wallet(1);
    const launched = await launchToken(creator, stack.publicClient, stack.manifest, {
      name: "Ops Coin",
      symbol: "OPS",
      firstBuyWei: parseEther("0.01"),
    });
    // Confirmed = min(head − depth, the indexer's finalized block): mine past the finalized block.
    await stack.publicClient.request({
      method: "anvil_mine" as never,
      params: [`0x${FINALIZED_DEPTH.toString(16)}`] as never,
    });
    const token = launched.event.token as string;
    await until("the launch indexed", async () =>
      (await stack.request(`/api/public/token/${token}`)).status === 200 ? true : undefined,
    );

    const market = await stack.request(`/api/v1/evmchain/tokens/${token}`);
    expect(market.status).toBe(200);
    requestIds.push(market.headers.get("x-request-id")!);
    const missing = "0x000000000000000000000000000000000000dEaD";
    expect((await stack.request(`/api/v1/evmchain/tokens/${missing}`)).status).toBe(404);
    const wrongKey = `sk_live_${"A".repeat(43)}`;
    secrets.push(wrongKey);
    expect(
      (await stack.request(`/api/v1/evmchain/tokens/${token}`, { headers: { Authorization: `Bearer ${wrongKey}` } }))
        .status,
    ).toBe(401);
    expect((await stack.request(`/api/public/token/${token}/trades?limit=5`)).status).toBe(200);
    expect((await stack.request("/api/public/events?since_id=0")).status).toBe(200);
    // 200 once the indexer has caught up with the chain (READY_MAX_LAG_BLOCKS); do not race it.
    await until("health ok (caught up)", async () =>
      (await stack.request("/api/v1/health")).status === 200 ? true : undefined,
    );
    expect((await stack.request("/no/such/route")).status).toBe(404);

    // Session flow with cookie, CSRF token and a (wrong) signature; the 7th session request is 429.
    const origin = stack.service.url;
    const session = await stack.request("/api/evm/evmchain/session");
    const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
    const csrf = session.body.csrf_token as string;
    secrets.push(cookie.split("=")[1]!, csrf);
    const post = (path: string, body: Record<string, unknown>) =>
      stack.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: origin, Cookie: cookie, "X-CSRF-Token": csrf },
        body: JSON.stringify({ ...body, csrf_token: csrf }),
      });
    const wallet = creator.account.address;
    expect((await post("/api/evm/evmchain/api-keys/challenge", { wallet })).status).toBe(200);
    const signature = `0x${"ab".repeat(64)}1b`;
    secrets.push(signature);
    expect((await post("/api/evm/evmchain/api-keys", { wallet, signature })).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await stack.request("/api/evm/evmchain/session", { headers: { Cookie: cookie } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    // An upload that is not an image.
    const form = new FormData();
    form.set("image", new Blob(["hello, not an image"], { type: "image/png" }), "x.png");
    const upload = await stack.request("/api/v1/evmchain/media/upload", { method: "POST", body: form });
    expect(upload.body.error).toBe("image_type_unsupported");

    const families = await scrape();
    // Ponder's own families are still there.
    for (const name of [
      "ponder_sync_block",
      "ponder_indexing_completed_events",
      "ponder_http_server_request_duration_ms",
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get("launchpad_http_requests_total")!.type).toBe("COUNTER");
    expect(families.get("launchpad_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
    const v1Token = { route: "/api/v1/evmchain/tokens/:address", method: "GET", surface: "v1" };
    expect(samples(families, "launchpad_http_requests_total", { ...v1Token, status: "200" })[0]?.value).toBe("1");
    expect(samples(families, "launchpad_http_requests_total", { ...v1Token, status: "404" })[0]?.value).toBe("1");
    expect(samples(families, "launchpad_http_requests_total", { ...v1Token, status: "401" })[0]?.value).toBe("1");
    expect(seriesValue("launchpad_http_request_duration_seconds_count", { ...v1Token, status: "200" })).toBe("1");
    expect(
      seriesValue("launchpad_http_request_duration_seconds_bucket", { ...v1Token, status: "200", le: "+Inf" }),
    ).toBe("1");
    expect(
      samples(families, "launchpad_http_requests_total", {
        route: "/api/public/token/:address_or_slug/trades",
        surface: "public",
        status: "200",
      }),
    ).toHaveLength(1);
    expect(
      samples(families, "launchpad_http_requests_total", {
        route: "/api/evm/evmchain/session",
        surface: "session",
        status: "429",
      })[0]?.value,
    ).toBe("1");
    expect(samples(families, "launchpad_http_requests_total", { route: "unmatched", status: "404" }).length).toBe(1);
    // Never a raw path: no label value carries an address or the unknown path.
    for (const line of lastScrape.split("\n").filter((l) => /^(http_|rpc_|upload_|rate_limit_|launch_)/.test(l))) {
      expect(line).not.toMatch(/0x[0-9a-fA-F]{40}|no\/such/);
    }
    expect(samples(families, "launchpad_rate_limit_rejections_total", { limit: "session" })[0]?.value).toBe("1");
    expect(samples(families, "launchpad_upload_rejections_total", { code: "image_type_unsupported" })[0]?.value).toBe(
      "1",
    );
    expect(
      Number(samples(families, "launchpad_rpc_requests_total", { method: "eth_blockNumber" })[0]?.value),
    ).toBeGreaterThan(0);
    expect(
      Number(samples(families, "launchpad_rpc_requests_total", { method: "eth_chainId" })[0]?.value),
    ).toBeGreaterThan(0);
    expect(families.get("launchpad_rpc_request_duration_seconds")!.type).toBe("HISTOGRAM");
    // Scrape-time gauges.
    const head = Number(samples(families, "launchpad_indexer_head_block")[0]?.value);
    const chainHead = Number(samples(families, "launchpad_chain_head_block")[0]?.value);
    expect(head).toBeGreaterThan(0);
    expect(chainHead).toBeGreaterThanOrEqual(head);
    expect(Number(samples(families, "launchpad_indexer_lag_blocks")[0]?.value)).toBe(chainHead - head);
    expect(Number(samples(families, "launchpad_indexer_head_timestamp_seconds")[0]?.value)).toBeGreaterThan(
      1_600_000_000,
    );
    const newestEvent = Number(samples(families, "launchpad_events_feed_head_id", { state: "indexed" })[0]?.value);
    const confirmedEvent = Number(samples(families, "launchpad_events_feed_head_id", { state: "confirmed" })[0]?.value);
    expect(Math.floor(newestEvent / 1e6)).toBe(Number(launched.receipt.blockNumber));
    expect(confirmedEvent).toBe(newestEvent);
    // Launch hooks exist (wired by the launch write path).
    for (const name of [
      "launchpad_launch_builds_total",
      "launchpad_launch_verifications_total",
      "launchpad_launch_confirmations_total",
    ])
      expect(families.has(name), name).toBe(true);

    // Every metric docs/alerts.yml uses is served.
    const names = [...new Set(loadAlertRules("docs/alerts.yml").flatMap((r) => analysePromQl(r.expr).metrics))];
    expect(names.length).toBeGreaterThanOrEqual(8);
    for (const name of names) expect(families.has(name), `alerts.yml uses ${name}`).toBe(true);
  });

  it("names every metric family of a scrape launchpad_*, except Ponder's own (ponder_* and the prom-client process and Node.js defaults it registers)", async () => {
    // Something in every service family: a request, an RPC call, the indexer gauges.
    expect((await stack.request("/api/v1/health")).status).toBe(200);
    const names = [...(await scrape()).keys()];
    // The default process and Node.js metrics Ponder registers (collectDefaultMetrics), by name.
    const defaults = new promClient.Registry();
    promClient.collectDefaultMetrics({ register: defaults });
    const ponderDefaults = new Set((await defaults.getMetricsAsJSON()).map((m) => m.name));
    const ours = names.filter((name) => !name.startsWith("ponder_") && !ponderDefaults.has(name));
    expect(ours.filter((name) => !name.startsWith("launchpad_"))).toEqual([]);
    expect(ours.length).toBeGreaterThanOrEqual(10);
    expect(names.some((name) => name.startsWith("ponder_"))).toBe(true);
  });

  it("counts each request once in launchpad_http_* (10 requests: +10), unlike Ponder's ponder_http_server_*", async () => {
    const route = { route: "/api/public/tokens/new", method: "GET", status: "200" };
    const count = (families: Map<string, Family>) =>
      Number(samples(families, "launchpad_http_requests_total", route)[0]?.value ?? 0);
    const ponderCount = () =>
      lastScrape
        .split("\n")
        .filter(
          (l) =>
            l.startsWith("ponder_http_server_request_duration_ms_count{") &&
            l.includes('path="/api/public/tokens/new"'),
        )
        .reduce((sum, l) => sum + Number(l.split(" ").at(-1)), 0);
    const before = await scrape();
    const ponderBefore = ponderCount();
    for (let i = 0; i < 10; i++) expect((await stack.request("/api/public/tokens/new")).status).toBe(200);
    const after = await scrape();
    expect(count(after) - count(before)).toBe(10);
    expect(seriesValue("launchpad_http_request_duration_seconds_count", route)).toBe(String(count(after)));
    // Ponder observes once per matched route and middleware (docs/operations.md "Metrics"): logged, not relied on.
    console.log(
      JSON.stringify({ launchpad_delta: count(after) - count(before), ponder_delta: ponderCount() - ponderBefore }),
    );
  });

  it("serves /metrics only with Authorization: Bearer <METRICS_TOKEN>: 401 metrics_unauthorized without it or with a wrong one, on every spelling of the path", async () => {
    secrets.push(stack.metricsToken);
    const url = stack.service.url;
    const attempts: Array<[string, Record<string, string>]> = [
      ["/metrics", {}],
      ["/metrics", { Authorization: `Bearer ${stack.metricsToken}x` }],
      ["/metrics", { Authorization: `Basic ${Buffer.from(`user:${stack.metricsToken}`).toString("base64")}` }],
      ["/metrics", { Authorization: stack.metricsToken }],
      ["/metrics?format=text", {}],
      ["/%6Detrics", {}],
    ];
    for (const [path, headers] of attempts) {
      const res = await fetch(`${url}${path}`, { headers });
      const text = await res.text();
      expect({ path, auth: headers.Authorization?.slice(0, 6), status: res.status }).toEqual({
        path,
        auth: headers.Authorization?.slice(0, 6),
        status: 401,
      });
      expect(JSON.parse(text)).toMatchObject({ ok: false, error: "metrics_unauthorized" });
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(text).not.toContain("ponder_");
    }
    // HEAD is refused too, without a body.
    expect((await fetch(`${url}/metrics`, { method: "HEAD" })).status).toBe(401);
    // With the token: Ponder's families and ours.
    const families = await scrape();
    for (const name of [
      "ponder_sync_block",
      "launchpad_http_requests_total",
      "launchpad_indexer_head_block",
      "launchpad_rpc_requests_total",
    ])
      expect(families.has(name), name).toBe(true);
    // Every other path is untouched by the guard.
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/api/public`)).status).toBe(200);
  });

  it("logs each request as one JSON line with request id, route template, status and duration, and no secret", async () => {
    const output = stack.service.output();
    const lines = output.split("\n").filter((l) => l.startsWith("{"));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(10);
    const first = requests.find((e) => e.request_id === requestIds[0]);
    expect(first).toMatchObject({
      method: "GET",
      route: "/api/v1/evmchain/tokens/:address",
      status: 200,
      surface: "v1",
      level: 30,
    });
    expect(first!.key_id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(typeof first!.duration_ms).toBe("number");
    expect(requests.find((e) => e.status === 429)).toMatchObject({
      route: "/api/evm/evmchain/session",
      error_code: "rate_limited",
    });
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      expect(output.includes(secret), `secret ${secret.slice(0, 10)}… in the log`).toBe(false);
    }
  });

  it("drains and closes the store on SIGTERM, exits 0, and resumes indexing after a restart", async () => {
    const before = await stack.request("/api/public/tokens/new?limit=10");
    expect(before.body.tokens.length).toBe(1);
    const headBefore = (await stack.request("/api/public/events?since_id=0")).body.head_block as number;
    const old = stack.service;
    // An upload whose body is still arriving when SIGTERM comes: it is in flight, and gets its
    // complete answer before the store closes.
    const boundary = "opsboundary";
    const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
    const tail = `not an image at all\r\n--${boundary}--\r\n`;
    const url = new URL("/api/v1/evmchain/media/upload", old.url);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${stack.apiKey}`,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
          },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(partHead);
      setTimeout(() => {
        old.child.kill("SIGTERM");
        setTimeout(() => req.end(tail), 300);
      }, 500);
    });
    const { status, body } = await answer;
    expect({ status, error: JSON.parse(body).error }).toEqual({ status: 400, error: "image_type_unsupported" });
    const exitCode = await old.exited;
    expect(exitCode).toBe(0);
    const log = old.output();
    expect(log).toContain('"msg":"Received SIGTERM"');
    const logLine = (msg: string) => {
      const line = log.split("\n").find((l) => l.includes(`"msg":"${msg}"`));
      expect(line, `log line "${msg}"`).toBeDefined();
      return JSON.parse(line!) as { time: number; in_flight_at_signal?: number };
    };
    const drained = logLine("Drained in-flight API requests");
    expect(drained.in_flight_at_signal).toBe(1);
    // The store closes after the drain: by the times the service logged them (ms). Their order
    // in the captured output is not evidence: under a CPU hog the two lines arrived swapped once.
    const closed = logLine("Closed offchain store");
    expect(closed.time).toBeGreaterThanOrEqual(drained.time);
    expect(log.split('"msg":"Closed offchain store"').length - 1, "the store is closed once").toBe(1);

    // Blocks mined while the service is down, and a second launch.
    await stack.publicClient.request({ method: "anvil_mine" as never, params: ["0x3"] as never });
    const second = await launchToken(stack.wallet(2), stack.publicClient, stack.manifest, {
      name: "After Restart",
      symbol: "AFTR",
    });

    // Restarted without a metrics token: /metrics is not served at all (404), whatever is sent.
    await stack.restart({ env: { METRICS_TOKEN: "" } });
    const disabled = await stack.request("/metrics", { headers: { Authorization: `Bearer ${stack.metricsToken}` } });
    expect({ status: disabled.status, error: disabled.body.error }).toEqual({ status: 404, error: "not_found" });
    const restarted = stack.service.output();
    // A clean stop unlocked the schema: the start resumes from its checkpoint, and says so without
    // calling it a crash (the Ponder patch; docs/operations.md "Shutdown and restart").
    expect(restarted).toContain('"msg":"Resumed from the checkpoint of a cleanly stopped run"');
    expect(restarted).not.toContain("Detected crash recovery");
    // The old rows are kept (no re-index from the start block) and the key in the store still works.
    const head = await until("the new launch indexed", async () => {
      const r = await stack.request("/api/public/tokens/new?limit=10");
      return r.body.tokens?.length === 2 ? r : undefined;
    });
    expect(head.body.tokens.map((t: { symbol: string }) => t.symbol).sort()).toEqual(["AFTR", "OPS"]);
    // The checkpoint (indexed head) may trail the rows by a moment: poll it.
    const headAfter = await until("the indexed head past the new launch", async () => {
      const events = await stack.request("/api/public/events?since_id=0&include_pending=1");
      return events.body.head_block >= Number(second.receipt.blockNumber)
        ? (events.body.head_block as number)
        : undefined;
    });
    expect(headAfter).toBeGreaterThan(headBefore);
    expect((await stack.request(`/api/v1/evmchain/tokens/${second.event.token}`)).status).toBe(200);
  });
});
