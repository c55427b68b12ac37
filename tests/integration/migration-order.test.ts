import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely'
import pg from 'pg'
import { afterAll, expect, inject, it } from 'vitest'
import { migrateToLatest } from '../../db/migrate.ts'
import { migrations } from '../../migrations/index.ts'

// Changes are built side by side, so a database can have applied a later
// number before an earlier one reaches it (0012 before 0009): the next start
// must apply the missing one, not refuse to start.
const name = `forkmarket_order_${process.env.VITEST_POOL_ID ?? '0'}`
const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') })
await admin.connect()
await admin.query(`DROP DATABASE IF EXISTS ${name}`)
await admin.query(`CREATE DATABASE ${name}`)
const url = new URL(inject('adminDatabaseUrl'))
url.pathname = `/${name}`
const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) })

// FORCE: a connection the pool has not closed yet must not keep the database (seen once under load).
afterAll(async () => {
  await db.destroy()
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.end()
}, 120_000)

it('applies a migration numbered before ones the database already has', async () => {
  const names = Object.keys(migrations)
  const skipped = names[names.length - 3]!
  const without: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([key]) => key !== skipped)),
  }
  const first = await new Migrator({ db, provider: without }).migrateToLatest()
  expect(first.error).toBeUndefined()
  expect(await migrateToLatest(db)).toEqual([skipped])
  expect(await migrateToLatest(db)).toEqual([])
})
