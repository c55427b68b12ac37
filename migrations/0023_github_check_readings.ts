import { sql, type Kysely } from 'kysely'

/**
 * Issue 30: the code host's checks as evidence (docs/decisions/034). A reading is what GitHub's Checks
 * and Statuses APIs said about one commit at one moment: the listed commit of a listing (when it was
 * connected, on a check webhook for it, later at each release), or the delivered commit of a sale (when
 * GitHub confirmed the buyer's access). `summary` is the one rule of app/lib/commit-checks.ts; `details`
 * holds each check run and status as read. Readings are only added, never changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE github_check_readings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      listing_id uuid REFERENCES listings (id) ON DELETE CASCADE,
      transaction_id uuid REFERENCES transactions (id) ON DELETE CASCADE,
      repo_full_name text NOT NULL,
      commit_sha text NOT NULL CHECK (commit_sha ~ '^[0-9a-f]{40}$'),
      source text NOT NULL CHECK (source IN ('listing', 'webhook', 'release', 'delivery')),
      read_at timestamptz NOT NULL,
      summary text NOT NULL CHECK (summary IN ('passed', 'failed', 'pending', 'none', 'unavailable')),
      passed integer NOT NULL DEFAULT 0 CHECK (passed >= 0),
      failed integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
      pending integer NOT NULL DEFAULT 0 CHECK (pending >= 0),
      details jsonb NOT NULL DEFAULT '[]',
      CONSTRAINT github_check_readings_subject CHECK ((listing_id IS NULL) <> (transaction_id IS NULL)),
      CONSTRAINT github_check_readings_source CHECK ((source = 'delivery') = (transaction_id IS NOT NULL))
    )`.execute(db)
  await sql`CREATE INDEX github_check_readings_listing ON github_check_readings (listing_id, read_at DESC) WHERE listing_id IS NOT NULL`.execute(
    db,
  )
  await sql`CREATE INDEX github_check_readings_sale ON github_check_readings (transaction_id, read_at DESC) WHERE transaction_id IS NOT NULL`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE github_check_readings`.execute(db)
}
