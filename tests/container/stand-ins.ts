/**
 * What a deployment of the image has around it, on this host (issue 25; .ci/container): a
 * PostgreSQL server of its own (a separate process) and the emulators in place of Supabase Auth,
 * Stripe, GitHub, S3 and SMTP. Writes the container's environment — the documented variables,
 * pointed at them exactly as a real deployment points them at the real services — to an env
 * file, waits for the release step (the image's `db/cli.ts migrate`) to migrate the database,
 * loads the demo data the e2e journeys use, and says so in the ready file. Runs until SIGTERM.
 *
 *   tsx tests/container/stand-ins.ts --write-env F --ready F   (ports from E2E_PORT, as the e2e suite's)
 *
 * `--database-url URL`: a PostgreSQL server that runs elsewhere (docker-compose.yml's `db` service, for
 * scripts/container/compose-check.sh) instead of one of its own; the env file then names that URL.
 * `--migrated FILE`: the caller waited for the release step and says so by creating FILE (the image's
 * migrations, which may be fewer than this working tree's while someone adds one).
 * `--host ADDRESS`: the emulators listen there instead of 127.0.0.1 (a compose network's gateway, which
 * the containers and this host both reach).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig, parseConfig } from '../../app/server/infra/env.server.ts'
import { createDb } from '../../db/connection.ts'
import { startEmbeddedPostgres } from '../../db/embedded.ts'
import { pendingMigrations } from '../../db/migrate.ts'
import { startLocalServices } from '../../emulators/local-services.ts'
import { E2E_ENV } from '../../playwright.config.ts'

const { values } = parseArgs({
  options: {
    'write-env': { type: 'string' },
    ready: { type: 'string' },
    'database-url': { type: 'string' },
    migrated: { type: 'string' },
    host: { type: 'string' },
  },
})
const envFile = values['write-env']
const readyFile = values.ready
if (!envFile || !readyFile) throw new Error('Usage: tsx tests/container/stand-ins.ts --write-env F --ready F')

const log = (message: string) => console.log(`[stand-ins] ${message}`)
const port = Number(E2E_ENV.PORT)
const dataDir = path.resolve(`.data-container-${port}`)
rmSync(dataDir, { recursive: true, force: true })

// Whatever was started is stopped on SIGTERM (the CI script's clean-up), at any point of the start.
const stops: Array<() => Promise<void>> = []
const stop = async (code: number) => {
  for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined)
  process.exit(code)
}
process.on('SIGTERM', () => void stop(0))
process.on('SIGINT', () => void stop(0))

let databaseUrl = values['database-url']
if (!databaseUrl) {
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: Number(E2E_ENV.EMBEDDED_PG_PORT) })
  stops.push(() => pg.stop())
  databaseUrl = pg.connectionString()
  log(`PostgreSQL on port ${E2E_ENV.EMBEDDED_PG_PORT}`)
}
const local = parseConfig({ ...E2E_ENV, NODE_ENV: 'test', DATA_DIR: dataDir })
const services = await startLocalServices({ config: local, dataDir, appPort: port, log, host: values.host })
stops.push(() => services.stop())

/** The container's environment: production, every secret set, each service at its documented variable. */
const appEnv: Record<string, string> = {
  NODE_ENV: 'production',
  PORT: String(port),
  APP_URL: `http://localhost:${port}`,
  DATABASE_URL: databaseUrl,
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  BANK_DETAILS_KEY: randomBytes(32).toString('base64url'),
  MAIL_FROM: 'Forkmarket <notifications@forkmarket.localhost>',
  // The platform's own account payout batches are paid from: production refuses to approve one without it.
  PAYOUT_DEBTOR_NAME: 'Forkmarket Test Ltd',
  PAYOUT_DEBTOR_IBAN: 'GB33BUKB20201555555555',
  PAYOUT_DEBTOR_BIC: 'BUKBGB22',
  ADMIN_EMAILS: services.defaults.ADMIN_EMAILS ?? '',
  AUTH_ACCESS_TOKEN_TTL: E2E_ENV.AUTH_ACCESS_TOKEN_TTL,
  RATE_LIMIT_MULTIPLIER: E2E_ENV.RATE_LIMIT_MULTIPLIER,
  ...services.supplied,
}
// An env file holds one line per variable: the App's PEM key with `\n` escapes (the schema turns them back).
writeFileSync(
  envFile,
  Object.entries(appEnv)
    .map(([name, value]) => `${name}=${value.replaceAll('\n', '\\n')}\n`)
    .join(''),
)
log(`the container's environment is in ${envFile}; waiting for the release step to migrate…`)

const db = createDb(appEnv.DATABASE_URL!, { max: 1, applicationName: 'forkmarket-stand-ins' })
const deadline = Date.now() + 300_000
const migratedFile = values.migrated
while (migratedFile ? !existsSync(migratedFile) : (await pendingMigrations(db)).length > 0) {
  if (Date.now() > deadline) {
    log('the database was not migrated within 5 minutes')
    await stop(1)
  }
  await new Promise((resolve) => setTimeout(resolve, 500))
}
// The demo data, encrypted and stored with the container's own key and bucket.
loadConfig(appEnv)
// Imported once the configuration is loaded: the demo data reaches into the app's modules, which read it.
const { demoImagesStored, seedDemoDataOnce } = await import('../../db/seed/demo.ts')
await seedDemoDataOnce(db, new Date(), { github: services.demoGithub, stripe: services.demoStripe })
await demoImagesStored()
await db.destroy()
writeFileSync(readyFile, 'ready\n')
log('migrated and seeded: ready')
