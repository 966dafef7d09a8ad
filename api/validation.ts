/**
 * Request validation: zod schemas and the `@hono/zod-validator` hook that turns a failed parse
 * into a 400 with the catalogue's error body (never a 500 for bad input).
 */
import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
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
 * The same schema describes the parameters or body in the OpenAPI document (hono-openapi reads
 * the marker attached here; docs/openapi.md).
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const middleware = zValidator(target, schema, (result) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || target;
    const code = ((issue as { params?: { code?: ErrorCode } } | undefined)?.params?.code ?? "invalid_request") as ErrorCode;
    throw new ApiError(code, `${field}: ${issue?.message ?? "invalid"}`);
  });
  // hono-openapi describes zod schemas by their input side (before transforms): what clients send.
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}

/**
 * Describes in the OpenAPI document the `target` input that a handler validates itself with
 * `schema` (the launch flow parses its bodies after the safety rule); does nothing at request time.
 */
export function describedInput<Target extends keyof ValidationTargets>(target: Target, schema: z.ZodType): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}
