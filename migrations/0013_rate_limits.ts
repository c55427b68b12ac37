import { sql, type Kysely } from 'kysely'

// Issue 20: the rate limits' counters, shared by every app instance
// (rate-limiter-flexible's RateLimiterPostgres, app/server/http/rate-limit.server.ts;
// docs/decisions/022). One row per (limit, client address): `key` is
// `<limit name>:<address>`, `points` the requests counted in the window,
// `expire` when the window ends (epoch milliseconds). The columns are the
// library's own table shape (it is told the table exists). UNLOGGED: counters
// are not worth a WAL write per request, and losing them in a crash only
// restarts the windows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`.execute(db)
  await sql`CREATE INDEX rate_limits_expire_idx ON rate_limits (expire)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limits`.execute(db)
}
