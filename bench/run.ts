/**
 * `npm run bench` — the marketplace measured side by side with its floors
 * (issue 10; method: docs/decisions/006-benchmark-method.md; bench/README.md).
 *
 *   npm run bench                          100,000 listings, results → bench/results/latest.json
 *   npm run bench -- --listings 1000000    … and A (with D) again at one million listings
 *   npm run bench:smoke                    1,000 listings, 1 s per target, no Lighthouse → bench/results/smoke.json
 *
 * Other flags: --rounds N, --duration S, --warmup S, --connections N, --threads N,
 * --lighthouse-runs N, --no-lighthouse, --base-listings N, --cpu-prof (profiles the
 * app server into the run directory), --keep (leave the build and the database copy in place),
 * --seed-only (fill the cache of seeded clusters and stop), --app-build DIR (measure an existing build),
 * --serve (start and check everything, then keep it running until Ctrl-C), --only A,B (measure
 * only those targets; results to bench/.cache/run/results.json), --shapes (A and D per query shape, with the
 * search's indexes as they are and as before migration 0026; results to bench/.cache/run/shapes.json).
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import pg from 'pg'
import type { EmbeddedDatabase } from '../db/embedded.ts'
import type { AuthEmulator } from '../emulators/supabase-auth/server.ts'
import { sessionCookieHeader } from '../emulators/supabase-auth/session-cookie.ts'
import { compileFloorPlans } from './lib/app-queries.ts'
import { productionClusterEnv } from './lib/cluster-env.ts'
import { ensureSeededCluster, startRunCluster } from './lib/database.ts'
import { postmasterPid, sampleConnections, withStatementStats, type ConnectionSample, type StatementCount } from './lib/db-stats.ts'
import { explainPlans, type QueryPlanSummary } from './lib/explain.ts'
import { measureFirstVisitJs, type FirstVisitJs } from './lib/first-visit-js.ts'
import { CHROME_PATH, lighthouseMedian, type LighthouseSummary } from './lib/lighthouse.ts'
import { loadTool, type LoadResult } from './lib/load.ts'
import { runOpenLoop, type OpenLoopReport, type OpenLoopResult, type OpenLoopTarget } from './lib/open-loop.ts'
import {
  killAllNow,
  peakRssKb,
  sampleRss,
  startProcess,
  stopAll,
  stopProcess,
  treeCpuMs,
  waitForHttp,
  type Managed,
} from './lib/processes.ts'
import { summarizeProfiles } from './lib/profile-summary.ts'
import { budgets, renderMarkdown, REQUIRED_KEYS, type BenchResults, type TargetResult } from './lib/report.ts'
import { BENCH_BUYER, BENCH_SELLER, seedSignedInFixture, SIGNED_IN_SALES } from './lib/signed-in.ts'
import { chooseWorkload, type Workload } from './lib/workload.ts'
import { BROWSER_HEADERS } from './lib/wrk.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const started = Date.now()

// ---------------------------------------------------------------------------
// Options

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  if (i === -1) return undefined
  const value = process.argv[i + 1]
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
  return value
}
const flag = (name: string) => process.argv.includes(`--${name}`)
const numberOption = (name: string, fallback: number) => {
  const raw = option(name)
  if (raw === undefined) return fallback
  const value = Number(raw.replaceAll('_', ''))
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`)
  return value
}

const smoke = flag('smoke')
const opts = {
  smoke,
  baseListings: numberOption('base-listings', smoke ? 1_000 : 100_000),
  scaleListings: option('listings') ? numberOption('listings', 0) : null,
  rounds: numberOption('rounds', smoke ? 1 : 2),
  durationS: numberOption('duration', smoke ? 1 : 15),
  warmupS: numberOption('warmup', smoke ? 0 : 5),
  connections: numberOption('connections', 32),
  threads: numberOption('threads', 1),
  lighthouseRuns: smoke || flag('no-lighthouse') ? 0 : numberOption('lighthouse-runs', 3),
  cpuProf: flag('cpu-prof'),
  seedOnly: flag('seed-only'),
  /** An existing build of the app to measure instead of building one (kept afterwards). */
  appBuild: option('app-build'),
  /** Start everything, check it, then keep serving until Ctrl-C (to profile or explore by hand). */
  serve: flag('serve'),
  /** Measure only these targets (e.g. `--only B` with --cpu-prof); results go to the run directory, not bench/results. */
  only:
    option('only')
      ?.split(',')
      .map((t) => t.trim().toUpperCase()) ?? null,
  keep: flag('keep'),
  /** Issue 28.5: A and D per query shape, with the search's indexes as they are and as before migration 0026. */
  shapes: flag('shapes'),
}
if (opts.scaleListings === opts.baseListings) opts.scaleListings = null

// Smoke and full runs use different ports and directories, so `npm test` can run beside a benchmark.
const PORT_BASE = Number(process.env.BENCH_PORT ?? (smoke ? 3910 : 3900))
const PORTS = {
  app: PORT_BASE,
  floorD: PORT_BASE + 1,
  floorE: PORT_BASE + 2,
  floorF: PORT_BASE + 5,
  /** Past nginx's emulators (nginx + 7 … + 12). */
  floorG: PORT_BASE + 14,
  /** nginx in front of the cluster (scripts/cluster), for B and C through its cache; its emulators on the next six. */
  nginx: PORT_BASE + 6,
  auth: PORT_BASE + 3,
  stripe: PORT_BASE + 4,
  pg: PORT_BASE + 20_000,
  seedPg: PORT_BASE + 20_005,
}
const CACHE_DIR = path.join(ROOT, 'bench', '.cache')
const RUN_DIR = path.join(CACHE_DIR, smoke ? 'run-smoke' : 'run')
const LOG_DIR = path.join(RUN_DIR, 'logs')
function newestMtime(target: string): number {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(target).map((entry) => newestMtime(path.join(target, entry))))
}

/**
 * `npm test` runs the smoke right after `npm run test:e2e` has built the app into BUILD_DIR
 * (default build/): when that build is newer than every source, the smoke measures it
 * instead of building again (and leaves it in place).
 */
function freshTestBuild(): string | undefined {
  const dir = process.env.BUILD_DIR ?? 'build'
  const entry = path.join(ROOT, dir, 'server', 'index.js')
  if (!existsSync(entry)) return undefined
  const sources = ['app', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json'].map((f) =>
    newestMtime(path.join(ROOT, f)),
  )
  return statSync(entry).mtimeMs >= Math.max(...sources) ? dir : undefined
}

if (smoke && !opts.appBuild) opts.appBuild = freshTestBuild()
const APP_BUILD = opts.appBuild ?? (smoke ? 'build-bench-smoke' : 'build-bench')
const FLOOR_BUILD = path.join(ROOT, 'bench', 'floor-app', 'build', smoke ? 'smoke' : 'full')
const RESULTS_FILE = opts.only
  ? path.join(RUN_DIR, 'results.json')
  : path.join(ROOT, 'bench', 'results', smoke ? 'smoke.json' : 'latest.json')

/** The command that produced the results, as a person would type it (the README shows it with the table). */
function commandLine(): string {
  const args = process.argv.slice(2).filter((a) => a !== '--smoke')
  return `npm run ${smoke ? 'bench:smoke' : 'bench'}${args.length ? ` -- ${args.join(' ')}` : ''}`
}

function log(message: string) {
  const t = ((Date.now() - started) / 1000).toFixed(0).padStart(4)
  console.log(`[bench ${t}s] ${message}`)
}

// ---------------------------------------------------------------------------
// Cleanup: every process we started stops at the end, on failure and on Ctrl-C.

const cleanups: Array<() => Promise<void>> = []
let cleaningUp: Promise<void> | undefined
function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await stopAll()
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => log(`cleanup: ${String(e)}`))
  })()
  return cleaningUp
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping every process of the benchmark…`)
    void cleanup().finally(() => process.exit(130))
  })
}
process.on('exit', killAllNow)

// ---------------------------------------------------------------------------
// Steps

function run(name: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const logFile = path.join(LOG_DIR, `${name}.log`)
  const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  writeFileSync(logFile, `${result.stdout}\n${result.stderr}`)
  if (result.status !== 0) throw new Error(`${name} failed (exit ${result.status}); see ${logFile}`)
}

function buildAll() {
  const npx = path.join(ROOT, 'node_modules', '.bin', 'react-router')
  if (opts.appBuild) {
    if (!existsSync(path.join(ROOT, opts.appBuild, 'server', 'index.js'))) throw new Error(`--app-build ${opts.appBuild}: no build there`)
    log(`measuring the existing build in ${opts.appBuild}/ (floor E is rebuilt when its sources change)…`)
  } else {
    log(`building the app into ${APP_BUILD}/ (floor E is rebuilt when its sources change)…`)
    run('build-app', npx, ['build'], ROOT, { ...process.env, BUILD_DIR: APP_BUILD, NODE_ENV: 'production' })
  }
  // The floor changes only with its own sources or the framework's version: rebuilt only then.
  const floorDir = path.join(ROOT, 'bench', 'floor-app')
  const floorSources = ['app', 'react-router.config.ts', 'vite.config.ts', 'server.ts']
    .map((f) => path.join(floorDir, f))
    .concat(
      ['react-router', '@react-router/dev', 'vite', 'react', 'react-dom'].map((p) => path.join(ROOT, 'node_modules', p, 'package.json')),
    )
  const floorEntry = path.join(FLOOR_BUILD, 'server', 'index.js')
  if (!existsSync(floorEntry) || statSync(floorEntry).mtimeMs < Math.max(...floorSources.map(newestMtime))) {
    run('build-floor-e', npx, ['build'], floorDir, { ...process.env, FLOOR_BUILD_DIR: FLOOR_BUILD, NODE_ENV: 'production' })
  }
}

/** The run's Supabase Auth emulator (started by startEmulators), which signs the signed-in targets in. */
let authEmulator: AuthEmulator | undefined

async function startEmulators(): Promise<Record<string, string>> {
  // Hosted-service stand-ins run here in the harness, not in the server's process: the server
  // runs with NODE_ENV=production and real configuration, and its memory is its own.
  const { emailUserId } = await import('../db/seed/demo-data.ts')
  const { startAuthEmulator } = await import('../emulators/supabase-auth/server.ts')
  const { startStripeEmulator } = await import('../emulators/stripe/server.ts')
  const auth = (authEmulator = await startAuthEmulator({
    port: PORTS.auth,
    dataFile: path.join(RUN_DIR, 'auth-emulator.json'),
    siteUrl: `http://localhost:${PORTS.app}`,
    userIdForEmail: emailUserId,
  }))
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`
  const stripe = await startStripeEmulator({
    port: PORTS.stripe,
    webhookSecret,
    webhookUrl: `http://127.0.0.1:${PORTS.app}/api/stripe/webhook`,
  })
  cleanups.push(async () => {
    await auth.close()
    await stripe.close()
  })
  return {
    SUPABASE_URL: auth.url,
    SUPABASE_ANON_KEY: auth.anonKey,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: stripe.url,
    STRIPE_JS_URL: stripe.scriptUrl,
  }
}

interface Servers {
  app: Managed
  floorD: Managed
  floorE: Managed
  floorF: Managed
  floorG: Managed
}

function nodeArgs(script: string, extra: string[] = []) {
  // The way `npm start` runs the app (tsx server.ts = node with tsx's loader), for all three servers.
  return [...extra, '--import', 'tsx', script]
}

async function startServers(
  databaseUrl: string,
  serviceEnv: Record<string, string>,
  plansFile: string,
  label: string,
  floorFPaths: string[],
): Promise<Servers> {
  const common = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1' }
  const profDir = path.join(RUN_DIR, 'profiles')
  if (opts.cpuProf) mkdirSync(profDir, { recursive: true })
  const appEnv = {
    ...common,
    ...serviceEnv,
    PORT: String(PORTS.app),
    APP_URL: `http://localhost:${PORTS.app}`,
    DATA_DIR: path.join(RUN_DIR, 'app-data'),
    BUILD_DIR: APP_BUILD,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    BANK_DETAILS_KEY: randomBytes(32).toString('base64url'),
    SEED_DEMO_DATA: 'false',
    // One instance, measured alone: images as local files (production refuses a start without a bucket or this).
    STORAGE: 'local',
  }
  const app = startProcess(
    'app',
    process.execPath,
    nodeArgs('server.ts', [
      ...(opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
      // An experiment's node flags for the app alone (e.g. V8's heap sizes); empty by default.
      ...(process.env.BENCH_APP_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
    ]),
    { cwd: ROOT, logFile: path.join(LOG_DIR, `app-${label}.log`), env: appEnv },
  )
  const floorD = startProcess('floor D', process.execPath, nodeArgs('bench/floor-api.ts'), {
    cwd: ROOT,
    logFile: path.join(LOG_DIR, `floor-d-${label}.log`),
    env: { ...common, PORT: String(PORTS.floorD), DATABASE_URL: databaseUrl, FLOOR_PLANS_FILE: plansFile },
  })
  const floorE = startProcess('floor E', process.execPath, nodeArgs('bench/floor-app/server.ts'), {
    cwd: ROOT,
    logFile: path.join(LOG_DIR, `floor-e-${label}.log`),
    env: { ...common, PORT: String(PORTS.floorE), FLOOR_BUILD_DIR: FLOOR_BUILD },
  })
  // F reads its pages' data from the app once, at startup (bench/floor-f.tsx), then never a database:
  // the app's modules it imports get a DATABASE_URL where nothing listens.
  const pathsFile = path.join(RUN_DIR, 'floor-f-paths.json')
  writeFileSync(pathsFile, JSON.stringify(floorFPaths))
  const floorF = startProcess('floor F', process.execPath, nodeArgs('bench/floor-f.tsx'), {
    cwd: ROOT,
    logFile: path.join(LOG_DIR, `floor-f-${label}.log`),
    env: {
      ...appEnv,
      PORT: String(PORTS.floorF),
      DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:9/none',
      FLOOR_F_APP_URL: `http://127.0.0.1:${PORTS.app}`,
      FLOOR_F_PATHS_FILE: pathsFile,
    },
  })
  // G imports the app's own build and replaces only the loaders' answers (bench/floor-g.ts).
  // With --cpu-prof G is profiled too (profiles/floor-g/): what B and C cost beyond it, function by function.
  if (opts.cpuProf) mkdirSync(path.join(profDir, 'floor-g'), { recursive: true })
  const floorG = startProcess(
    'floor G',
    process.execPath,
    nodeArgs('bench/floor-g.ts', opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profDir, 'floor-g')}`] : []),
    {
      cwd: ROOT,
      logFile: path.join(LOG_DIR, `floor-g-${label}.log`),
      env: {
        ...appEnv,
        PORT: String(PORTS.floorG),
        DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:9/none',
        FLOOR_G_APP_URL: `http://127.0.0.1:${PORTS.app}`,
        FLOOR_G_PATHS_FILE: pathsFile,
      },
    },
  )
  await Promise.all([
    waitForHttp(app, `http://127.0.0.1:${PORTS.app}/healthz`, 120_000),
    waitForHttp(floorD, `http://127.0.0.1:${PORTS.floorD}/healthz`),
    waitForHttp(floorE, `http://127.0.0.1:${PORTS.floorE}/`),
    // F loads its modules while the app starts, then waits for it to read the pages' data.
    waitForHttp(floorF, `http://127.0.0.1:${PORTS.floorF}/healthz`, 180_000),
    waitForHttp(floorG, `http://127.0.0.1:${PORTS.floorG}/healthz`, 180_000),
  ])
  return { app, floorD, floorE, floorF, floorG }
}

async function stopServers(servers: Servers) {
  await Promise.all([
    stopProcess(servers.app, 20_000),
    stopProcess(servers.floorD),
    stopProcess(servers.floorE),
    stopProcess(servers.floorF),
    stopProcess(servers.floorG),
  ])
}

// ---------------------------------------------------------------------------
// Correctness before speed: a floor that answers something else measures nothing.

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } })
  const text = await response.text()
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

/**
 * Floor G serves the app's own route modules from the app's own loader data: the same document, byte
 * for byte, but for the nonce attributes (G renders with entry.server's default policy, a nonce; the
 * app's anonymous pages carry hashes instead, decision 023). The loaders word some times ("Updated 49
 * minutes ago", issue 30) and G's data was read at its start: when the documents differ, G reads the
 * app's data again and both are compared once more, fetched together.
 */
async function checkFloorG(pagePath: string, appHtml: string, cookie?: string) {
  const floorG = `http://127.0.0.1:${PORTS.floorG}`
  const page = async (origin: string) => {
    const response = await fetch(`${origin}${pagePath}`, { headers: { Accept: 'text/html', ...(cookie ? { Cookie: cookie } : {}) } })
    const html = await response.text()
    if (!response.ok) throw new Error(`${origin === floorG ? 'floor G' : 'the app'}: GET ${pagePath} answered ${response.status}`)
    return html
  }
  const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, '')
  let html = await page(floorG)
  if (withoutNonces(html) !== withoutNonces(appHtml)) {
    const reload = await fetch(`${floorG}/reload`, { method: 'POST' })
    if (!reload.ok) throw new Error(`floor G: POST /reload answered ${reload.status}`)
    ;[appHtml, html] = await Promise.all([page(`http://127.0.0.1:${PORTS.app}`), page(floorG)])
  }
  if (withoutNonces(html) !== withoutNonces(appHtml)) {
    writeFileSync(path.join(RUN_DIR, 'mismatch-app.html'), appHtml)
    writeFileSync(path.join(RUN_DIR, 'mismatch-g.html'), html)
    throw new Error(`floor G's ${pagePath} is not the app's document (see ${RUN_DIR}/mismatch-{app,g}.html)`)
  }
}

async function checkTargets(workload: Workload, withPages: boolean) {
  const checks: Record<string, unknown> = {}
  for (const { name, query } of workload.queries) {
    const a = await getJson(`http://127.0.0.1:${PORTS.app}/api/listings?${query}`)
    const d = await getJson(`http://127.0.0.1:${PORTS.floorD}/api/listings?${query}`)
    if (!isDeepStrictEqual(a, d)) {
      writeFileSync(path.join(RUN_DIR, 'mismatch-a.json'), JSON.stringify(a, null, 2))
      writeFileSync(path.join(RUN_DIR, 'mismatch-d.json'), JSON.stringify(d, null, 2))
      throw new Error(`floor D does not answer what A answers for "${query}" (see ${RUN_DIR}/mismatch-*.json)`)
    }
    const body = a as { listings: unknown[]; correctedSearch?: string | null }
    // An empty result would send the app down its typo-correction path, which floor D doesn't replay.
    if (!body.listings.length) throw new Error(`benchmark query "${query}" finds no listings`)
    const check: Record<string, unknown> = { apiListings: body.listings.length, correctedSearch: body.correctedSearch ?? null }
    if (withPages) {
      const page = await fetch(`http://127.0.0.1:${PORTS.app}/marketplace?${query}`, { headers: { Accept: 'text/html' } })
      const html = await page.text()
      if (!page.ok) throw new Error(`GET /marketplace?${query} answered ${page.status}`)
      check.pageCards = new Set(html.match(/href="\/listing\/[^"?#]+"/g) ?? []).size
      check.pageBytes = Buffer.byteLength(html)
      await checkFloorG(`/marketplace?${query}`, html)
      // Floor F renders the same page from the same data: the same cards, less only the framework's scripts.
      const floor = await fetch(`http://127.0.0.1:${PORTS.floorF}/marketplace?${query}`, { headers: { Accept: 'text/html' } })
      const floorHtml = await floor.text()
      if (!floor.ok) throw new Error(`floor F: GET /marketplace?${query} answered ${floor.status}`)
      const floorCards = new Set(floorHtml.match(/href="\/listing\/[^"?#]+"/g) ?? []).size
      if (floorCards !== check.pageCards)
        throw new Error(`floor F shows ${floorCards} cards for "${query}", the app ${String(check.pageCards)}`)
      check.floorFPageBytes = Buffer.byteLength(floorHtml)
    }
    checks[name] = check
  }
  if (withPages) {
    const visibleText = (html: string) =>
      html
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    for (const slug of workload.slugs.slice(0, 3)) {
      const response = await fetch(`http://127.0.0.1:${PORTS.app}/listing/${slug}`, { headers: { Accept: 'text/html' } })
      const html = await response.text()
      if (!response.ok) throw new Error(`GET /listing/${slug} answered ${response.status}`)
      await checkFloorG(`/listing/${slug}`, html)
      const floor = await fetch(`http://127.0.0.1:${PORTS.floorF}/listing/${slug}`, { headers: { Accept: 'text/html' } })
      const floorHtml = await floor.text()
      if (!floor.ok) throw new Error(`floor F: GET /listing/${slug} answered ${floor.status}`)
      if (visibleText(floorHtml) !== visibleText(html)) {
        writeFileSync(path.join(RUN_DIR, 'mismatch-c.html'), html)
        writeFileSync(path.join(RUN_DIR, 'mismatch-f.html'), floorHtml)
        throw new Error(`floor F's /listing/${slug} does not read as the app's (see ${RUN_DIR}/mismatch-*.html)`)
      }
    }
  }
  return checks
}

// ---------------------------------------------------------------------------
// Load

type TargetId = 'A' | 'B' | 'C' | 'D' | 'E' | 'FB' | 'FC' | 'GB' | 'GC' | 'GBS' | 'GCS' | 'BS' | 'CS' | 'P' | 'SD'
interface TargetSpec {
  id: TargetId
  label: string
  port: number
  paths: string[]
  order: 'rotate' | 'random'
  accept: string
  server: keyof Servers
  /** Signed in (issue 28.3): the session cookie sent with every request. */
  cookie?: string
}

interface SignedInSessions {
  buyer: string
  seller: string
}

/**
 * Issue 28.3: a buyer with SIGNED_IN_SALES completed purchases and their seller (bench/lib/signed-in.ts),
 * signed in at the run's auth emulator (a real session, verified by the app on every request like a
 * browser's); each page is checked to be the signed-in one before it is measured.
 */
async function signInForTheRun(databaseUrl: string, workload: Workload): Promise<SignedInSessions> {
  await seedSignedInFixture(databaseUrl)
  const auth = authEmulator!
  const cookieOf = async (who: { email: string; displayName: string }) =>
    sessionCookieHeader(auth.url, await auth.createSession({ email: who.email, fullName: who.displayName }))
  const sessions = { buyer: await cookieOf(BENCH_BUYER), seller: await cookieOf(BENCH_SELLER) }
  const page = async (pagePath: string, cookie: string) => {
    const response = await fetch(`http://127.0.0.1:${PORTS.app}${pagePath}`, { headers: { Accept: 'text/html', Cookie: cookie } })
    const html = await response.text()
    if (!response.ok) throw new Error(`signed in: GET ${pagePath} answered ${response.status}`)
    if (!html.includes('Sign Out')) throw new Error(`signed in: GET ${pagePath} is not a signed-in page`)
    if (!/private|no-store/.test(response.headers.get('cache-control') ?? '')) throw new Error(`signed in: GET ${pagePath} is cacheable`)
    return html
  }
  // Floor G reads the same pages as the buyer sees them (GBS, GCS): the same signed-in documents.
  const recorded = await fetch(`http://127.0.0.1:${PORTS.floorG}/signed-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cookie: sessions.buyer }),
  })
  if (!recorded.ok) throw new Error(`floor G: POST /signed-in answered ${recorded.status}`)
  for (const pagePath of [`/marketplace?${workload.queries[0]!.query}`, ...workload.slugs.slice(0, 3).map((slug) => `/listing/${slug}`)])
    await checkFloorG(pagePath, await page(pagePath, sessions.buyer), sessions.buyer)
  const purchases = await page('/purchases', sessions.buyer)
  const rows = new Set(purchases.match(/id="purchase-[0-9a-f-]{36}"/g) ?? []).size
  if (rows !== SIGNED_IN_SALES) throw new Error(`signed in: /purchases lists ${rows} purchases, not ${SIGNED_IN_SALES}`)
  const dashboard = await page('/seller/dashboard', sessions.seller)
  if (!dashboard.includes(BENCH_BUYER.displayName)) throw new Error("signed in: the seller's dashboard does not show the sales")
  log(`signed in: a buyer with ${SIGNED_IN_SALES} purchases and their seller; /purchases lists ${rows}`)
  return sessions
}

/** The listing pages floor F loads at startup: all of C's in a full run, 20 in the smoke (a faster start). */
const floorFSlugs = (workload: Workload) => (smoke ? workload.slugs.slice(0, 20) : workload.slugs)

function targetSpecs(workload: Workload, sessions: SignedInSessions): Record<TargetId, TargetSpec> {
  const api = workload.queries.map((q) => `/api/listings?${q.query}`)
  const pages = workload.queries.map((q) => `/marketplace?${q.query}`)
  const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
  return {
    A: {
      id: 'A',
      label: 'GET /api/listings (the six queries)',
      port: PORTS.app,
      paths: api,
      order: 'rotate',
      accept: 'application/json',
      server: 'app',
    },
    B: {
      id: 'B',
      label: 'GET /marketplace?… (the same queries, SSR)',
      port: PORTS.app,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'app',
    },
    C: {
      id: 'C',
      label: 'GET /listing/{slug} (random listings)',
      port: PORTS.app,
      paths: workload.slugs.map((s) => `/listing/${s}`),
      order: 'random',
      accept: html,
      server: 'app',
    },
    D: {
      id: 'D',
      label: "floor for A: node:http + pg, the builder's SQL",
      port: PORTS.floorD,
      paths: api,
      order: 'rotate',
      accept: 'application/json',
      server: 'floorD',
    },
    E: {
      id: 'E',
      label: 'floor for B and C: React Router, one route, no data',
      port: PORTS.floorE,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'floorE',
    },
    FB: {
      id: 'FB',
      label: "floor F for B: the marketplace page's React tree, data loaded once, node:http",
      port: PORTS.floorF,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'floorF',
    },
    FC: {
      id: 'FC',
      label: "floor F for C: the listing page's React tree, data loaded once, node:http",
      port: PORTS.floorF,
      paths: floorFSlugs(workload).map((s) => `/listing/${s}`),
      order: 'random',
      accept: html,
      server: 'floorF',
    },
    GB: {
      id: 'GB',
      label: "floor G for B: the app's build under React Router's own handler, loaders answering from memory, no middleware of ours",
      port: PORTS.floorG,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'floorG',
    },
    GC: {
      id: 'GC',
      label: 'floor G for C: the same, for the listing pages',
      port: PORTS.floorG,
      paths: floorFSlugs(workload).map((s) => `/listing/${s}`),
      order: 'random',
      accept: html,
      server: 'floorG',
    },
    GBS: {
      id: 'GBS',
      label: "floor G for BS: the buyer's signed-in pages, their data from memory, no session verified",
      port: PORTS.floorG,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'floorG',
      cookie: sessions.buyer,
    },
    GCS: {
      id: 'GCS',
      label: 'floor G for CS: the same, for the listing pages',
      port: PORTS.floorG,
      paths: floorFSlugs(workload).map((s) => `/listing/${s}`),
      order: 'random',
      accept: html,
      server: 'floorG',
      cookie: sessions.buyer,
    },
    BS: {
      id: 'BS',
      label: `B signed in: a buyer with ${SIGNED_IN_SALES} purchases (session, sidebar, unread count; private, uncacheable)`,
      port: PORTS.app,
      paths: pages,
      order: 'rotate',
      accept: html,
      server: 'app',
      cookie: sessions.buyer,
    },
    CS: {
      id: 'CS',
      label: 'C signed in: the same buyer',
      port: PORTS.app,
      paths: workload.slugs.map((s) => `/listing/${s}`),
      order: 'random',
      accept: html,
      server: 'app',
      cookie: sessions.buyer,
    },
    P: {
      id: 'P',
      label: `GET /purchases: the buyer's ${SIGNED_IN_SALES} purchases`,
      port: PORTS.app,
      paths: ['/purchases'],
      order: 'rotate',
      accept: html,
      server: 'app',
      cookie: sessions.buyer,
    },
    SD: {
      id: 'SD',
      label: `GET /seller/dashboard: their seller's ${SIGNED_IN_SALES} sales`,
      port: PORTS.app,
      paths: ['/seller/dashboard'],
      order: 'rotate',
      accept: html,
      server: 'app',
      cookie: sessions.seller,
    },
  }
}

const failures: string[] = []
const warnings: string[] = []

function noteSeqScans(plans: QueryPlanSummary[], listings: number) {
  // On a small table a sequential scan is the right plan; the marketplace issue forbids one at 100,000.
  if (listings < 100_000) return
  for (const p of plans) if (p.seqScanOnListings) warnings.push(`sequential scan of listings at ${listings} listings: ${p.path}`)
}

async function measure(tool: Awaited<ReturnType<typeof loadTool>>, spec: TargetSpec, servers: Servers, tag: string) {
  const base = `http://127.0.0.1:${spec.port}`
  const scriptFile = path.join(RUN_DIR, `${spec.id}.lua`)
  tool.prepare(scriptFile, spec.paths, { order: spec.order, accept: spec.accept, cookie: spec.cookie })
  const load = { connections: opts.connections, threads: opts.threads, timeoutS: 30 }
  if (opts.warmupS > 0) await tool.run(base, scriptFile, spec.paths, { ...load, durationS: opts.warmupS })
  const rss = sampleRss(servers[spec.server].pid)
  const poolName = spec.server === 'app' ? 'forkmarket' : spec.server === 'floorD' ? 'forkmarket-floor-d' : null
  const connections = poolName ? await sampleConnections(databaseUrlOfRun, poolName) : null
  const cpuBefore = { server: treeCpuMs(servers[spec.server].pid), pg: treeCpuMs(pgPid) }
  let { result, output } = await tool.run(base, scriptFile, spec.paths, { ...load, durationS: opts.durationS })
  if (result.requests === 0) {
    // A 1-second smoke window on a saturated machine can end before the first response: once more, longer.
    const durationS = Math.max(5, opts.durationS * 2)
    warnings.push(`${tag} ${spec.id}: no response within ${opts.durationS} s; measured again for ${durationS} s`)
    cpuBefore.server = treeCpuMs(servers[spec.server].pid)
    cpuBefore.pg = treeCpuMs(pgPid)
    ;({ result, output } = await tool.run(base, scriptFile, spec.paths, { ...load, durationS }))
  }
  // CPU per request (the capacity model's input): the server's process tree, and PostgreSQL's.
  const cpuMsPerRequest = result.requests ? round((treeCpuMs(servers[spec.server].pid) - cpuBefore.server) / result.requests, 3) : 0
  const pgCpuMsPerRequest = result.requests ? round((treeCpuMs(pgPid) - cpuBefore.pg) / result.requests, 3) : 0
  const peakKb = rss.stop()
  const pool = (await connections?.stop()) ?? null
  writeFileSync(path.join(LOG_DIR, `load-${tag}-${spec.id}.txt`), output)
  const e = result.errors
  if (result.requests === 0) failures.push(`${tag} ${spec.id}: no request completed`)
  if (e.status > 0) failures.push(`${tag} ${spec.id}: ${e.status} responses were not 2xx/3xx`)
  if (e.connect > 0) failures.push(`${tag} ${spec.id}: ${e.connect} connection errors`)
  if (e.read + e.write + e.timeout > 0)
    warnings.push(`${tag} ${spec.id}: socket errors read ${e.read}, write ${e.write}, timeout ${e.timeout}`)
  log(
    `${tag} ${spec.id}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, peak RSS ${(peakKb / 1024).toFixed(0)} MB, ` +
      `CPU ${cpuMsPerRequest} ms/request (PostgreSQL ${pgCpuMsPerRequest})`,
  )
  return { ...result, peakRssMB: Math.round(peakKb / 1024), cpuMsPerRequest, pgCpuMsPerRequest, connections: pool }
}

type Measured = LoadResult & { peakRssMB: number; cpuMsPerRequest: number; pgCpuMsPerRequest: number; connections: ConnectionSample | null }

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
/** PostgreSQL's postmaster (set once the cluster runs): its process tree's CPU is the database's share. */
let pgPid = 0
let databaseUrlOfRun = ''
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits

function summarize(spec: TargetSpec, rounds: Measured[], servers: Servers): TargetResult {
  return {
    label: spec.label,
    url: `http://127.0.0.1:${spec.port}`,
    paths: spec.paths.length,
    requestsPerSecond: round(mean(rounds.map((r) => r.requestsPerSecond)), 1),
    p50Ms: round(mean(rounds.map((r) => r.p50Ms))),
    p99Ms: round(mean(rounds.map((r) => r.p99Ms))),
    cpuMsPerRequest: round(mean(rounds.map((r) => r.cpuMsPerRequest)), 3),
    pgCpuMsPerRequest: round(mean(rounds.map((r) => r.pgCpuMsPerRequest)), 3),
    peakRssMB: Math.max(...rounds.map((r) => r.peakRssMB)),
    peakDbConnections: rounds.some((r) => r.connections)
      ? {
          open: Math.max(...rounds.map((r) => r.connections?.peakOpen ?? 0)),
          active: Math.max(...rounds.map((r) => r.connections?.peakActive ?? 0)),
          meanActive: round(mean(rounds.map((r) => r.connections?.meanActive ?? 0))),
        }
      : null,
    serverPeakRssMB: Math.round(peakRssKb(servers[spec.server].pid) / 1024),
    rounds,
  }
}

/** Alternating rounds: forward (A D B F E C F), then backward, so slow drift hits subject and floor alike. */
async function loadRounds(
  tool: Awaited<ReturnType<typeof loadTool>>,
  specs: TargetSpec[],
  servers: Servers,
  tag: string,
): Promise<Record<string, TargetResult>> {
  const perTarget = new Map<TargetId, Measured[]>()
  for (let r = 0; r < opts.rounds; r++) {
    const order = r % 2 === 0 ? specs : [...specs].reverse()
    for (const spec of order) {
      const result = await measure(tool, spec, servers, `${tag}-r${r + 1}`)
      perTarget.set(spec.id, [...(perTarget.get(spec.id) ?? []), result])
    }
  }
  return Object.fromEntries(specs.map((s) => [s.id, summarize(s, perTarget.get(s.id)!, servers)]))
}

// ---------------------------------------------------------------------------
// Throughput per query shape (issue 28.5, `--shapes`): A and D on one query at a time, first with the
// search's indexes as the migrations leave them, then as they were before migration 0026 (its down()
// on this run's copy of the database: the four one-column GIN indexes instead of the one that serves
// the text and the facets together). Results: the run directory's shapes.json.

/** The shapes migration 0026 was for: a text search with a facet (decision 037's two). */
const TEXT_AND_FACET_SHAPES = [
  { name: 'text and language', query: 'search=authentication&languages=Python&sortBy=newest' },
  { name: 'text, language and price', query: 'search=dashboard&languages=TypeScript&maxPrice=100&sortBy=newest' },
]

async function measureShapes(
  tool: Awaited<ReturnType<typeof loadTool>>,
  queries: Array<{ name: string; query: string }>,
  servers: Servers,
  databaseUrl: string,
) {
  const one = (id: 'A' | 'D', query: string): TargetSpec => ({
    id,
    label: id,
    port: id === 'A' ? PORTS.app : PORTS.floorD,
    paths: [`/api/listings?${query}`],
    order: 'rotate',
    accept: 'application/json',
    server: id === 'A' ? 'app' : 'floorD',
  })
  const pass = async (indexes: 'after 0026' | 'before 0026') => {
    const rows = []
    for (const { name, query } of queries) {
      const a = await measure(tool, one('A', query), servers, `${indexes} ${name}`)
      const d = await measure(tool, one('D', query), servers, `${indexes} ${name}`)
      rows.push({
        indexes,
        shape: name,
        query,
        A: round(a.requestsPerSecond, 1),
        D: round(d.requestsPerSecond, 1),
        'A/D': round(a.requestsPerSecond / d.requestsPerSecond),
        pgCpuMsPerRequestA: a.pgCpuMsPerRequest,
        pgCpuMsPerRequestD: d.pgCpuMsPerRequest,
      })
    }
    return rows
  }
  const after = await pass('after 0026')
  log('the indexes as before migration 0026 (its down() on this copy)…')
  const { createDb } = await import('../db/connection.ts')
  const { down } = await import('../migrations/0026_search_facets_index.ts')
  const db = createDb(databaseUrl, { max: 1, applicationName: 'forkmarket-bench' })
  await down(db as never).finally(() => db.destroy())
  const before = await pass('before 0026')
  const file = path.join(RUN_DIR, 'shapes.json')
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), listings: opts.baseListings, before, after }, null, 2)}\n`)
  console.log(`\n| Shape | query | A before | A after | D before | D after | PostgreSQL ms/request (A) before → after |`)
  console.log('|---|---|--:|--:|--:|--:|--:|')
  for (const [i, b] of before.entries()) {
    const a = after[i]!
    console.log(`| ${b.shape} | \`${b.query}\` | ${b.A} | ${a.A} | ${b.D} | ${a.D} | ${b.pgCpuMsPerRequestA} → ${a.pgCpuMsPerRequestA} |`)
  }
  log(`per shape: ${path.relative(ROOT, file)}`)
}

// ---------------------------------------------------------------------------
// Tail latency at fixed rates (issue 20): open loop, A and D at the same rates.

const OPEN_LOOP_SHARES = [0.5, 0.8] as const

async function openLoopLatency(specs: Record<TargetId, TargetSpec>, dMax: number, aMax: number): Promise<OpenLoopReport> {
  const perRate = OPEN_LOOP_SHARES.map(() => ({ A: [] as OpenLoopResult[], D: [] as OpenLoopResult[], ownA: [] as OpenLoopResult[] }))
  const rateOf = (max: number, share: number) => Math.max(1, Math.round(max * share))
  const measure = async (spec: TargetSpec, rate: number, tag: string): Promise<OpenLoopResult> => {
    const result = await runOpenLoop(
      ROOT,
      {
        baseUrl: `http://127.0.0.1:${spec.port}`,
        paths: spec.paths,
        order: spec.order,
        headers: { Accept: spec.accept, ...BROWSER_HEADERS },
        rate,
        durationS: opts.durationS,
        drainS: smoke ? 5 : 20,
        // A fixed number of connections, opened before the schedule (wrk2's way): the closed loop's count.
        connections: opts.connections,
      },
      path.join(LOG_DIR, `load-${tag}.txt`),
    )
    if (result.completed === 0) failures.push(`${tag}: no request completed`)
    // A broken path answers nothing right; an overloaded server may shed some requests (its pool's
    // connection timeout, a 503), which is a result to report, not a broken harness.
    else if (result.non2xx === result.completed) failures.push(`${tag}: no response was 2xx/3xx (${JSON.stringify(result.statuses)})`)
    else if (result.non2xx > 0)
      warnings.push(`${tag}: ${result.non2xx} responses were not 2xx/3xx under this load (${JSON.stringify(result.statuses)})`)
    if (result.errors + result.timeouts > 0) warnings.push(`${tag}: ${result.errors} socket errors, ${result.timeouts} unanswered`)
    if (result.sendLagP99Ms > 5) warnings.push(`${tag}: the generator sent late (p99 ${result.sendLagP99Ms} ms): the machine is overloaded`)
    log(
      `${tag}: ${rate} req/s scheduled, ${result.completedPerSecond} answered per second, p50 ${result.p50Ms} ms, p90 ${result.p90Ms} ms, p99 ${result.p99Ms} ms ` +
        `(generator: p99 lag ${result.sendLagP99Ms} ms, CPU ${result.generatorCpuMsPerRequest} ms/request)`,
    )
    return result
  }
  for (let r = 0; r < opts.rounds; r++) {
    for (const [i, share] of OPEN_LOOP_SHARES.entries()) {
      const pct = Math.round(share * 100)
      // Alternating, as the closed-loop rounds: A then D, then D then A — at the same rate (the budget).
      for (const spec of r % 2 === 0 ? [specs.A, specs.D] : [specs.D, specs.A]) {
        perRate[i]![spec.id as 'A' | 'D'].push(await measure(spec, rateOf(dMax, share), `open-r${r + 1}-${pct}-${spec.id}`))
      }
      // Reported beside it: A at the same share of its own maximum.
      perRate[i]!.ownA.push(await measure(specs.A, rateOf(aMax, share), `open-r${r + 1}-${pct}-own-A`))
    }
  }
  const summary = (rounds: OpenLoopResult[]): OpenLoopTarget => ({
    rounds,
    p50Ms: round(mean(rounds.map((x) => x.p50Ms))),
    p90Ms: round(mean(rounds.map((x) => x.p90Ms))),
    p99Ms: round(mean(rounds.map((x) => x.p99Ms))),
    maxMs: round(Math.max(...rounds.map((x) => x.maxMs))),
    completedPerSecond: round(mean(rounds.map((x) => x.completedPerSecond)), 1),
    timeouts: rounds.reduce((n, x) => n + x.timeouts, 0),
    non2xx: rounds.reduce((n, x) => n + x.non2xx, 0),
  })
  return {
    method:
      'open loop (bench/lib/open-loop-worker.ts, its own process): request i is sent at start + i/rate whether or not earlier ones were answered; ' +
      `latency from the scheduled time to the end of the response (no coordinated omission); ${opts.connections} keep-alive connections opened before the schedule, ` +
      'a request due while all are busy waits in the generator and that wait counts (as wrk2)',
    dMaxRequestsPerSecond: round(dMax, 1),
    aMaxRequestsPerSecond: round(aMax, 1),
    rates: OPEN_LOOP_SHARES.map((share, i) => {
      const A = summary(perRate[i]!.A)
      const D = summary(perRate[i]!.D)
      const ownA = summary(perRate[i]!.ownA)
      return {
        share,
        rate: rateOf(dMax, share),
        A,
        D,
        'p99(A)/p99(D)': round(A.p99Ms / D.p99Ms),
        ownShare: { rate: rateOf(aMax, share), A: ownA, 'p99(A)/p99(D)': round(ownA.p99Ms / D.p99Ms) },
      }
    }),
  }
}

/** Statements each kind of request runs (pg_stat_statements), requests sent one at a time. */
async function statementsPerRequest(databaseUrl: string, specs: Record<TargetId, TargetSpec>) {
  return withStatementStats(databaseUrl, async (stats) => {
    const out: Record<string, StatementCount> = {}
    // Signed in too (issue 28.3): the session's read, the bell, the buyer's relation to a listing, the view tally.
    for (const spec of [specs.A, specs.B, specs.C, specs.D, specs.BS, specs.CS]) {
      const n = smoke ? 12 : 60
      await stats.reset()
      for (let i = 0; i < n; i++) {
        const response = await fetch(`http://127.0.0.1:${spec.port}${spec.paths[i % spec.paths.length]}`, {
          headers: { Accept: spec.accept, ...BROWSER_HEADERS, ...(spec.cookie ? { Cookie: spec.cookie } : {}) },
        })
        await response.arrayBuffer()
        if (!response.ok) throw new Error(`statement count: ${spec.paths[i % spec.paths.length]} answered ${response.status}`)
      }
      // A signed-in listing page's view is written from the instance's tally within a second: let it land.
      await new Promise((r) => setTimeout(r, 1_500))
      out[spec.id] = await stats.perRequest(n)
      log(`${spec.id}: ${out[spec.id]!.statementsPerRequest} statements per request (${JSON.stringify(out[spec.id]!.byKind)})`)
    }
    return out
  })
}

// ---------------------------------------------------------------------------
// Anonymous B and C through nginx's shared cache (issue 20): the reference deployment (npm run cluster).

export interface ThroughCache {
  instances: number
  method: string
  targets: Record<'B' | 'C', TargetResult & { cacheStatuses: Record<string, number>; hitRatio: number }>
}

/** X-Cache-Status of the requests nginx logged (its access log's `cache=` field) from byte `from` on. */
function cacheStatuses(accessLog: string, from: number): Record<string, number> {
  const text = readFileSync(accessLog).subarray(from).toString('utf8')
  const counts: Record<string, number> = {}
  for (const match of text.matchAll(/ cache=(\S+)$/gm)) counts[match[1]!] = (counts[match[1]!] ?? 0) + 1
  return counts
}

async function measureThroughCache(
  tool: Awaited<ReturnType<typeof loadTool>>,
  specs: Record<TargetId, TargetSpec>,
  databaseUrl: string,
): Promise<ThroughCache> {
  const { startCluster } = await import('../scripts/cluster/start-cluster.ts')
  const instances = smoke ? 1 : 2
  const dataDir = path.join(RUN_DIR, 'cluster')
  const clusterLog = path.join(LOG_DIR, 'cluster.log')
  log(`starting the cluster: nginx on ${PORTS.nginx} in front of ${instances} instance(s) on the same database…`)
  const cluster = await startCluster({
    instances,
    port: PORTS.nginx,
    host: '127.0.0.1',
    dataDir,
    seedDemoData: false,
    log: (line) => appendFileSync(clusterLog, `${line}\n`),
    env: productionClusterEnv({ buildDir: APP_BUILD, databaseUrl, portBase: PORTS.nginx }),
  })
  const stopCluster = () => cluster.stop()
  cleanups.push(stopCluster)
  try {
    const accessLog = path.join(dataDir, 'nginx', 'access.log')
    // The path works before it is measured: an anonymous page is a miss, then a hit.
    for (const spec of [specs.B, specs.C]) {
      const url = `${cluster.url}${spec.paths[0]}`
      const statuses: string[] = []
      for (let i = 0; i < 2; i++) {
        const response = await fetch(url, { headers: { Accept: spec.accept, ...BROWSER_HEADERS } })
        await response.arrayBuffer()
        if (!response.ok) throw new Error(`through nginx: GET ${spec.paths[0]} answered ${response.status}`)
        statuses.push(response.headers.get('x-cache-status') ?? 'none')
      }
      if (statuses[1] !== 'HIT')
        throw new Error(`through nginx: ${spec.paths[0]} twice gave X-Cache-Status ${statuses.join(', ')} (the second should be HIT)`)
    }
    const nginxPid = cluster.nginx.child.pid!
    const perTarget = { B: [] as Measured[], C: [] as Measured[] }
    const statuses = { B: {} as Record<string, number>, C: {} as Record<string, number> }
    for (let r = 0; r < opts.rounds; r++) {
      for (const spec of r % 2 === 0 ? [specs.B, specs.C] : [specs.C, specs.B]) {
        const id = spec.id as 'B' | 'C'
        const scriptFile = path.join(RUN_DIR, `${id}-nginx.lua`)
        tool.prepare(scriptFile, spec.paths, { order: spec.order, accept: spec.accept })
        const load = { connections: opts.connections, threads: opts.threads, timeoutS: 30 }
        const base = `http://127.0.0.1:${PORTS.nginx}`
        if (opts.warmupS > 0) await tool.run(base, scriptFile, spec.paths, { ...load, durationS: opts.warmupS })
        const from = statSync(accessLog).size
        const cpu = { nginx: treeCpuMs(nginxPid), app: cluster.instances.reduce((t, i) => t + treeCpuMs(i.child.pid!), 0) }
        const { result, output } = await tool.run(base, scriptFile, spec.paths, { ...load, durationS: opts.durationS })
        writeFileSync(path.join(LOG_DIR, `load-nginx-r${r + 1}-${id}.txt`), output)
        // nginx writes its log line when the response is done: a moment for the last ones.
        await new Promise((resolve) => setTimeout(resolve, 300))
        const counted = cacheStatuses(accessLog, from)
        for (const [k, v] of Object.entries(counted)) statuses[id][k] = (statuses[id][k] ?? 0) + v
        if (result.requests === 0) failures.push(`nginx ${id}: no request completed`)
        if (result.errors.status > 0) failures.push(`nginx ${id}: ${result.errors.status} responses were not 2xx/3xx`)
        const appCpu = cluster.instances.reduce((t, i) => t + treeCpuMs(i.child.pid!), 0) - cpu.app
        const measured: Measured = {
          ...result,
          peakRssMB: 0,
          // Through the cache the server is nginx (and the instances behind it for the misses).
          cpuMsPerRequest: result.requests ? round((treeCpuMs(nginxPid) - cpu.nginx + appCpu) / result.requests, 3) : 0,
          pgCpuMsPerRequest: 0,
          connections: null,
        }
        perTarget[id].push(measured)
        const hits = counted.HIT ?? 0
        const total = Object.values(counted).reduce((a, b) => a + b, 0)
        log(
          `nginx-r${r + 1} ${id}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
            `X-Cache-Status ${JSON.stringify(counted)} (hits ${total ? ((100 * hits) / total).toFixed(1) : '–'} %)`,
        )
      }
    }
    const targets = Object.fromEntries(
      (['B', 'C'] as const).map((id) => {
        const rounds = perTarget[id]
        const total = Object.values(statuses[id]).reduce((a, b) => a + b, 0)
        const result: TargetResult & { cacheStatuses: Record<string, number>; hitRatio: number } = {
          label: `${specs[id].label}, anonymous, through nginx's cache`,
          url: cluster.url,
          paths: specs[id].paths.length,
          requestsPerSecond: round(mean(rounds.map((x) => x.requestsPerSecond)), 1),
          p50Ms: round(mean(rounds.map((x) => x.p50Ms))),
          p99Ms: round(mean(rounds.map((x) => x.p99Ms))),
          cpuMsPerRequest: round(mean(rounds.map((x) => x.cpuMsPerRequest)), 3),
          pgCpuMsPerRequest: 0,
          peakDbConnections: null,
          peakRssMB: 0,
          serverPeakRssMB: 0,
          rounds,
          cacheStatuses: statuses[id],
          hitRatio: total ? round((statuses[id].HIT ?? 0) / total, 3) : 0,
        }
        return [id, result]
      }),
    ) as ThroughCache['targets']
    return {
      instances,
      method:
        "npm run cluster's startCluster(): Debian's nginx (1 worker, proxy_cache following the app's Cache-Control) in front of the instances " +
        '(NODE_ENV=production, the same build and database); wrk as for the other targets, no cookies (anonymous); ' +
        "hit ratio from nginx's access log (X-Cache-Status) over the measured requests; CPU ms/request = nginx + the instances",
      targets,
    }
  } finally {
    cleanups.splice(cleanups.indexOf(stopCluster), 1)
    await cluster.stop()
  }
}

/**
 * The capacity model's inputs (docs/capacity.md derives from these), per request. PostgreSQL's CPU is net of
 * its background (the job worker's polling, autovacuum, the checkpointer): its CPU per second while only
 * targets that send no statement were measured (E, FB, FC), taken off at each target's rate.
 */
function capacityInputs(targets: Record<string, TargetResult>, statements: Record<string, StatementCount> | null) {
  const quiet = ['E', 'FB', 'FC', 'GB', 'GC', 'GBS', 'GCS'].map((id) => targets[id]).filter((t): t is TargetResult => t !== undefined)
  const backgroundMsPerSecond = quiet.length ? mean(quiet.map((t) => t.pgCpuMsPerRequest * t.requestsPerSecond)) : 0
  const perTarget = Object.fromEntries(
    (['A', 'B', 'C', 'D'] as const)
      .filter((id) => targets[id])
      .map((id) => {
        const t = targets[id]!
        const pg = Math.max(0, t.pgCpuMsPerRequest - backgroundMsPerSecond / t.requestsPerSecond)
        const held = t.peakDbConnections ? round((t.peakDbConnections.meanActive / t.requestsPerSecond) * 1000, 3) : null
        return [
          id,
          {
            serverCpuMs: t.cpuMsPerRequest,
            postgresCpuMs: round(pg, 3),
            requestsPerServerCore: round(1000 / t.cpuMsPerRequest, 0),
            requestsPerPostgresCore: pg > 0 ? round(1000 / pg, 0) : null,
            statements: statements?.[id]?.statementsPerRequest ?? null,
            postgresExecMs: statements?.[id]?.execMsPerRequest ?? null,
            // Little's law: connections busy on average = arrival rate × time each request holds one.
            connectionMsPerRequest: held,
            peakOpenConnections: t.peakDbConnections?.open ?? null,
          },
        ]
      }),
  )
  return { postgresBackgroundCpuMsPerSecond: round(backgroundMsPerSecond, 1), perTarget }
}

// ---------------------------------------------------------------------------

/** One run per run directory: a second `npm run bench` would delete the first one's database under it. */
function takeLock() {
  const lock = `${RUN_DIR}.lock`
  mkdirSync(CACHE_DIR, { recursive: true })
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, 'utf8'))
    let alive = false
    try {
      alive = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bench/run.ts')
    } catch {
      alive = false
    }
    if (alive) throw new Error(`another benchmark (pid ${pid}) is using ${path.relative(ROOT, RUN_DIR)}/; wait for it or stop it`)
  }
  writeFileSync(lock, String(process.pid))
  cleanups.unshift(async () => rmSync(lock, { force: true }))
}

async function main() {
  takeLock()
  rmSync(RUN_DIR, { recursive: true, force: true })
  mkdirSync(LOG_DIR, { recursive: true })
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
  log(
    `${smoke ? 'smoke run' : 'benchmark'}: ${opts.baseListings.toLocaleString('en')} listings${opts.scaleListings ? ` (+ A at ${opts.scaleListings.toLocaleString('en')})` : ''}, ` +
      `${opts.rounds} round(s) of ${opts.durationS} s after ${opts.warmupS} s warm-up at ${opts.connections} connections; logs in ${path.relative(ROOT, LOG_DIR)}/`,
  )
  const tool = await loadTool()
  log(`load generator: ${tool.name}`)
  if (opts.lighthouseRuns > 0 && !existsSync(CHROME_PATH)) throw new Error(`Chromium not found at ${CHROME_PATH} (set CHROME_PATH)`)

  if (!opts.seedOnly) {
    buildAll()
    if (!opts.keep && !opts.appBuild) cleanups.push(async () => rmSync(path.join(ROOT, APP_BUILD), { recursive: true, force: true }))
  }

  const seed = (listings: number) =>
    ensureSeededCluster({
      root: ROOT,
      cacheDir: CACHE_DIR,
      listings,
      pgPort: PORTS.seedPg,
      log,
      logFile: path.join(LOG_DIR, `seed-${listings}.log`),
    })
  const base = await seed(opts.baseListings)
  const scale = opts.scaleListings ? await seed(opts.scaleListings) : null
  if (opts.seedOnly) {
    log('seeded clusters are cached; --seed-only: done')
    return
  }

  let cluster: EmbeddedDatabase | undefined
  // Cleanups run last-pushed first: stop the cluster, then drop its copy (the cache keeps the original).
  if (!opts.keep) cleanups.push(async () => rmSync(path.join(RUN_DIR, 'pg'), { recursive: true, force: true }))
  cleanups.push(async () => {
    await cluster?.stop()
  })
  log('starting PostgreSQL on a fresh copy of the seeded cluster…')
  cluster = await startRunCluster({ cachedDir: base.dir, runDir: path.join(RUN_DIR, 'pg'), pgPort: PORTS.pg, log })
  const databaseUrl = cluster.connectionString()
  databaseUrlOfRun = databaseUrl
  pgPid = postmasterPid(cluster.dataDir)

  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const workload = await chooseWorkload(client, smoke ? 100 : 1000).finally(() => client.end())
  log(`queries: ${workload.queries.map((q) => q.query).join(' | ')}`)

  const shapeQueries = opts.shapes ? [...workload.queries, ...TEXT_AND_FACET_SHAPES] : workload.queries
  const plans = await compileFloorPlans(
    ROOT,
    databaseUrl,
    shapeQueries.map((q) => q.query),
  )
  const plansFile = path.join(RUN_DIR, 'floor-plans.json')
  writeFileSync(plansFile, JSON.stringify(plans, null, 2))
  const explain = await explainPlans(databaseUrl, plans)
  noteSeqScans(explain, opts.baseListings)

  const serviceEnv = await startEmulators()
  log('starting the app (NODE_ENV=production), floor D and floor E…')
  const floorFPaths = [...workload.queries.map((q) => `/marketplace?${q.query}`), ...floorFSlugs(workload).map((s) => `/listing/${s}`)]
  let servers = await startServers(databaseUrl, serviceEnv, plansFile, 'base', floorFPaths)
  const checks = await checkTargets(workload, true)
  log('A and D answer the same JSON for every query; B and C answer 200; floor F renders the same pages')
  if (opts.serve) {
    log(
      `serving until Ctrl-C: app http://localhost:${PORTS.app}, D http://127.0.0.1:${PORTS.floorD}, E http://localhost:${PORTS.floorE}, ` +
        `F http://127.0.0.1:${PORTS.floorF}, PostgreSQL ${databaseUrl}`,
    )
    await new Promise(() => {})
  }

  if (opts.shapes) {
    // D answers the extra shapes as A does, too.
    await checkTargets({ ...workload, queries: TEXT_AND_FACET_SHAPES }, false)
    await measureShapes(tool, shapeQueries, servers, databaseUrl)
    await stopServers(servers)
    return
  }
  const sessions = await signInForTheRun(databaseUrl, workload)
  const specs = targetSpecs(workload, sessions)
  const statements = await statementsPerRequest(databaseUrl, specs)
  const selected = [
    specs.A,
    specs.D,
    specs.B,
    specs.BS,
    specs.GB,
    specs.GBS,
    specs.FB,
    specs.E,
    specs.C,
    specs.CS,
    specs.GC,
    specs.GCS,
    specs.FC,
    specs.P,
    specs.SD,
  ].filter((t) => !opts.only || opts.only.includes(t.id))
  const targets = await loadRounds(tool, selected, servers, `${opts.baseListings / 1000}k`)
  const ratio = (a: TargetResult | undefined, b: TargetResult | undefined, field: 'requestsPerSecond' | 'p99Ms') =>
    a && b ? round(a[field] / b[field]) : (null as unknown as number)

  let openLoop: OpenLoopReport | null = null
  if (targets.A && targets.D) {
    log(`open loop: A and D at ${OPEN_LOOP_SHARES.map((s) => `${s * 100} %`).join(' and ')} of D's ${targets.D.requestsPerSecond} req/s…`)
    openLoop = await openLoopLatency(specs, targets.D.requestsPerSecond, targets.A.requestsPerSecond)
  }

  log('first-visit JavaScript…')
  const listingPath = `/listing/${workload.slugs[0]}`
  const pages = ['/', '/marketplace', listingPath]
  const firstVisitJs: Record<string, FirstVisitJs> = {}
  for (const page of pages) firstVisitJs[page] = await measureFirstVisitJs(`http://localhost:${PORTS.app}${page}`)
  const floorJs = await measureFirstVisitJs(`http://localhost:${PORTS.floorE}/`)
  for (const [page, js] of Object.entries(firstVisitJs)) {
    if (js.stripeFiles.length) warnings.push(`${page} loads Stripe code on first visit: ${js.stripeFiles.join(', ')}`)
  }

  const lighthouse: Record<string, LighthouseSummary | { error: string }> = {}
  if (opts.lighthouseRuns > 0) {
    const audits: Array<[string, string]> = [
      ...pages.map((page): [string, string] => [page, `http://localhost:${PORTS.app}${page}`]),
      ['E', `http://localhost:${PORTS.floorE}/`],
    ]
    for (const [page, url] of audits) {
      log(`Lighthouse ${page === 'E' ? 'floor E' : page} (${opts.lighthouseRuns} runs)…`)
      try {
        lighthouse[page] = await lighthouseMedian(ROOT, url, opts.lighthouseRuns, RUN_DIR, (m) => log(`Lighthouse: ${m}`))
        const s = lighthouse[page] as LighthouseSummary
        log(`Lighthouse ${page}: ${s.score} (LCP ${s.lcpMs} ms, TBT ${s.tbtMs} ms, CLS ${s.cls})`)
      } catch (error) {
        // The load figures are in hand: keep them, record the gap, and fail the run at the end.
        const message = error instanceof Error ? error.message : String(error)
        lighthouse[page] = { error: message }
        failures.push(`Lighthouse ${page}: ${message}`)
      }
    }
  }

  const appMemory = { serverPeakRssMB: Math.round(peakRssKb(servers.app.pid) / 1024) }
  await stopServers(servers)
  const throughCache = opts.only && !opts.only.includes('NGINX') ? null : await measureThroughCache(tool, specs, databaseUrl)
  if (opts.cpuProf) {
    const dir = path.join(RUN_DIR, 'profiles')
    const summaries = summarizeProfiles(dir)
    writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summaries, null, 2))
    // The busiest thread is the server's; the other is tsx's module loader.
    const idle = (x: (typeof summaries)[number]) => x.byArea.find((a) => a.area === '(idle)')?.percent ?? 0
    const main = [...summaries].sort((a, b) => idle(a) - idle(b))[0]
    if (main) {
      log(`CPU profile of the app (${path.relative(ROOT, dir)}/, open in Chrome DevTools), self time by area:`)
      for (const a of main.byArea.slice(0, 12)) console.log(`  ${a.percent.toFixed(1).padStart(5)} %  ${a.area}`)
      console.log('  top functions:')
      for (const f of main.topFunctions.slice(0, 12)) console.log(`  ${f.percent.toFixed(1).padStart(5)} %  ${f.fn} (${f.where})`)
    }
  }

  let scaleResults: BenchResults['scale'] = null
  if (scale && opts.scaleListings) {
    log(`restarting on ${opts.scaleListings.toLocaleString('en')} listings…`)
    await cluster.stop()
    cluster = await startRunCluster({ cachedDir: scale.dir, runDir: path.join(RUN_DIR, 'pg'), pgPort: PORTS.pg, log })
    databaseUrlOfRun = cluster.connectionString()
    pgPid = postmasterPid(cluster.dataDir)
    // Only A and D are measured at scale: floor F serves no page there.
    servers = await startServers(cluster.connectionString(), serviceEnv, plansFile, 'scale', [])
    const scaleExplain = await explainPlans(cluster.connectionString(), plans)
    noteSeqScans(scaleExplain, opts.scaleListings)
    const scaleChecks = await checkTargets(workload, false)
    const scaleTargets = await loadRounds(tool, [specs.A, specs.D], servers, `${opts.scaleListings / 1000}k`)
    await stopServers(servers)
    scaleResults = {
      listings: opts.scaleListings,
      checks: scaleChecks,
      explain: scaleExplain,
      targets: scaleTargets,
      'A/D': ratio(scaleTargets.A, scaleTargets.D, 'requestsPerSecond'),
      'p99(A)/p99(D)': ratio(scaleTargets.A, scaleTargets.D, 'p99Ms'),
      'p99(A)/p99(A at base)': ratio(scaleTargets.A, targets.A, 'p99Ms'),
    }
  }

  const results: BenchResults = {
    command: commandLine(),
    date: new Date().toISOString(),
    smoke,
    cores: os.cpus().length,
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryMB: Math.round(os.totalmem() / 2 ** 20),
      node: process.version,
      loadAverageAtEnd: os.loadavg().map((l) => round(l)),
    },
    tool: tool.name,
    method: {
      connections: opts.connections,
      threads: opts.threads,
      durationS: opts.durationS,
      warmupS: opts.warmupS,
      rounds: opts.rounds,
      order:
        'alternating: A D B BS GB GBS FB E C CS GC GCS FC P SD, then the reverse; figures are the mean over rounds, peak RSS the maximum',
      appMode: 'NODE_ENV=production, production build, real configuration; emulators for Supabase Auth and Stripe run outside the server',
    },
    listings: opts.baseListings,
    seeding: { cached: !base.seededNow, seconds: base.seedSeconds },
    queries: workload.queries,
    workloadMatches: workload.matches,
    checks,
    explain,
    targets,
    'A/D': ratio(targets.A, targets.D, 'requestsPerSecond'),
    'B/E': ratio(targets.B, targets.E, 'requestsPerSecond'),
    'C/E': ratio(targets.C, targets.E, 'requestsPerSecond'),
    'B/F': ratio(targets.B, targets.FB, 'requestsPerSecond'),
    'C/F': ratio(targets.C, targets.FC, 'requestsPerSecond'),
    // Issue 28.2: what we add over the framework (database, middleware, loaders, session), and what it costs over React alone.
    'B/G': ratio(targets.B, targets.GB, 'requestsPerSecond'),
    'C/G': ratio(targets.C, targets.GC, 'requestsPerSecond'),
    // Issue 28.3: the same pages signed in, against floor G serving the same signed-in documents; against the anonymous one, reported.
    'B signed in/G': ratio(targets.BS, targets.GBS, 'requestsPerSecond'),
    'C signed in/G': ratio(targets.CS, targets.GCS, 'requestsPerSecond'),
    'B signed in/anonymous G': ratio(targets.BS, targets.GB, 'requestsPerSecond'),
    'C signed in/anonymous G': ratio(targets.CS, targets.GC, 'requestsPerSecond'),
    'G/F (B)': ratio(targets.GB, targets.FB, 'requestsPerSecond'),
    'G/F (C)': ratio(targets.GC, targets.FC, 'requestsPerSecond'),
    'p99(A)/p99(D)': ratio(targets.A, targets.D, 'p99Ms'),
    // Issue 28.1: the budgets read A and D each at the same share of its own closed-loop maximum.
    'p99(A)/p99(D) at 50 %': openLoop?.rates[0]?.ownShare?.['p99(A)/p99(D)'] ?? (null as unknown as number),
    'p99(A)/p99(D) at 80 %': openLoop?.rates[1]?.ownShare?.['p99(A)/p99(D)'] ?? (null as unknown as number),
    "p99(A)/p99(D) at 50 % of D's max": openLoop?.rates[0]?.['p99(A)/p99(D)'] ?? null,
    "p99(A)/p99(D) at 80 % of D's max": openLoop?.rates[1]?.['p99(A)/p99(D)'] ?? null,
    openLoop,
    statementsPerRequest: statements,
    throughCache,
    // The capacity model's inputs (docs/capacity.md derives from these): per request, measured above.
    capacityInputs: capacityInputs(targets, statements),
    // The same ratios within each round (subject and floor measured back to back): how much of the spread is the machine.
    ratiosByRound: Array.from({ length: opts.rounds }, (_, i) => {
      const at = (id: string) => targets[id]?.rounds[i]
      const r = (a: LoadResult | undefined, b: LoadResult | undefined, field: 'requestsPerSecond' | 'p99Ms') =>
        a && b ? round(a[field] / b[field]) : null
      return {
        'A/D': r(at('A'), at('D'), 'requestsPerSecond'),
        'B/E': r(at('B'), at('E'), 'requestsPerSecond'),
        'C/E': r(at('C'), at('E'), 'requestsPerSecond'),
        'B/F': r(at('B'), at('FB'), 'requestsPerSecond'),
        'C/F': r(at('C'), at('FC'), 'requestsPerSecond'),
        'B/G': r(at('B'), at('GB'), 'requestsPerSecond'),
        'C/G': r(at('C'), at('GC'), 'requestsPerSecond'),
        'B signed in/G': r(at('BS'), at('GBS'), 'requestsPerSecond'),
        'C signed in/G': r(at('CS'), at('GCS'), 'requestsPerSecond'),
        'p99(A)/p99(D)': r(at('A'), at('D'), 'p99Ms'),
      }
    }),
    scale: scaleResults,
    appMemory,
    firstVisitJs: {
      pages: Object.fromEntries(
        Object.entries(firstVisitJs).map(([page, js]) => [
          page,
          { gzipKB: round(js.gzipBytes / 1024, 1), rawKB: round(js.bytes / 1024, 1), files: js.files, stripeFiles: js.stripeFiles },
        ]),
      ),
      floorE: { gzipKB: round(floorJs.gzipBytes / 1024, 1), rawKB: round(floorJs.bytes / 1024, 1), files: floorJs.files },
      ratios: Object.fromEntries(Object.entries(firstVisitJs).map(([page, js]) => [page, round(js.gzipBytes / floorJs.gzipBytes)])),
    },
    lighthouse: opts.lighthouseRuns > 0 ? lighthouse : null,
    warnings,
    durationS: Math.round((Date.now() - started) / 1000),
  }
  results.budgets = budgets(results)

  if (opts.only) {
    writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`)
    console.log(`\n${renderMarkdown(results)}`)
    log(`partial results (--only): ${path.relative(ROOT, RESULTS_FILE)}`)
    return
  }
  const missing = REQUIRED_KEYS.filter((key) => !(key in results) || (results as unknown as Record<string, unknown>)[key] === undefined)
  if (missing.length) failures.push(`results lack keys: ${missing.join(', ')}`)
  for (const id of ['A', 'B', 'C', 'D', 'E', 'FB', 'FC', 'GB', 'GC'] as const) {
    const t = results.targets[id]
    if (!t || !Number.isFinite(t.requestsPerSecond) || !Number.isFinite(t.p99Ms)) failures.push(`target ${id} has no figures`)
  }
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`)
  // Validate what was written, as a reader of the file would see it.
  const reread = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>
  for (const key of REQUIRED_KEYS)
    if (typeof reread[key] !== 'number' && key.includes('/')) failures.push(`${key} is not a number in ${RESULTS_FILE}`)

  console.log(`\n${renderMarkdown(results)}`)
  for (const w of warnings) log(`warning: ${w}`)
  log(`results: ${path.relative(ROOT, RESULTS_FILE)} (${results.durationS} s)`)
}

try {
  await main()
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error))
} finally {
  await cleanup()
}
if (failures.length) {
  for (const f of failures) console.error(`[bench] FAILED: ${f}`)
  process.exit(1)
}
process.exit(0)
