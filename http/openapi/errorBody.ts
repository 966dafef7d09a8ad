/**
 * The error body of every failure in the OpenAPI document (spec: Errors 1): `ok: false`, a
 * catalogue identifier (http/errors.ts) and a message.
 */
import { z } from "zod";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors";

/** The spec's error body (spec: Errors 1), plus the request id and any documented extra fields. */
export const errorBody = z
  .looseObject({
    ok: z.literal(false),
    error: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    request_id: z.string().optional(),
  })
  .meta({
    id: "Error",
    description: "Every failure: `ok: false`, a catalogue identifier and a human-readable message.",
  });
