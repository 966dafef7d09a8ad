/**
 * Launch records (intent first; the launch write path adds build/confirm transitions).
 */
import { eq } from "drizzle-orm";
import type { Store } from "./index";
import { launches } from "./schema";

/** A stored launch. */
export type LaunchRecord = typeof launches.$inferSelect;
/** Fields of a new launch. */
export type NewLaunch = typeof launches.$inferInsert;

/** Inserts a launch (state as given, normally `intent_created`). */
export async function insertLaunch(store: Store, launch: NewLaunch): Promise<void> {
  await store.db.insert(launches).values(launch);
}

/** The launch with this id, or `null`. */
export async function findLaunch(store: Store, id: string): Promise<LaunchRecord | null> {
  return (await store.db.select().from(launches).where(eq(launches.id, id)).limit(1))[0] ?? null;
}
