import { sql, type Kysely } from 'kysely'

// Issue 26.1: an image belongs to whoever uploaded it. Every stored image (its key, the 32 hex of
// /uploads/<key>/…) gets a row naming its owner, written when it is stored; a listing takes only
// its seller's images (images.server.ts). Images stored before this have no row: each is given to the
// seller whose listing, or the user whose avatar, used it first (the rest stay unowned).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE uploaded_images (
    key text PRIMARY KEY CHECK (key ~ '^[a-f0-9]{32}$'),
    owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)
  await sql`CREATE INDEX uploaded_images_owner ON uploaded_images (owner_id)`.execute(db)
  await sql`INSERT INTO uploaded_images (key, owner_id, created_at)
    SELECT DISTINCT ON (key) key, owner_id, created_at FROM (
      SELECT substring(url FROM '^/uploads/([a-f0-9]{32})/full[.]webp$') AS key, l.seller_id AS owner_id, l.created_at
        FROM listings l CROSS JOIN LATERAL unnest(array_append(l.screenshots, l.thumbnail_url)) AS url
      UNION ALL
      SELECT substring(u.avatar_url FROM '^/uploads/([a-f0-9]{32})/full[.]webp$'), u.id, u.created_at FROM users u
    ) used
    WHERE key IS NOT NULL
    ORDER BY key, created_at`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE uploaded_images`.execute(db)
}
