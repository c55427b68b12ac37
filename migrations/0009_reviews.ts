import { sql, type Kysely } from 'kysely'

/**
 * Issue 18: verified reviews and seller pages (docs/decisions/018).
 *
 * - `reviews`: one per sale (the unique transaction_id), written by its buyer, 1–5 stars and
 *   1–2,000 characters; the seller's one public reply; an admin's hide with its reason.
 *   The rules about who may review and when live in app/server/domain/reviews.server.ts.
 * - Rating aggregates stored on `listings`, rewritten in the same database transaction as any
 *   change to the listing's visible reviews: `rating_count`, `rating_average_tenths` (the
 *   average the cards show, rounded to a tenth: the minimum-rating filter compares the number
 *   people see) and `rating_score` (the Bayesian average in millionths of a star, 0 without
 *   reviews: the top-rated sort key). Integers, so a page cursor compares exactly. The math
 *   is app/lib/ratings.ts; the database only stores its results.
 * - `users.profile_edited_at`: set when the user edits their public profile on /profile; from
 *   then on a sign-in no longer overwrites the display name and avatar from the identity provider.
 *   username, display_name, bio and avatar_url already exist (migration 0001).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE reviews (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      transaction_id uuid NOT NULL UNIQUE REFERENCES transactions(id) ON DELETE CASCADE,
      listing_id uuid NOT NULL REFERENCES listings(id),
      buyer_id uuid NOT NULL REFERENCES users(id),
      seller_id uuid NOT NULL REFERENCES users(id),
      stars smallint NOT NULL CHECK (stars BETWEEN 1 AND 5),
      body text NOT NULL CHECK (length(trim(body)) BETWEEN 1 AND 2000),
      seller_reply text CHECK (length(trim(seller_reply)) BETWEEN 1 AND 2000),
      seller_replied_at timestamptz,
      hidden_at timestamptz,
      hidden_by uuid REFERENCES users(id) ON DELETE SET NULL,
      hidden_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT reviews_reply_once CHECK ((seller_reply IS NULL) = (seller_replied_at IS NULL)),
      CONSTRAINT reviews_hidden_has_reason CHECK (hidden_at IS NULL OR length(trim(hidden_reason)) BETWEEN 1 AND 500),
      CONSTRAINT reviews_not_own_listing CHECK (buyer_id <> seller_id)
    )`.execute(db)
  // The listing page: visible reviews, newest first (keyset on created_at, id).
  await sql`CREATE INDEX reviews_listing_idx ON reviews (listing_id, created_at DESC, id DESC) WHERE hidden_at IS NULL`.execute(db)
  // The seller page's average; a buyer's own reviews.
  await sql`CREATE INDEX reviews_seller_idx ON reviews (seller_id) WHERE hidden_at IS NULL`.execute(db)
  await sql`CREATE INDEX reviews_buyer_idx ON reviews (buyer_id)`.execute(db)

  await sql`
    ALTER TABLE listings
      ADD COLUMN rating_count integer NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
      ADD COLUMN rating_average_tenths integer NOT NULL DEFAULT 0 CHECK (rating_average_tenths BETWEEN 0 AND 50),
      ADD COLUMN rating_score integer NOT NULL DEFAULT 0 CHECK (rating_score BETWEEN 0 AND 5000000)`.execute(db)
  // Top-rated: score, then newest, then id (the keyset), over the same predicate as the other sort indexes.
  await sql`
    CREATE INDEX listings_top_rated_idx ON listings (rating_score DESC, created_at DESC, id DESC)
    WHERE visible AND archived_at IS NULL`.execute(db)

  await sql`ALTER TABLE users ADD COLUMN profile_edited_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN profile_edited_at`.execute(db)
  await sql`DROP INDEX IF EXISTS listings_top_rated_idx`.execute(db)
  await sql`ALTER TABLE listings DROP COLUMN rating_count, DROP COLUMN rating_average_tenths, DROP COLUMN rating_score`.execute(db)
  await sql`DROP TABLE IF EXISTS reviews`.execute(db)
}
