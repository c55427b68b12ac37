import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeEach, inject } from 'vitest'
import { loadConfig } from '../../app/server/infra/env.server.ts'

// Runs in every test file before it imports app code: give this worker its own
// database cloned from the migrated template, and make it the app's DATABASE_URL.
const workerId = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0'
const databaseName = `forkmarket_test_${workerId}`
const templateUrl = new URL(inject('templateDatabaseUrl'))
const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') })
await admin.connect()
const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])
if (!exists.rowCount) await admin.query(`CREATE DATABASE ${databaseName} TEMPLATE forkmarket_template`)
await admin.end()

templateUrl.pathname = `/${databaseName}`
process.env.DATABASE_URL = templateUrl.toString()
process.env.SESSION_SECRET ??= randomBytes(16).toString('hex')
process.env.BANK_DETAILS_KEY ??= randomBytes(16).toString('hex')
process.env.APP_URL ??= 'http://localhost:3000'
process.env.LOG_SILENT ??= 'true'
// Rate limits are relaxed in tests; tests/integration/rate-limit.test.ts tightens them itself.
process.env.RATE_LIMIT_MULTIPLIER ??= '1000'

// The integration project runs without isolation (vitest.config.ts): this worker's files share one
// import of the app, one after another. The variables above are the worker's (set by its first file;
// the app's modules read some once, as they do in production); what a file sets is put back after it,
// and each file gets emulators of its own (tests/support/services.ts).
const environmentBefore = { ...process.env }
// Imported now: the services reach the app's webhook routes, whose modules read DATABASE_URL.
const { startFileServices, stopFileServices } = await import('../support/services.ts')
await startFileServices()

afterAll(async () => {
  // The demo images a seeding test started are stored in the background (db/seed/demo.ts): they finish
  // against this file's S3 emulator, not the next file's.
  const { demoImagesStored } = await import('../../db/seed/demo.ts')
  await demoImagesStored()
  await stopFileServices()
  for (const name of Object.keys(process.env)) if (!(name in environmentBefore)) delete process.env[name]
  Object.assign(process.env, environmentBefore)
  loadConfig()
})

const tables = [
  'audit_log',
  'processed_events',
  'transactions',
  'listings',
  'search_terms',
  'bank_details',
  'revoked_sessions',
  'users',
  'app_meta',
]

// Every test starts from an empty (but migrated) database.
beforeEach(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  // A write the previous test left running (the listing page's view counter is not awaited, by design)
  // can deadlock with the TRUNCATE: PostgreSQL aborts one side; try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`)
      break
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 3) throw error
    }
  }
  await client.end()
})
