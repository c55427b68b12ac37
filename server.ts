/**
 * `npm start`: the whole marketplace on one command. Without DATABASE_URL it
 * starts an embedded PostgreSQL under DATA_DIR; without SUPABASE_URL /
 * STRIPE_SECRET_KEY it starts the local emulators. Then it migrates, seeds the
 * demo data once, and serves the production build with Express.
 * `npm run dev` (--dev) does the same with Vite's dev server (hot reload) instead of the build.
 */
// First: the heap policy applies before the modules below fill the heap.
import './app/server/infra/heap-policy.server.ts'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import type { ViteDevServer } from 'vite'
import { clientIpMiddleware, trustProxySetting } from './app/server/http/client-ip.server.ts'
import { htmlCompression } from './app/server/http/compression.server.ts'
import { createHttpServer, lingeringClose } from './app/server/http/http-server.server.ts'
import { keepEmptyIdempotencyKey } from './app/server/http/idempotency.server.ts'
import { plainServerError, rejectMalformedHost } from './app/server/http/malformed-request.server.ts'
import { precompressAssets, precompressedAssets } from './app/server/http/static-assets.server.ts'
import { ConfigError, loadConfig, parseConfig, quietAwsSdkNodeNotice, type AppConfig } from './app/server/infra/env.server.ts'
import { routeConsoleToLog } from './app/server/infra/log.server.ts'
import { createDb } from './db/connection.ts'
import type { EmbeddedDatabase } from './db/embedded.ts'
import { localSecret } from './db/local-secrets.ts'
import { migrateToLatest, pendingMigrations } from './db/migrate.ts'
import { assertPortFree, PortInUseError } from './db/ports.ts'
import { startLocalServices, type LocalServices } from './emulators/local-services.ts'
import { reportListening } from './emulators/support/http.ts'

const ROOT = path.dirname(new URL(import.meta.url).pathname)
/** `npm run dev` (server.ts --dev): Vite's dev server with hot reload instead of the production build. */
const DEV = process.argv.includes('--dev')

interface EntryModule {
  startBackgroundJobs?: () => Promise<{ stop: () => Promise<void> }>
  closeDatabase?: () => Promise<void>
}

/** Production logs one JSON object per line (as the app's logEvent does); a person at `npm start` reads plain lines. */
let jsonLogs = false

function log(message: string, level: 'info' | 'error' = 'info') {
  const write = level === 'error' ? console.error : console.log
  if (jsonLogs) write(JSON.stringify({ time: new Date().toISOString(), level, event: 'launcher', message }))
  else write(`[forkmarket] ${message}`)
}

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs)
  }
  return newest
}

/** Builds the app when the build is missing or older than the sources (never in production). */
function ensureBuild(config: AppConfig, buildDir: string) {
  const serverEntry = path.join(buildDir, 'server', 'index.js')
  if (config.NODE_ENV === 'production' || config.SKIP_BUILD) return
  const sources = Math.max(newestMtime(path.join(ROOT, 'app')), statSync(path.join(ROOT, 'vite.config.ts')).mtimeMs)
  if (existsSync(serverEntry) && statSync(serverEntry).mtimeMs >= sources) return
  log('building the app (react-router build)…')
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: ROOT, stdio: 'inherit', env: process.env })
  if (result.status !== 0) throw new Error('The build failed; see the output above.')
}

async function main() {
  // The operator's environment, checked before anything starts (production must set every secret).
  const env = parseConfig()
  // What libraries print through console goes through the log: an error (supabase-js's refused refresh, with
  // its stack) is one JSON line, as everything is in production (issue 26.17).
  routeConsoleToLog({ plainText: env.NODE_ENV === 'production' ? 'json' : 'as-is' })
  quietAwsSdkNodeNotice()
  jsonLogs = env.NODE_ENV === 'production'
  const { PORT: port, HOST: host, DATA_DIR: dataDir } = env
  mkdirSync(dataDir, { recursive: true })
  await assertPortFree(port, 'the web app', 'PORT', host)

  // Locally, what is not configured is supplied: the embedded database, generated secrets, the emulators.
  const supplied: Record<string, string> = {}
  let embedded: EmbeddedDatabase | undefined
  if (!env.DATABASE_URL) {
    const pgPort = env.EMBEDDED_PG_PORT
    log(`no DATABASE_URL: starting embedded PostgreSQL on port ${pgPort} with data in ${path.join(dataDir, 'postgres')}`)
    // Imported only here: production images carry no PostgreSQL binaries (the package looks for them on load).
    const { startEmbeddedPostgres } = await import('./db/embedded.ts')
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: pgPort })
    supplied.DATABASE_URL = embedded.connectionString()
  }
  if (!env.SESSION_SECRET) supplied.SESSION_SECRET = localSecret(dataDir, 'session-secret')
  if (!env.BANK_DETAILS_KEY) supplied.BANK_DETAILS_KEY = localSecret(dataDir, 'bank-details-key')
  // PORT=0: the port is known once the server has bound it, below; the emulators learn it then (setAppPort).
  const services: LocalServices = await startLocalServices({ config: env, dataDir, appPort: port, log })
  const configSource = { ...services.defaults, ...process.env, ...supplied, ...services.supplied }
  // The one configuration of this process; the app bundle reads this same parse (env.server.ts).
  const config = loadConfig(configSource)

  const db = createDb(config.DATABASE_URL, { max: 2, applicationName: 'forkmarket-launcher' })
  if (config.NODE_ENV === 'production') {
    // The release step migrates (README: Deployment); an instance never starts on an older schema.
    const pending = await pendingMigrations(db)
    if (pending.length) {
      await db.destroy()
      throw new Error(
        `the database lacks ${pending.length} migration(s) (${pending.join(', ')}): run the release step first, db/cli.ts migrate`,
      )
    }
  } else {
    const applied = await migrateToLatest(db)
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`)
  }
  if (config.SEED_DEMO_DATA ?? Boolean(embedded)) {
    // Imported only to seed: the demo data reaches into the app's modules, which read the configuration on import.
    const { seedDemoDataOnce } = await import('./db/seed/demo.ts')
    if (await seedDemoDataOnce(db, new Date(), { github: services.demoGithub, stripe: services.demoStripe }))
      log('loaded the demo data (first start)')
  }
  await db.destroy()

  const app = express()
  const server: Server = createHttpServer(app)
  app.disable('x-powered-by')
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY))

  let build: ServerBuild | (() => Promise<ServerBuild>)
  let entryModule: EntryModule
  let vite: ViteDevServer | undefined
  if (DEV) {
    if (config.NODE_ENV === 'production') throw new Error('npm run dev is for development; production runs npm start.')
    // `npm run dev`: Vite's dev server inside this Express server (the React Router templates' pattern):
    // modules are compiled on request and reloaded on change (HMR over this server's own port).
    const { createServer: createViteServer } = await import('vite')
    vite = await createViteServer({ appType: 'custom', server: { middlewareMode: true, hmr: { server } } })
    const dev = vite
    const load = () => dev.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
    build = load
    entryModule = (await load()).entry.module as EntryModule
    app.use(vite.middlewares)
  } else {
    const BUILD_DIR = path.resolve(ROOT, config.BUILD_DIR)
    ensureBuild(config, BUILD_DIR)
    build = (await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'index.js')).href)) as ServerBuild
    entryModule = build.entry.module as EntryModule
    const assets = path.join(BUILD_DIR, 'client', 'assets')
    precompressAssets(assets)
    app.use('/assets', precompressedAssets(assets), express.static(assets, { immutable: true, maxAge: '1y' }))
    // Only the public/ paths go to the file system; every other request goes straight to the app.
    app.use('/tech-icons', express.static(path.join(BUILD_DIR, 'client', 'tech-icons'), { maxAge: '1d' }))
    // The icon the layout links, and the .ico browsers and crawlers ask for at the root whatever the page says.
    for (const icon of ['favicon.svg', 'favicon.ico'])
      app.get(`/${icon}`, (_req, res) => res.sendFile(path.join(BUILD_DIR, 'client', icon), { maxAge: '1d' }))
  }
  // Background jobs (escrow auto-confirm) run inside the app bundle so they share its database pool.
  const entry = entryModule
  const jobs = await entry.startBackgroundJobs?.()
  app.use(clientIpMiddleware)
  app.use(rejectMalformedHost)
  app.use(htmlCompression())
  app.use(lingeringClose())
  app.use(keepEmptyIdempotencyKey)
  app.use(createRequestHandler({ build, mode: DEV ? 'development' : config.NODE_ENV }))
  app.use(plainServerError)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  // With PORT=0 the system picked the port while binding (no probe another process could race, issue 26.18):
  // the app's own links (appUrl) and the emulators' webhooks and redirects follow it before anyone is told.
  const boundPort = (server.address() as AddressInfo).port
  if (boundPort !== port) {
    loadConfig({ ...configSource, PORT: String(boundPort) })
    services.setAppPort(boundPort)
  }
  log(`Forkmarket is running at http://localhost:${boundPort}${DEV ? ' (development: Vite, hot reload)' : ''}`)
  // A parent that started this process with an IPC channel learns the port from this (scripts/spawn-listening.ts).
  reportListening({ http: boundPort })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log(`${signal}: finishing in-flight requests and stopping…`)
    // close() stops accepting and waits for in-flight requests. Keep-alive sockets are closed as soon as
    // they are idle: now, and as each in-flight request finishes (else they would hold the exit for 65 s).
    await new Promise<void>((resolve) => {
      const sweep = setInterval(() => server.closeIdleConnections(), 100)
      server.close(() => {
        clearInterval(sweep)
        resolve()
      })
      server.closeIdleConnections()
    })
    await jobs?.stop()
    await entry.closeDatabase?.()
    // After closeDatabase: it imports through Vite's module runner in development.
    await vite?.close()
    await services.stop()
    if (embedded) await embedded.stop()
    log('stopped')
    process.exit(0)
  }
  // A dependency's stray promise rejection (e.g. the job queue's cron loop while the
  // database is down) must not take the whole server down; it is logged instead.
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message : String(reason)
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'unhandled_rejection', message }))
  })
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  if (error instanceof PortInUseError) log(error.message, 'error')
  else if (error instanceof ConfigError)
    for (const problem of error.problems) console.error(`[forkmarket] invalid configuration: ${problem}`)
  else log(`failed to start: ${error instanceof Error ? error.message : String(error)}`, 'error')
  process.exit(1)
})
