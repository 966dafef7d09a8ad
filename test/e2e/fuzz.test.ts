/**
 * Fuzz, end to end (issue "Proof under stress": Fuzz): property-based tests (fast-check) send
 * 10,000 generated requests to ONE real service (anvil + the deployed stack + Ponder and the Hono
 * API, on PostgreSQL so the offchain store can be counted directly while the service runs).
 *
 * Every POST is fuzzed (v1 intent / coins create-draft with random `Idempotency-Key`, launches
 * build / confirm, coins create-transaction / finalize, media upload with random bytes, and the
 * session POSTs — api-keys/challenge, api-keys, build-direct-v3-launch, verify-direct-v3-launch,
 * build-creator-rewards-claim — with a valid session + CSRF pair and with broken ones), and every
 * parameterised GET (v1 token / trades / candles, public token / lists / events, integrations,
 * DEX Screener, token list, RSS feeds, launch and coin status, media). Generators: arbitrary JSON
 * bodies, near-valid bodies with one field mutated (huge strings, unicode, negative / float / huge
 * numbers, hex of the wrong length, nested objects), hostile headers (Content-Type mismatches,
 * large header values within Node's limits, odd conditional-GET values) and random query strings.
 *
 * Properties:
 * 1. No response is a 5xx (the RPC is up, so not even 503 `chain_unavailable`); every non-2xx
 *    body is the error shape `{ok: false, error, message, request_id}` with `error` in
 *    `ERROR_CATALOGUE` (which includes the media module's image codes) and the HTTP status the
 *    catalogue gives it. A session POST with a broken session/CSRF pair is always 403 `csrf_failed`,
 *    unless its body breaks the app's body rules (http/middleware/jsonBody.ts), which run before
 *    every router and answer with their own code (400 `invalid_request` / `forbidden_field`, 413).
 *    Feeds, the token list and media may be non-JSON on success.
 * 2. A rejected request changes nothing: the offchain store's tables (every row of `sessions`,
 *    `api_keys`, `key_challenges`, `launches`, `idempotency_records`, `media`) are snapshotted
 *    before and after the run with `pg`; every new or changed row must be attributable to a 2xx
 *    response (its launch id, challenge nonce, image id or idempotency key came back in a 2xx).
 *    Documented exceptions: `counters` (every request counts against its rate window by design)
 *    and a challenge's `consumed_at_ms` (a wrong key signature burns the challenge,
 *    docs/trust.md). The chain-derived public lists must be unchanged too.
 *
 * Deterministic: a fixed seed (`FUZZ_SEED` overrides it), printed with the counterexample on
 * failure. The eight properties run concurrently (eight requests in flight).
 */
import { createHash, randomUUID } from "node:crypto";
import * as fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress, keccak256, parseEther, toHex, type Address } from "viem";
import { ERROR_CATALOGUE } from "../../http/errors";
import { checkJsonBodyText } from "../../http/middleware/jsonBody";
import { png } from "../fixtures/images";
import { buyToken, launchToken } from "../../devnet/actions";
import { devAccount } from "../../devnet/clients";
import { answer, sessionCookieOf, signedInSession, type Answer } from "../helpers/session";
import { startStack, until, type Stack } from "../helpers/harness";
import { postgresAvailable, TEST_DATABASE_URL } from "../helpers/postgres";
import { scaledMs } from "../helpers/deadlines";

const SEED = Number(process.env.FUZZ_SEED ?? 4663_2026);
const TOTAL = 10_000;
const pgUp = await postgresAvailable();
if (!pgUp) console.warn(`skipping e2e.fuzz: PostgreSQL at ${TEST_DATABASE_URL} is unreachable`);

let stack: Stack;
let token: Address;
let pool: Address;
let slug: string;
let validPng: Buffer;
/** Launch ids known before the run: two intents (intent_created) and one built launch. */
const knownLaunchIds: string[] = [];
type Session = { cookie: string; csrf: string };
let session: Session;
let otherSession: Session;

// ---------- what the run observed ----------
const statusCounts = new Map<number, number>();
const okLaunchIds = new Set<string>();
const okNonces = new Set<string>();
const okMediaIds = new Set<string>();
const okIdempotencyKeys = new Set<string>();
const okKeyIds = new Set<string>();
let sent = 0;

type Req = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string | FormData | Uint8Array;
};
type Res = Answer;

async function send(req: Req): Promise<Res> {
  const headers = new Headers(req.headers);
  if (req.path.startsWith("/api/v1/") && !headers.has("Authorization"))
    headers.set("Authorization", `Bearer ${stack.apiKey}`);
  const res = await fetch(`${stack.service.url}${req.path}`, {
    method: req.method,
    headers,
    body: req.body as RequestInit["body"],
    redirect: "manual",
  });
  const out = await answer(res);
  sent++;
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  if (res.status >= 200 && res.status < 300 && out.json && typeof out.json === "object") record(out.json, req);
  return out;
}

/** Remembers what a 2xx response created, so store changes can be attributed to it. */
function record(body: any, req: Req) {
  for (const id of [body.launch_id, body.draft_id]) if (typeof id === "string") okLaunchIds.add(id);
  if (typeof body.nonce === "string") okNonces.add(body.nonce);
  if (typeof body.image_url === "string") okMediaIds.add(body.image_url.split("/").pop()!.split(".")[0]!);
  if (body.key && typeof body.key.id === "string") okKeyIds.add(body.key.id);
  const idem = req.headers?.["Idempotency-Key"];
  if (idem !== undefined) okIdempotencyKeys.add(idem.trim().replace(/^"(.*)"$/, "$1"));
}

const CATALOGUE = ERROR_CATALOGUE as Record<string, { status: number }>;
const RAW_OK = (path: string) =>
  path.startsWith("/feed/") || path.startsWith("/media/") || path.startsWith("/token-list/");

/** Property 1 for one response; throws (with the request) so fast-check reports the case. */
function checkShape(req: Req, res: Res, expectCode?: string) {
  const where = `${req.method} ${req.path.slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  if (res.status >= 200 && res.status < 300) {
    if (!RAW_OK(req.path) && !(res.json && typeof res.json === "object"))
      throw new Error(`2xx without a JSON body: ${where}`);
    if (res.json && typeof res.json === "object" && "ok" in res.json && res.json.ok !== true)
      throw new Error(`2xx with ok !== true: ${where}`);
    if (expectCode) throw new Error(`expected ${expectCode}: ${where}`);
    return;
  }
  // A conditional GET (If-None-Match `*` or a matching tag, If-Modified-Since) answers 304 on every
  // read with validators (http/middleware/cachePolicy.ts).
  if (res.status === 304 && req.method === "GET") return;
  const b = res.json;
  if (!b || typeof b !== "object" || Array.isArray(b)) throw new Error(`non-JSON error body: ${where}`);
  if (b.ok !== false || typeof b.error !== "string" || typeof b.message !== "string")
    throw new Error(`not the error shape: ${where}`);
  if (!(b.error in CATALOGUE)) throw new Error(`error code not in the catalogue: ${where}`);
  if (SCHEMA_LIBRARY_WORDING.test(b.message)) throw new Error(`the schema library's wording, not ours: ${where}`);
  if (CATALOGUE[b.error]!.status !== res.status)
    throw new Error(`status differs from the catalogue's (${CATALOGUE[b.error]!.status}): ${where}`);
  if (!/^application\/json/.test(res.contentType)) throw new Error(`error without a JSON content type: ${where}`);
  if (expectCode && b.error !== expectCode) throw new Error(`expected ${expectCode}: ${where}`);
}

/**
 * zod's own English messages ("Too big: expected string to have <=400 characters", "Invalid option:
 * expected one of …"): every message must be the service's plain wording instead (docs/errors).
 */
const SCHEMA_LIBRARY_WORDING =
  /Invalid (input|option|string|number|key|element|value)\b|Too (big|small):|Unrecognized key/;

// ---------- generators ----------
const u = encodeURIComponent;
/** Header-safe text (undici refuses CR, LF, NUL and characters above U+00FF). */
const headerText = (max: number) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((c) => String.fromCharCode(c)),
    maxLength: max,
  });
const hexOf = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF".split("")), minLength: min, maxLength: max });
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e",
    "<script>",
    "' or 1=1--",
    "../../etc/passwd",
    "%",
    "%zz",
    "null",
    "NaN",
    "Infinity",
    "-1",
    "1e309",
    "0x",
    "🦄".repeat(20),
  ),
  fc.integer({ min: 1000, max: 70_000 }).map((n) => "a".repeat(n)),
);
const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 0.5, -0.0001, 1e21, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 80n }).map(String),
);
const weirdHex = fc.oneof(
  hexOf(0, 130).map((h) => `0x${h}`),
  hexOf(40, 40),
  hexOf(64, 64).map((h) => `0x${h}`),
  fc.constantFrom("0x", `0X${"a".repeat(40)}`, `0x${"g".repeat(40)}`, `0x${"0".repeat(40)}`),
);
/** Anything a JSON field could hold, weighted to hostile values. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  anyText,
  weirdNumber,
  weirdHex,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }),
  fc.constant(JSON.parse('{"a":{"b":{"c":{"d":{"e":{"f":[[[[[1]]]]]}}}}}}')),
);
const address = () =>
  fc.oneof(
    fc.constant(token),
    fc.constant(devAccount(0).address),
    hexOf(40, 40).map((h) => `0x${h}`),
    weirdHex,
    anyText,
  );
const anyJsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
);

/** A valid-looking body of `base` with one field mutated, removed, or an extra field added. */
function nearValid(base: () => Record<string, unknown>) {
  return fc
    .tuple(fc.nat(), weirdValue, fc.constantFrom("mutate", "remove", "extra", "as-is"), fc.string({ maxLength: 12 }))
    .map(([i, value, mode, extraKey]) => {
      const body = { ...base() };
      const keys = Object.keys(body);
      const key = keys[i % keys.length]!;
      if (mode === "mutate") body[key] = value;
      else if (mode === "remove") delete body[key];
      else if (mode === "extra") body[extraKey || "x"] = value;
      return body;
    });
}

/** Hostile headers for a JSON POST: Content-Type mismatches, large values, duplicates folded. */
const postHeaders = fc.record(
  {
    ct: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json") },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "application/xml",
          "",
          "application/json, text/html",
          "*/*",
        ),
      },
      { weight: 1, arbitrary: headerText(200) },
    ),
    big: fc.option(
      fc.integer({ min: 1, max: 8_000 }).map((n) => "x".repeat(n)),
      { nil: undefined },
    ),
    accept: fc.option(headerText(60), { nil: undefined }),
  },
  { requiredKeys: ["ct"] },
);

function applyHeaders(h: { ct: string; big?: string; accept?: string }, base: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...base };
  if (h.ct !== "") headers["Content-Type"] = h.ct;
  if (h.big) headers["X-Fuzz-Padding"] = h.big;
  if (h.accept !== undefined) headers.Accept = h.accept;
  return headers;
}

/** JSON text of the body, or (sometimes) not JSON at all. */
const bodyText = (bodyArb: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: bodyArb.map((b) => JSON.stringify(b) ?? "null") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "{",
        '{"a":',
        "[1,2",
        "\u0000",
        "{}".repeat(100),
        '{"__proto__":{"x":1}}',
        '{"a":1,"a":2}',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  );

/** Random query string; `known` param names get targeted values. */
function query(known: string[], special: Record<string, fc.Arbitrary<string>> = {}) {
  const value = (name: string) =>
    fc.oneof(
      special[name] ?? fc.constant("1"),
      weirdNumber.map(String),
      anyText.filter((s) => s.length < 2_000),
      fc.constantFrom("", "0", "-1", "1.5", "1e3", "99999999999999999999", "true", "0x10", " 5"),
    );
  const pair = fc.oneof(
    ...known.map((name) => value(name).map((v) => [name, v] as const)),
    fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })),
  );
  return (
    fc
      .tuple(fc.array(pair, { maxLength: 6 }), fc.boolean())
      .map(([pairs, raw]) =>
        pairs.length === 0
          ? ""
          : `?${pairs.map(([k, v]) => (raw ? `${k}=${v.replace(/[#\s]/g, "")}`.replace(/[^\x21-\x7e]/g, "") : `${u(k)}=${u(v)}`)).join("&")}`,
      )
      // Node refuses request heads over 16 KiB (431, before the app): stay within that limit.
      .map((q) => q.slice(0, 6_000))
  );
}

const nowSec = () => Math.floor(Date.now() / 1000);
const secs = fc.oneof(
  fc.integer({ min: -1000, max: 5000 }).map((d) => String(nowSec() - d * 60)),
  fc.constantFrom("0", "-1", "1e10", "abc", "1795330256.5"),
);
const limitArb = fc.oneof(
  fc.integer({ min: -5, max: 20_000 }).map(String),
  fc.constantFrom("1", "100", "200", "10000"),
);
const cursorArb = fc.oneof(
  fc.base64String({ maxLength: 40 }),
  fc.constantFrom("eyJiIjoiMjMiLCJsIjozfQ", "eyJ9", "e30", "bnVsbA", "W10"),
  anyText.filter((s) => s.length < 2_000),
);

/** A path segment: a real token/pool/slug, near-misses, or junk (sometimes not percent-encoded). */
const segment = () =>
  fc.oneof(
    fc.constantFrom(token, token.toLowerCase(), pool, slug, getAddress(devAccount(0).address), `0x${"0".repeat(40)}`),
    weirdHex,
    anyText.map((s) => u(s).slice(0, 3_000)),
    fc.constantFrom("%zz", "%", "..", "%2e%2e", "%2F", "a%00b", "%E0%A4%A", "%ff%fe"),
  );

// ---------- the eight fuzzed surfaces ----------
const v1Intent = () =>
  fc
    .tuple(
      fc.constantFrom("/api/v1/evmchain/launches/intent", "/api/v1/coins/create-draft"),
      fc.oneof(
        {
          weight: 4,
          arbitrary: nearValid(() => ({
            creator: devAccount(0).address,
            name: "Fuzz Coin",
            symbol: "FUZZ",
            first_buy_wei: "1000",
            description: "d",
            slippage_bps: 300,
            website_url: "https://a.example",
          })),
        },
        { weight: 2, arbitrary: anyJsonBody },
      ),
      fc.oneof(
        { weight: 6, arbitrary: fc.uuid() },
        { weight: 2, arbitrary: headerText(300) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      postHeaders,
    )
    .chain(([path, body, key, h]) =>
      bodyText(fc.constant(body)).map((text): Req => {
        const headers = applyHeaders(h);
        if (key !== undefined) headers["Idempotency-Key"] = key;
        return { method: "POST", path, headers, body: text };
      }),
    );

const v1BuildConfirm = () =>
  fc
    .tuple(
      fc.constantFrom(
        ["/api/v1/evmchain/launches/build", "launch_id", "intent_signature"],
        ["/api/v1/evmchain/launches/confirm", "launch_id", "tx_hash"],
        ["/api/v1/coins/create-transaction", "draft_id", "intent_signature"],
        ["/api/v1/coins/finalize", "draft_id", "tx_hash"],
      ),
      fc.oneof(
        fc.constantFrom(...knownLaunchIds),
        hexOf(24, 24).map((h) => `lnch_${h}`),
        anyText,
      ),
      fc.oneof(
        hexOf(130, 130).map((h) => `0x${h}`),
        hexOf(64, 64).map((h) => `0x${h}`),
        weirdHex,
        anyText,
      ),
      fc.nat(),
      weirdValue,
      fc.boolean(),
      postHeaders,
    )
    .chain(([[path, idField, secondField], id, second, i, mutated, mutate, h]) => {
      const body: Record<string, unknown> = { [idField]: id, [secondField]: second };
      if (mutate) body[[idField, secondField, "extra"][i % 3]!] = mutated;
      return bodyText(fc.oneof({ weight: 4, arbitrary: fc.constant(body) }, { weight: 1, arbitrary: anyJsonBody })).map(
        (text): Req => ({ method: "POST", path, headers: applyHeaders(h), body: text }),
      );
    });

const mediaUpload = () =>
  fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.uint8Array({ maxLength: 4096 }) },
        {
          weight: 3,
          arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
            const x = Uint8Array.from(validPng);
            x[i % x.length] = b;
            return x;
          }),
        },
        {
          weight: 1,
          arbitrary: fc.uint8Array({ maxLength: 64 }).map((tail) => Uint8Array.from([...validPng, ...tail])),
        },
        { weight: 1, arbitrary: fc.nat().map((n) => validPng.subarray(0, n % validPng.length)) },
        { weight: 1, arbitrary: fc.constant(Uint8Array.from(validPng)) },
      ),
      fc.constantFrom("image", "image", "image", "file", "", "IMAGE"),
      fc.constantFrom("image/png", "image/svg+xml", "text/html", "application/octet-stream", "", "image/gif"),
      fc.oneof(fc.constantFrom("a.png", "a.svg", "", "../../x.png"), fc.string({ maxLength: 30 })),
      fc.constantFrom("multipart", "multipart", "multipart", "raw-json", "raw-bytes", "bad-boundary"),
    )
    .map(([bytes, field, type, filename, mode]): Req => {
      const path = "/api/v1/evmchain/media/upload";
      if (mode === "raw-json")
        return {
          method: "POST",
          path,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ image: Buffer.from(bytes).toString("base64") }),
        };
      if (mode === "raw-bytes") return { method: "POST", path, headers: { "Content-Type": "image/png" }, body: bytes };
      if (mode === "bad-boundary")
        return { method: "POST", path, headers: { "Content-Type": "multipart/form-data; boundary=nope" }, body: bytes };
      const form = new FormData();
      form.append(field, new Blob([bytes], { type }), filename);
      return { method: "POST", path, body: form };
    });

const SESSION_POSTS: [string, () => Record<string, unknown>][] = [
  ["api-keys/challenge", () => ({ wallet: devAccount(5).address })],
  ["api-keys", () => ({ wallet: devAccount(5).address, signature: `0x${"ab".repeat(65)}`, label: "fuzz" })],
  [
    "build-direct-v3-launch",
    () => ({
      creator: devAccount(6).address,
      name: "Fuzz Coin",
      symbol: "FUZZ",
      first_buy_wei: "0",
      slippage_bps: 300,
      description: "d",
    }),
  ],
  [
    "verify-direct-v3-launch",
    () => ({
      tx_hash: keccak256(toHex("nope")),
      creator: devAccount(6).address,
      write: true,
      metadata: { name: "Fuzz Coin", symbol: "FUZZ" },
    }),
  ],
  ["build-creator-rewards-claim", () => ({ wallet: devAccount(1).address })],
  ["sign-in/challenge", () => ({ wallet: devAccount(7).address, create_api_key: true })],
  ["sign-in", () => ({ wallet: devAccount(7).address, signature: `0x${"ab".repeat(65)}`, label: "fuzz" })],
];

const sessionValid = () =>
  fc.tuple(fc.nat({ max: SESSION_POSTS.length - 1 }), fc.boolean()).chain(([i, nested]) => {
    const [name, base] = SESSION_POSTS[i]!;
    const bodyArb = fc.oneof(
      { weight: 5, arbitrary: nearValid(base) },
      { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), weirdValue, { maxKeys: 5 }) },
    );
    return bodyArb.map((body): Req => {
      const b = nested ? { ...body, metadata: body.metadata ?? { name: "x", symbol: "Y" } } : body;
      return {
        method: "POST",
        path: `/api/evm/evmchain/${name}`,
        headers: {
          "Content-Type": "application/json",
          Origin: stack.service.url,
          Cookie: session.cookie,
          "X-CSRF-Token": session.csrf,
        },
        body: JSON.stringify({ ...b, csrf_token: session.csrf }),
      };
    });
  });

/** The code the app's body parser answers for a JSON body text, or null when the body passes it. */
function bodyRuleCode(text: string): string | null {
  try {
    checkJsonBodyText(text);
    return null;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

/**
 * Session POSTs whose session/CSRF pair is broken in one way: 403 csrf_failed. A body over the
 * size bound is refused from its `Content-Length` before anything else (413); the other body rules
 * apply only once the headers pass (origin, content type, session, header token), since the body
 * is read only then.
 */
const sessionBroken = () =>
  fc
    .tuple(
      fc.nat({ max: SESSION_POSTS.length - 1 }),
      fc.constantFrom(
        "no-cookie",
        "bad-cookie",
        "other-cookie",
        "no-header",
        "no-body-token",
        "mismatch",
        "foreign-token",
        "no-origin",
        "foreign-origin",
        "text-plain",
        "not-json",
        "garbage-token",
      ),
      headerText(120),
      fc.dictionary(fc.string({ maxLength: 10 }), weirdValue, { maxKeys: 4 }),
    )
    .map(([i, how, junk, extra]): Req & { expect: string } => {
      const [name, base] = SESSION_POSTS[i]!;
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        Origin: stack.service.url,
        Cookie: session.cookie,
        "X-CSRF-Token": session.csrf,
      };
      const body: Record<string, unknown> = { ...extra, ...base(), csrf_token: session.csrf };
      let text: string | undefined;
      switch (how) {
        case "no-cookie":
          delete headers.Cookie;
          break;
        case "bad-cookie":
          headers.Cookie = `session=${junk.replace(/[;,\s]/g, "")}x`;
          break;
        case "other-cookie":
          headers.Cookie = otherSession.cookie;
          break;
        case "no-header":
          delete headers["X-CSRF-Token"];
          break;
        case "no-body-token":
          delete body.csrf_token;
          break;
        case "mismatch":
          headers["X-CSRF-Token"] = otherSession.csrf;
          break;
        case "foreign-token":
          headers["X-CSRF-Token"] = otherSession.csrf;
          body.csrf_token = otherSession.csrf;
          break;
        case "no-origin":
          delete headers.Origin;
          break;
        case "foreign-origin":
          headers.Origin = "https://evil.example";
          break;
        case "text-plain":
          headers["Content-Type"] = "text/plain";
          break;
        case "not-json":
          text = `csrf_token=${session.csrf}&${junk}`;
          break;
        case "garbage-token":
          headers["X-CSRF-Token"] = junk.trim() || "x";
          body.csrf_token = junk.trim() || "x";
          break;
      }
      const bodyText = text ?? JSON.stringify(body);
      return {
        method: "POST",
        path: `/api/evm/evmchain/${name}`,
        headers,
        body: bodyText,
        // What the headers decide (origin, content type, the session, the header token) is refused
        // before the body is read; only with those right do the body rules come first.
        expect:
          bodyRuleCode(bodyText) === "body_too_large"
            ? "body_too_large"
            : how === "no-body-token" || how === "not-json"
              ? (bodyRuleCode(bodyText) ?? "csrf_failed")
              : "csrf_failed",
      };
    });

const getHeaders = fc.option(
  fc.record(
    {
      "If-None-Match": fc.oneof(headerText(100), fc.constantFrom("*", 'W/"x"', '""')),
      "If-Modified-Since": fc.oneof(
        headerText(60),
        fc.constantFrom("Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "yesterday"),
      ),
      "X-Forwarded-For": headerText(80),
      Accept: headerText(60),
      "Content-Type": headerText(60),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

const v1Gets = () =>
  fc
    .tuple(
      segment(),
      fc.constantFrom("", "/trades", "/candles", "/candles", "/candles"),
      query(["limit", "cursor", "resolution", "from", "to", "format", "fill", "countback"], {
        limit: limitArb,
        cursor: cursorArb,
        resolution: fc.oneof(
          fc.constantFrom("1m", "5m", "15m", "1h", "4h", "1d", "1D", "1w", "60", "1"),
          fc.string({ maxLength: 5 }),
        ),
        from: secs,
        to: secs,
        format: fc.constantFrom("udf", "json", "UDF", "csv", ""),
        fill: fc.constantFrom("true", "false", "1", "0", "prev", "yes", ""),
        countback: fc.oneof(fc.integer({ min: -10, max: 100_000 }).map(String), fc.constantFrom("1.5", "x")),
      }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "Bearer",
            "Bearer ",
            "Basic abc",
            "Bearer sk_live_",
            `Bearer ${`sk_live_${"A".repeat(43)}`}`,
            "bearer x y",
          ),
        },
      ),
      fc.oneof(fc.constant("status" as const), fc.constant("token" as const)),
      query(["launch_id", "tx_hash", "draft_id"], {
        launch_id: fc.constantFrom(...knownLaunchIds),
        draft_id: fc.constantFrom(...knownLaunchIds),
        tx_hash: weirdHex,
      }),
      fc.constantFrom("/api/v1/evmchain/launches/status", "/api/v1/coins/status"),
    )
    .map(([seg, sub, q, auth, kind, sq, statusPath]): Req => {
      const headers: Record<string, string> = auth ? { Authorization: auth } : {};
      if (kind === "status") return { method: "GET", path: `${statusPath}${sq}`, headers };
      return { method: "GET", path: `/api/v1/evmchain/tokens/${seg}${sub}${q}`, headers };
    });

const publicGets = () =>
  fc
    .tuple(
      fc.constantFrom("token", "token-trades", "new", "trending", "graduating", "recent", "events", "media"),
      segment(),
      query(["limit", "cursor", "since_id", "include_pending"], {
        limit: limitArb,
        cursor: cursorArb,
        since_id: fc.oneof(fc.bigInt({ min: -10n, max: 10n ** 20n }).map(String), fc.constantFrom("0", "1.5", "x")),
        include_pending: fc.constantFrom("true", "false", "1", "0", "yes", ""),
      }),
      getHeaders,
      fc.constantFrom("png", "jpg", "webp", "gif", "svg", "", "png.png"),
    )
    .map(([kind, seg, q, headers, ext]): Req => {
      const path = {
        token: `/api/public/token/${seg}${q}`,
        "token-trades": `/api/public/token/${seg}/trades${q}`,
        new: `/api/public/tokens/new${q}`,
        trending: `/api/public/tokens/trending${q}`,
        graduating: `/api/public/tokens/graduating${q}`,
        recent: `/api/public/trades/recent${q}`,
        events: `/api/public/events${q}`,
        media: `/media/${seg}.${ext}${q}`,
      }[kind];
      return { method: "GET", path, headers: headers as Record<string, string> | undefined };
    });

const integrationGets = () =>
  fc
    .tuple(
      fc.constantFrom(
        "/api/public/integrations/evmchain/launches",
        "/api/public/integrations/evmchain/token-metadata",
        "/api/public/integrations/evmchain/factories",
        "/api/public/integrations/partner-a/evmchain/tokens",
        "/api/public/integrations/partner-b/evmchain/launches",
        "/api/public/integrations/partner-b/evmchain/status",
        "/api/public/integrations/dexscreener/evmchain/latest-block",
        "/api/public/integrations/dexscreener/evmchain/asset",
        "/api/public/integrations/dexscreener/evmchain/pair",
        "/api/public/integrations/dexscreener/evmchain/events",
        "/token-list/evmchain.json",
        "/feed/new-launches.xml",
        "/feed/big-buys.xml",
        "/feed/graduations.xml",
        "/api/evm/evmchain/creator-rewards",
      ),
      query(["sort", "limit", "cursor", "address", "orderId", "id", "fromBlock", "toBlock", "wallet"], {
        sort: fc.constantFrom("new", "old", "market_cap", "volume", "trades", "NEW", "", "random"),
        limit: limitArb,
        cursor: cursorArb,
        address: address().map(String),
        id: address().map(String),
        wallet: address().map(String),
        orderId: fc.oneof(fc.integer({ min: -5, max: 1_000_000 }).map(String), fc.constantFrom("1.5", "x")),
        fromBlock: fc.oneof(
          fc.integer({ min: -5, max: 3_000 }).map(String),
          fc.constantFrom("1e3", "0x10", "99999999999999999999"),
        ),
        toBlock: fc.oneof(
          fc.integer({ min: -5, max: 3_000 }).map(String),
          fc.constantFrom("1e3", "0x10", "99999999999999999999"),
        ),
      }),
      getHeaders,
    )
    .map(
      ([path, q, headers]): Req => ({
        method: "GET",
        path: `${path}${q}`,
        headers: headers as Record<string, string> | undefined,
      }),
    );

// ---------- store snapshot (PostgreSQL) ----------
const TABLES: Record<string, string> = {
  sessions: "id",
  api_keys: "id",
  key_challenges: "nonce",
  launches: "id",
  idempotency_records: "scope || ':' || idempotency_key",
  media: "id",
};
type Snapshot = Record<string, Map<string, string>>;

async function snapshot(): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: stack.serviceEnv.DATABASE_URL });
  await client.connect();
  try {
    const schema = `"${stack.serviceEnv.STORE_SCHEMA!.replaceAll('"', '""')}"`;
    const out: Snapshot = {};
    for (const [table, key] of Object.entries(TABLES)) {
      // A challenge's consumed_at_ms may change on a rejected key request (a wrong signature burns it).
      const row =
        table === "key_challenges" ? "(row_to_json(t)::jsonb - 'consumed_at_ms')::text" : "row_to_json(t)::text";
      const { rows } = await client.query(`select ${key} as k, ${row} as v from ${schema}.${table} t`);
      out[table] = new Map(rows.map((r) => [String(r.k), createHash("sha256").update(r.v).digest("hex")]));
    }
    return out;
  } finally {
    await client.end();
  }
}

function changedKeys(before: Map<string, string>, after: Map<string, string>) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed = [...before.keys()].filter((k) => !after.has(k));
  for (const [k, v] of after) {
    if (!before.has(k)) added.push(k);
    else if (before.get(k) !== v) changed.push(k);
  }
  return { added, changed, removed };
}

// ---------- setup ----------
async function newSession(): Promise<Session> {
  const res = await stack.request("/api/evm/evmchain/session");
  return { cookie: sessionCookieOf(res.headers)!, csrf: res.body.csrf_token };
}

async function publicLists() {
  const [tokens, events, recent] = await Promise.all([
    stack.request("/api/public/tokens/new?limit=100"),
    stack.request("/api/public/integrations/evmchain/launches?limit=100"),
    stack.request("/api/public/trades/recent?limit=200"),
  ]);
  return JSON.stringify(
    [tokens.body.tokens, events.body, recent.body.trades].map((x) =>
      x && typeof x === "object" ? { ...x, request_id: undefined } : x,
    ),
  );
}

beforeAll(async () => {
  if (!pgUp) return;
  const big = "100000000";
  stack = await startStack({
    schema: "e2e_fuzz",
    database: "postgres",
    env: { V1_RATE_LIMIT_PER_MINUTE: big, PUBLIC_RATE_LIMIT_PER_MINUTE: big, SESSION_RATE_LIMIT_PER_MINUTE: big },
  });
  const r = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    name: "Fuzz Target",
    symbol: "FZT",
    firstBuyWei: parseEther("0.01"),
  });
  token = getAddress(r.event.token);
  pool = getAddress(r.event.pool);
  await buyToken(stack.wallet(2), stack.publicClient, stack.manifest, token, parseEther("0.02"));
  await until("token indexed", async () => {
    const res = await stack.request(`/api/public/token/${token}`);
    const trades = await stack.request(`/api/public/token/${token}/trades`);
    return res.status === 200 && trades.body.trades?.length >= 2 ? res.body : undefined;
  }).then((body: any) => {
    slug = body.token?.slug ?? body.slug ?? "fzt";
  });
  validPng = await png(8, 8);
  // Known launches: two intents and one built launch (dev account 0 signs its intent).
  for (const name of ["Known One", "Known Two", "Known Built"]) {
    const res = await stack.request("/api/v1/evmchain/launches/intent", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ creator: devAccount(0).address, name, symbol: "KNWN" }),
    });
    expect(res.status).toBe(201);
    knownLaunchIds.push(res.body.launch_id);
    if (name === "Known Built") {
      const signature = await stack.wallet(0).signMessage({ message: res.body.intent.message });
      const built = await stack.request("/api/v1/evmchain/launches/build", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ launch_id: res.body.launch_id, intent_signature: signature }),
      });
      expect(built.status).toBe(200);
    }
  }
  // The fuzzed session is signed in (EIP-4361) as the wallet its build and verify bodies name, so
  // fuzzed bodies reach the builder and verifier, not only the sign-in check.
  session = await signedInSession(
    (path, init) => fetch(`${stack.service.url}${path}`, init),
    stack.service.url,
    devAccount(6),
  );
  otherSession = await newSession();
});

afterAll(async () => {
  await stack?.stop();
});

// 8 properties, run concurrently (8 requests in flight); numRuns sum to TOTAL.
const PLAN: [string, () => fc.Arbitrary<Req & { expect?: string }>, number][] = [
  ["v1 intent / create-draft", v1Intent, 1_300],
  ["v1 build / confirm / create-transaction / finalize", v1BuildConfirm, 1_200],
  ["media upload", mediaUpload, 900],
  ["session POSTs, valid session + CSRF", sessionValid, 1_100],
  ["session POSTs, broken session / CSRF", sessionBroken, 1_000],
  ["v1 GETs: token, trades, candles, launch/coin status", v1Gets, 1_500],
  ["public GETs: token, lists, events, media", publicGets, 1_500],
  ["integrations, DEX Screener, token list, feeds, rewards", integrationGets, 1_500],
];

describe.skipIf(!pgUp)("fuzz: 10,000 generated requests against one service", () => {
  it("sums to 10,000 runs", () => {
    expect(PLAN.reduce((s, [, , n]) => s + n, 0)).toBe(TOTAL);
  });

  it(
    "never answers 5xx, every error is a catalogue error, a rejected request changes nothing",
    async () => {
      const listsBefore = await publicLists();
      const before = await snapshot();
      const started = Date.now();
      const results = await Promise.allSettled(
        PLAN.map(([name, arb, numRuns], i) =>
          fc
            .assert(
              fc.asyncProperty(arb(), async (req) => {
                const res = await send(req);
                checkShape(req, res, req.expect);
              }),
              { seed: SEED + i, numRuns, endOnFailure: true, verbose: 0 },
            )
            .catch((err: Error) => {
              // Long generated runs ("aaaa…") are shown as "a×70000"; the cause comes first.
              const text = err.message.replace(/([\s\S])\1{40,}/g, (m, c) => `${c}×${m.length}`);
              const cause = String((err.cause as Error | undefined)?.message ?? "").replace(
                /([\s\S])\1{40,}/g,
                (m, c) => `${c}×${m.length}`,
              );
              throw new Error(
                `[${name}] seed ${SEED + i} (FUZZ_SEED=${SEED}): ${cause.slice(0, 1_500)}\n${text.slice(0, 1_500)}`,
              );
            }),
        ),
      );
      const after = await snapshot();
      const listsAfter = await publicLists();
      console.log(
        `fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort((a, b) => a[0] - b[0])))}`,
      );
      const failures = results
        .filter((r): r is PromiseRejectedResult => r.status === "rejected")
        .map((r) => String(r.reason?.message ?? r.reason));
      expect(failures, failures.join("\n\n")).toEqual([]);
      expect(sent).toBeGreaterThanOrEqual(TOTAL);

      // Property 2: every store change comes from a 2xx response (the snapshot sees the store:
      // the three known launches and the two sessions are in it).
      expect(before.launches!.size).toBeGreaterThanOrEqual(3);
      expect(before.sessions!.size).toBeGreaterThanOrEqual(2);
      const attributable: Record<string, (k: string) => boolean> = {
        sessions: () => false,
        api_keys: (k) => okKeyIds.has(k),
        key_challenges: (k) => okNonces.has(k),
        launches: (k) => okLaunchIds.has(k),
        idempotency_records: (k) => okIdempotencyKeys.has(k.slice(k.indexOf(":") + 1)),
        media: (k) => okMediaIds.has(k),
      };
      const stray: string[] = [];
      for (const table of Object.keys(TABLES)) {
        const { added, changed, removed } = changedKeys(before[table]!, after[table]!);
        for (const k of [...added, ...changed])
          if (!attributable[table]!(k)) stray.push(`${table}: ${added.includes(k) ? "new" : "changed"} row ${k}`);
        for (const k of removed) stray.push(`${table}: removed row ${k}`);
      }
      expect(stray, `store rows not attributable to a 2xx response:\n${stray.slice(0, 20).join("\n")}`).toEqual([]);
      expect(listsAfter).toBe(listsBefore);
    },
    scaledMs(600_000),
  );

  it("caps bodies on the wire (chunked and declared), and answers deep and NUL bodies with 400, through the real server", async () => {
    const url = `${stack.service.url}/api/v1/evmchain/launches/intent`;
    const headers = {
      Authorization: `Bearer ${stack.apiKey}`,
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
    };
    const big = JSON.stringify({
      creator: devAccount(0).address,
      name: "Wire",
      symbol: "WIRE",
      description: "a".repeat(100 * 1024),
    });
    const declared = await fetch(url, { method: "POST", headers, body: big });
    expect([declared.status, ((await declared.json()) as any).error]).toEqual([413, "body_too_large"]);
    // No Content-Length: Transfer-Encoding chunked, counted as the bytes arrive. The server stops
    // reading at the cap, answers 413 and closes the connection: a client still sending the rest
    // (a slow one, as on a loaded machine) may see the connection closed under its write (EPIPE
    // or a reset) before it reads the answer. Either way the body was refused; anything else (a
    // 2xx, a 5xx, another error) fails.
    const bytes = new TextEncoder().encode(big);
    const chunked = await fetch(url, {
      method: "POST",
      headers: { ...headers, "Idempotency-Key": randomUUID() },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 8 * 1024) controller.enqueue(bytes.subarray(i, i + 8 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit).catch((err: Error & { cause?: { code?: string } }) => {
      if (err.cause?.code === "EPIPE" || err.cause?.code === "ECONNRESET") return "closed while sending" as const;
      throw err;
    });
    if (chunked !== "closed while sending")
      expect([chunked.status, ((await chunked.json()) as any).error]).toEqual([413, "body_too_large"]);
    for (const body of [
      `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
      JSON.stringify({ creator: devAccount(0).address, name: "Nul", symbol: "NUL", description: "\u0000" }),
    ]) {
      const res = await fetch(url, { method: "POST", headers: { ...headers, "Idempotency-Key": randomUUID() }, body });
      expect([res.status, ((await res.json()) as any).error]).toEqual([400, "invalid_request"]);
    }
    // The service still answers after the oversize bodies.
    expect([200, 503]).toContain((await fetch(`${stack.service.url}/api/v1/health`)).status);
  });
});
