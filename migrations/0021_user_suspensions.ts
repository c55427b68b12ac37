import { sql, type Kysely } from 'kysely'

/**
 * Issue 30: suspending a user, with four eyes (docs/decisions/030). One admin requests a suspension
 * with a reason, a different admin approves it (CHECK `approved_by <> requested_by`, as payout
 * batches do); it is then active until an admin lifts it. The states are the suspension machine's
 * (app/server/domain/suspension-transitions.server.ts): requested → active → lifted, or requested →
 * cancelled. At most one suspension of a user is open (requested or active).
 *
 * While one is active: the user cannot sign in (auth.server.ts), their listings are hidden — the
 * ones visible at approval are recorded in `hidden_listing_ids` and shown again when it is lifted,
 * and the takedown trigger of migration 0020 also keeps a suspended seller's listings hidden — and
 * their payouts are held (`sellerMayBePaidSql`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_suspensions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('requested', 'active', 'lifted', 'cancelled')),
      reason text NOT NULL CHECK (length(trim(reason)) BETWEEN 1 AND 1000),
      requested_by uuid NOT NULL REFERENCES users (id),
      requested_at timestamptz NOT NULL,
      approved_by uuid REFERENCES users (id),
      approved_at timestamptz,
      hidden_listing_ids uuid[] NOT NULL DEFAULT '{}',
      ended_by uuid REFERENCES users (id),
      ended_at timestamptz,
      end_reason text CHECK (length(trim(end_reason)) BETWEEN 1 AND 1000),
      CONSTRAINT user_suspensions_four_eyes CHECK (approved_by IS NULL OR approved_by <> requested_by),
      CONSTRAINT user_suspensions_not_self CHECK (user_id <> requested_by AND (approved_by IS NULL OR user_id <> approved_by)),
      CONSTRAINT user_suspensions_approved CHECK ((status IN ('active', 'lifted')) = (approved_by IS NOT NULL))
    )`.execute(db)
  await sql`CREATE UNIQUE INDEX user_suspensions_open ON user_suspensions (user_id) WHERE status IN ('requested', 'active')`.execute(db)

  // Like the takedown guard of 0020, its own trigger (so the two migrations apply in either order).
  await sql`CREATE FUNCTION listings_suspension_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.visible AND EXISTS (SELECT 1 FROM user_suspensions WHERE user_id = NEW.seller_id AND status = 'active') THEN
        NEW.visible := false;
      END IF;
      RETURN NEW;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER listings_suspension_guard BEFORE UPDATE OF visible ON listings
    FOR EACH ROW WHEN (NEW.visible AND NOT OLD.visible) EXECUTE FUNCTION listings_suspension_guard()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER listings_suspension_guard ON listings`.execute(db)
  await sql`DROP FUNCTION listings_suspension_guard()`.execute(db)
  await sql`DROP TABLE user_suspensions`.execute(db)
}
