/**
 * `npm run db:migrate` · `npm run db:seed` · `npm run make-admin -- <email>` · `npx tsx db/cli.ts ledger-backfill`
 * against DATABASE_URL (the embedded database when it is running: see README).
 */
import { ConfigError, loadConfig, parseConfig } from '../app/server/infra/env.server.ts'
import { routeConsoleToLog } from '../app/server/infra/log.server.ts'
import { createDb } from './connection.ts'
import { migrateToLatest } from './migrate.ts'

const [command, ...args] = process.argv.slice(2)
const url = databaseUrlOrExit()
const db = createDb(url, { max: 1, applicationName: 'forkmarket-cli' })
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(db)
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date')
  } else if (command === 'seed') {
    await migrateToLatest(db)
    const { demoImagesStored, seedDemoDataOnce } = await import('./seed/demo.ts')
    // The demo's bank details are encrypted with the key `npm start` uses (generated under DATA_DIR locally).
    const { localSecret } = await import('./local-secrets.ts')
    const { DATA_DIR, BANK_DETAILS_KEY } = parseConfig()
    loadConfig({ ...process.env, BANK_DETAILS_KEY: BANK_DETAILS_KEY ?? localSecret(DATA_DIR, 'bank-details-key') })
    console.log((await seedDemoDataOnce(db)) ? 'demo data loaded' : 'demo data was already loaded')
    await demoImagesStored()
  } else if (command === 'ledger-backfill') {
    // Issue 19: a database with sales from before the ledger (migration 0011) gets their entries,
    // posted by the app's own functions; idempotent (one entry per event key).
    const { backfillLedger } = await import('../app/server/domain/ledger.server.ts')
    await backfillLedger(db)
    console.log('ledger backfilled')
  } else if (command === 'make-admin') {
    const email = args[0]
    if (!email) throw new Error('Usage: npm run make-admin -- <email>')
    const result = await db
      .updateTable('users')
      .set({ isAdmin: true, updatedAt: new Date() })
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0)
      throw new Error(`No user with e-mail ${email}; they must sign in once first (or add them to ADMIN_EMAILS).`)
    console.log(`${email} is now an admin`)
  } else {
    throw new Error('Usage: tsx db/cli.ts migrate | seed | ledger-backfill | make-admin <email>')
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await db.destroy()
}

function databaseUrlOrExit(): string {
  try {
    const { DATABASE_URL, EMBEDDED_PG_PORT, NODE_ENV } = parseConfig()
    // In production (the release step of a deployment) what it prints is one JSON object per line, as the app's log.
    routeConsoleToLog({ plainText: NODE_ENV === 'production' ? 'json' : 'as-is' })
    if (DATABASE_URL) return DATABASE_URL
    console.error(
      `DATABASE_URL is not set. For the embedded database of \`npm start\`, use postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/forkmarket while it runs.`,
    )
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    for (const problem of error.problems) console.error(problem)
  }
  process.exit(1)
}
