/**
 * `npm run drill:outage` — the database-outage drill of the hardening issue.
 * The drill owns a real PostgreSQL (embedded) and points the app at it with
 * DATABASE_URL; under write load it kills PostgreSQL abruptly (SIGQUIT, what
 * `pg_ctl stop -m immediate` sends), keeps it down for 10 s, starts it again,
 * and checks: requests during the outage fail fast with 503, /healthz says
 * 503, the app recovers within 5 s of the database returning, and every write
 * answered with success is in the database afterwards.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedPostgres } from '../../db/embedded.ts'
import { startAuthEmulator } from '../../emulators/supabase-auth/server.ts'
import { emulatorAccessToken, reportDrill, startApp, stopApp } from './support.ts'

const OUTAGE_MS = 10_000
const WRITERS = 6

interface Attempt {
  startedAt: number
  ms: number
  status: number | 'network-error'
  id?: string
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-drill-'))
// mkdtemp makes it 0700; embedded PostgreSQL's initdb (run as the postgres user under root) must enter it.
chmodSync(dataDir, 0o755)
// No port: a free one is chosen, and another if PostgreSQL finds it taken (it cannot bind port 0 and say which).
const database = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg') })
// The drill signs in at the auth emulator: started here, on a port it binds itself, and handed to the app.
const auth = await startAuthEmulator({ port: 0 })
const { child: app, url: base } = await startApp({
  DATABASE_URL: database.connectionString(),
  DATA_DIR: path.join(dataDir, 'app'),
  SEED_DEMO_DATA: 'false',
  SUPABASE_URL: auth.url,
  SUPABASE_ANON_KEY: auth.anonKey,
  RATE_LIMIT_MULTIPLIER: '1000',
  LOG_SILENT: 'true',
  SKIP_BUILD: process.env.SKIP_BUILD ?? 'false',
})
let outageStart = 0
let outageEnd = 0
const attempts: Attempt[] = []
let stop = false

try {
  const token = await emulatorAccessToken(auth.url, 'drill@example.com')

  async function writer(n: number) {
    let i = 0
    while (!stop) {
      const startedAt = Date.now()
      const body = {
        title: `Drill listing ${n}-${i++}`,
        shortDescription: 'Written during the database outage drill.',
        type: 'template',
        priceCents: 1000,
        licence: 'personal',
      }
      try {
        const response = await fetch(`${base}/api/listings`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        })
        const json = (await response.json().catch(() => ({}))) as { listing?: { id?: string }; id?: string }
        attempts.push({ startedAt, ms: Date.now() - startedAt, status: response.status, id: json.listing?.id ?? json.id })
      } catch {
        attempts.push({ startedAt, ms: Date.now() - startedAt, status: 'network-error' })
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  const writers = Array.from({ length: WRITERS }, (_, n) => writer(n))
  await new Promise((r) => setTimeout(r, 5_000))

  outageStart = Date.now()
  await database.kill()
  await new Promise((r) => setTimeout(r, 1_000))
  const healthDuring = (await fetch(`${base}/healthz`)).status
  await new Promise((r) => setTimeout(r, OUTAGE_MS - 1_000))
  await database.start()
  outageEnd = Date.now()

  let recoveredAt = 0
  while (!recoveredAt && Date.now() - outageEnd < 30_000) {
    const health = await fetch(`${base}/healthz`).then(
      (r) => r.status,
      () => 0,
    )
    if (health === 200) recoveredAt = Date.now()
    else await new Promise((r) => setTimeout(r, 100))
  }
  await new Promise((r) => setTimeout(r, 3_000))
  stop = true
  await Promise.all(writers)

  const during = attempts.filter((a) => a.startedAt >= outageStart + 500 && a.startedAt + a.ms <= outageEnd)
  const succeeded = attempts.filter((a) => a.status === 201 || a.status === 200)
  const client = new pg.Client({ connectionString: database.connectionString() })
  await client.connect()
  const ids = succeeded.map((a) => a.id).filter((id): id is string => Boolean(id))
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM listings WHERE id = ANY($1::uuid[])', [ids])
  await client.end()

  const report = {
    date: new Date().toISOString(),
    outageSeconds: (outageEnd - outageStart) / 1000,
    writers: WRITERS,
    requests: attempts.length,
    succeeded: succeeded.length,
    duringOutage: {
      requests: during.length,
      statuses: Object.fromEntries(
        [...new Set(during.map((a) => String(a.status)))].map((s) => [s, during.filter((a) => String(a.status) === s).length]),
      ),
      slowestMs: Math.max(0, ...during.map((a) => a.ms)),
    },
    healthzDuringOutage: healthDuring,
    recoverySeconds: recoveredAt ? (recoveredAt - outageEnd) / 1000 : null,
    acknowledgedWrites: ids.length,
    acknowledgedWritesFound: rows[0]!.n,
  }
  console.log(JSON.stringify(report, null, 2))
  reportDrill([
    during.length === 0 && 'no request was made during the outage',
    during.some((a) => a.status !== 503) && 'a request during the outage did not answer 503',
    report.duringOutage.slowestMs > 10_000 && 'a request hung past 10 s',
    healthDuring !== 503 && '/healthz did not answer 503 during the outage',
    (report.recoverySeconds === null || report.recoverySeconds > 5) && 'the app did not recover within 5 s',
    report.acknowledgedWritesFound !== report.acknowledgedWrites && 'an acknowledged write is missing',
    ids.length !== succeeded.length && 'a success answer carried no id',
  ])
} finally {
  stop = true
  await stopApp(app)
  await auth.close()
  await database.stop().catch(() => {})
  rmSync(dataDir, { recursive: true, force: true })
}
