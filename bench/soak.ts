/**
 * `npm run soak` — does the app's memory level off under a long mixed load? (issue 28.4)
 *
 *   npm run soak                                  10 minutes, ~1,000 purchases, 10,000 listings
 *   npm run soak -- --minutes 3 --purchases 200   shorter
 *
 * One app instance in production mode (`server.ts`, its own process: the one measured) on its own
 * embedded PostgreSQL with 10,000 bulk listings and the demo data, the emulators in this process
 * (startCluster(), as `npm run cluster` runs them: nginx is started but not used — the load goes to
 * the instance, so no cache answers for it). For the whole run: searches, filtered marketplace pages,
 * listing pages, the home page and the listings API from a few connections at once, and purchases
 * spread evenly over the run — each a buyer signed in at the auth emulator (their own client address),
 * `POST /api/listings/:id/purchase`, the card confirmed at the Stripe emulator, which sends the app
 * its signed `payment_intent.succeeded`; the app then writes the sale, the ledger and the mails.
 *
 * The instance's RSS is sampled every 5 s, during the load and for a minute after it. It levels off
 * when the last third of the load grows it by at most 10 % or 30 MB, whichever is more, over the middle third; the run
 * fails when it does not, when a page answers other than 200, or when a confirmed payment never
 * becomes a paid sale. Results: bench/results/soak.json.
 */
// First, as in server.ts: the emulators in this process collect their heap as `npm start`'s process does.
import '../app/server/infra/heap-policy.server.ts'
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { quietAwsSdkNodeNotice } from '../app/server/infra/env.server.ts'
import { createDb } from '../db/connection.ts'
import { startEmbeddedPostgres } from '../db/embedded.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { startCluster } from '../scripts/cluster/start-cluster.ts'
import { productionClusterEnv } from './lib/cluster-env.ts'
import { treeRssKb } from './lib/processes.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    purchases: { type: 'string', default: '1000' },
    listings: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '4' },
    'port-base': { type: 'string', default: '3960' },
    results: { type: 'string', default: path.join(ROOT, 'bench', 'results', 'soak.json') },
  },
})
const number = (name: keyof typeof args) => {
  const value = Number(args[name])
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number (got ${args[name]})`)
  return value
}
const LOAD_MS = number('minutes') * 60_000
// Each third of the load needs samples of its own (every 5 s) for the verdict to mean anything.
if (LOAD_MS < 60_000) throw new Error('--minutes must be at least 1')
const PURCHASES = Math.round(number('purchases'))
const LISTINGS = Math.round(number('listings'))
const CONNECTIONS = Math.round(number('connections'))
const PORT_BASE = Math.round(number('port-base'))
const SAMPLE_MS = 5_000
const IDLE_MS = 60_000
const DATA_DIR = path.join(ROOT, 'bench', '.cache', 'soak')
const BUILD_DIR = 'build-soak'
const started = Date.now()
const log = (message: string) => console.log(`[soak ${String(Math.round((Date.now() - started) / 1000)).padStart(4)}s] ${message}`)

interface Sample {
  /** Seconds since the load began (negative: before it). */
  t: number
  phase: 'load' | 'idle'
  appRssMb: number
  /** This process: the emulators (and the load generator). */
  emulatorsRssMb: number
  pages: number
  purchasesConfirmed: number
}

const SEARCH_WORDS = ['dashboard', 'react', 'analytics', 'starter', 'authentication', 'invoice', 'kanban', 'blog', 'quokka', 'portfolio']
const LANGUAGES = ['TypeScript', 'Python', 'Go', 'Rust', 'Ruby', 'JavaScript']
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!

async function main() {
  // The instance inherits it: the AWS SDK's Node 20 notice is not printed.
  quietAwsSdkNodeNotice()
  rmSync(DATA_DIR, { recursive: true, force: true })
  mkdirSync(DATA_DIR, { recursive: true })
  log(`building the app into ${BUILD_DIR}/…`)
  const build = spawnSync('npx', ['react-router', 'build'], {
    cwd: ROOT,
    env: { ...process.env, BUILD_DIR, NODE_ENV: 'production' },
    encoding: 'utf8',
  })
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`)

  const pgPort = PORT_BASE + 20_000
  log(`PostgreSQL on ${pgPort}: migrating, ${LISTINGS.toLocaleString('en')} bulk listings…`)
  const database = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), port: pgPort })
  const databaseUrl = database.connectionString()
  const db = createDb(databaseUrl, { max: 2, applicationName: 'forkmarket-soak' })
  await migrateToLatest(db)
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'db/seed/bulk.ts', '--listings', String(LISTINGS)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  })
  if (seed.status !== 0) throw new Error(`the bulk seeder failed:\n${seed.stdout}\n${seed.stderr}`)

  const cluster = await startCluster({
    instances: 1,
    port: PORT_BASE,
    host: '127.0.0.1',
    dataDir: path.join(DATA_DIR, 'cluster'),
    seedDemoData: true,
    log: (line) => log(`cluster: ${line}`),
    env: productionClusterEnv({ buildDir: BUILD_DIR, databaseUrl, portBase: PORT_BASE }),
  })
  let failure: string | undefined
  try {
    const { createSession, demoStripe: stripe } = cluster.services
    if (!createSession || !stripe)
      throw new Error('the soak needs the auth and Stripe emulators (unset SUPABASE_URL and STRIPE_SECRET_KEY)')
    const instance = cluster.instances[0]!
    const appUrl = instance.url
    const pid = instance.child.pid!

    const slugs = (
      await db.selectFrom('listings').select('slug').where('visible', '=', true).where('archivedAt', 'is', null).execute()
    ).map((row) => row.slug)

    // The purchases: a buyer per client address, each buying five of the listings that sell without GitHub.
    let buyers = 0
    const signIn = async () => {
      // This buyer's number, taken before the await: the other purchase loop may sign one in meanwhile.
      const n = ++buyers
      const session = await createSession({ email: `soak-buyer-${n}@soak.forkmarket.dev`, fullName: `Soak Buyer ${n}` })
      return { token: session.access_token, address: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }
    }
    const startPurchase = async (buyer: { token: string; address: string }, listingId: string) => {
      const response = await fetch(`${appUrl}/api/listings/${listingId}/purchase`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${buyer.token}`, 'X-Forwarded-For': buyer.address },
      })
      const body = (await response.json()) as { clientSecret?: string; error?: string }
      if (!response.ok) throw new Error(`POST /api/listings/${listingId}/purchase answered ${response.status}: ${body.error}`)
      return body.clientSecret
    }
    // Which listings sell without GitHub, asked of the app itself (a new probe buyer every 15: the purchase
    // limit is 20 a minute per address).
    let probe = await signIn()
    const candidates = await db
      .selectFrom('listings')
      .select('id')
      .where('visible', '=', true)
      .where('archivedAt', 'is', null)
      .where('githubRepoId', 'is', null)
      .orderBy('createdAt', 'desc')
      .limit(60)
      .execute()
    const sellable: string[] = []
    for (const [i, { id }] of candidates.entries()) {
      if (i > 0 && i % 15 === 0) probe = await signIn()
      if (await startPurchase(probe, id)) sellable.push(id)
    }
    if (sellable.length < 5) throw new Error(`only ${sellable.length} listings sell without GitHub`)
    const perBuyer = Math.min(sellable.length, 5)
    log(`${slugs.length.toLocaleString('en')} visible listings; ${sellable.length} sell without GitHub, ${perBuyer} bought by each buyer`)

    const samples: Sample[] = []
    const latencies: number[] = []
    let pages = 0
    let confirmed = 0
    const errors: string[] = []
    const loadStart = Date.now()
    const loadEnd = loadStart + LOAD_MS
    const sample = (phase: Sample['phase']) =>
      samples.push({
        t: Math.round((Date.now() - loadStart) / 1000),
        phase,
        appRssMb: Math.round(treeRssKb(pid) / 1024),
        emulatorsRssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
        pages,
        purchasesConfirmed: confirmed,
      })
    sample('load')
    const sampler = setInterval(() => sample(Date.now() < loadEnd ? 'load' : 'idle'), SAMPLE_MS)

    const pagePath = () => {
      const roll = Math.random()
      if (roll < 0.3) return `/marketplace?search=${pick(SEARCH_WORDS)}&sortBy=newest`
      if (roll < 0.4) return `/marketplace?search=${pick(SEARCH_WORDS)}&languages=${pick(LANGUAGES)}`
      if (roll < 0.5) return `/marketplace?languages=${pick(LANGUAGES)}&sortBy=price-low`
      if (roll < 0.85) return `/listing/${pick(slugs)}`
      if (roll < 0.95) return '/'
      return `/api/listings?search=${pick(SEARCH_WORDS)}`
    }
    const pageLoop = async () => {
      while (Date.now() < loadEnd) {
        const target = pagePath()
        const t0 = performance.now()
        const response = await fetch(`${appUrl}${target}`, {
          headers: { Accept: target.startsWith('/api/') ? 'application/json' : 'text/html' },
        })
        await response.arrayBuffer()
        latencies.push(performance.now() - t0)
        pages += 1
        if (response.status !== 200) errors.push(`GET ${target}: ${response.status}`)
      }
    }
    let next = 0
    const purchaseLoop = async () => {
      let buyer = await signIn()
      let bought = 0
      while (Date.now() < loadEnd) {
        const index = next++
        if (index >= PURCHASES) return
        // Spread evenly over the load: purchase i starts at i / PURCHASES of it.
        const due = loadStart + (index * LOAD_MS) / PURCHASES
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()))
        if (bought === perBuyer) {
          buyer = await signIn()
          bought = 0
        }
        try {
          // The next listing whatever this attempt gives: a failure is counted, never retried on the same listing.
          const secret = await startPurchase(buyer, sellable[bought++]!)
          if (!secret) throw new Error('no clientSecret')
          await stripe.paymentIntents.confirm(secret.split('_secret_')[0]!, {
            payment_method_data: {
              type: 'card',
              // @ts-expect-error raw card numbers: the emulator accepts them as test mode does; the SDK does not type them
              card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
            },
          })
          confirmed += 1
        } catch (error) {
          errors.push(`purchase ${index}: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }
    log(`load: ${LOAD_MS / 60_000} min, ${CONNECTIONS} page connections, ${PURCHASES} purchases spread over it`)
    const progress = setInterval(() => {
      const last = samples.at(-1)!
      log(`t=${last.t}s app ${last.appRssMb} MB, emulators ${last.emulatorsRssMb} MB, ${pages} pages, ${confirmed} purchases`)
    }, 60_000)
    await Promise.all([...Array.from({ length: CONNECTIONS }, pageLoop), purchaseLoop(), purchaseLoop()])
    clearInterval(progress)

    // Every confirmed payment becomes a paid sale through the webhook.
    const paid = async () =>
      (
        await db
          .selectFrom('transactions')
          .innerJoin('users', 'users.id', 'transactions.buyerId')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('users.email', 'like', '%@soak.forkmarket.dev')
          .where('transactions.paidAtProvider', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n
    log(`load over: ${pages} pages, ${confirmed} purchases confirmed; idle for ${IDLE_MS / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
    clearInterval(sampler)
    sample('idle')
    const paidSales = await paid()
    // What the emulators (and this load generator) hold after a full collection (`npm run soak` runs with --expose-gc).
    const collect = (globalThis as { gc?: () => void }).gc
    collect?.()
    const emulatorsLiveHeapMb = collect ? Math.round(process.memoryUsage().heapUsed / 1024 / 1024) : null

    const during = samples.filter((s) => s.phase === 'load')
    const third = (k: number) => during.filter((s) => s.t >= (k * LOAD_MS) / 3000 && s.t < ((k + 1) * LOAD_MS) / 3000)
    const peak = (list: Sample[]) => Math.max(...list.map((s) => s.appRssMb))
    const middle = peak(third(1))
    const last = peak(third(2))
    const levelsOff = last <= Math.max(middle * 1.1, middle + 30)
    const sorted = [...latencies].sort((a, b) => a - b)
    const quantile = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
    const result = {
      date: new Date(started).toISOString(),
      machine: { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      command: `npm run soak -- --minutes ${LOAD_MS / 60_000} --purchases ${PURCHASES} --listings ${LISTINGS} --connections ${CONNECTIONS}`,
      load: { minutes: LOAD_MS / 60_000, connections: CONNECTIONS, pages, pagesPerSecond: Math.round(pages / (LOAD_MS / 1000)) },
      latencyMs: { p50: quantile(0.5), p99: quantile(0.99) },
      purchases: { planned: PURCHASES, confirmed, paidSales, buyers },
      appRssMb: {
        atStart: during[0]!.appRssMb,
        peakFirstThird: peak(third(0)),
        peakMiddleThird: middle,
        peakLastThird: last,
        afterIdle: samples.at(-1)!.appRssMb,
      },
      emulatorsRssMb: { atStart: during[0]!.emulatorsRssMb, atEnd: samples.at(-1)!.emulatorsRssMb, liveHeapAfterGc: emulatorsLiveHeapMb },
      levelsOff,
      errors: errors.slice(0, 20),
      errorCount: errors.length,
      samples,
    }
    writeFileSync(args.results!, `${JSON.stringify(result, null, 2)}\n`)
    log(`results: ${path.relative(ROOT, args.results!)}`)
    log(
      `app RSS ${result.appRssMb.atStart} MB at the start, peaks ${result.appRssMb.peakFirstThird} / ${middle} / ${last} MB by thirds, ` +
        `${result.appRssMb.afterIdle} MB after a minute idle; emulators ${result.emulatorsRssMb.atStart} → ${result.emulatorsRssMb.atEnd} MB ` +
        `(${emulatorsLiveHeapMb ?? '?'} MB live heap after a full collection)`,
    )
    log(
      `${pages} pages (p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms), ${confirmed} purchases confirmed, ${paidSales} paid sales`,
    )
    if (!levelsOff) failure = `the app's RSS did not level off: ${middle} MB at most in the middle third, ${last} MB in the last`
    else if (errors.length) failure = `${errors.length} errors, the first: ${errors[0]}`
    else if (paidSales !== confirmed) failure = `${confirmed} payments confirmed but ${paidSales} sales paid`
    else if (confirmed < PURCHASES * 0.95) failure = `only ${confirmed} of ${PURCHASES} purchases were made within the load`
  } finally {
    await cluster.stop()
    await db.destroy()
    await database.stop()
  }
  if (failure) {
    log(`FAILED: ${failure}`)
    process.exit(1)
  }
  log('passed: the app levels off')
}

main().catch((error: unknown) => {
  console.error(`[soak] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exit(1)
})
