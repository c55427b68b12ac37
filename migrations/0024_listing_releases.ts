import { sql, type Kysely } from 'kysely'

/**
 * Issue 30: updates after the sale (docs/decisions/036).
 *
 * - `listing_releases`: a listing's versions, newest first: the GitHub releases of its connected
 *   repository (`source = 'github'`, one row per listing and GitHub release id: a redelivered webhook
 *   or a second read inserts nothing) and the version notes a seller without GitHub delivery publishes
 *   by hand (`source = 'manual'`, one per listing and version). What the listing page's latest version
 *   and Changelog show, and what buyers who own the listing are told of.
 * - `listings.last_updated_at`: the latest version's publication time, else when the listing was
 *   created (a trigger sets it on insert; the release writers keep it): "Updated 3 days ago" on cards
 *   and the marketplace's "Recently updated" sort, with its own partial index as the other sorts have.
 * - `notification_preferences.updates`: "Mail me about updates to things I bought" (on by default).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE listing_releases (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
      source text NOT NULL CHECK (source IN ('github', 'manual')),
      github_release_id bigint CHECK (github_release_id > 0),
      version text NOT NULL CHECK (length(version) BETWEEN 1 AND 100),
      name text CHECK (length(name) BETWEEN 1 AND 200),
      notes text NOT NULL DEFAULT '' CHECK (length(notes) <= 10000),
      html_url text CHECK (html_url ~ '^https?://'),
      published_at timestamptz NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      author_id uuid REFERENCES users (id) ON DELETE SET NULL,
      CONSTRAINT listing_releases_source_id CHECK ((source = 'github') = (github_release_id IS NOT NULL))
    )`.execute(db)
  await sql`CREATE UNIQUE INDEX listing_releases_github_release ON listing_releases (listing_id, github_release_id) WHERE github_release_id IS NOT NULL`.execute(
    db,
  )
  await sql`CREATE UNIQUE INDEX listing_releases_manual_version ON listing_releases (listing_id, version) WHERE source = 'manual'`.execute(
    db,
  )
  await sql`CREATE INDEX listing_releases_listing ON listing_releases (listing_id, published_at DESC, id DESC)`.execute(db)

  await sql`ALTER TABLE listings ADD COLUMN last_updated_at timestamptz NOT NULL DEFAULT now()`.execute(db)
  await sql`UPDATE listings SET last_updated_at = created_at`.execute(db)
  await sql`
    CREATE FUNCTION listings_last_updated_at_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.last_updated_at := NEW.created_at;
      RETURN NEW;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER listings_last_updated_at_on_insert BEFORE INSERT ON listings
    FOR EACH ROW EXECUTE FUNCTION listings_last_updated_at_on_insert()`.execute(db)
  await sql`CREATE INDEX listings_recently_updated_idx ON listings (last_updated_at DESC, id DESC) WHERE visible AND archived_at IS NULL`.execute(
    db,
  )

  await sql`ALTER TABLE notification_preferences ADD COLUMN updates boolean NOT NULL DEFAULT true`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE notification_preferences DROP COLUMN updates`.execute(db)
  await sql`DROP INDEX listings_recently_updated_idx`.execute(db)
  await sql`DROP TRIGGER listings_last_updated_at_on_insert ON listings`.execute(db)
  await sql`DROP FUNCTION listings_last_updated_at_on_insert()`.execute(db)
  await sql`ALTER TABLE listings DROP COLUMN last_updated_at`.execute(db)
  await sql`DROP TABLE listing_releases`.execute(db)
}
