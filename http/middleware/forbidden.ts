/**
 * The safety rule on request bodies (spec: "What the service does" 8): a client never sends a
 * private key, an extended private key or a seed phrase, and never chooses a factory, router,
 * pool, fee locker or calldata. The app's one JSON body parser (`http/middleware/jsonBody.ts`)
 * applies it to every body of every surface before any route sees it.
 */
import { ApiError } from "../errors";
import { findKeyMaterial, KEY_MATERIAL_NAMES } from "./keyMaterial";

/** Normalised field names (lowercase, no `_`/`-`/spaces) refused wherever they appear. */
const EXACT_NAMES = new Set([
  "to",
  "data",
  "calldata",
  "input",
  "seed",
  "mnemonic",
  "privatekey",
  "secretkey",
  "seedphrase",
  "recoveryphrase",
  "factory",
  "router",
  "pool",
  "locker",
  "feelocker",
]);
/** Substrings refused in field names (`factory_address`, `swapRouter`, `pool_id`, `fee_locker`, `xprv`, …). */
const NAME_PARTS = [
  "factory",
  "router",
  "pool",
  "locker",
  "calldata",
  "privatekey",
  "privkey",
  "mnemonic",
  "seedphrase",
  "passphrase",
  "xprv",
];

/** A transaction hash: `0x` + 64 hex digits, exactly. */
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** A signature: `0x` + whole bytes of hex, at least 65 bytes (ERC-1271 / ERC-6492 ones are longer). */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){65,}$/;

/**
 * Options of {@link findForbiddenField}.
 * - `hashFields`: field paths (e.g. `tx_hash`) whose value is a public 32-byte hash by definition;
 *   there, and only when the value is exactly `0x` + 64 hex digits, it is not taken for a key.
 * - `signatureFields`: field paths (`signature`, `intent_signature`) whose value is a public
 *   signature; exempt only when it is exactly `0x` + at least 65 bytes of hex.
 */
export type ForbiddenFieldOptions = { hashFields?: readonly string[]; signatureFields?: readonly string[] };

/** The exemptions the body parser applies: top-level public hashes and signatures. */
export const PUBLIC_HEX_FIELDS = {
  hashFields: ["tx_hash"],
  signatureFields: ["signature", "intent_signature"],
} as const satisfies ForbiddenFieldOptions;

/**
 * Whether a field name chooses a contract or calldata, or names key material (case, `_`, `-`
 * and spaces ignored).
 * @example isForbiddenFieldName("fee_locker") // true
 */
export function isForbiddenFieldName(name: string): boolean {
  const n = name.toLowerCase().replace(/[_\-\s]/g, "");
  return EXACT_NAMES.has(n) || NAME_PARTS.some((p) => n.includes(p));
}

function isPublicHex(path: string, value: string, options: ForbiddenFieldOptions): boolean {
  if (options.hashFields?.includes(path) && TX_HASH.test(value)) return true;
  return Boolean(options.signatureFields?.includes(path) && SIGNATURE.test(value));
}

/**
 * Finds the first forbidden field in a parsed JSON body: a forbidden field name (at any depth)
 * or a string value carrying key material (`http/middleware/keyMaterial.ts`). Walks with an explicit
 * stack, never recursion, so nesting cannot overflow the call stack (the parser also caps depth).
 * @param body - the parsed JSON value
 * @param path - path prefix for messages (`""` at the top)
 * @returns a description naming the field (never echoing a secret), or `null`
 * @example findForbiddenField({ name: "A", factory: "0x…" }) // "field \"factory\" is not accepted: …"
 */
export function findForbiddenField(body: unknown, path = "", options: ForbiddenFieldOptions = {}): string | null {
  const stack: Array<[unknown, string]> = [[body, path]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === "string") {
      const kind = findKeyMaterial(value, { publicHex: isPublicHex(at, value, options) });
      if (kind) return `${at || "body"} looks like ${KEY_MATERIAL_NAMES[kind]}; never send keys or seed phrases`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${at}[${i}]`]);
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        const fieldPath = at ? `${at}.${key}` : key;
        const kind = findKeyMaterial(key);
        if (kind)
          return `a field name in ${at || "body"} looks like ${KEY_MATERIAL_NAMES[kind]}; never send keys or seed phrases`;
        if (isForbiddenFieldName(key)) {
          return `field "${fieldPath}" is not accepted: the service fixes the factory, router, pool, fee locker and calldata, and never takes keys`;
        }
      }
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push([entries[i]![1], at ? `${at}.${entries[i]![0]}` : entries[i]![0]]);
    }
  }
  return null;
}

/**
 * Throws 400 `forbidden_field` when {@link findForbiddenField} finds something.
 * @param options - exemptions for public hashes and signatures ({@link PUBLIC_HEX_FIELDS})
 * @throws ApiError 400 `forbidden_field`
 */
export function assertNoForbiddenFields(body: unknown, options: ForbiddenFieldOptions = {}): void {
  const found = findForbiddenField(body, "", options);
  if (found) throw new ApiError("forbidden_field", found);
}
