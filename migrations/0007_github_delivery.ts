import { sql, type Kysely } from 'kysely'

// Issue 16: delivery through GitHub (docs/decisions/, "GitHub delivery").
//
// - users: the buyer's GitHub account (numeric id; the login is only a cache —
//   logins change — refreshed whenever we see it).
// - github_installations: the Forkmarket GitHub App installed on a seller's
//   organization (install callback; `installation` webhooks mark it removed).
// - listings: the connected source repository (by id; the name is for display
//   to the seller and buyers only), the default branch's head SHA when the
//   listing was saved, and the "Reconnect GitHub" alert when access was lost.
// - github_deliveries: one row per sale (so at most one invitation per sale):
//   the invitation, its acceptance, the proof, the fork, the revocation.
// - transactions: the `delivering` state (invitation sent, not yet accepted).
//   A sale may be disputed (and then released) without ever being delivered:
//   the admin's queue for invitations never accepted or repositories lost.
//
// GitHub ids are bigint columns; pg's int8 parser (db/connection.ts) gives
// numbers, exact below 2^53 (GitHub's ids are far below).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users
    ADD COLUMN github_user_id bigint CHECK (github_user_id > 0),
    ADD COLUMN github_login text CHECK (github_login ~ '^[A-Za-z0-9_.-]{1,100}$'),
    ADD COLUMN github_connected_at timestamptz,
    ADD CONSTRAINT users_github_together CHECK ((github_user_id IS NULL) = (github_login IS NULL) AND (github_user_id IS NULL) = (github_connected_at IS NULL))`.execute(
    db,
  )
  await sql`CREATE UNIQUE INDEX users_github_user_id_key ON users (github_user_id)`.execute(db)

  await db.schema
    .createTable('github_installations')
    // GitHub's installation id.
    .addColumn('id', 'bigint', (c) => c.primaryKey().check(sql`id > 0`))
    // The seller who connected it (the install callback verified they can see it).
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('account_login', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull().check(sql`account_type IN ('Organization','User')`))
    .addColumn('suspended_at', 'timestamptz')
    // Uninstalled (the `installation` webhook, or a 404 from GitHub).
    .addColumn('removed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX github_installations_user_idx ON github_installations (user_id)`.execute(db)

  await sql`ALTER TABLE listings
    ADD COLUMN github_installation_id bigint REFERENCES github_installations (id),
    ADD COLUMN github_repo_id bigint,
    ADD COLUMN github_repo_full_name text,
    ADD COLUMN github_default_branch text,
    ADD COLUMN github_listed_sha text CHECK (github_listed_sha ~ '^[0-9a-f]{40}$'),
    ADD COLUMN github_listed_at timestamptz,
    ADD COLUMN github_access_lost_at timestamptz,
    ADD COLUMN github_access_lost_reason text,
    ADD CONSTRAINT listings_github_repo_together CHECK (
      (github_repo_id IS NULL) = (github_installation_id IS NULL)
      AND (github_repo_id IS NULL) = (github_repo_full_name IS NULL)
      AND (github_repo_id IS NULL) = (github_default_branch IS NULL)
      AND (github_repo_id IS NULL) = (github_listed_sha IS NULL)
      AND (github_repo_id IS NULL) = (github_listed_at IS NULL))`.execute(db)
  await sql`CREATE INDEX listings_github_repo_idx ON listings (github_repo_id) WHERE github_repo_id IS NOT NULL`.execute(db)
  await sql`CREATE INDEX listings_github_installation_idx ON listings (github_installation_id) WHERE github_installation_id IS NOT NULL`.execute(
    db,
  )

  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_status_check`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
    CHECK (status IN ('pending_payment','paid','delivering','delivered','completed','disputed','refunded','failed','held'))`.execute(db)
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_delivered_has_proof`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_delivered_has_proof CHECK (
    (status <> 'delivered' OR delivered_at IS NOT NULL)
    AND (status NOT IN ('completed','disputed') OR delivered_at IS NOT NULL OR disputed_at IS NOT NULL))`.execute(db)
  await sql`DROP INDEX transactions_one_owned_copy`.execute(db)
  await sql`CREATE UNIQUE INDEX transactions_one_owned_copy ON transactions (buyer_id, listing_id) WHERE status IN ('paid','delivering','delivered','completed','disputed')`.execute(
    db,
  )

  await db.schema
    .createTable('github_deliveries')
    .addColumn('transaction_id', 'uuid', (c) => c.primaryKey().references('transactions.id').onDelete('cascade'))
    .addColumn('installation_id', 'bigint', (c) => c.notNull())
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('repo_full_name', 'text', (c) => c.notNull())
    // The buyer's account when the delivery started (the invitation goes to this id's current login).
    .addColumn('buyer_github_id', 'bigint')
    .addColumn('buyer_login', 'text')
    // queued: the invitation is not sent yet (or is waiting to be retried); invited; accepted;
    // revoked (refund); failed (GitHub refused for good: the sale went to the admin queue).
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`state IN ('queued','invited','accepted','revoked','failed')`),
    )
    // Why a queued invitation waits, and until when (shown to the seller and the buyer).
    .addColumn('waiting_on', 'text', (c) => c.check(sql`waiting_on IN ('github_error','rate_limit','invitation_limit','buyer_github')`))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`attempts >= 0`),
    )
    .addColumn('last_error', 'text')
    .addColumn('invitation_id', 'bigint')
    .addColumn('invitation_url', 'text')
    .addColumn('invited_at', 'timestamptz')
    // GitHub expires an invitation after 7 days: it is sent again once.
    .addColumn('resend_count', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`resend_count BETWEEN 0 AND 1`),
    )
    .addColumn('resent_at', 'timestamptz')
    .addColumn('accepted_at', 'timestamptz')
    // Evidence: the head of the default branch when the buyer paid (as listed) and when access was confirmed.
    .addColumn('listed_sha', 'text')
    .addColumn('listed_at', 'timestamptz')
    .addColumn('delivered_sha', 'text')
    .addColumn('delivered_sha_date', 'timestamptz')
    .addColumn('fork_url', 'text')
    .addColumn('forked_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revocation', 'text', (c) => c.check(sql`revocation IN ('invitation_canceled','collaborator_removed','nothing_to_revoke')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'github_deliveries_accepted_has_proof',
      sql`state <> 'accepted' OR (accepted_at IS NOT NULL AND delivered_sha IS NOT NULL)`,
    )
    .addCheckConstraint('github_deliveries_invited_has_invitation', sql`state <> 'invited' OR invited_at IS NOT NULL`)
    .addCheckConstraint(
      'github_deliveries_revoked_has_time',
      sql`state <> 'revoked' OR (revoked_at IS NOT NULL AND revocation IS NOT NULL)`,
    )
    .execute()
  await sql`CREATE INDEX github_deliveries_open_idx ON github_deliveries (state, next_attempt_at) WHERE state IN ('queued','invited')`.execute(
    db,
  )
  await sql`CREATE INDEX github_deliveries_repo_idx ON github_deliveries (repo_id)`.execute(db)
  await sql`CREATE INDEX github_deliveries_buyer_idx ON github_deliveries (buyer_github_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('github_deliveries').ifExists().execute()
  await sql`UPDATE transactions SET status = 'paid' WHERE status = 'delivering'`.execute(db)
  await sql`UPDATE transactions SET status = 'paid' WHERE status = 'disputed' AND delivered_at IS NULL`.execute(db)
  await sql`UPDATE transactions SET status = 'paid' WHERE status = 'completed' AND delivered_at IS NULL AND paid_at IS NULL`.execute(db)
  await sql`DROP INDEX transactions_one_owned_copy`.execute(db)
  await sql`CREATE UNIQUE INDEX transactions_one_owned_copy ON transactions (buyer_id, listing_id) WHERE status IN ('paid','delivered','completed','disputed')`.execute(
    db,
  )
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_delivered_has_proof`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_delivered_has_proof
    CHECK (status NOT IN ('delivered','completed','disputed') OR delivered_at IS NOT NULL)`.execute(db)
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_status_check`.execute(db)
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
    CHECK (status IN ('pending_payment','paid','delivered','completed','disputed','refunded','failed','held'))`.execute(db)
  await sql`ALTER TABLE listings
    DROP CONSTRAINT listings_github_repo_together,
    DROP COLUMN github_installation_id,
    DROP COLUMN github_repo_id,
    DROP COLUMN github_repo_full_name,
    DROP COLUMN github_default_branch,
    DROP COLUMN github_listed_sha,
    DROP COLUMN github_listed_at,
    DROP COLUMN github_access_lost_at,
    DROP COLUMN github_access_lost_reason`.execute(db)
  await db.schema.dropTable('github_installations').ifExists().execute()
  await sql`ALTER TABLE users
    DROP CONSTRAINT users_github_together,
    DROP COLUMN github_user_id,
    DROP COLUMN github_login,
    DROP COLUMN github_connected_at`.execute(db)
}
