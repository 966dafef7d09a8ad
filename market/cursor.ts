/**
 * Opaque pagination cursors: base64url of a small JSON object. Clients must treat them as opaque;
 * a cursor that does not decode to the expected shape is a 400 `invalid_cursor`.
 */
import { z } from "zod";
import { InvalidCursorError } from "./errors";

/**
 * Encodes a cursor.
 * @example encodeCursor({ s: 12 }) // "eyJzIjoxMn0"
 */
export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/**
 * Decodes a cursor and checks its shape.
 * @throws InvalidCursorError when it is not base64url JSON of the expected shape
 */
export function decodeCursor<T extends z.ZodType>(cursor: string, shape: T): z.infer<T> {
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new Error("alphabet");
    const parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through
  }
  throw new InvalidCursorError("cursor is not one this endpoint issued");
}

/** Cursor of launch-ordered token lists: `s` = last served launch sequence number, `k` = sort key. */
export const tokenCursorShape = z.object({
  s: z.number().int().positive(),
  k: z
    .string()
    .regex(/^\d{1,80}$/)
    .optional(),
});

/** Cursor of trade lists: position of the last served trade. */
export const tradeCursorShape = z.object({ b: z.string().regex(/^\d{1,20}$/), l: z.number().int().min(0) });
