/**
 * Uploaded images, stored in the store itself (`media` table, `bytea`) after validation and
 * re-encoding; content-addressed by the first 32 hex digits (128 bits) of their SHA-256.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import type { Store } from "./index";
import { apiKeys, media } from "./schema";

/** A stored image. */
export type MediaRecord = typeof media.$inferSelect;

/** Stores an image; the same bytes uploaded twice keep one row. */
export async function insertMedia(store: Store, row: typeof media.$inferInsert): Promise<void> {
  await store.db.insert(media).values(row).onConflictDoNothing();
}

/** The image with this id, or `null`. */
export async function findMedia(store: Store, id: string): Promise<MediaRecord | null> {
  return (await store.db.select().from(media).where(eq(media.id, id)).limit(1))[0] ?? null;
}

/** Whether an image with this id exists (without loading its bytes). */
export async function mediaExists(store: Store, id: string): Promise<boolean> {
  return (await store.db.select({ id: media.id }).from(media).where(eq(media.id, id)).limit(1)).length > 0;
}

/**
 * Bytes of the images a wallet's keys (all of them together) stored since `sinceMs`: the measure of
 * the daily media quota (docs/trust.md "Media upload").
 * @param wallet - checksummed wallet address of the keys
 * @param sinceMs - start of the window, unix milliseconds
 * @example await mediaBytesStoredSince(store, "0xf39F…2266", Date.now() - 86_400_000) // 183_402
 */
export async function mediaBytesStoredSince(store: Store, wallet: string, sinceMs: number): Promise<number> {
  const rows = await store.db
    .select({ bytes: sql<string>`coalesce(sum(${media.byteLength}), 0)` })
    .from(media)
    .innerJoin(apiKeys, eq(apiKeys.id, media.apiKeyId))
    .where(and(eq(apiKeys.wallet, wallet), gte(media.createdAtMs, sinceMs)));
  return Number(rows[0]?.bytes ?? 0);
}
