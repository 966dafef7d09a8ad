/**
 * Request shapes of the launch steps (zod schemas the routes validate with and the OpenAPI document
 * describes): ids, transaction hashes, signatures, and the bodies of build, confirm, status and the
 * session's build and verify. The intent body is `intentRequestSchema` (`intent.ts`).
 */
import { isHex, type Hash, type Hex } from "viem";
import { z } from "zod";
import { addressParam } from "../src/domain/wire";
import { intentRequestSchema } from "./intentRequest";

/** A launch id as issued: `lnch_` + 24 lowercase hex characters. */
export const launchIdSchema = z
  .string()
  .regex(/^lnch_[0-9a-f]{24}$/, "must be a launch id (lnch_ + 24 hex characters)");
/** A transaction hash: `0x` + 64 hex digits. */
export const txHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a transaction hash (0x + 64 hex digits)")
  .transform((v) => v.toLowerCase() as Hash);
/** A personal_sign signature (65 bytes, or longer for ERC-1271 / ERC-6492 wallets). */
export const signatureSchema = z
  .string()
  .refine((v) => isHex(v) && v.length >= 132 && v.length % 2 === 0, "must be a 0x-prefixed hex signature")
  .transform((v) => v as Hex);

/** Field naming of a surface: `launch_id` (v1 launches) or `draft_id` (coin flow). */
export type IdField = "launch_id" | "draft_id";

/** Body of build / create-transaction: `{<id>, intent_signature}` (no other field). */
export function buildBodySchema(field: IdField) {
  return z.strictObject({ [field]: launchIdSchema, intent_signature: signatureSchema }) as z.ZodType<
    Record<string, string>
  >;
}

/** Body of confirm / finalize: `{<id>, tx_hash}` (no other field). */
export function confirmBodySchema(field: IdField) {
  return z.strictObject({ [field]: launchIdSchema, tx_hash: txHashSchema }) as z.ZodType<Record<string, string>>;
}

/** Query of status: the launch id, or (v1 only) the transaction hash; exactly one is sent. */
export function statusQuerySchema(field: IdField, allowTxHash: boolean) {
  return z.object({
    [field]: launchIdSchema.optional(),
    ...(allowTxHash ? { tx_hash: txHashSchema.optional() } : {}),
  }) as z.ZodType<Record<string, string | undefined>>;
}

/**
 * Body of `build-direct-v3-launch`: the launch request fields (bounds as the v1 intent:
 * `creator`, `name`, `symbol`, optional `first_buy_wei` (default "0"), `slippage_bps` (default
 * 300), `description`, `image_url`, `website_url`, `twitter_url`, `telegram_url`) plus
 * `csrf_token`. Unknown fields -> 400.
 */
export const sessionBuildSchema = intentRequestSchema.extend({ csrf_token: z.string() });

/**
 * Body of `verify-direct-v3-launch`: `tx_hash`, `creator`, `write` (persist when true; default
 * false = a dry run), `csrf_token`, optional `metadata {name, symbol, description?}` (name and
 * symbol must be the built ones; `description` replaces the built one when persisting), optional
 * `launch_id` (the build to verify against, as returned by build).
 */
export const sessionVerifySchema = z.strictObject({
  tx_hash: txHashSchema,
  creator: addressParam,
  write: z.boolean().default(false),
  csrf_token: z.string(),
  metadata: z
    .strictObject({
      name: z.string(),
      symbol: z.string(),
      description: z.string().max(1000, "must be at most 1000 characters").optional(),
    })
    .optional(),
  launch_id: launchIdSchema.optional(),
});
