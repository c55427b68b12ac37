import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { DB } from './schema.ts'

// COUNT(*) and SUM() of integer cents come back as int8; they stay far below
// 2^53, so numbers are safe and simpler than strings everywhere.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10))

export interface PoolOptions {
  max?: number
  /** Fail fast when the database is unreachable instead of queueing requests. */
  connectionTimeoutMillis?: number
  statementTimeoutMillis?: number
  applicationName?: string
}

export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 3_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMillis ?? 10_000,
    application_name: options.applicationName ?? 'forkmarket',
  })
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool drops it and the next query opens a fresh connection.
  const logError = (error: Error) =>
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'db_connection_error', message: error.message }))
  pool.on('error', logError)
  // A checked-out client (e.g. inside a transaction, between two queries) that
  // loses its connection emits 'error' with no listener attached by the pool,
  // which would crash the process. The query in flight fails on its own; the
  // broken client is not reused (pg-pool drops clients that are no longer queryable).
  pool.on('connect', (client) => client.on('error', logError))
  return pool
}

export function createDb(connectionString: string, options: PoolOptions = {}): Kysely<DB> {
  return kyselyOn(createPool(connectionString, options))
}

/** Kysely over an existing pool (the app shares its pool with the rate limiter's store). */
export function kyselyOn(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] })
}
