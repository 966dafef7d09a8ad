/**
 * The bodies and answers of the sign-in routes (./signIn.ts): zod schemas for what the browser
 * sends and what it receives (EIP-4361 challenges, created keys), shared with the OpenAPI document.
 */
import type { Context } from "hono";
import { isHex } from "viem";
import { z } from "zod";
import { addressParam, addressWire, okBody } from "../../src/domain/wire";
import { sendOk } from "../json";
import type { issueSignInChallenge, SignedIn } from "./signInFlow";

/** `{wallet, csrf_token}`: a challenge for key creation. */
export const challengeBody = z.object({ wallet: addressParam, csrf_token: z.string() });
/** A sign-in challenge; `create_api_key: true` also creates a key on sign-in. */
export const signInChallengeBody = challengeBody.extend({ create_api_key: z.boolean().default(false) });
/** The signed challenge (a 65-byte personal_sign signature) with an optional key label. */
export const signatureBody = z.object({
  wallet: addressParam,
  signature: z.string().refine((v) => isHex(v) && v.length >= 132, "must be a 0x-prefixed hex signature"),
  csrf_token: z.string(),
  label: z.string().max(100, "must be at most 100 characters").optional(),
});
/** Sign-out: the CSRF token only. */
export const signOutBody = z.object({ csrf_token: z.string() });

/** A challenge as served: the EIP-4361 message to sign, its nonce, purpose and times (unix seconds). */
export const challengeWire = okBody({
  message: z.string(),
  nonce: z.string(),
  purpose: z.enum(["sign_in", "sign_in_and_create_key"]),
  issued_at_sec: z.number().int(),
  expires_at_sec: z.number().int(),
});
/** A created key as served (`prefix` is the display prefix; the secret is beside it, once). */
export const keyWire = z.looseObject({
  id: z.string(),
  prefix: z.string(),
  wallet: addressWire,
  scopes: z.array(z.string()),
});

/** Sends a challenge (`Cache-Control: no-store`: it is single-use). */
export function challengeResponse(c: Context, issued: Awaited<ReturnType<typeof issueSignInChallenge>>) {
  c.header("Cache-Control", "no-store");
  return sendOk(c, {
    message: issued.message,
    nonce: issued.nonce,
    purpose: issued.purpose,
    issued_at_sec: Math.floor(issued.issuedAtMs / 1000),
    expires_at_sec: Math.floor(issued.expiresAtMs / 1000),
  });
}

/** The `api_key` (secret, shown once) and `key` fields of an answer that created a key. */
export function keyFields({ secret, key }: NonNullable<SignedIn["apiKey"]>) {
  return {
    api_key: secret,
    key: {
      id: key.id,
      prefix: key.displayPrefix,
      wallet: key.wallet,
      scopes: key.scopes,
      created_at_sec: Math.floor(key.createdAtMs / 1000),
    },
  };
}

/** What the two routes that take the signed challenge (sign-in, key creation) can answer. */
export const SIGNATURE_ERRORS = [
  "invalid_request",
  "invalid_address",
  "challenge_not_found",
  "invalid_signature",
  "key_limit_reached",
  "rate_limited",
] as const;
