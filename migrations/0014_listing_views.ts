import { sql, type Kysely } from 'kysely'

// Issue 19: listing views for the seller's analytics, without personal data: one counter
// per listing and day (UTC), incremented by one upsert after the page is answered. No IP,
// user id, cookie or user agent is stored; bots (isbot) are not counted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE listing_views_daily (
    listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
    day date NOT NULL,
    views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
    PRIMARY KEY (listing_id, day)
  )`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE listing_views_daily`.execute(db)
}
