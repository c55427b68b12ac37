import { sql, type Kysely } from 'kysely'

// Issue 14.3: a signed-out session is refused by every endpoint and every
// instance until its access tokens expire. Rows are keyed by the identity
// provider's `session_id` claim and may be deleted once `expires_at` passed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE revoked_sessions (
      session_id uuid PRIMARY KEY,
      user_id uuid,
      reason text NOT NULL CHECK (reason IN ('logout', 'provider')),
      revoked_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX revoked_sessions_expires_idx ON revoked_sessions (expires_at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE revoked_sessions`.execute(db)
}
