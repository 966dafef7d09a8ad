/**
 * The body rules through HTTP, in process: the real app (`createApp`, `app.request()`), a real
 * store (PGlite in a temporary folder), a real anvil with the stack deployed, and a market
 * database with Ponder's tables (pushed from `ponder.schema.ts`) and one indexed checkpoint, so
 * every route can run to its end. No mocks.
 *
 * 1. The review's attacks, one by one (seed-phrase `label`, forbidden fields on the key and
 *    rewards routes, NUL, bidi characters, 5,000-deep bodies, oversize and streamed bodies,
 *    multipart as a way around the parser, key material in every free-text field), each checking
 *    that nothing was stored and that the secret is not echoed; ordinary prose passes.
 * 2. Fuzz: the POST routes are ENUMERATED from the app's route table (`app.routes`); the test
 *    fails when a POST route has no generator, so a new route is covered or noticed. fast-check
 *    sends hostile and near-valid requests (deep nesting, huge strings, controls, bidi, key
 *    material, wrong types, non-JSON, wrong content types, empty bodies); properties: no status
 *    >= 500, every error is the catalogue's body with the catalogue's status, a refused request
 *    changes no row count in the store, and no response echoes a planted secret.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { count } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import fc from "fast-check";
import { createPublicClient, http, keccak256, toHex, type PublicClient } from "viem";
import { answer, sessionCookieOf, signedInSession, type Answer } from "../helpers/session";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFixture, type TestApp } from "../helpers/appFixture";
import { ERROR_CATALOGUE } from "../../http/errors";
import { BODY_LIMITS } from "../../http/middleware/jsonBody";
import { png } from "../fixtures/images";
import type { MarketDb } from "../../market/db";
import { deploymentSchema, type Deployment } from "../../config/deployment";
import type { AnvilInstance } from "../../devnet/anvil";
import { startDeployedDevnet } from "../helpers/chainDevnet";
import { devAccount } from "../../devnet/clients";
import * as ponderSchema from "../../ponder.schema";
import { openStore, type Store } from "../../store/index";
import { createApiKey } from "../../store/keys";
import { apiKeys, keyChallenges, launches, media } from "../../store/schema";
import { ORDINARY_PROSE } from "../helpers/prose";
import { scaledMs } from "../helpers/deadlines";

// drizzle-kit's API is CommonJS only (its ESM build cannot load in vitest).
const { pushSchema } = createRequire(import.meta.url)("drizzle-kit/api") as typeof import("drizzle-kit/api");

const BASE = "http://localhost:42069";
const CREATOR = devAccount(1).address;
const PRIVATE_KEY = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const TWELVE = "abandon ability able about above absent absorb abstract absurd abuse access accident";
const XPRV =
  "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
/** Secrets the fuzz plants; no response may contain one. */
const PLANTED = [PRIVATE_KEY, "abandon ability able about", XPRV.slice(4, 40)];
const SIGNATURE = `0x${"1b".repeat(65)}`;

let anvil: AnvilInstance;
let deployment: Deployment;
let publicClient: PublicClient;
let marketClient: PGlite;
let store: Store;
let dir: string;
let app: TestApp;
let apiKey: string;
let session: { cookie: string; csrf: string };
let knownLaunchId: string;
let webhookId: string;
let validPng: Buffer;

beforeAll(async () => {
  const devnet = await startDeployedDevnet();
  anvil = devnet.anvil;
  validPng = await png();
  deployment = deploymentSchema.parse(devnet.manifest);
  publicClient = createPublicClient({ transport: http(anvil.rpcUrl) });
  // Ponder's tables, empty, and a checkpoint at the chain's head: market queries answer normally.
  marketClient = new PGlite();
  const marketDb = drizzle(marketClient);
  await (await pushSchema(ponderSchema as unknown as Record<string, unknown>, marketDb as never)).apply();
  const head = await publicClient.getBlock();
  const checkpoint = `${String(head.timestamp).padStart(10, "0")}${"0".repeat(16)}${String(head.number).padStart(16, "0")}${"0".repeat(33)}`;
  await marketClient.exec(
    `CREATE TABLE _ponder_checkpoint (chain_name text, chain_id bigint, safe_checkpoint varchar(75), latest_checkpoint varchar(75), finalized_checkpoint varchar(75)); INSERT INTO _ponder_checkpoint VALUES ('evmchain', ${deployment.chainId}, '${checkpoint}', '${checkpoint}', '${checkpoint}');`,
  );
  dir = mkdtempSync(join(tmpdir(), "body-routes-"));
  store = await openStore({ kind: "pglite", dir, schema: "launch_store" });
  const unlimited = 1_000_000_000;
  app = appFixture(
    { db: marketDb as unknown as MarketDb, publicBaseUrl: BASE, store, deployment, publicClient },
    {
      limits: {
        v1RequestsPerMinute: unlimited,
        sessionRequestsPerMinute: unlimited,
        publicRequestsPerMinute: unlimited,
        coinsCreatedPerDay: unlimited,
        coinsFinalizedPerDay: unlimited,
      },
    },
  );
  apiKey = (await createApiKey(store, { wallet: CREATOR, createdVia: "cli" })).secret;
  // Signed in (EIP-4361) as the wallet the session bodies name, so fuzzed bodies reach the builder.
  session = await signedInSession(
    async (path, init) => app.request(`${BASE}${path}`, init),
    new URL(BASE).origin,
    devAccount(6),
  );
  const intent = await post("/api/v1/evmchain/launches/intent", { creator: CREATOR, name: "Known", symbol: "KNOWN" });
  expect(intent.status).toBe(201);
  knownLaunchId = intent.json.launch_id;
  // A subscription of the key's wallet (a public IP literal: no DNS, never delivered to here).
  const hook = await post("/api/v1/evmchain/webhooks", { url: "https://93.184.216.34/hook", events: ["launch"] });
  expect(hook.status).toBe(201);
  webhookId = hook.json.webhook.id;
});

afterAll(async () => {
  await store?.close();
  await marketClient?.close();
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------- requests ----------
type Req = {
  path: string;
  headers?: Record<string, string>;
  body?: string | FormData | Uint8Array | ReadableStream<Uint8Array>;
};
type Res = Answer;

/** Credentials a route's surface needs: the API key on `/api/v1`, session + CSRF on the session surface. */
function credentials(path: string): Record<string, string> {
  if (path.startsWith("/api/v1/")) return { Authorization: `Bearer ${apiKey}`, "Idempotency-Key": crypto.randomUUID() };
  if (path.startsWith("/api/evm/evmchain/"))
    return { Origin: BASE, Cookie: session.cookie, "X-CSRF-Token": session.csrf };
  return {};
}

async function send(req: Req): Promise<Res> {
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: { ...credentials(req.path), ...req.headers },
    body: req.body as RequestInit["body"],
  };
  if (req.body instanceof ReadableStream) init.duplex = "half";
  const res = await app.request(`${BASE}${req.path}`, init);
  // A successful sign-in (or key creation) rotates the session cookie.
  session.cookie = sessionCookieOf(res.headers) ?? session.cookie;
  return answer(res);
}

/** A JSON POST; session routes get `csrf_token` in the body. */
function post(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const withToken = path.startsWith("/api/evm/evmchain/") ? { csrf_token: session.csrf, ...body } : body;
  return send({ path, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(withToken) });
}

/** Row counts of every store table a request could create rows in. */
async function rowCounts() {
  const n = async (table: typeof launches | typeof apiKeys | typeof keyChallenges | typeof media) =>
    (await store.db.select({ n: count() }).from(table))[0]!.n;
  return {
    launches: await n(launches),
    api_keys: await n(apiKeys),
    key_challenges: await n(keyChallenges),
    media: await n(media),
  };
}

/** The POST paths of the app's route table (middleware entries are `ALL`). */
function postRoutes(): string[] {
  return [...new Set(app.routes.filter((r) => r.method === "POST").map((r) => r.path))].sort();
}

const CATALOGUE = ERROR_CATALOGUE as Record<string, { status: number }>;

/** No 5xx; an error is the catalogue's body with the catalogue's status; no planted secret echoed. */
function checkResponse(req: Req, res: Res): void {
  const where = `POST ${req.path} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  for (const secret of PLANTED) if (res.text.includes(secret)) throw new Error(`a planted secret was echoed: ${where}`);
  if (res.status < 300) return;
  const b = res.json;
  if (b?.ok !== false || typeof b.error !== "string" || typeof b.message !== "string")
    throw new Error(`not the error shape: ${where}`);
  if (!(b.error in CATALOGUE)) throw new Error(`error code not in the catalogue: ${where}`);
  if (CATALOGUE[b.error]!.status !== res.status) throw new Error(`status differs from the catalogue's: ${where}`);
  if (!res.contentType.startsWith("application/json")) throw new Error(`error without a JSON content type: ${where}`);
}

// ---------- 1. the review's attacks ----------
describe("the body rules hold on every route", () => {
  const SESSION = "/api/evm/evmchain";

  it("refuses a seed-phrase label on api-keys even with a valid signature, storing no key and keeping the challenge", async () => {
    const account = devAccount(3);
    const challenge = await post(`${SESSION}/api-keys/challenge`, { wallet: account.address });
    expect(challenge.status).toBe(200);
    const signature = await account.signMessage({ message: challenge.json.message });
    const before = await rowCounts();
    for (const label of [TWELVE, `my seed: ${TWELVE.replaceAll(" ", ", ")}`, `0x${PRIVATE_KEY}`, XPRV]) {
      const res = await post(`${SESSION}/api-keys`, { wallet: account.address, signature, label });
      expect({ label: label.slice(0, 12), status: res.status, error: res.json.error }).toEqual({
        label: label.slice(0, 12),
        status: 400,
        error: "forbidden_field",
      });
      expect(res.text).not.toContain("abandon");
    }
    expect(await rowCounts()).toEqual(before);
    // The refused requests never reached the handler: the challenge is still open.
    const ok = await post(`${SESSION}/api-keys`, { wallet: account.address, signature, label: "laptop" });
    expect(ok.status).toBe(201);
  });

  it("refuses contract, calldata and key fields on api-keys/challenge, api-keys and build-creator-rewards-claim", async () => {
    const before = await rowCounts();
    const cases: Array<[string, Record<string, unknown>]> = [
      [`${SESSION}/api-keys/challenge`, { wallet: CREATOR, private_key: `0x${PRIVATE_KEY}` }],
      [`${SESSION}/api-keys/challenge`, { wallet: CREATOR, note: TWELVE }],
      [`${SESSION}/api-keys/challenge`, { wallet: CREATOR, mnemonic: "x" }],
      [`${SESSION}/api-keys`, { wallet: CREATOR, signature: SIGNATURE, seed: "x" }],
      [`${SESSION}/build-creator-rewards-claim`, { wallet: CREATOR, fee_locker: deployment.contracts.feeLocker }],
      [`${SESSION}/build-creator-rewards-claim`, { wallet: CREATOR, to: deployment.contracts.feeLocker }],
      [`${SESSION}/build-creator-rewards-claim`, { wallet: CREATOR, data: "0xdeadbeef" }],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect({ path, body: Object.keys(body), status: res.status, error: res.json.error }).toEqual({
        path,
        body: Object.keys(body),
        status: 400,
        error: "forbidden_field",
      });
    }
    expect(await rowCounts()).toEqual(before);
    // The same routes with clean bodies still work.
    expect((await post(`${SESSION}/api-keys/challenge`, { wallet: CREATOR })).status).toBe(200);
    // (for the wallet the session is signed in with: a key creation above signed it in anew)
    const signedInAs = (
      (await (await app.request(`${BASE}${SESSION}/session`, { headers: { Cookie: session.cookie } })).json()) as {
        wallet: string;
      }
    ).wallet;
    const claim = await post(`${SESSION}/build-creator-rewards-claim`, { wallet: signedInAs });
    expect({ status: claim.status, error: claim.json.error }, claim.text).toEqual({
      status: 409,
      error: "nothing_to_claim",
    });
  });

  it("refuses key material in every free-text field of the launch bodies, without echoing it", async () => {
    const forms = [
      `my seed: ${TWELVE}`,
      TWELVE.split(" ")
        .map((w, i) => `${i + 1}.${w}`)
        .join(" "),
      `${TWELVE} extra`,
      XPRV,
      `0x${PRIVATE_KEY}`,
      PRIVATE_KEY,
    ];
    const urlForms = [
      `https://example.com/?s=${TWELVE.replaceAll(" ", "+")}`,
      `https://example.com/?s=${TWELVE.replaceAll(" ", "%20")}`,
      `https://x.com/${XPRV}`,
      `https://t.me/?k=${PRIVATE_KEY}`,
    ];
    const before = await rowCounts();
    let i = 0;
    for (const path of [
      "/api/v1/evmchain/launches/intent",
      "/api/v1/coins/create-draft",
      `${SESSION}/build-direct-v3-launch`,
    ]) {
      for (const field of ["description", "name", "symbol"]) {
        for (const text of forms) {
          const res = await post(
            path,
            { creator: CREATOR, name: "Safe", symbol: "SAFE", [field]: text },
            { "Idempotency-Key": `km-${i++}` },
          );
          expect({ path, field, status: res.status, error: res.json.error }).toEqual({
            path,
            field,
            status: 400,
            error: "forbidden_field",
          });
          for (const secret of PLANTED) expect(res.text).not.toContain(secret);
        }
      }
      for (const field of ["website_url", "twitter_url", "telegram_url", "image_url"]) {
        for (const url of urlForms) {
          const res = await post(
            path,
            { creator: CREATOR, name: "Safe", symbol: "SAFE", [field]: url },
            { "Idempotency-Key": `km-${i++}` },
          );
          expect({ path, field, status: res.status, error: res.json.error }).toEqual({
            path,
            field,
            status: 400,
            error: "forbidden_field",
          });
        }
      }
    }
    const verify = await post(`${SESSION}/verify-direct-v3-launch`, {
      tx_hash: keccak256(toHex("x")),
      creator: CREATOR,
      metadata: { name: "Safe", symbol: "SAFE", description: `backup ${TWELVE}` },
    });
    expect({ status: verify.status, error: verify.json.error }).toEqual({ status: 400, error: "forbidden_field" });
    expect(await rowCounts()).toEqual(before);
  });

  it("accepts ordinary prose descriptions through HTTP", async () => {
    let i = 0;
    for (const description of ORDINARY_PROSE) {
      const res = await post(
        "/api/v1/evmchain/launches/intent",
        { creator: CREATOR, name: "Prose Coin", symbol: "PROSE", description },
        { "Idempotency-Key": `prose-${i++}` },
      );
      expect({ description, status: res.status }).toEqual({ description, status: 201 });
    }
  });

  it("refuses NUL and other controls with 400 invalid_request naming the field (never a 500), \\n and \\t in description only", async () => {
    const before = await rowCounts();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["/api/v1/evmchain/launches/intent", { description: "\u0000" }, "description"],
      ["/api/v1/evmchain/launches/intent", { description: "a\rb" }, "description"],
      ["/api/v1/evmchain/launches/intent", { name: "A\u0085B" }, "name"],
      ["/api/v1/evmchain/launches/intent", { website_url: "https://a.example/\u0000" }, "website_url"],
      ["/api/v1/coins/create-draft", { description: "\u001b[31mred" }, "description"],
      [`${SESSION}/build-direct-v3-launch`, { description: "\u0000" }, "description"],
      [`${SESSION}/build-direct-v3-launch`, { name: "A\ud800" }, "name"],
    ];
    let i = 0;
    for (const [path, extra, field] of cases) {
      const res = await post(
        path,
        { creator: CREATOR, name: "Ctl", symbol: "CTL", ...extra },
        { "Idempotency-Key": `ctl-${i++}` },
      );
      expect({ path, extra, status: res.status, error: res.json.error }).toEqual({
        path,
        extra,
        status: 400,
        error: "invalid_request",
      });
      expect(res.json.message).toMatch(new RegExp(`^${field}: must not contain control characters`));
    }
    for (const [path, body] of [
      [`${SESSION}/api-keys`, { wallet: CREATOR, signature: SIGNATURE, label: "a\u0000b" }],
      [`${SESSION}/api-keys/challenge`, { wallet: `${CREATOR}\u0000` }],
      [
        `${SESSION}/verify-direct-v3-launch`,
        {
          tx_hash: keccak256(toHex("x")),
          creator: CREATOR,
          metadata: { name: "A", symbol: "A", description: "\u0000" },
        },
      ],
    ] as const) {
      const res = await post(path, body);
      expect({ path, status: res.status, error: res.json.error }).toEqual({
        path,
        status: 400,
        error: "invalid_request",
      });
    }
    expect(await rowCounts()).toEqual(before);
    const multiline = await post(
      "/api/v1/evmchain/launches/intent",
      { creator: CREATOR, name: "Lines", symbol: "LINES", description: "one\ntwo\tthree" },
      { "Idempotency-Key": "ctl-ok" },
    );
    expect(multiline.status).toBe(201);
  });

  it("refuses bidi-override, isolate and zero-width characters in name and symbol on every route carrying them, and in the links and description of the signed message", async () => {
    const before = await rowCounts();
    let i = 0;
    for (const ch of ["\u202e", "\u2066", "\u200f", "\u061c", "\u200b", "\u200d", "\u2060", "\ufeff"]) {
      for (const path of [
        "/api/v1/evmchain/launches/intent",
        "/api/v1/coins/create-draft",
        `${SESSION}/build-direct-v3-launch`,
      ]) {
        for (const field of ["name", "symbol"]) {
          const res = await post(
            path,
            { creator: CREATOR, name: "Safe", symbol: "SAFE", [field]: `SA${ch}FE` },
            { "Idempotency-Key": `bidi-${i++}` },
          );
          expect({ path, field, ch, status: res.status, error: res.json.error }).toEqual({
            path,
            field,
            ch,
            status: 400,
            error: "invalid_request",
          });
          expect(res.json.message).toMatch(new RegExp(`^${field}: must not contain bidirectional`));
        }
      }
      const verify = await post(`${SESSION}/verify-direct-v3-launch`, {
        tx_hash: keccak256(toHex("x")),
        creator: CREATOR,
        metadata: { name: `A${ch}B`, symbol: "AB" },
      });
      expect({ ch, status: verify.status, message: verify.json.message }).toEqual({
        ch,
        status: 400,
        message: expect.stringMatching(/^metadata\.name: must not contain bidirectional/),
      });
    }
    // The same rule on every other field the signed intent message states or a page renders.
    for (const [field, value] of [
      ["twitter_url", "https://x.com/\u202eyekcoj_laer"],
      ["website_url", "https://example.com/\u2066a"],
      ["telegram_url", "https://t.me/a\u200bb"],
      ["image_url", "https://example.com/a\u202d.png"],
      ["description", "safe \u202eenil"],
    ] as const) {
      const res = await post(
        "/api/v1/evmchain/launches/intent",
        { creator: CREATOR, name: "Safe", symbol: "SAFE", [field]: value },
        { "Idempotency-Key": `bidi-${i++}` },
      );
      expect({ field, status: res.status, message: res.json.message }).toEqual({
        field,
        status: 400,
        message: expect.stringMatching(new RegExp(`^${field}: must not contain bidirectional`)),
      });
    }
    expect(await rowCounts()).toEqual(before);
    const rtl = await post(
      "/api/v1/evmchain/launches/intent",
      { creator: CREATOR, name: "Shalom", symbol: "SHLM", description: "שלום\u200f עולם" },
      { "Idempotency-Key": "bidi-desc" },
    );
    expect(rtl.status).toBe(201);
  });

  it("refuses every POST route without credentials from its headers alone: a body that never arrives is never awaited", async () => {
    for (const path of postRoutes()) {
      let pulled = 0;
      // A body that sends one byte and then never ends: a route that reads it would hang here.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled++ === 0) controller.enqueue(new TextEncoder().encode("{"));
          return new Promise(() => {});
        },
      });
      const res = await app.request(`${BASE}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": "60000" },
        body,
        duplex: "half",
        signal: AbortSignal.timeout(5_000),
      } as RequestInit);
      const json = (await res.json()) as { error: string };
      expect({ path, status: res.status, error: json.error }).toEqual({
        path,
        status: path.startsWith("/api/v1/") ? 401 : 403,
        error: path.startsWith("/api/v1/") ? "missing_api_key" : "csrf_failed",
      });
    }
  });

  it("answers a 5,000-deep body with 400 on every POST route, and a 17-deep one too", async () => {
    for (const route of postRoutes()) {
      // A route on a resource (`:id`) is called on a subscription that exists, so that it reaches
      // its body: a 404 for an unknown id would answer before any body is read.
      const path = route.replace(":id", webhookId);
      for (const text of [
        `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
        `{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
        `${'{"a":'.repeat(BODY_LIMITS.maxDepth + 1)}1${"}".repeat(BODY_LIMITS.maxDepth + 1)}`,
      ]) {
        const res = await send({ path, headers: { "Content-Type": "application/json" }, body: text });
        expect({ path, status: res.status, message: res.json?.message }).toEqual({
          path,
          status: 400,
          message: `body: nested deeper than ${BODY_LIMITS.maxDepth} levels`,
        });
      }
    }
  });

  it("a bodiless action (resume a subscription) accepts no body or {}, and refuses a field or a deep body without acting", async () => {
    const path = `/api/v1/evmchain/webhooks/${webhookId}/resume`;
    const refused = await post(path, { status: "active" });
    expect({ status: refused.status, error: refused.json?.error }).toEqual({ status: 400, error: "invalid_request" });
    const deep = await send({
      path,
      headers: { "Content-Type": "application/json" },
      body: `${'{"a":'.repeat(20)}1${"}".repeat(20)}`,
    });
    expect(deep.status).toBe(400);
    const bare = await send({ path, headers: {} });
    expect({ status: bare.status, error: bare.json?.error, message: bare.json?.message }).toEqual({
      status: 200,
      error: undefined,
      message: undefined,
    });
    const empty = await post(path, {});
    expect({ status: empty.status, id: empty.json?.webhook?.id }).toEqual({ status: 200, id: webhookId });
  });

  it("caps body size by Content-Length and by the bytes actually streamed: 413 body_too_large", async () => {
    const before = await rowCounts();
    const big = JSON.stringify({
      creator: CREATOR,
      name: "Big",
      symbol: "BIG",
      description: "a".repeat(BODY_LIMITS.jsonMaxBytes),
    });
    const declared = await send({
      path: "/api/v1/evmchain/launches/intent",
      headers: { "Content-Type": "application/json" },
      body: big,
    });
    expect({ status: declared.status, error: declared.json.error }).toEqual({ status: 413, error: "body_too_large" });
    const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"description":"'));
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await send({
      path: `${SESSION}/build-direct-v3-launch`,
      headers: { "Content-Type": "application/json" },
      body: stream,
    });
    expect({ status: streamed.status, error: streamed.json.error }).toEqual({ status: 413, error: "body_too_large" });
    expect(sent).toBeLessThan(64); // reading stopped at the limit
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(BODY_LIMITS.multipartMaxBytes + 1)]), "big.png");
    const multipart = await send({ path: "/api/v1/evmchain/launches/intent", body: form });
    expect({ status: multipart.status, error: multipart.json.error }).toEqual({ status: 413, error: "body_too_large" });
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses bodies that are not one JSON object, whatever the Content-Type; multipart never reaches a JSON route", async () => {
    const before = await rowCounts();
    const valid = JSON.stringify({ creator: CREATOR, name: "Typed", symbol: "TYPED", description: TWELVE });
    const cases: Array<[string | undefined, string | undefined]> = [
      ["application/json", ""],
      ["application/json", undefined],
      [undefined, undefined],
      ["application/json", "[]"],
      ["application/json", "null"],
      ["application/json", '"text"'],
      ["application/json", "{"],
      ["text/plain", "name=x"],
      ["application/x-www-form-urlencoded", "creator=0x&name=x"],
      ["application/xml", "<a/>"],
    ];
    for (const [type, body] of cases) {
      const res = await send({
        path: "/api/v1/evmchain/launches/intent",
        headers: type ? { "Content-Type": type } : {},
        body,
      });
      expect({ type, body, status: res.status, error: res.json.error }).toEqual({
        type,
        body,
        status: 400,
        error: "invalid_request",
      });
    }
    // A JSON body declared as multipart skips the JSON parser, so no JSON route may read it.
    const sneaky = await send({
      path: "/api/v1/evmchain/launches/intent",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: valid,
    });
    expect({ status: sneaky.status, error: sneaky.json.error }).toEqual({ status: 400, error: "invalid_request" });
    const sneakySession = await send({
      path: `${SESSION}/build-direct-v3-launch`,
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: JSON.stringify({ ...JSON.parse(valid), csrf_token: session.csrf }),
    });
    expect(sneakySession.status).toBeGreaterThanOrEqual(400);
    expect(sneakySession.status).toBeLessThan(500);
    // The same text declared as text/plain is still read as JSON, so the safety rule applies.
    const plain = await send({
      path: "/api/v1/evmchain/launches/intent",
      headers: { "Content-Type": "text/plain" },
      body: valid,
    });
    expect({ status: plain.status, error: plain.json.error }).toEqual({ status: 400, error: "forbidden_field" });
    expect(await rowCounts()).toEqual(before);
    // The media upload keeps its multipart path.
    const form = new FormData();
    form.append("image", new Blob([validPng], { type: "image/png" }), "logo.png");
    const upload = await send({ path: "/api/v1/evmchain/media/upload", body: form });
    expect(upload.status).toBe(201);
  });
});

// ---------- 2. fuzz every POST route ----------
const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef".split("")), minLength: n, maxLength: n });
const CONTROLS = ["\u0000", "\u0001", "\u0007", "\b", "\r", "\u001b", "\u007f", "\u0085", "\u009f", "\u2028", "\ud800"];
const FORMATS = [
  "\u202a",
  "\u202e",
  "\u2066",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u061c",
  "\u200b",
  "\u200d",
  "\u2060",
  "\ufeff",
];

/** Strings a field could hold, weighted to hostile ones. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...CONTROLS, ...FORMATS)).map(([s, c]) => `${s}${c}${s}`),
  fc.constantFrom(
    TWELVE,
    `my seed: ${TWELVE}.`,
    TWELVE.replaceAll(" ", ","),
    `https://a.example/?s=${TWELVE.replaceAll(" ", "%20")}`,
    XPRV,
    PRIVATE_KEY,
    `0x${PRIVATE_KEY}`,
  ),
  fc.integer({ min: 1_000, max: 80_000 }).map((n) => "a".repeat(n)),
  fc.constantFrom("", " ", "<script>", "' or 1=1--", "%00", "null", "NaN", "-1", "1e309", "0x", "🦄".repeat(30)),
);
/** Any value a field could hold: wrong types included. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  hex(40).map((h) => `0x${h}`),
  hex(64).map((h) => `0x${h}`),
  hex(130).map((h) => `0x${h}`),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileText, { maxLength: 3 }),
);

/** Valid-looking bodies per route path. */
const BASES: Record<string, () => Record<string, unknown>> = {
  "/api/v1/evmchain/launches/intent": () => ({
    creator: CREATOR,
    name: "Fuzz Coin",
    symbol: "FUZZ",
    first_buy_wei: "0",
    description: "d",
    website_url: "https://a.example",
  }),
  "/api/v1/coins/create-draft": () => ({ creator: CREATOR, name: "Fuzz Coin", symbol: "FUZZ", description: "d" }),
  "/api/v1/evmchain/launches/build": () => ({ launch_id: knownLaunchId, intent_signature: SIGNATURE }),
  "/api/v1/coins/create-transaction": () => ({ draft_id: knownLaunchId, intent_signature: SIGNATURE }),
  "/api/v1/evmchain/launches/confirm": () => ({ launch_id: knownLaunchId, tx_hash: keccak256(toHex("nope")) }),
  "/api/v1/coins/finalize": () => ({ draft_id: knownLaunchId, tx_hash: keccak256(toHex("nope")) }),
  "/api/v1/evmchain/media/upload": () => ({ image: "iVBORw0KGgo=" }),
  "/api/evm/evmchain/api-keys/challenge": () => ({ wallet: devAccount(5).address }),
  "/api/evm/evmchain/api-keys": () => ({ wallet: devAccount(5).address, signature: SIGNATURE, label: "fuzz" }),
  "/api/evm/evmchain/build-direct-v3-launch": () => ({
    creator: devAccount(6).address,
    name: "Fuzz Coin",
    symbol: "FUZZ",
    first_buy_wei: "0",
    description: "d",
  }),
  "/api/evm/evmchain/verify-direct-v3-launch": () => ({
    tx_hash: keccak256(toHex("nope")),
    creator: devAccount(6).address,
    write: true,
    metadata: { name: "Fuzz Coin", symbol: "FUZZ" },
  }),
  "/api/evm/evmchain/build-creator-rewards-claim": () => ({ wallet: CREATOR }),
  "/api/evm/evmchain/build-swap": () => ({
    wallet: devAccount(6).address,
    token: deployment.contracts.weth,
    side: "buy",
    amount_in_wei: "1000000000000000",
    slippage_bps: 100,
  }),
  "/api/v1/evmchain/swaps/build": () => ({
    wallet: CREATOR,
    token: deployment.contracts.weth,
    side: "sell",
    amount_in_wei: "1",
  }),
  "/api/evm/evmchain/sign-in/challenge": () => ({ wallet: devAccount(5).address, create_api_key: true }),
  "/api/evm/evmchain/sign-in": () => ({ wallet: devAccount(5).address, signature: SIGNATURE, label: "fuzz" }),
  "/api/evm/evmchain/sign-out": () => ({}),
  // A public IP literal: the receiver check needs no DNS (docs/webhooks.md "Safety").
  "/api/v1/evmchain/webhooks": () => ({ url: "https://93.184.216.34/hook", events: ["launch", "trade"] }),
  "/api/v1/evmchain/webhooks/:id/resume": () => ({}),
  "/api/v1/evmchain/webhooks/:id/rotate-secret": () => ({}),
  "/api/v1/evmchain/webhooks/:id/test": () => ({}),
};
/** Routes whose real input is multipart: the fuzz also sends them generated forms. */
const MULTIPART_ROUTES = new Set(["/api/v1/evmchain/media/upload"]);

const CONTENT_TYPES = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/xml",
      "",
      "*/*",
      "image/png",
    ),
  },
);

/** A near-valid body of a route: one field mutated, removed, or an extra field added. */
function nearValid(path: string) {
  const base = BASES[path]!;
  return fc
    .tuple(
      fc.nat(),
      hostileValue,
      fc.constantFrom("mutate", "remove", "extra", "as-is"),
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom("to", "data", "fee_locker", "factory", "private_key", "seed"),
      ),
    )
    .map(([i, value, mode, extraKey]) => {
      const body: Record<string, unknown> = { ...base() };
      if (path.startsWith("/api/evm/evmchain/")) body.csrf_token = session.csrf;
      const keys = Object.keys(body);
      const key = keys[i % Math.max(keys.length, 1)];
      if (mode === "mutate" && key) body[key] = value;
      else if (mode === "remove" && key) delete body[key];
      else if (mode === "extra") body[extraKey || "x"] = value;
      return body;
    });
}

/** Body text that is hostile as a whole: deep, huge, not JSON, not an object, empty. */
const hostileWhole = fc.oneof(
  fc.integer({ min: BODY_LIMITS.maxDepth - 2, max: 6_000 }).map((n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`),
  fc.integer({ min: 1, max: 6_000 }).map((n) => `{"a":${"[".repeat(n)}${"]".repeat(n)}}`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => `{"description":"${"x".repeat(n)}"}`),
  fc.constantFrom(
    "",
    " ",
    "{",
    "}",
    "[]",
    "null",
    "0",
    '"s"',
    "true",
    '{"a":1,"a":2}',
    '{"__proto__":{"x":1}}',
    "\u0000",
    '{"description":"\\u0000"}',
    '{"name":"\\u202e"}',
    "{}".repeat(100),
  ),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
);

/** Generated requests for one route path. */
function requestsFor(path: string): fc.Arbitrary<Req> {
  const json = fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: nearValid(path).map((b) => JSON.stringify(b)) },
        { weight: 2, arbitrary: hostileWhole },
      ),
      CONTENT_TYPES,
    )
    .map(([body, type]): Req => ({ path, headers: type ? { "Content-Type": type } : {}, body }));
  if (!MULTIPART_ROUTES.has(path)) return json;
  const form = fc
    .tuple(
      fc.oneof(
        fc.uint8Array({ maxLength: 2_048 }),
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
          const x = Uint8Array.from(validPng);
          x[i % x.length] = b;
          return x;
        }),
        fc.constant(Uint8Array.from(validPng)),
      ),
      fc.constantFrom("image", "file", "", "image[]"),
      fc.constantFrom("image/png", "image/svg+xml", "text/html", ""),
      hostileText.filter((s) => s.length < 200),
    )
    .map(([bytes, field, type, name]): Req => {
      const data = new FormData();
      data.append(field, new Blob([bytes], { type }), name);
      data.append("description", name);
      return { path, body: data };
    });
  return fc.oneof(json, form);
}

describe("fuzz: every POST route of the app", () => {
  it("has a generator for every POST route in the app's route table", () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routes.filter((path) => !BASES[path])).toEqual([]);
    // Every generator is for a route of the app, or for one announced on another branch.
    expect(Object.keys(BASES).filter((path) => !routes.includes(path))).toEqual([]);
  });

  it("documents the body parser's errors on every POST operation of the OpenAPI document", async () => {
    const res = await app.request(`${BASE}/api/openapi.json`);
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const posts = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.post ? [[path, ops.post] as const] : []));
    expect(posts.length).toBe(postRoutes().length);
    for (const [path, op] of posts) {
      const documented = {
        forbidden: op.responses["400"]?.description.includes("`forbidden_field`"),
        invalid: op.responses["400"]?.description.includes("`invalid_request`"),
        tooLarge: op.responses["413"]?.description.includes("`body_too_large`"),
      };
      expect({ path, documented }).toEqual({ path, documented: { forbidden: true, invalid: true, tooLarge: true } });
      expect(op.responses["400"]!.description.split("`invalid_request`").length, path).toBe(2); // listed once
    }
  });

  it(
    "answers generated hostile and near-valid requests below 500, with catalogued errors, changing nothing when refused",
    async () => {
      const routes = postRoutes();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes).chain(requestsFor), async (req) => {
          const before = await rowCounts();
          const res = await send(req);
          checkResponse(req, res);
          if (res.status >= 400)
            expect({ path: req.path, rows: await rowCounts() }).toEqual({ path: req.path, rows: before });
        }),
        {
          numRuns: Number(process.env.BODY_FUZZ_RUNS ?? 600),
          seed: Number(process.env.FUZZ_SEED ?? 4663),
          endOnFailure: true,
        },
      );
    },
    scaledMs(300_000),
  );
});
