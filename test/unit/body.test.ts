/**
 * The body rules, one by one (docs/trust.md "Request bodies"): key material in free text, field
 * names, the public-hash exemptions, control and formatting characters, the depth scan and the
 * JSON-object shape. Every refusal has a positive case here, and ordinary prose must pass.
 */
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english";
import fc from "fast-check";
import { HDKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { findForbiddenField, isForbiddenFieldName, PUBLIC_HEX_FIELDS } from "../../http/middleware/forbidden";
import {
  findKeyMaterial,
  longestSeedWordRun,
  looksLikeExtendedPrivateKey,
  looksLikePrivateKey,
  looksLikeSeedPhrase,
  normalisedWords,
} from "../../http/middleware/keyMaterial";
import { findBodyTextProblem, findTextProblem } from "../../http/middleware/textRules";
import { checkJsonBodyText, exceedsJsonDepth } from "../../http/middleware/jsonBody";
import { ORDINARY_PROSE } from "../helpers/prose";

const TWELVE = "abandon ability able about above absent absorb abstract absurd abuse access accident";
const PRIVATE_KEY = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const SIGNATURE = `0x${"1b".repeat(65)}`;

describe("key material in free text", () => {
  it("finds a BIP-39 phrase however it is written", () => {
    const phrases = [
      TWELVE,
      TWELVE.replaceAll(" ", ","),
      TWELVE.replaceAll(" ", ", "),
      TWELVE.split(" ")
        .map((w, i) => `${i + 1}.${w}`)
        .join(" "),
      TWELVE.split(" ")
        .map((w, i) => `${i + 1}.${w}`)
        .join(""),
      TWELVE.split(" ")
        .map((w, i) => `${i + 1}) ${w}`)
        .join("\n"),
      `my seed: ${TWELVE}`,
      `${TWELVE}.`,
      `"${TWELVE}"!`,
      `${TWELVE} passphrase`,
      `${TWELVE} zoo`, // a 13th word
      `${TWELVE} ${TWELVE} zoo`, // 24 + a 25th word
      TWELVE.toUpperCase(),
      TWELVE.replaceAll(" ", "-"),
      TWELVE.replaceAll(" ", "\t"),
      TWELVE.replaceAll(" ", "  \n "),
      `https://example.com/?s=${TWELVE.replaceAll(" ", "+")}`,
      `https://example.com/?s=${TWELVE.replaceAll(" ", "%20")}`,
      `https://example.com/?s=${TWELVE.replaceAll(" ", "%2C")}`,
      `https://example.com/${TWELVE.replaceAll(" ", "/")}`,
      `ａｂａｎｄｏｎ ${TWELVE.split(" ").slice(1).join(" ")}`, // full-width letters
      "test test test test test test test test test test test junk", // the anvil dev mnemonic
    ];
    for (const text of phrases) expect({ text, kind: findKeyMaterial(text) }).toEqual({ text, kind: "seed_phrase" });
  });

  it("finds every generated 12- to 24-word mnemonic, with or without a prefix", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(128, 160, 192, 224, 256),
        fc.constantFrom("", "my seed: ", "backup -> "),
        fc.constantFrom(" ", ",", "\n"),
        (bits, prefix, sep) => {
          const mnemonic = generateMnemonic(wordlist, bits).split(" ").join(sep);
          expect(looksLikeSeedPhrase(prefix + mnemonic)).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("counts runs of consecutive list words after normalising separators", () => {
    expect(normalisedWords("1.Abandon, 2.ability+able%20about")).toEqual(["abandon", "ability", "able", "about"]);
    expect(longestSeedWordRun("the abandon ability of able")).toBe(2);
    expect(looksLikeSeedPhrase(TWELVE.split(" ").slice(0, 11).join(" "))).toBe(false); // 11 words
    expect(
      looksLikeSeedPhrase([...TWELVE.split(" ").slice(0, 6), "the", ...TWELVE.split(" ").slice(6)].join(" ")),
    ).toBe(false); // broken into 6 + 6
  });

  it("finds BIP-32 extended private keys, but not extended public keys", () => {
    const root = HDKey.fromMasterSeed(new Uint8Array(32).fill(7));
    const xprv = root.privateExtendedKey;
    const tprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7), {
      private: 0x04358394,
      public: 0x043587cf,
    }).privateExtendedKey;
    const zprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7), {
      private: 0x04b2430c,
      public: 0x04b24746,
    }).privateExtendedKey;
    const yprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7), {
      private: 0x049d7878,
      public: 0x049d7cb2,
    }).privateExtendedKey;
    expect([xprv.slice(0, 4), tprv.slice(0, 4), zprv.slice(0, 4), yprv.slice(0, 4)]).toEqual([
      "xprv",
      "tprv",
      "zprv",
      "yprv",
    ]);
    for (const key of [xprv, tprv, zprv, yprv, `my backup: ${xprv}.`, `https://example.com/?k=${xprv}`]) {
      expect({ key, kind: findKeyMaterial(key) }).toEqual({ key, kind: "extended_private_key" });
    }
    expect(looksLikeExtendedPrivateKey(root.publicExtendedKey)).toBe(false);
    expect(looksLikeExtendedPrivateKey("xprv is how a BIP-32 private key starts")).toBe(false);
  });

  it("finds 64-hex private keys with or without 0x, and not longer hex runs", () => {
    for (const text of [
      PRIVATE_KEY,
      `0x${PRIVATE_KEY}`,
      `key=${PRIVATE_KEY};`,
      `https://example.com/?pk=0x${PRIVATE_KEY}`,
      PRIVATE_KEY.toUpperCase(),
    ]) {
      expect({ text, kind: findKeyMaterial(text) }).toEqual({ text, kind: "private_key" });
    }
    expect(looksLikePrivateKey(SIGNATURE)).toBe(false);
    expect(looksLikePrivateKey(`0x${"ab".repeat(20)}`)).toBe(false); // an address
    expect(looksLikePrivateKey(PRIVATE_KEY.slice(1))).toBe(false); // 63 digits
  });

  it("lets ordinary prose through", () => {
    for (const text of ORDINARY_PROSE)
      expect({ text, kind: findKeyMaterial(text), problem: findTextProblem("description", text) }).toEqual({
        text,
        kind: null,
        problem: null,
      });
  });
});

describe("field names and public hex fields", () => {
  it("refuses contract, calldata and key-material names in any spelling", () => {
    for (const name of [
      "to",
      "TO",
      "data",
      "calldata",
      "call_data",
      "input",
      "factory",
      "factory_address",
      "swapRouter",
      "pool",
      "pool_id",
      "fee_locker",
      "fee-locker",
      "FeeLocker",
      "private_key",
      "privKey",
      "secret_key",
      "seed",
      "mnemonic",
      "seed_phrase",
      "recovery phrase",
      "passphrase",
      "xprv",
    ]) {
      expect({ name, forbidden: isForbiddenFieldName(name) }).toEqual({ name, forbidden: true });
    }
    for (const name of [
      "name",
      "symbol",
      "description",
      "label",
      "wallet",
      "creator",
      "csrf_token",
      "tx_hash",
      "signature",
      "intent_signature",
      "create_api_key",
      "website_url",
      "metadata",
      "write",
      "launch_id",
    ]) {
      expect({ name, forbidden: isForbiddenFieldName(name) }).toEqual({ name, forbidden: false });
    }
  });

  it("exempts tx_hash, signature and intent_signature only when they are exactly a hash or a signature", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(
      findForbiddenField({ tx_hash: hash, signature: SIGNATURE, intent_signature: SIGNATURE }, "", PUBLIC_HEX_FIELDS),
    ).toBeNull();
    expect(findForbiddenField({ signature: hash }, "", PUBLIC_HEX_FIELDS)).toMatch(
      /signature looks like a private key/,
    );
    expect(findForbiddenField({ intent_signature: `0x${PRIVATE_KEY}` }, "", PUBLIC_HEX_FIELDS)).toMatch(/private key/);
    expect(findForbiddenField({ tx_hash: `${hash} ` }, "", PUBLIC_HEX_FIELDS)).toMatch(/private key/);
    expect(findForbiddenField({ label: hash }, "", PUBLIC_HEX_FIELDS)).toMatch(/label looks like a private key/);
    expect(findForbiddenField({ metadata: { signature: hash } }, "", PUBLIC_HEX_FIELDS)).toMatch(/metadata.signature/);
    expect(findForbiddenField({ signature: TWELVE }, "", PUBLIC_HEX_FIELDS)).toMatch(/seed phrase/);
  });

  it("checks field names for key material and never echoes the secret", () => {
    const found = findForbiddenField({ [TWELVE]: 1 });
    expect(found).toMatch(/field name .* seed phrase/);
    for (const body of [{ label: TWELVE }, { description: `my key ${PRIVATE_KEY}` }, { nested: [{ x: TWELVE }] }]) {
      const message = findForbiddenField(body)!;
      expect(message).toBeTruthy();
      expect(message).not.toContain("abandon");
      expect(message).not.toContain(PRIVATE_KEY);
    }
  });

  it("walks 100,000 levels of nesting without recursion", () => {
    let deep: unknown = { factory: 1 };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(findForbiddenField(deep)).toMatch(/factory/);
    expect(findBodyTextProblem(deep)).toBeNull();
  });
});

describe("text rules", () => {
  it("refuses C0/C1 controls everywhere, allowing only \\n and \\t in description", () => {
    for (const ch of [
      "\u0000",
      "\u0001",
      "\u0007",
      "\u001b",
      "\r",
      "\u007f",
      "\u0085",
      "\u009b",
      "\u2028",
      "\u2029",
      "\ud800",
      "\udfff",
    ]) {
      for (const field of ["description", "name", "symbol", "label", "website_url", "csrf_token", "wallet", ""]) {
        expect({ field, ch, problem: findTextProblem(field, `a${ch}b`) }).toEqual({
          field,
          ch,
          problem: "control_character",
        });
      }
    }
    expect(findTextProblem("description", "a\nb\tc")).toBeNull();
    expect(findTextProblem("name", "a\nb")).toBe("control_character");
    expect(findTextProblem("label", "a\tb")).toBe("control_character");
    expect(findTextProblem("name", "🦄 Unicorn")).toBeNull(); // a surrogate pair is not a lone surrogate
  });

  it("refuses bidi, zero-width and other format characters in name, symbol, the metadata URLs and a key label; only reordering bidi controls in the description", () => {
    const format = [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
      "\u200b",
      "\u200c",
      "\u200d",
      "\u2060",
      "\ufeff",
      "\u00ad",
    ];
    const reordering = new Set([
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ]);
    for (const ch of format) {
      for (const field of ["name", "symbol", "image_url", "website_url", "twitter_url", "telegram_url", "label"])
        expect({ field, ch, problem: findTextProblem(field, `https://x.com/Safe${ch}Coin`) }).toEqual({
          field,
          ch,
          problem: "format_character",
        });
      // The description keeps direction marks and zero-width joiners (right-to-left prose, emoji
      // sequences, scripts) but no control that reorders the text after it.
      expect({ ch, problem: findTextProblem("description", `שלום${ch}עולם`) }).toEqual({
        ch,
        problem: reordering.has(ch) ? "format_character" : null,
      });
    }
    expect(findTextProblem("description", "family 👨\u200d👩\u200d👧")).toBeNull();
    // The outside finding: the signed message read `X: https://x.com/real_jockey`.
    expect(findBodyTextProblem({ metadata: { twitter_url: "https://x.com/\u202eyekcoj_laer" } })).toMatch(
      /^metadata\.twitter_url: must not contain bidirectional/,
    );
  });

  it("names the field in nested bodies and checks keys", () => {
    expect(findBodyTextProblem({ description: "\u0000" })).toBe(
      "description: must not contain control characters other than \\n and \\t",
    );
    expect(findBodyTextProblem({ metadata: { name: "A\u202eB" } })).toMatch(
      /^metadata\.name: must not contain bidirectional/,
    );
    expect(findBodyTextProblem({ metadata: { description: "ok\nok" } })).toBeNull();
    expect(findBodyTextProblem({ list: ["ok", "\u0000"] })).toMatch(/^list\[1\]: /);
    expect(findBodyTextProblem({ "a\u0000": 1 })).toMatch(/field name/);
    expect(
      findBodyTextProblem({ name: "Ordinary Name", symbol: "ORD", description: ORDINARY_PROSE.join("\n") }),
    ).toBeNull();
  });
});

describe("JSON body text", () => {
  it("scans depth without recursion, ignoring brackets inside strings", () => {
    expect(exceedsJsonDepth('{"a":1}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":1}}', 1)).toBe(true);
    expect(exceedsJsonDepth('{"a":"{{{{[[[["}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"a":"\\"{{{{"}', 1)).toBe(false);
    expect(exceedsJsonDepth("[".repeat(1_000_000), 16)).toBe(true);
  });

  it("accepts one JSON object and refuses everything else with the catalogue's codes", () => {
    expect(checkJsonBodyText('{"name":"A","metadata":{"x":[1,2]}}')).toEqual({ name: "A", metadata: { x: [1, 2] } });
    const refused: Array<[string, string]> = [
      ["", "invalid_request"],
      ["null", "invalid_request"],
      ["[]", "invalid_request"],
      ['"text"', "invalid_request"],
      ["42", "invalid_request"],
      ["{", "invalid_request"],
      ["csrf_token=x&a=b", "invalid_request"],
      [`${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`, "invalid_request"],
      ["[".repeat(5_000) + "]".repeat(5_000), "invalid_request"],
      ['{"description":"\\u0000"}', "invalid_request"],
      ['{"name":"a\\u202eb"}', "invalid_request"],
      ['{"to":"0x1"}', "forbidden_field"],
      [`{"label":"${TWELVE}"}`, "forbidden_field"],
      [`{"x":"${"a".repeat(70_000)}"}`, "body_too_large"],
    ];
    for (const [text, code] of refused) {
      expect({ text: text.slice(0, 40), code: catchCode(() => checkJsonBodyText(text)) }).toEqual({
        text: text.slice(0, 40),
        code,
      });
    }
  });
});

function catchCode(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

/** A source text without its comment lines (docstrings may name the readers they forbid). */
function codeOnly(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join("\n");
}

describe("one body reader", () => {
  it("reads request bodies only through jsonBodyOf (and the upload's multipart parser), never before a route's checks", async () => {
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const { join } = await import("node:path");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) files.push(path);
      }
    };
    for (const dir of ["http", "market", "launches", "media", "ops", "pages"]) walk(dir);
    const readers = /c\.req\.(json|text|arrayBuffer|blob|formData|parseBody)\(/g;
    const found = files.flatMap((file) =>
      [...codeOnly(readFileSync(file, "utf8")).matchAll(readers)].map((m) => `${file.replaceAll("\\", "/")}: ${m[1]}`),
    );
    expect(found.sort()).toEqual([
      "http/middleware/idempotency.ts: text",
      "http/middleware/jsonBody.ts: text",
      "http/routes/v1/media.ts: parseBody",
    ]);
  });
});
