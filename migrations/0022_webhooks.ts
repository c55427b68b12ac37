import { sql, type Kysely } from 'kysely'

// Issue 29: outgoing webhooks (Standard Webhooks 1.0, decision 033).
// - webhook_endpoints: a seller's receiver. Its signing secret must be usable to sign, so it is kept
//   encrypted like bank account numbers (AES-256-GCM, secret-box.server.ts), never hashed; during a
//   rotation's overlap the previous secret signs too, until previous_secret_expires_at.
//   failing_since is the first failure after the last success: failing for days disables the endpoint.
// - webhook_deliveries: the outbox, one row per event and endpoint, written in the transaction of the
//   change that caused it. webhook_id is the Standard Webhooks message id, the same on every attempt.
//   sending_since is a sender's claim (decision 028: no transaction is open while we call out).
// - webhook_attempts: the delivery log (what was sent, the status, a capped excerpt of the answer).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      url text NOT NULL CHECK (char_length(url) BETWEEN 8 AND 2000),
      description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
      events text[] NOT NULL CHECK (cardinality(events) > 0 AND events <@ ARRAY[
        'sale.paid', 'sale.delivered', 'sale.completed', 'sale.disputed', 'sale.refunded', 'review.created', 'payout.sent']),
      secret_sealed text NOT NULL,
      previous_secret_sealed text,
      previous_secret_expires_at timestamptz,
      failing_since timestamptz,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))
    )`.execute(db)
  await sql`CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at)`.execute(db)
  await sql`
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      webhook_id text NOT NULL UNIQUE,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      sending_since timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC)`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db)
  await sql`
    CREATE TABLE webhook_attempts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempted_at timestamptz NOT NULL,
      url text NOT NULL,
      webhook_timestamp bigint NOT NULL,
      status integer,
      error text,
      response_excerpt text CHECK (char_length(response_excerpt) <= 2000),
      duration_ms integer NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhook_attempts`.execute(db)
  await sql`DROP TABLE webhook_deliveries`.execute(db)
  await sql`DROP TABLE webhook_endpoints`.execute(db)
}
