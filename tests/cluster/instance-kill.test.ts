import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../db/ports.ts'
import { startCluster, type Cluster } from '../../scripts/cluster/start-cluster.ts'
import { emulatorAccessToken } from '../drills/support.ts'

// Issue 20: one of two instances behind nginx is killed (SIGKILL: no goodbye, its connections
// reset) while a client keeps sending reads and writes. Nothing the client was told had succeeded
// may be lost — every 2xx write's row is in the database — and after the kill every request is
// answered by the other instance: nginx passes a request that failed to connect (or an
// idempotent one that failed in flight) on to the next instance.

const logs: string[] = []
let cluster: Cluster
let dataDir: string
let token: string

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-kill-'))
  cluster = await startCluster({
    instances: 2,
    // nginx cannot bind port 0 and say which it got: its port is probed (db/ports.ts). The instances and the
    // emulators bind port 0 themselves and report or return the port they got (issue 26.18).
    port: await freePort(),
    host: '127.0.0.1',
    dataDir,
    seedDemoData: false,
    log: (line) => logs.push(line),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      BUILD_DIR: process.env.BUILD_DIR ?? 'build',
      SKIP_BUILD: process.env.SKIP_BUILD,
      // The database of this test worker (tests/setup): the cluster migrates nothing new and seeds nothing.
      DATABASE_URL: process.env.DATABASE_URL,
      SUPABASE_EMULATOR_PORT: '0',
      STRIPE_EMULATOR_PORT: '0',
      GITHUB_EMULATOR_PORT: '0',
      MAIL_EMULATOR_SMTP_PORT: '0',
      MAIL_EMULATOR_WEB_PORT: '0',
      S3_EMULATOR_PORT: '0',
      RATE_LIMIT_MULTIPLIER: '1000',
      LOG_SILENT: 'true',
    },
  })
  token = await emulatorAccessToken(cluster.sharedEnv.SUPABASE_URL!, `kill-${Date.now()}@example.com`)
  const synced = await fetch(`${cluster.url}/api/users/sync`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
  expect(synced.status).toBe(200)
}, 300_000)

afterAll(async () => {
  await cluster?.stop()
  rmSync(dataDir, { recursive: true, force: true })
}, 120_000)

interface Outcome {
  kind: 'read' | 'write'
  /** The write's own key: the listing title it creates. */
  key?: string
  status: number
  /** The created listing's id (a 2xx write). */
  id?: string
  /** A write answered with the listing an earlier try made (Idempotent-Replayed). */
  replayed?: boolean
  error?: string
  startedAt: number
  endedAt: number
}

/** A read, or a listing creation (`key`: its title, with dashes for spaces its Idempotency-Key; a retry sends the same). */
async function send(kind: 'read' | 'write', n: number, retryKey?: string): Promise<Outcome> {
  const startedAt = Date.now()
  const key = kind === 'write' ? (retryKey ?? `Kill test listing ${n} ${crypto.randomUUID()}`) : undefined
  try {
    const response =
      kind === 'read'
        ? await fetch(`${cluster.url}/api/listings?sort=newest&limit=5`, { headers: { Authorization: `Bearer ${token}` } })
        : await fetch(`${cluster.url}/api/listings`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key!.replaceAll(' ', '-') },
            body: JSON.stringify({
              title: key,
              shortDescription: 'Made during the instance-kill test.',
              type: 'template',
              licence: 'commercial',
              priceCents: 4900,
            }),
          })
    const body = await response.text()
    const id = kind === 'write' && response.ok ? (JSON.parse(body) as { id: string }).id : undefined
    const replayed = response.headers.get('Idempotent-Replayed') === 'true'
    return { kind, key, status: response.status, id, replayed, startedAt, endedAt: Date.now() }
  } catch (error) {
    return {
      kind,
      key,
      status: 0,
      error: error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error),
      startedAt,
      endedAt: Date.now(),
    }
  }
}

describe('an instance killed mid-run', () => {
  it(
    'loses no request the client was told succeeded, the other instance answers the rest, and the dead one is started again',
    { timeout: 180_000 },
    async () => {
      const [victim, survivor] = cluster.instances
      const outcomes: Outcome[] = []
      let n = 0
      let running = true
      // Four clients, each sending a write then a read, one after the other, without pause.
      const clients = Array.from({ length: 4 }, async () => {
        while (running) {
          outcomes.push(await send('write', n++))
          outcomes.push(await send('read', n++))
        }
      })
      await new Promise((resolve) => setTimeout(resolve, 4_000))
      const killedAt = Date.now()
      victim!.child.kill('SIGKILL')
      await victim!.exited
      // The process is gone (its sockets closed by the kernel): from here on, nothing may fail.
      const deadAt = Date.now()
      await new Promise((resolve) => setTimeout(resolve, 6_000))
      running = false
      await Promise.all(clients)

      const before = outcomes.filter((o) => o.endedAt < killedAt)
      const after = outcomes.filter((o) => o.startedAt > deadAt)
      const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300)
      console.log(
        `instance-kill: ${outcomes.length} requests (${before.length} before the kill, ${after.length} after it died ${deadAt - killedAt} ms later); ` +
          `failed: ${failed.map((o) => `${o.kind} ${o.status || o.error}`).join(', ') || 'none'}`,
      )
      const context = JSON.stringify(outcomes.filter((o) => o.status < 200 || o.status >= 300).slice(0, 10))
      expect(before.length, 'requests before the kill').toBeGreaterThan(20)
      expect(after.length, 'requests after the kill').toBeGreaterThan(20)
      // Both instances took requests before the kill (nginx's log names the upstream of each).
      const accessLog = readFileSync(path.join(dataDir, 'nginx', 'access.log'), 'utf8')
      expect(accessLog).toContain(`upstream=127.0.0.1:${victim!.port}`)
      expect(accessLog).toContain(`upstream=127.0.0.1:${survivor!.port}`)

      // A write that failed (in flight at the kill: it may or may not have been applied) is retried with
      // its Idempotency-Key, as a client does (decision 026): each ends 2xx, and none is applied twice.
      const failedWrites = outcomes.filter((o) => o.kind === 'write' && (o.status < 200 || o.status >= 300))
      const retries = await Promise.all(failedWrites.map((o) => send('write', n++, o.key)))
      expect(retries.map((o) => o.status)).toEqual(failedWrites.map(() => 201))
      console.log(
        `instance-kill: ${retries.length} failed writes retried with their key, ${retries.filter((o) => o.replayed).length} of them had been applied`,
      )

      // Every write the client was told succeeded is in the database, under its own key, once.
      const written = [...outcomes, ...retries].filter((o) => o.kind === 'write' && o.status >= 200 && o.status < 300)
      expect(written.filter((o) => o.status === 201)).toHaveLength(outcomes.filter((o) => o.kind === 'write').length)
      expect(written.length).toBeGreaterThan(20)
      const client = new pg.Client({ connectionString: cluster.databaseUrl })
      await client.connect()
      try {
        const rows = (
          await client.query<{ id: string; title: string }>('SELECT id, title FROM listings WHERE id = ANY($1::uuid[])', [
            written.map((o) => o.id),
          ])
        ).rows
        const stored = new Map(rows.map((row) => [row.id, row.title]))
        for (const write of written) expect(stored.get(write.id!), `listing ${write.id} (${write.key})`).toBe(write.key)
        const titles = (
          await client.query<{ title: string; count: string }>(
            `SELECT title, count(*) FROM listings WHERE title LIKE 'Kill test listing %' GROUP BY title HAVING count(*) > 1`,
          )
        ).rows
        expect(titles, 'no write was applied twice').toEqual([])
      } finally {
        await client.end()
      }

      // Reads are idempotent: one cut in flight is passed on to the other instance, so none fails.
      expect(
        outcomes.filter((o) => o.kind === 'read' && o.status !== 200),
        context,
      ).toEqual([])
      // A write cut in flight is not resent by nginx (it may have been applied): at most the four in flight fail.
      expect(failedWrites.length, context).toBeLessThanOrEqual(4)
      for (const failed of failedWrites) {
        expect(failed.startedAt, `only a write in flight while the instance died fails: ${context}`).toBeLessThanOrEqual(deadAt)
      }
      // After the kill, everything succeeds, through the survivor.
      expect(
        after.filter((o) => o.status < 200 || o.status >= 300),
        context,
      ).toEqual([])
      expect(survivor!.child.exitCode).toBeNull()

      // The cluster starts the dead instance again on its port (1 s after it died), and nginx, once its
      // fail_timeout has passed, sends it requests again.
      await expect.poll(() => victim!.restarts, { timeout: 10_000 }).toBe(1)
      await expect
        .poll(async () => (await fetch(`${victim!.url}/healthz`).catch(() => null))?.status, { timeout: 60_000, interval: 500 })
        .toBe(200)
      // Requests the victim itself answered (a line names each upstream nginx tried, with its status).
      const servedByVictim = () =>
        readFileSync(path.join(dataDir, 'nginx', 'access.log'), 'utf8').split(`upstream=127.0.0.1:${victim!.port} upstream_status=200`)
          .length - 1
      const beforeRestart = servedByVictim()
      await expect
        .poll(
          async () => {
            for (let i = 0; i < 4; i++) expect((await send('read', n++)).status).toBe(200)
            return servedByVictim()
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBeGreaterThan(beforeRestart)
      expect(
        logs.some((line) => /instance 1 exited \(SIGKILL\).*restarting it in 1 s/.test(line)),
        logs.join('\n'),
      ).toBe(true)
      expect(
        logs.some((line) => /instance 1 is back at/.test(line)),
        logs.join('\n'),
      ).toBe(true)
    },
  )
})
