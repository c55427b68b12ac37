import { sql, type Kysely } from 'kysely'

// Issue 29: personal API keys. Only the SHA-256 of a key is stored (hex); `prefix` is the key's first
// characters, shown in the list so a user can tell keys apart. A revoked key keeps its row (the audit
// log names it). The audit log gains the actor role 'user': any signed-in user creates and revokes keys.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
      prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      scopes text[] NOT NULL
        CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['listings:read', 'listings:write', 'sales:read', 'payouts:read']),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at)`.execute(db)
  await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_role_check`.execute(db)
  await sql`
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_role_check
      CHECK (actor_role IN ('buyer', 'seller', 'admin', 'system', 'provider', 'user'))`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE api_keys`.execute(db)
  await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_role_check`.execute(db)
  await sql`
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_role_check
      CHECK (actor_role IN ('buyer', 'seller', 'admin', 'system', 'provider'))`.execute(db)
}
