import { sql, type Kysely } from 'kysely'

// Issue 19: the double-entry ledger and the reconciliation runs
// (docs/decisions/020-ledger-and-reconciliation.md).
//
// - ledger_entries: one per money event, its `event_key` unique ("charge:<sale>",
//   "release:<sale>", "refund:<sale>", "payout:<batch>:<seller>"), so a replayed webhook or a
//   retried step posts nothing twice.
// - ledger_lines: integer cents, each line a debit or a credit on one account (per sale and/or
//   per seller where the account is kept that way). A deferred constraint trigger refuses, at
//   commit, an entry whose debits and credits differ or that has fewer than two lines.
// - Both are append-only: a trigger refuses UPDATE and DELETE (a correction is a new entry).
// - reconciliation_runs: each run's totals and exception list, as shown on /admin and in the CSV.
//
// No foreign key to payout_batches: this migration may run before 0012 on a fresh database.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE ledger_entries (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_key text NOT NULL UNIQUE CHECK (length(event_key) BETWEEN 1 AND 200),
    kind text NOT NULL CHECK (kind IN ('charge','release','refund','payout','correction')),
    transaction_id uuid REFERENCES transactions (id),
    seller_id uuid REFERENCES users (id),
    payout_batch_id uuid,
    description text NOT NULL,
    posted_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db)
  await sql`CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id)`.execute(db)

  await sql`CREATE TABLE ledger_lines (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id uuid NOT NULL REFERENCES ledger_entries (id),
    account text NOT NULL CHECK (account IN ('provider_cash','buyer_funds','seller_payable','platform_fee','payouts_bank')),
    transaction_id uuid REFERENCES transactions (id),
    seller_id uuid REFERENCES users (id),
    debit_cents integer NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
    credit_cents integer NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
    CONSTRAINT ledger_lines_one_side CHECK ((debit_cents > 0) <> (credit_cents > 0)),
    CONSTRAINT ledger_lines_buyer_funds_per_sale CHECK (account <> 'buyer_funds' OR transaction_id IS NOT NULL),
    CONSTRAINT ledger_lines_seller_payable_per_seller CHECK (account <> 'seller_payable' OR seller_id IS NOT NULL)
  )`.execute(db)
  await sql`CREATE INDEX ledger_lines_entry_idx ON ledger_lines (entry_id)`.execute(db)
  await sql`CREATE INDEX ledger_lines_transaction_idx ON ledger_lines (transaction_id)`.execute(db)
  await sql`CREATE INDEX ledger_lines_seller_idx ON ledger_lines (seller_id, account)`.execute(db)

  // Balanced at commit: checked once per inserted entry and line, after every line is in.
  await sql`CREATE FUNCTION ledger_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      -- The entry's id for an entry, its entry_id for a line (one function for both triggers).
      entry uuid := coalesce(to_jsonb(NEW) ->> 'entry_id', to_jsonb(NEW) ->> 'id')::uuid;
      debits bigint;
      credits bigint;
      lines integer;
    BEGIN
      SELECT coalesce(sum(debit_cents), 0), coalesce(sum(credit_cents), 0), count(*)
        INTO debits, credits, lines FROM ledger_lines WHERE entry_id = entry;
      IF lines < 2 OR debits <> credits THEN
        RAISE EXCEPTION 'Ledger entry % is not balanced: % lines, debits % <> credits %', entry, lines, debits, credits
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entry_balanced';
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced()`.execute(db)
  await sql`CREATE CONSTRAINT TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced()`.execute(db)

  await sql`CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'The ledger is append-only: % on % is refused (post a correcting entry)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_append_only';
    END $$`.execute(db)
  await sql`CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`.execute(db)
  await sql`CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`.execute(db)

  await sql`CREATE TABLE reconciliation_runs (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    trigger text NOT NULL CHECK (trigger IN ('schedule','admin')),
    requested_by uuid REFERENCES users (id),
    started_at timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    exception_count integer NOT NULL CHECK (exception_count >= 0),
    totals jsonb NOT NULL,
    exceptions jsonb NOT NULL,
    CONSTRAINT reconciliation_runs_admin_named CHECK (trigger <> 'admin' OR requested_by IS NOT NULL)
  )`.execute(db)
  await sql`CREATE INDEX reconciliation_runs_started_idx ON reconciliation_runs (started_at DESC)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE reconciliation_runs`.execute(db)
  await sql`DROP TABLE ledger_lines`.execute(db)
  await sql`DROP TABLE ledger_entries`.execute(db)
  await sql`DROP FUNCTION ledger_append_only()`.execute(db)
  await sql`DROP FUNCTION ledger_entry_balanced()`.execute(db)
}
