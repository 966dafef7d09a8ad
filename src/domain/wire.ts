/**
 * The building blocks of the wire schemas (docs/openapi.md): addresses, amounts as decimal
 * strings, hashes, times, cursors, and the success body every answer has. zod schemas, shared by
 * the read models and use cases (their typed results) and the HTTP layer (validation and the
 * OpenAPI document); the error body, which names the HTTP error catalogue, is http/openapi/errorBody.ts.
 */
import { z } from "zod";
import { getAddress, isAddress } from "viem";

/** A checksummed 20-byte address. */
export const addressWire = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .meta({ description: "EIP-55 checksummed address", example: "0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc" });
/** An unsigned integer amount as a decimal string (wei or token base units). */
export const uintString = z
  .string()
  .regex(/^[0-9]+$/)
  .meta({ description: "unsigned integer as a decimal string", example: "75000000000000000" });
/**
 * A USD amount (docs/public.md "USD values"): a non-negative decimal string, the exact value
 * rounded down to 18 decimals, trailing zeros dropped; null when no ETH/USD is known (no reference
 * pool configured, or before its first price), never "0" for unknown.
 */
export const usdString = z
  .string()
  .regex(/^[0-9]+(\.[0-9]{1,18})?$/)
  .nullable()
  .meta({
    description:
      "USD as a decimal string, rounded down to 18 decimals (trailing zeros dropped); null without an ETH/USD reference price",
    example: "225.5",
  });
/** A 32-byte hash. */
export const hashWire = z.string().regex(/^0x[0-9a-f]{64}$/i);
/** A unix time in seconds. */
export const unixSec = z.number().int().nonnegative().meta({ description: "unix time in seconds" });
/** A block number. */
export const blockNumber = z.number().int().nonnegative();
/** The cursor of a list's next page. */
export const cursor = z
  .string()
  .nullable()
  .meta({ description: "opaque cursor for the next page; null on the last page" });

/** `{ ok: true, ...shape }`: a success body with the given fields (unlisted fields allowed). */
export function okBody<T extends z.ZodRawShape>(shape: T) {
  return z.looseObject({ ok: z.literal(true), ...shape });
}

/** `0x` and 40 hex digits in any case: the shape `isAddress(v, { strict: false })` accepts. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/**
 * A 20-byte hex address, checksummed (input case ignored). The pattern is also the parameter's
 * `pattern` in the OpenAPI document, so a client generator refuses `0xbad` as the service does.
 */
export const addressParam = z
  .string()
  .meta({ pattern: ADDRESS_PATTERN.source })
  .refine((v) => isAddress(v, { strict: false }), {
    message: "must be a 20-byte hex address",
    params: { code: "invalid_address" },
  })
  .transform((v) => getAddress(v));
