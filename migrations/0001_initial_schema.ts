import { sql, type Kysely } from 'kysely'

// The whole data model of the product spec (section 3) and the escrow state
// machine of design.md §5. Rules that protect money and identity are enforced
// here as constraints, so no code path can bypass them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
  await sql`CREATE EXTENSION IF NOT EXISTS pgcrypto`.execute(db)

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull().check(sql`username ~ '^[a-z0-9][a-z0-9_-]{1,38}$'`))
    .addColumn('display_name', 'text', (c) => c.notNull().check(sql`length(display_name) <= 100`))
    .addColumn('email', 'text', (c) => c.notNull().check(sql`position('@' in email) > 1`))
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('avatar_url', 'text')
    .addColumn('bio', 'text', (c) => c.check(sql`length(bio) <= 1000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE UNIQUE INDEX users_username_key ON users (username)`.execute(db)
  await sql`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`.execute(db)

  // Bank details live beside the user (one row per user) so the encrypted
  // account numbers never travel with ordinary user reads.
  await db.schema
    .createTable('bank_details')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('country', 'text', (c) => c.notNull().check(sql`country IN ('GB','US','FR','DE','ES','IT','NL','BE','OTHER')`))
    .addColumn('account_holder', 'text', (c) => c.notNull().check(sql`length(trim(account_holder)) > 0`))
    .addColumn('bank_name', 'text', (c) => c.notNull().check(sql`length(trim(bank_name)) > 0`))
    .addColumn('sort_code', 'text')
    .addColumn('routing_number', 'text')
    .addColumn('swift', 'text')
    // AES-256-GCM ciphertexts (base64 iv.tag.data) and the last four characters for display.
    .addColumn('account_number_encrypted', 'text')
    .addColumn('account_number_last4', 'text')
    .addColumn('iban_encrypted', 'text')
    .addColumn('iban_last4', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending','approved','rejected')`),
    )
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('approved_at', 'timestamptz')
    .addColumn('approved_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('rejected_at', 'timestamptz')
    .addColumn('rejection_reason', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'bank_details_status_fields',
      sql`(status <> 'approved' OR approved_at IS NOT NULL) AND (status <> 'rejected' OR (rejected_at IS NOT NULL AND length(trim(rejection_reason)) > 0))`,
    )
    .execute()
  await sql`CREATE INDEX bank_details_pending_idx ON bank_details (requested_at) WHERE status = 'pending'`.execute(db)

  // The search vector must be computed by an IMMUTABLE function to be usable
  // in a generated column (array_to_string is only STABLE).
  await sql`
    CREATE FUNCTION listing_search_vector(title text, short_description text, tags text[], long_description text)
    RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
          || setweight(to_tsvector('english'::regconfig, coalesce(short_description, '')), 'B')
          || setweight(to_tsvector('english'::regconfig, coalesce(array_to_string(tags, ' '), '')), 'C')
          || setweight(to_tsvector('english'::regconfig, coalesce(long_description, '')), 'D')
    $$`.execute(db)

  await db.schema
    .createTable('listings')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(trim(title)) BETWEEN 1 AND 120`))
    .addColumn('slug', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    )
    .addColumn('short_description', 'text', (c) => c.notNull().check(sql`length(trim(short_description)) BETWEEN 1 AND 300`))
    .addColumn('long_description', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`length(long_description) <= 20000`),
    )
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('template','full_site')`))
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 1`))
    .addColumn('currency', 'text', (c) =>
      c
        .notNull()
        .defaultTo('USD')
        .check(sql`currency = 'USD'`),
    )
    .addColumn('licence', 'text', (c) => c.notNull().check(sql`licence IN ('personal','commercial','unlimited')`))
    .addColumn('languages', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('frameworks', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('dependencies', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('setup_call_available', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('setup_call_details', 'text')
    .addColumn('email_support_available', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email_support_duration', 'text', (c) =>
      c.check(sql`email_support_duration IN ('7-days','30-days','90-days','6-months','1-year','lifetime')`),
    )
    .addColumn('delivery_timeframe', 'text', (c) =>
      c.check(sql`delivery_timeframe IN ('instant','1-hour','24-hours','1-3-days','3-5-days')`),
    )
    // Private link released to the buyer when payment succeeds (instant delivery); never public.
    .addColumn('delivery_url', 'text')
    .addColumn('bespoke_development_available', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('bespoke_development_rate_cents', 'integer', (c) => c.check(sql`bespoke_development_rate_cents >= 0`))
    .addColumn('additional_notes', 'text')
    .addColumn('demo_url', 'text')
    .addColumn('thumbnail_url', 'text')
    .addColumn('screenshots', sql`text[]`, (c) =>
      c
        .notNull()
        .defaultTo(sql`'{}'`)
        .check(sql`cardinality(screenshots) <= 10`),
    )
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    // Set instead of deleting when the listing has sales (buyers keep their purchases).
    .addColumn('archived_at', 'timestamptz')
    .addColumn('search_vector', sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`listing_search_vector(title, short_description, tags, long_description)`).stored(),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('listings_instant_delivery_url', sql`delivery_url IS NULL OR delivery_url ~ '^https://'`)
    .execute()

  await sql`CREATE INDEX listings_seller_idx ON listings (seller_id, created_at DESC)`.execute(db)
  await sql`CREATE INDEX listings_search_idx ON listings USING gin (search_vector) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_title_trgm_idx ON listings USING gin (title gin_trgm_ops) WHERE visible AND archived_at IS NULL`.execute(
    db,
  )
  await sql`CREATE INDEX listings_languages_idx ON listings USING gin (languages) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_frameworks_idx ON listings USING gin (frameworks) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_dependencies_idx ON listings USING gin (dependencies) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_newest_idx ON listings (created_at DESC, id DESC) WHERE visible AND archived_at IS NULL`.execute(db)
  await sql`CREATE INDEX listings_price_idx ON listings (price_cents, id) WHERE visible AND archived_at IS NULL`.execute(db)

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('listing_id', 'uuid', (c) => c.notNull().references('listings.id'))
    .addColumn('buyer_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('stripe_payment_intent_id', 'text', (c) => c.unique())
    // Which checkout attempt of this buyer for this listing (part of the idempotency key).
    .addColumn('attempt', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`attempt >= 1`),
    )
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 1`))
    .addColumn('application_fee_cents', 'integer', (c) => c.notNull().check(sql`application_fee_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending_payment')
        .check(sql`status IN ('pending_payment','paid','delivered','completed','disputed','refunded','failed')`),
    )
    .addColumn('delivery_proof', 'jsonb')
    .addColumn('failure_reason', 'text')
    .addColumn('paid_at_provider', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('disputed_at', 'timestamptz')
    .addColumn('dispute_reason', 'text')
    .addColumn('refund_requested_at', 'timestamptz')
    .addColumn('stripe_refund_id', 'text')
    .addColumn('refunded_at', 'timestamptz')
    // Payout to the seller, recorded by an admin (bank transfer reference).
    .addColumn('payment_reference', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('transactions_fee_le_amount', sql`application_fee_cents <= amount_cents`)
    .addCheckConstraint('transactions_not_self_purchase', sql`buyer_id <> seller_id`)
    .addCheckConstraint(
      'transactions_payout_only_completed',
      sql`paid_at IS NULL OR (status = 'completed' AND length(trim(payment_reference)) > 0)`,
    )
    .addCheckConstraint(
      'transactions_delivered_has_proof',
      sql`status NOT IN ('delivered','completed','disputed') OR delivered_at IS NOT NULL`,
    )
    .execute()
  await sql`CREATE INDEX transactions_buyer_idx ON transactions (buyer_id, created_at DESC)`.execute(db)
  await sql`CREATE INDEX transactions_seller_idx ON transactions (seller_id, created_at DESC)`.execute(db)
  await sql`CREATE INDEX transactions_listing_idx ON transactions (listing_id)`.execute(db)
  await sql`CREATE INDEX transactions_status_idx ON transactions (status, created_at DESC)`.execute(db)
  // At most one open checkout and at most one owned copy per buyer and listing.
  await sql`CREATE UNIQUE INDEX transactions_one_open_checkout ON transactions (buyer_id, listing_id) WHERE status = 'pending_payment'`.execute(
    db,
  )
  await sql`CREATE UNIQUE INDEX transactions_one_owned_copy ON transactions (buyer_id, listing_id) WHERE status IN ('paid','delivered','completed','disputed')`.execute(
    db,
  )

  await db.schema
    .createTable('processed_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_role', 'text', (c) => c.notNull().check(sql`actor_role IN ('buyer','seller','admin','system','provider')`))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text')
    .addColumn('reason', 'text')
    .addColumn('metadata', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, created_at)`.execute(db)
  await sql`CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC)`.execute(db)

  await db.schema
    .createTable('app_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['app_meta', 'audit_log', 'processed_events', 'transactions', 'listings', 'bank_details', 'users']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  await sql`DROP FUNCTION IF EXISTS listing_search_vector`.execute(db)
}
