/**
 * Uploaded images, stored in the store itself (`media` table, `bytea`) after validation and
 * re-encoding; content-addressed by the first 32 hex digits (128 bits) of their SHA-256.
 */
import { eq } from "drizzle-orm";
import type { Store } from "./index";
import { media } from "./schema";

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
