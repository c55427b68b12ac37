/**
 * `npm run db:migrate` · `npm run db:seed` · `npm run make-admin -- <email>`
 * against DATABASE_URL (the embedded database when it is running: see README).
 */
import { createDb } from './connection.ts'
import { migrateToLatest } from './migrate.ts'
import { seedDemoDataOnce } from './seed.ts'

const [command, ...args] = process.argv.slice(2)
const url = process.env.DATABASE_URL
if (!url) {
  console.error('DATABASE_URL is not set. For the embedded database of `npm start`, use postgres://postgres:postgres@127.0.0.1:54329/forkmarket while it runs.')
  process.exit(1)
}
const db = createDb(url, { max: 1, applicationName: 'forkmarket-cli' })
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(db)
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date')
  } else if (command === 'seed') {
    await migrateToLatest(db)
    process.env.BANK_DETAILS_KEY ??= (await import('./local-secrets.ts')).localSecret(process.env.DATA_DIR ?? '.data', 'bank-details-key')
    console.log((await seedDemoDataOnce(db)) ? 'demo data loaded' : 'demo data was already loaded')
  } else if (command === 'make-admin') {
    const email = args[0]
    if (!email) throw new Error('Usage: npm run make-admin -- <email>')
    const result = await db
      .updateTable('users')
      .set({ isAdmin: true, updatedAt: new Date() })
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) throw new Error(`No user with e-mail ${email}; they must sign in once first (or add them to ADMIN_EMAILS).`)
    console.log(`${email} is now an admin`)
  } else {
    throw new Error('Usage: tsx db/cli.ts migrate | seed | make-admin <email>')
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await db.destroy()
}
