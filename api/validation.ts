/**
 * Request validation: zod schemas and the `@hono/zod-validator` hook that turns a failed parse
 * into a 400 with the catalogue's error body (never a 500 for bad input).
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";

/** A 20-byte hex address, checksummed (input case ignored). */
export const addressParam = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), { message: "must be a 20-byte hex address", params: { code: "invalid_address" } })
  .transform((v) => getAddress(v));

/**
 * `limit` query parameter: an integer in [1, max], default `fallback`.
 * @param fallback - value when absent
 * @param max - largest accepted value
 */
export function limitParam(fallback: number, max: number) {
  return z.coerce
    .number({ message: "limit must be an integer" })
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(max, `limit must be at most ${max}`)
    .default(fallback);
}

/**
 * Validates `target` with `schema`; failures become `ApiError` 400 naming the field. An issue may
 * carry `params.code` to pick a specific catalogue identifier (default `invalid_request`).
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || target;
    const code = ((issue as { params?: { code?: ErrorCode } } | undefined)?.params?.code ?? "invalid_request") as ErrorCode;
    throw new ApiError(code, `${field}: ${issue?.message ?? "invalid"}`);
  });
}
