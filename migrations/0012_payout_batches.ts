import { sql, type Kysely } from 'kysely'

// Issue 19: payout batches with four-eyes approval, and four eyes on changed bank details
// (docs/decisions/021-payout-batches.md).
//
// - payout_batches: draft → approved → exported → sent → reconciled, or cancelled before
//   export; a one-line 'single' batch (the Mark as Paid dialog) goes draft → sent when a
//   second admin approves it. The database refuses an approver who prepared the batch (CHECK),
//   an approver who is not an admin, any other transition, and any change of what was
//   approved (trigger).
// - payout_batch_payees: one row per seller: the amount and a snapshot of the seller's
//   approved bank details (numbers still encrypted), so re-exporting gives the same bytes.
// - payout_batch_lines: the sales; a sale is in at most one batch that is not cancelled
//   (partial unique index). Payees and lines change only while the batch is a draft.
// - bank_details: a change of details that were approved once needs two different admins
//   (first approval, then the approval); nobody approves their own details.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE payout_batches (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind text NOT NULL DEFAULT 'batch' CHECK (kind IN ('batch','single')),
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','approved','exported','sent','reconciled','cancelled')),
    currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
    total_cents integer NOT NULL CHECK (total_cents >= 1),
    prepared_by uuid NOT NULL REFERENCES users (id),
    prepared_at timestamptz NOT NULL,
    approved_by uuid REFERENCES users (id),
    approved_at timestamptz,
    debtor_name text,
    debtor_iban text,
    debtor_bic text,
    xml_sha256 text CHECK (xml_sha256 ~ '^[0-9a-f]{64}$'),
    csv_sha256 text CHECK (csv_sha256 ~ '^[0-9a-f]{64}$'),
    exported_by uuid REFERENCES users (id),
    exported_at timestamptz,
    bank_reference text CHECK (length(trim(bank_reference)) BETWEEN 1 AND 140),
    sent_by uuid REFERENCES users (id),
    sent_at timestamptz,
    reconciled_by uuid REFERENCES users (id),
    reconciled_at timestamptz,
    cancelled_by uuid REFERENCES users (id),
    cancelled_at timestamptz,
    cancel_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payout_batches_four_eyes CHECK (approved_by IS NULL OR approved_by <> prepared_by),
    CONSTRAINT payout_batches_single_has_reference CHECK (kind <> 'single' OR bank_reference IS NOT NULL),
    CONSTRAINT payout_batches_status_fields CHECK (
      (status IN ('draft','cancelled') OR (approved_by IS NOT NULL AND approved_at IS NOT NULL))
      AND (status NOT IN ('exported','sent','reconciled') OR kind = 'single' OR (exported_at IS NOT NULL AND (xml_sha256 IS NOT NULL OR csv_sha256 IS NOT NULL)))
      AND (status NOT IN ('sent','reconciled') OR (bank_reference IS NOT NULL AND sent_at IS NOT NULL))
      AND (status <> 'reconciled' OR reconciled_at IS NOT NULL)
      AND (status <> 'cancelled' OR cancelled_at IS NOT NULL)
    )
  )`.execute(db)
  await sql`CREATE INDEX payout_batches_created_idx ON payout_batches (created_at DESC)`.execute(db)

  await sql`CREATE TABLE payout_batch_payees (
    batch_id uuid NOT NULL REFERENCES payout_batches (id) ON DELETE CASCADE,
    seller_id uuid NOT NULL REFERENCES users (id),
    position integer NOT NULL CHECK (position >= 1),
    amount_cents integer NOT NULL CHECK (amount_cents >= 1),
    bank_details_version integer NOT NULL,
    country text NOT NULL,
    account_holder text NOT NULL,
    bank_name text NOT NULL,
    sort_code text,
    routing_number text,
    swift text,
    account_number_encrypted text,
    iban_encrypted text,
    PRIMARY KEY (batch_id, seller_id),
    UNIQUE (batch_id, position)
  )`.execute(db)

  await sql`CREATE TABLE payout_batch_lines (
    batch_id uuid NOT NULL,
    transaction_id uuid NOT NULL REFERENCES transactions (id),
    seller_id uuid NOT NULL,
    amount_cents integer NOT NULL,
    application_fee_cents integer NOT NULL,
    seller_share_cents integer NOT NULL CHECK (seller_share_cents >= 1),
    cancelled boolean NOT NULL DEFAULT false,
    PRIMARY KEY (batch_id, transaction_id),
    FOREIGN KEY (batch_id, seller_id) REFERENCES payout_batch_payees (batch_id, seller_id) ON DELETE CASCADE
  )`.execute(db)
  // A sale is in at most one batch that is not cancelled.
  await sql`CREATE UNIQUE INDEX payout_batch_lines_one_live ON payout_batch_lines (transaction_id) WHERE NOT cancelled`.execute(db)
  await sql`CREATE INDEX payout_batch_lines_seller_idx ON payout_batch_lines (seller_id)`.execute(db)

  // The state machine and the freeze, in the database: whatever writes the row.
  await sql`CREATE FUNCTION payout_batches_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NEW.status <> 'draft' THEN RAISE EXCEPTION 'A payout batch starts as a draft' USING ERRCODE = 'check_violation'; END IF;
        RETURN NEW;
      END IF;
      IF NEW.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by
         AND NOT EXISTS (SELECT 1 FROM users WHERE id = NEW.approved_by AND is_admin) THEN
        RAISE EXCEPTION 'Only an admin can approve a payout batch' USING ERRCODE = 'check_violation';
      END IF;
      IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
           (OLD.status = 'draft' AND NEW.status IN ('approved','cancelled'))
        OR (OLD.status = 'draft' AND NEW.status = 'sent' AND OLD.kind = 'single')
        OR (OLD.status = 'approved' AND NEW.status IN ('exported','cancelled'))
        OR (OLD.status = 'exported' AND NEW.status = 'sent')
        OR (OLD.status = 'sent' AND NEW.status = 'reconciled')
      ) THEN
        RAISE EXCEPTION 'A payout batch cannot go from % to %', OLD.status, NEW.status USING ERRCODE = 'check_violation';
      END IF;
      IF OLD.status <> 'draft' AND (
           NEW.kind IS DISTINCT FROM OLD.kind OR NEW.total_cents IS DISTINCT FROM OLD.total_cents
        OR NEW.prepared_by IS DISTINCT FROM OLD.prepared_by OR NEW.prepared_at IS DISTINCT FROM OLD.prepared_at
        OR NEW.approved_by IS DISTINCT FROM OLD.approved_by OR NEW.approved_at IS DISTINCT FROM OLD.approved_at
        OR NEW.debtor_name IS DISTINCT FROM OLD.debtor_name OR NEW.debtor_iban IS DISTINCT FROM OLD.debtor_iban
        OR NEW.debtor_bic IS DISTINCT FROM OLD.debtor_bic
        OR NEW.xml_sha256 IS DISTINCT FROM OLD.xml_sha256 OR NEW.csv_sha256 IS DISTINCT FROM OLD.csv_sha256
      ) THEN
        RAISE EXCEPTION 'An approved payout batch is frozen' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`.execute(db)
  await sql`CREATE TRIGGER payout_batches_guard BEFORE INSERT OR UPDATE ON payout_batches FOR EACH ROW EXECUTE FUNCTION payout_batches_guard()`.execute(
    db,
  )

  // Payees and lines change only while their batch is a draft; a cancelled batch lets its
  // lines go (cancelled = true) so the sales can enter another batch.
  await sql`CREATE FUNCTION payout_batch_parts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      batch_status text;
    BEGIN
      SELECT status INTO batch_status FROM payout_batches WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.batch_id ELSE NEW.batch_id END);
      IF batch_status IS NULL OR batch_status = 'draft' THEN
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      IF TG_TABLE_NAME = 'payout_batch_lines' AND TG_OP = 'UPDATE' AND batch_status = 'cancelled'
         AND NEW.cancelled AND NOT OLD.cancelled
         AND (to_jsonb(NEW) - 'cancelled') = (to_jsonb(OLD) - 'cancelled') THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'The lines of a % payout batch are frozen', batch_status USING ERRCODE = 'check_violation';
    END $$`.execute(db)
  await sql`CREATE TRIGGER payout_batch_payees_guard BEFORE INSERT OR UPDATE OR DELETE ON payout_batch_payees FOR EACH ROW EXECUTE FUNCTION payout_batch_parts_guard()`.execute(
    db,
  )
  await sql`CREATE TRIGGER payout_batch_lines_guard BEFORE INSERT OR UPDATE OR DELETE ON payout_batch_lines FOR EACH ROW EXECUTE FUNCTION payout_batch_parts_guard()`.execute(
    db,
  )

  await sql`ALTER TABLE bank_details
    ADD COLUMN requires_second_approval boolean NOT NULL DEFAULT false,
    ADD COLUMN first_approved_by uuid REFERENCES users (id),
    ADD COLUMN first_approved_at timestamptz,
    ADD CONSTRAINT bank_details_not_own_approval CHECK (approved_by IS DISTINCT FROM user_id AND first_approved_by IS DISTINCT FROM user_id),
    ADD CONSTRAINT bank_details_four_eyes CHECK (
      status <> 'approved' OR NOT requires_second_approval
      OR (first_approved_by IS NOT NULL AND approved_by IS NOT NULL AND first_approved_by <> approved_by)
    )`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bank_details
    DROP CONSTRAINT bank_details_four_eyes,
    DROP CONSTRAINT bank_details_not_own_approval,
    DROP COLUMN first_approved_at,
    DROP COLUMN first_approved_by,
    DROP COLUMN requires_second_approval`.execute(db)
  await sql`DROP TABLE payout_batch_lines`.execute(db)
  await sql`DROP TABLE payout_batch_payees`.execute(db)
  await sql`DROP TABLE payout_batches`.execute(db)
  await sql`DROP FUNCTION payout_batch_parts_guard()`.execute(db)
  await sql`DROP FUNCTION payout_batches_guard()`.execute(db)
}
