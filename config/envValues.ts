/**
 * The value types of the settings (config/env.ts), as zod schemas over the raw strings: each
 * refusal message says what the setting must be, and `loadEnv` adds the variable's name and the
 * value received.
 */
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { compileProxyTrust, type ProxyTrust } from "./proxyTrust";

/** Empty strings are "unset" (the default applies). */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/** An integer from `min` to `max` (inclusive), parsed to a number; `hint` replaces the default message. */
export const int = (min: number, max = Number.MAX_SAFE_INTEGER, hint?: string) =>
  z
    .string()
    .refine(
      (v) => /^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max,
      hint ??
        (max === Number.MAX_SAFE_INTEGER ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`),
    )
    .transform(Number);

/** A non-negative decimal integer amount in wei (kept as a string; bigint where it is used). */
export const wei = z.string().regex(/^\d+$/, "must be a decimal integer in wei");
/**
 * What is wrong with an address setting, or `undefined` when it is fine: 20 bytes of hex, and when
 * written in mixed case, a correct EIP-55 checksum (viem's strict `isAddress`); all-lowercase or
 * all-uppercase hex carries no checksum and is accepted.
 */
export function addressProblem(value: string): string | undefined {
  if (!isAddress(value, { strict: false })) return "must be a 20-byte hex address (0x + 40 hex digits)";
  if (!isAddress(value))
    return `has a wrong EIP-55 checksum (mixed case): the checksummed form is ${getAddress(value)}`;
  return undefined;
}
/** A 20-byte hex address (EIP-55 checksum checked when mixed case). */
export const address = z.string().superRefine((v, ctx) => {
  const problem = addressProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
/** A URL whose protocol is one of `protocols` (e.g. `["http:", "https:"]`); `what` names it in the message. */
export const url = (protocols: string[], what: string) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `must be ${what}`);
/** Comma-separated URLs, each with one of `protocols`. */
export const urlList = (protocols: string[], what: string) =>
  z.string().refine(
    (v) =>
      v
        .split(",")
        .map((u) => u.trim())
        .filter(Boolean)
        .every((u) => {
          try {
            return protocols.includes(new URL(u).protocol);
          } catch {
            return false;
          }
        }),
    `must be ${what}`,
  );
/**
 * `TRUST_PROXY`: `0`, a hop count, or a list of proxy addresses / CIDR ranges / names, compiled
 * here once per process into proxy-addr's trust function (config/proxyTrust.ts).
 */
export const proxyTrust = z.string().transform((v, ctx): ProxyTrust => {
  try {
    return compileProxyTrust(v);
  } catch (err) {
    ctx.addIssue({
      code: "custom",
      message: `must be 0, a hop count from 1 to 32, or comma-separated proxy addresses, CIDR ranges and loopback/linklocal/uniquelocal (${(err as Error).message})`,
    });
    return z.NEVER;
  }
});
/** `"0"` or `"1"`. */
export const flag = z.enum(["0", "1"], { message: 'must be "0" or "1"' });
/** A lowercase PostgreSQL identifier of at most `max` characters (a schema name). */
export const pgIdentifier = (max: number) =>
  z
    .string()
    .regex(
      new RegExp(`^[a-z_][a-z0-9_]{0,${max - 1}}$`),
      `must be a lowercase identifier ([a-z_][a-z0-9_]*), at most ${max} characters`,
    );
/** A partner slug: 1-40 characters of [a-z0-9-], not the chain slug `evmchain`. */
export const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be 1-40 characters of [a-z0-9-], starting with a letter or digit")
  .refine((v) => v !== "evmchain", 'must not be "evmchain"');
