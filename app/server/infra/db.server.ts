import { createPool, kyselyOn } from '../../../db/connection.ts'
import { config } from './env.server.ts'

// One pool per process; created on first import, after the launcher (or the
// test setup) has loaded the configuration. The rate limiter's Postgres store
// queries the same pool (http/rate-limit.server.ts).
export const pool = createPool(config().DATABASE_URL, { max: config().DB_POOL_MAX })
export const db = kyselyOn(pool)

/** PostgreSQL refused a row for a unique constraint (23505): any, or the one named. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint)
}
