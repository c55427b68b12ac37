import { sql, type Kysely } from 'kysely'

/**
 * Issue 30: reports and takedowns (docs/decisions/030).
 *
 * - `reports`: a signed-in user reports a listing, a review or a user with a reason and details.
 *   One open report per reporter and item (a partial unique index); the pace per reporter is
 *   counted from the same table (app/server/domain/reports.server.ts). An admin's decision closes
 *   every open report of the item: `dismissed` or `actioned`.
 * - `listing_takedowns`: an admin hides a listing with a reason its seller sees. Its states are the
 *   moderation machine's (app/server/domain/moderation-transitions.server.ts): hidden → contested
 *   (the seller's one counter-notice) → upheld | restored, or hidden → restored. At most one
 *   takedown of a listing is in force (not restored) at a time.
 * - The marketplace's visibility rule stays `visible AND archived_at IS NULL` (the partial indexes'
 *   predicate): a takedown sets `visible = false`, and while it is in force a trigger keeps it false
 *   whoever writes. The seller's surfaces refuse with a message first (listings.server.ts); the
 *   trigger is for the writers that do not ask, e.g. GitHub access regained (a webhook that must
 *   not fail for it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE reports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      reporter_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      target_type text NOT NULL CHECK (target_type IN ('listing', 'review', 'user')),
      target_id uuid NOT NULL,
      reason text NOT NULL CHECK (reason IN ('copyright', 'malware', 'misleading', 'spam', 'other')),
      details text NOT NULL CHECK (length(trim(details)) BETWEEN 1 AND 2000),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'actioned')),
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT reports_resolved_when_closed CHECK ((status = 'open') = (resolved_at IS NULL))
    )`.execute(db)
  await sql`CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_type, target_id) WHERE status = 'open'`.execute(db)
  // The queue: open reports, oldest first; an item's reports.
  await sql`CREATE INDEX reports_open_idx ON reports (created_at) WHERE status = 'open'`.execute(db)
  await sql`CREATE INDEX reports_target_idx ON reports (target_type, target_id, created_at)`.execute(db)
  // A reporter's pace.
  await sql`CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at)`.execute(db)

  await sql`
    CREATE TABLE listing_takedowns (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      listing_id uuid NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('hidden', 'contested', 'upheld', 'restored')),
      category text NOT NULL CHECK (category IN ('copyright', 'malware', 'misleading', 'spam', 'other')),
      reason text NOT NULL CHECK (length(trim(reason)) BETWEEN 1 AND 1000),
      was_visible boolean NOT NULL,
      taken_down_by uuid REFERENCES users (id) ON DELETE SET NULL,
      taken_down_at timestamptz NOT NULL,
      counter_notice text CHECK (length(trim(counter_notice)) BETWEEN 1 AND 5000),
      counter_noticed_at timestamptz,
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      decision_reason text CHECK (length(trim(decision_reason)) BETWEEN 1 AND 1000),
      CONSTRAINT listing_takedowns_counter_notice_pair CHECK ((counter_notice IS NULL) = (counter_noticed_at IS NULL)),
      CONSTRAINT listing_takedowns_contested_has_notice CHECK (status <> 'contested' OR counter_notice IS NOT NULL)
    )`.execute(db)
  await sql`CREATE UNIQUE INDEX listing_takedowns_in_force ON listing_takedowns (listing_id) WHERE status <> 'restored'`.execute(db)

  await sql`CREATE FUNCTION listings_takedown_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.visible AND EXISTS (SELECT 1 FROM listing_takedowns WHERE listing_id = NEW.id AND status <> 'restored') THEN
        NEW.visible := false;
      END IF;
      RETURN NEW;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER listings_takedown_guard BEFORE UPDATE OF visible ON listings
    FOR EACH ROW WHEN (NEW.visible AND NOT OLD.visible) EXECUTE FUNCTION listings_takedown_guard()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER listings_takedown_guard ON listings`.execute(db)
  await sql`DROP FUNCTION listings_takedown_guard()`.execute(db)
  await sql`DROP TABLE listing_takedowns`.execute(db)
  await sql`DROP TABLE reports`.execute(db)
}
