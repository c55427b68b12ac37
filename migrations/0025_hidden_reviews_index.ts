import { sql, type Kysely } from 'kysely'

/**
 * Issue 30: the moderation queue lists the reviews an admin hid, the latest first, so they can be
 * restored (`recentlyHiddenReviews`). Hidden reviews are few: a partial index keeps that read off
 * the whole table. Self-contained (depends on 0009 only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX reviews_hidden_idx ON reviews (hidden_at DESC) WHERE hidden_at IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX reviews_hidden_idx`.execute(db)
}
