/**
 * End to end, the API description (docs/openapi.md): the OpenAPI 3.1 document the real service
 * serves at `/api/openapi.json` is a valid OpenAPI 3.1 document, names every route the app serves
 * (and nothing else), and real responses of the running service (anvil + real Uniswap V3 + Ponder
 * on PGlite) validate against the schema the document gives for their route and status.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createTestClient, http, parseEther, toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFixture } from "../helpers/appFixture";
import type { MarketDb } from "../../market/db";
import { loadDeployment } from "../../config/deployment";
import { buyToken, launchToken, sellToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { startStack, until, type Stack } from "../helpers/harness";
import { FINALIZED_DEPTH } from "../helpers/eventsFeed";
import { sessionPost, signedInSession, type Fetcher } from "../helpers/session";

let stack: Stack;
let doc: any;
let token: string;
let pool: string;

beforeAll(async () => {
  stack = await startStack({ schema: "e2e_openapi" });
  const creator = stack.wallet(1);
  const launched = await launchToken(creator, stack.publicClient, stack.manifest, {
    name: "Described Coin",
    symbol: "DESC",
    firstBuyWei: parseEther("0.05"),
  });
  token = launched.event.token;
  pool = launched.event.pool;
  await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, launched.event.token, parseEther("0.02"));
  await sellToken(stack.wallet(1), stack.publicClient, stack.manifest, launched.event.token, 10n ** 21n);
  await until("trades indexed", async () => {
    const r = await stack.request(`/api/public/token/${token}/trades`);
    return r.status === 200 && r.body.trades.length === 3 ? true : undefined;
  });
  // Bury the launch under the events feed's confirmed bound (the confirmation depth and the
  // indexer's finalized block), so the confirmed-only outputs (events, DEX Screener events, token
  // list) have rows to validate.
  await stack.publicClient.request({ method: "anvil_mine" as never, params: [toHex(FINALIZED_DEPTH + 10)] as never });
  await until("launch confirmed in the events feed", async () => {
    const r = await stack.request("/api/public/events");
    return r.status === 200 && r.body.events.length >= 4 ? true : undefined;
  });
  const res = await stack.request("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await stack?.stop();
});

/** `METHOD /path/{param}` of every route the app serves (Hono's `:param` and `:param{regex}` -> `{param}`). */
function servedRoutes(): Set<string> {
  // Built only to read its route table: no request is served by this instance, so the store and
  // database handles are never used.
  const app = appFixture({
    db: {} as MarketDb,
    publicBaseUrl: stack.service.url,
    store: new Promise(() => {}),
    deployment: loadDeployment({ DEPLOYMENT_MANIFEST: stack.manifestPath }),
    publicClient: stack.publicClient,
  });
  const routes = new Set<string>();
  for (const r of app.routes) {
    // Middleware (`*` paths, `ALL` method) and the catch-all 404 are not endpoints.
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    routes.add(`${r.method} ${r.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}")}`);
  }
  return routes;
}

function documentedRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item))
      if (["get", "post", "put", "patch", "delete"].includes(method)) routes.add(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("documents every route the app serves, and only those", () => {
    const served = servedRoutes();
    const documented = documentedRoutes();
    expect(served.size).toBeGreaterThan(45);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it("states the scope of every v1 route and the CSRF scheme of every session POST", () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (path.startsWith("/api/v1/evmchain/") || path.startsWith("/api/v1/coins/")) {
          expect(op.security, `${method} ${path}`).toEqual([
            { apiKey: [expect.stringMatching(/^evmchain:(launch|market|webhooks):/)] },
          ]);
          expect(op.responses["401"], `${method} ${path}`).toBeDefined();
        } else if (path.startsWith("/api/evm/evmchain/") && method === "post") {
          expect(op.security, `${method} ${path}`).toEqual([{ sessionCookie: [], csrfToken: [] }]);
          expect(op.responses["403"].description).toContain("csrf_failed");
        }
      }
    }
    expect(doc.paths["/api/v1/evmchain/tokens/{address}/candles"].get.security).toEqual([
      { apiKey: ["evmchain:market:read"] },
    ]);
  });

  it("describes request parameters and bodies from the validating schemas", () => {
    const candles = doc.paths["/api/v1/evmchain/tokens/{address}/candles"].get;
    const names = candles.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["address", "resolution", "from", "to"]));
    const intent = doc.paths["/api/v1/evmchain/launches/intent"].post;
    const body = intent.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(expect.arrayContaining(["creator", "name", "symbol"]));
    expect(body.additionalProperties).toBe(false);
    expect(intent.parameters.find((p: { name: string }) => p.name === "Idempotency-Key")?.required).toBe(true);
  });
});

describe("real responses validate against the document", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  let compiled = false;

  /** Validates one response against the schema the document gives for its route and status. */
  function check(method: string, template: string, res: { status: number; body: unknown }) {
    if (!compiled) {
      ajv.addSchema({ $id: "openapi", components: doc.components });
      compiled = true;
    }
    const response = doc.paths[template]?.[method]?.responses?.[String(res.status)];
    expect(response, `${method.toUpperCase()} ${template} documents status ${res.status}`).toBeDefined();
    const schema = response.content?.["application/json"]?.schema;
    expect(schema, `${method.toUpperCase()} ${template} ${res.status} has a JSON schema`).toBeDefined();
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
    const validate = ajv.compile(rebased);
    const valid = validate(res.body);
    expect(
      validate.errors ?? [],
      `${method.toUpperCase()} ${template} ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
    ).toEqual([]);
    expect(valid).toBe(true);
  }

  it("market data, lists, events and integrations", async () => {
    const samples: [string, string][] = [
      [`/api/public/token/${token}`, "/api/public/token/{address_or_slug}"],
      [`/api/public/token/${token}/trades?limit=2`, "/api/public/token/{address_or_slug}/trades"],
      [`/api/public/token/${token}/holders?limit=2`, "/api/public/token/{address_or_slug}/holders"],
      [`/api/public/token/${token}/integrity`, "/api/public/token/{address_or_slug}/integrity"],
      ["/api/public/tokens/new", "/api/public/tokens/new"],
      ["/api/public/tokens/trending", "/api/public/tokens/trending"],
      ["/api/public/tokens/graduating", "/api/public/tokens/graduating"],
      ["/api/public/trades/recent?limit=5", "/api/public/trades/recent"],
      ["/api/public/events?include_pending=1", "/api/public/events"],
      ["/api/public", "/api/public"],
      ["/api/v1", "/api/v1"],
      [`/api/v1/evmchain/tokens/${token}`, "/api/v1/evmchain/tokens/{address}"],
      [`/api/v1/evmchain/tokens/${token}/trades?limit=100`, "/api/v1/evmchain/tokens/{address}/trades"],
      [`/api/v1/evmchain/tokens/${token}/holders?limit=100`, "/api/v1/evmchain/tokens/{address}/holders"],
      [`/api/v1/evmchain/tokens/${token}/integrity`, "/api/v1/evmchain/tokens/{address}/integrity"],
      [`/api/v1/evmchain/tokens/${token}/candles?resolution=1m`, "/api/v1/evmchain/tokens/{address}/candles"],
      ["/api/public/integrations/evmchain/launches?sort=volume", "/api/public/integrations/evmchain/launches"],
      [
        `/api/public/integrations/evmchain/token-metadata?address=${token}`,
        "/api/public/integrations/evmchain/token-metadata",
      ],
      ["/api/public/integrations/evmchain/factories", "/api/public/integrations/evmchain/factories"],
      [
        "/api/public/integrations/partner-a/evmchain/tokens?orderId=0",
        "/api/public/integrations/partner-a/evmchain/tokens",
      ],
      ["/api/public/integrations/partner-b/evmchain/launches", "/api/public/integrations/partner-b/evmchain/launches"],
      [
        `/api/public/integrations/partner-b/evmchain/status?address=${token}`,
        "/api/public/integrations/partner-b/evmchain/status",
      ],
      [
        "/api/public/integrations/dexscreener/evmchain/latest-block",
        "/api/public/integrations/dexscreener/evmchain/latest-block",
      ],
      [
        `/api/public/integrations/dexscreener/evmchain/asset?id=${token}`,
        "/api/public/integrations/dexscreener/evmchain/asset",
      ],
      [
        `/api/public/integrations/dexscreener/evmchain/pair?id=${pool}`,
        "/api/public/integrations/dexscreener/evmchain/pair",
      ],
      ["/token-list/evmchain.json", "/token-list/evmchain.json"],
      ["/api/evm/evmchain/session", "/api/evm/evmchain/session"],
      ["/api/evm/evmchain/status", "/api/evm/evmchain/status"],
      [
        `/api/evm/evmchain/creator-rewards?wallet=${stack.wallet(1).account.address}`,
        "/api/evm/evmchain/creator-rewards",
      ],
    ];
    for (const [url, template] of samples) {
      const res = await stack.request(url);
      expect(res.status, url).toBe(200);
      check("get", template, res);
    }
    const trades = await stack.request(`/api/public/token/${token}/trades`);
    expect(trades.body.trades).toHaveLength(3);
    const head = await stack.request("/api/public/integrations/dexscreener/evmchain/latest-block");
    const events = await stack.request(
      `/api/public/integrations/dexscreener/evmchain/events?fromBlock=0&toBlock=${head.body.block.blockNumber}`,
    );
    expect(events.status).toBe(200);
    expect(events.body.events.length).toBeGreaterThanOrEqual(4); // the launch's join and three swaps
    check("get", "/api/public/integrations/dexscreener/evmchain/events", events);
  });

  it("error bodies of every kind", async () => {
    const samples: [string, string, RequestInit?][] = [
      ["/api/public/token/0x0000000000000000000000000000000000000001", "/api/public/token/{address_or_slug}"],
      ["/api/public/tokens/new?limit=0", "/api/public/tokens/new"],
      [
        `/api/v1/evmchain/tokens/${token}`,
        "/api/v1/evmchain/tokens/{address}",
        { headers: { Authorization: "Bearer sk_live_nope" } },
      ],
      [`/api/v1/evmchain/tokens/${token}/candles?resolution=2m`, "/api/v1/evmchain/tokens/{address}/candles"],
      [
        "/api/public/integrations/dexscreener/evmchain/events?fromBlock=10&toBlock=1",
        "/api/public/integrations/dexscreener/evmchain/events",
      ],
    ];
    const statuses = new Set<number>();
    for (const [url, template, init] of samples) {
      const res = await stack.request(url, init);
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(res.body.ok).toBe(false);
      statuses.add(res.status);
      check("get", template, res);
    }
    expect([...statuses].sort()).toEqual([400, 401, 404]);
  });

  it("the v1 launch flow: intent (201), build, confirm and status (200)", async () => {
    const creator = stack.wallet(0);
    const intent = await stack.request("/api/v1/evmchain/launches/intent", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": `openapi-${Date.now()}` },
      body: JSON.stringify({
        creator: creator.account.address,
        name: "Spec Coin",
        symbol: "SPEC",
        first_buy_wei: "10000000000000000",
      }),
    });
    expect(intent.status).toBe(201);
    check("post", "/api/v1/evmchain/launches/intent", intent);
    const signature: Hex = await creator.signMessage({ message: intent.body.intent.message });
    const built = await stack.request("/api/v1/evmchain/launches/build", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ launch_id: intent.body.launch_id, intent_signature: signature }),
    });
    expect(built.status).toBe(200);
    check("post", "/api/v1/evmchain/launches/build", built);
    const status = await stack.request(`/api/v1/evmchain/launches/status?launch_id=${intent.body.launch_id}`);
    check("get", "/api/v1/evmchain/launches/status", status);
    // The wallet sends the built transaction unchanged; the confirmation and the confirmed status
    // carry every verified fact (the schemas the handlers are typed with, launches/wire.ts).
    const tx = built.body.transaction;
    const hash = await creator.sendTransaction({
      chain: null,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas),
    });
    await stack.publicClient.waitForTransactionReceipt({ hash });
    const confirmed = await stack.request("/api/v1/evmchain/launches/confirm", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ launch_id: intent.body.launch_id, tx_hash: hash }),
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.position_ids.length).toBeGreaterThan(0);
    check("post", "/api/v1/evmchain/launches/confirm", confirmed);
    const after = await stack.request(`/api/v1/evmchain/launches/status?tx_hash=${hash}`);
    expect(after.body.state).toBe("confirmed");
    check("get", "/api/v1/evmchain/launches/status", after);
  });

  it("the session launch flow: build, verify dry run and persisted (200), not yet mined (202)", async () => {
    const account = devAccount(3);
    const fetcher: Fetcher = (path, init) => fetch(`${stack.service.url}${path}`, init);
    const session = await signedInSession(fetcher, stack.service.url, account);
    const post = (path: string, body: Record<string, unknown>) =>
      sessionPost(fetcher, stack.service.url, session, path, body);
    const built = await post("build-direct-v3-launch", {
      creator: account.address,
      name: "Session Spec",
      symbol: "SSPEC",
      first_buy_wei: "10000000000000000",
      website_url: "https://example.com/session-spec",
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    check("post", "/api/evm/evmchain/build-direct-v3-launch", built);
    const tx = built.body.transaction;
    // Held in anvil's mempool: the verify answers 202 until the block is mined.
    const testClient = createTestClient({ mode: "anvil", transport: http(stack.anvil.rpcUrl) });
    await testClient.setAutomine(false);
    let hash: Hex;
    try {
      hash = await stack.wallet(3).sendTransaction({
        chain: null,
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gas: BigInt(tx.gas),
      });
      const verify = { tx_hash: hash, creator: account.address, launch_id: built.body.launch_id };
      const pending = await post("verify-direct-v3-launch", { ...verify, write: false });
      expect(pending.status, JSON.stringify(pending.body)).toBe(202);
      check("post", "/api/evm/evmchain/verify-direct-v3-launch", pending);
    } finally {
      await testClient.setAutomine(true);
    }
    await testClient.mine({ blocks: 1 });
    await stack.publicClient.waitForTransactionReceipt({ hash });
    const verify = { tx_hash: hash, creator: account.address, launch_id: built.body.launch_id };
    const dryRun = await post("verify-direct-v3-launch", { ...verify, write: false });
    expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
    expect(dryRun.body.persisted).toBe(false);
    check("post", "/api/evm/evmchain/verify-direct-v3-launch", dryRun);
    const persisted = await post("verify-direct-v3-launch", { ...verify, write: true });
    expect(persisted.status, JSON.stringify(persisted.body)).toBe(200);
    expect(persisted.body.persisted).toBe(true);
    expect(persisted.body.metadata.website_url).toBe("https://example.com/session-spec");
    check("post", "/api/evm/evmchain/verify-direct-v3-launch", persisted);
  });

  it("the v1 swap build (200) and its refusals validate against the document", async () => {
    const wallet = stack.wallet(0).account.address; // the harness key's wallet
    const body = (over: Record<string, unknown>) =>
      JSON.stringify({ wallet, token, side: "buy", amount_in_wei: "10000000000000000", ...over });
    const post = (text: string) =>
      stack.request("/api/v1/evmchain/swaps/build", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: text,
      });
    const built = await post(body({}));
    expect(built.status).toBe(200);
    check("post", "/api/v1/evmchain/swaps/build", built);
    for (const [over, status] of [
      [{ token: pool }, 404],
      [{ amount_in_wei: "0" }, 400],
      [{ side: "sell", amount_in_wei: "1" }, 422],
    ] as const) {
      const refused = await post(body(over));
      expect(refused.status).toBe(status);
      check("post", "/api/v1/evmchain/swaps/build", refused);
    }
  });
});

describe("reference page", () => {
  it("loads Swagger UI from the service itself under a strict CSP", async () => {
    const res = await fetch(`${stack.service.url}/api/docs`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref.startsWith("/"), `${ref} is same-origin`).toBe(true);
      const asset = await fetch(`${stack.service.url}${ref}`);
      expect(asset.status, ref).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(50);
    }
    const init = await (await fetch(`${stack.service.url}/api/docs/init.js`)).text();
    expect(init).toContain("/api/openapi.json");
  });
});
