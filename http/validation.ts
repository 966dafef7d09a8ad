/**
 * Request validation: zod schemas and the `@hono/zod-validator` hook that turns a failed parse
 * into a 400 with the catalogue's error body (never a 500 for bad input).
 */
import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";
import { jsonBodyOf } from "./middleware/jsonBody";
import { useServiceWording } from "./schemaWording";

// Every failed check below is worded for clients, not in zod's own terms (http/schemaWording.ts).
useServiceWording();

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
    // A required field that is absent: the catalogue's wording ("missing"), never the schema
    // library's own text; its code is `invalid_request` whatever the field's malformed code is.
    if (
      issue &&
      issue.path.length > 0 &&
      valueAt(result.data, issue.path) === undefined &&
      issue.code === "invalid_type"
    ) {
      throw new ApiError("invalid_request", missingMessage(field));
    }
    const code = ((issue as { params?: { code?: ErrorCode } } | undefined)?.params?.code ??
      "invalid_request") as ErrorCode;
    throw new ApiError(code, fieldMessage(field, issue?.message ?? "invalid"));
  });
  // hono-openapi describes zod schemas by their input side (before transforms): what clients send.
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}

/**
 * An issue's message naming its field once: `field: message`, unless the schema's message already
 * begins with the field's name.
 * @example fieldMessage("resolution", "resolution must be one of 1m, 5m") // "resolution must be one of 1m, 5m"
 * @example fieldMessage("limit", "must be at most 100") // "limit: must be at most 100"
 */
export function fieldMessage(field: string, message: string): string {
  return message.startsWith(`${field} `) || message.startsWith(`${field}:`) ? message : `${field}: ${message}`;
}

/**
 * The message of a missing required parameter or body field (catalogue `invalid_request`: "a
 * parameter or body field is missing or malformed; `message` names it").
 * @example missingMessage("resolution") // "resolution: missing (required)"
 */
function missingMessage(field: string): string {
  return `${field}: missing (required)`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * Describes in the OpenAPI document the `target` input that a handler validates itself with
 * `schema` (the launch flow parses its bodies after the safety rule); does nothing at request time.
 */
export function describedInput<Target extends keyof ValidationTargets>(
  target: Target,
  schema: z.ZodType,
): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}

/**
 * Validates the request's JSON body with `schema` (unknown fields -> 400 `invalid_request`; an
 * issue may name `invalid_address`). The body is read here (once; after the route's
 * authentication and limits) with the size and depth caps, the object shape, the safety rule and
 * the text rules of the app's body parser (`http/middleware/jsonBody.ts`).
 * @param c - the request context
 * @param schema - the zod schema of the body
 * @returns the parsed body
 * @throws ApiError 400 `invalid_request` / `invalid_address`
 */
export async function parseJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const parsed = schema.safeParse(await jsonBodyOf(c));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const code = (issue as { params?: { code?: "invalid_address" } } | undefined)?.params?.code ?? "invalid_request";
    throw new ApiError(code, fieldMessage(issue?.path.join(".") || "body", issue?.message ?? "invalid"));
  }
  return parsed.data;
}

/** The one body a bodiless action accepts when a body is sent anyway. */
const NO_FIELDS = z.object({}).strict();

/**
 * For POST routes that act on a resource and take no input (resume, rotate-secret, test): a
 * request without a JSON body passes; one with a JSON body must be `{}`, read with the same caps
 * and rules as every other body (a hostile body answers 400/413 here too, never 200).
 * @throws ApiError 400 `invalid_request` (a field, bad JSON, too deep), 413 `body_too_large`
 */
export async function noJsonBody(c: Context): Promise<void> {
  if (!c.get("jsonBodyRead") || c.req.raw.body === null || c.req.header("content-length") === "0") return;
  await parseJsonBody(c, NO_FIELDS);
}
