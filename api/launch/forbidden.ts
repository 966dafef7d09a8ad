/**
 * The safety rule on launch request bodies (spec: "What the service does" 8): a client never sends
 * a private key or seed phrase, and never chooses a factory, router, pool, fee locker or calldata.
 * Shared by every launch endpoint of both surfaces (intent, build, confirm, the coin flow, session
 * build and verify).
 */
import { english } from "viem/accounts";
import { ApiError } from "../errors";

const BIP39 = new Set(english);

/** Normalised field names (lowercase, no `_`/`-`) refused wherever they appear. */
const EXACT_NAMES = new Set(["to", "data", "calldata", "input", "seed", "mnemonic", "privatekey", "secretkey", "seedphrase", "recoveryphrase", "factory", "router", "pool", "locker", "feelocker"]);
/** Substrings refused in field names (`factory_address`, `swapRouter`, `pool_id`, `fee_locker`, …). */
const NAME_PARTS = ["factory", "router", "pool", "locker", "calldata", "privatekey", "mnemonic", "seedphrase"];

/** A 32-byte hex string anywhere in a value (a private key looks exactly like this). */
const HEX_32_BYTES = /(?:^|[^0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/;

/** A transaction hash: `0x` + 64 hex digits, exactly. */
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Options of {@link findForbiddenField}.
 * `hashFields`: field paths (e.g. `tx_hash`) whose value is a public 32-byte hash by definition;
 * there (and only there) an exact `0x` + 64 hex value is not taken for a private key.
 */
export type ForbiddenFieldOptions = { hashFields?: readonly string[] };

/** Whether `text` is a BIP-39 style seed phrase: 12/15/18/21/24 words of the English list. */
export function looksLikeSeedPhrase(text: string): boolean {
  const words = text.trim().toLowerCase().split(/\s+/);
  if (![12, 15, 18, 21, 24].includes(words.length)) return false;
  return words.every((w) => BIP39.has(w));
}

/** Whether `text` contains something shaped like a private key (64 hex digits, `0x` optional). */
export function looksLikePrivateKey(text: string): boolean {
  return HEX_32_BYTES.test(text);
}

function forbiddenName(name: string): boolean {
  const n = name.toLowerCase().replace(/[_\-\s]/g, "");
  return EXACT_NAMES.has(n) || NAME_PARTS.some((p) => n.includes(p));
}

/**
 * Finds the first forbidden field in a parsed JSON body (walks nested objects and arrays).
 * @returns a description naming the field (never echoing a secret), or `null`
 * @example findForbiddenField({ name: "A", factory: "0x…" }) // "field \"factory\" chooses a contract…"
 */
export function findForbiddenField(body: unknown, path = "", options: ForbiddenFieldOptions = {}): string | null {
  if (typeof body === "string") {
    const isPublicHash = options.hashFields?.includes(path) && TX_HASH.test(body);
    if (!isPublicHash && looksLikePrivateKey(body)) return `${path || "body"} looks like a private key (64 hex digits); never send keys`;
    if (looksLikeSeedPhrase(body)) return `${path || "body"} looks like a seed phrase; never send it`;
    return null;
  }
  if (Array.isArray(body)) {
    for (const [i, item] of body.entries()) {
      const found = findForbiddenField(item, `${path}[${i}]`, options);
      if (found) return found;
    }
    return null;
  }
  if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      const fieldPath = path ? `${path}.${key}` : key;
      if (forbiddenName(key)) {
        return `field "${fieldPath}" is not accepted: the service fixes the factory, router, pool, fee locker and calldata, and never takes keys`;
      }
      const found = findForbiddenField(value, fieldPath, options);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Throws 400 `forbidden_field` when {@link findForbiddenField} finds something.
 * @param options.hashFields - top-level fields carrying a public 32-byte hash (`tx_hash`)
 */
export function assertNoForbiddenFields(body: unknown, options: ForbiddenFieldOptions = {}): void {
  const found = findForbiddenField(body, "", options);
  if (found) throw new ApiError("forbidden_field", found);
}
