/**
 * Pure parts of the trust layer: idempotency key parsing and fingerprints, the safety rule on
 * launch bodies, the scope table, the intent message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertNoForbiddenFields, findForbiddenField } from "../../http/middleware/forbidden";
import { looksLikeSeedPhrase } from "../../http/middleware/keyMaterial";
import { buildIntentMessage, intentMetadata, metadataSha256 } from "../../launches/intent";
import { intentRequestSchema, mediaIdFromUrl } from "../../launches/intentRequest";
import { scopeFor } from "../../http/middleware/auth";
import { parseIdempotencyKey, requestFingerprint } from "../../http/middleware/idempotency";
import { canonicalJson } from "../../src/domain/json";
import { windowStart } from "../../store/counters";

describe("Idempotency-Key parsing and fingerprints", () => {
  it("accepts 1-255 visible ASCII characters, optionally quoted", () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey("abc-123")).toBe("abc-123");
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe("8e03978e-40d5-43e8-bc93-6894a57f9324");
    expect(parseIdempotencyKey("x".repeat(255))).toBe("x".repeat(255));
    for (const bad of ["", "x".repeat(256), "a b", "é", '""', "\u0000"])
      expect(parseIdempotencyKey(bad)).toBe("invalid");
  });

  it("fingerprints ignore key order and whitespace but not values, method or path", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        const a = requestFingerprint("POST", "/p", JSON.stringify(obj));
        expect(requestFingerprint("POST", "/p", JSON.stringify(reversed, null, 2))).toBe(a);
        expect(requestFingerprint("POST", "/q", JSON.stringify(obj))).not.toBe(a);
        expect(requestFingerprint("PUT", "/p", JSON.stringify(obj))).not.toBe(a);
      }),
    );
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
    expect(requestFingerprint("POST", "/p", '{"a":1}')).not.toBe(requestFingerprint("POST", "/p", '{"a":2}'));
  });
});

describe("safety rule on launch bodies", () => {
  it("finds contract-choosing fields, keys and seed phrases anywhere, and nothing in a clean body", () => {
    expect(
      findForbiddenField({
        creator: `0x${"ab".repeat(20)}`,
        name: "A",
        symbol: "A",
        description: "a normal description with words",
      }),
    ).toBeNull();
    for (const body of [
      { Factory: 1 },
      { "fee-locker": 1 },
      { poolAddress: 1 },
      { TO: "x" },
      { call_data: "0x" },
      { nested: [{ router: 1 }] },
      { description: `0x${"1f".repeat(32)}` },
      { description: "zoo ".repeat(12).trim() },
    ]) {
      expect(() => assertNoForbiddenFields(body)).toThrowError(expect.objectContaining({ code: "forbidden_field" }));
    }
    expect(looksLikeSeedPhrase("test test test test test test test test test test test junk")).toBe(true);
    expect(looksLikeSeedPhrase("test test test test test test test test test test junk")).toBe(false); // 11 words
    expect(looksLikeSeedPhrase("my token is the best token in the whole wide world ok")).toBe(false); // not all BIP-39
  });
});

describe("scope table", () => {
  it("maps endpoints to scopes and leaves the open ones out", () => {
    expect(scopeFor("GET", "/api/v1/evmchain/tokens")).toBe("evmchain:market:read");
    expect(scopeFor("GET", "/api/v1/evmchain/tokens/0xabc")).toBe("evmchain:market:read");
    expect(scopeFor("HEAD", "/api/v1/evmchain/tokens/0xabc/candles")).toBe("evmchain:market:read");
    expect(scopeFor("POST", "/api/v1/evmchain/launches/intent")).toBe("evmchain:launch:build");
    expect(scopeFor("POST", "/api/v1/coins/finalize")).toBe("evmchain:launch:confirm");
    expect(scopeFor("GET", "/api/v1/coins/status")).toBe("evmchain:launch:read");
    expect(scopeFor("GET", "/api/v1")).toBeUndefined();
    expect(scopeFor("GET", "/api/v1/health")).toBeUndefined();
    expect(scopeFor("GET", "/api/v1/evmchain/tokens/0xabc/other")).toBeUndefined();
  });
});

describe("intent message and fields", () => {
  const request = intentRequestSchema.parse({
    creator: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    name: " My Coin ",
    symbol: "MINE",
  });
  const fields = {
    domain: "launch.example",
    uri: "https://launch.example",
    creator: request.creator,
    chainId: 4663,
    factory: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const,
    launchId: "lnch_000000000000000000000001",
    name: request.name,
    symbol: request.symbol,
    firstBuyWei: request.first_buy_wei,
    slippageBps: request.slippage_bps,
    metadataSha256: metadataSha256(request),
    issuedAtSec: 1_800_000_000,
    expiresAtSec: 1_800_000_900,
  };

  it("is deterministic and states every field", () => {
    const message = buildIntentMessage(fields);
    expect(buildIntentMessage({ ...fields })).toBe(message);
    expect(message.split("\n").slice(0, 2)).toEqual([
      "launch.example wants you to authorize a token launch with your Ethereum account:",
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    ]);
    for (const line of [
      "Chain ID: 4663",
      "Nonce: 000000000000000000000001",
      "Issued At: 2027-01-15T08:00:00.000Z",
      "Expiration Time: 2027-01-15T08:15:00.000Z",
      "Factory: 0x5FbDB2315678afecb367f032d93F642f64180aa3",
      "Token Name: My Coin",
      "First Buy (wei): 0",
      "Slippage (bps): 300",
      `Metadata SHA-256: ${fields.metadataSha256}`,
    ]) {
      expect(message).toContain(line);
    }
    expect(
      metadataSha256(intentRequestSchema.parse({ ...request, creator: request.creator, description: "x" })),
    ).not.toBe(fields.metadataSha256);
    // No metadata: no metadata lines, only the hash.
    expect(message).not.toMatch(/^(Description|Website|X|Telegram|Image): /m);
  });

  it("states the creator's metadata in words before its hash, the description quoted on one line", () => {
    const withMetadata = intentRequestSchema.parse({
      ...request,
      description: "Line one.\nLine two.",
      website_url: "https://mine.example",
      twitter_url: "https://x.com/mine",
    });
    const message = buildIntentMessage({
      ...fields,
      metadataSha256: metadataSha256(withMetadata),
      metadata: intentMetadata(withMetadata),
    });
    const tail = message.split("\n").slice(-4);
    expect(tail).toEqual([
      'Description: "Line one.\\nLine two."',
      "Website: https://mine.example",
      "X: https://x.com/mine",
      `Metadata SHA-256: ${metadataSha256(withMetadata)}`,
    ]);
  });

  it("recognises only media URLs this service issued", () => {
    const id = "0123456789abcdef0123456789abcdef";
    expect(mediaIdFromUrl(`https://launch.example/media/${id}.png`, "https://launch.example")).toBe(id);
    expect(mediaIdFromUrl(`https://evil.example/media/${id}.png`, "https://launch.example")).toBeNull();
    expect(mediaIdFromUrl(`https://launch.example/media/${id}.png?x=1`, "https://launch.example")).toBeNull();
    expect(mediaIdFromUrl(`https://launch.example/media/${id}.svg`, "https://launch.example")).toBeNull();
  });

  it("aligns counter windows to UTC", () => {
    expect(windowStart(Date.UTC(2026, 0, 2, 13, 45, 12, 345), 86_400_000)).toBe(Date.UTC(2026, 0, 2));
    expect(windowStart(Date.UTC(2026, 0, 2, 13, 45, 12, 345), 60_000)).toBe(Date.UTC(2026, 0, 2, 13, 45));
  });
});
