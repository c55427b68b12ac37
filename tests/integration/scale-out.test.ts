import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnListening } from '../../scripts/spawn-listening.ts'
import { authAndStorageEnv, s3Emulator } from '../support/services.ts'
import { makeImage, signUp } from './listings-support.ts'

// Issue 20: two app processes (`server.ts`, each with its own memory and its own
// data directory) on one PostgreSQL and one S3-compatible store, as behind a
// load balancer. Nothing one instance needs may live only in the other: an
// image uploaded through instance 1 is served by instance 2, and a client's
// rate limit is the sum over both. The instances run `server.ts --dev` (Vite
// compiles the same app on demand), so the test needs no production build.

const ROOT = path.resolve(import.meta.dirname, '../..')

interface Instance {
  url: string
  child: ChildProcess
  dataDir: string
  output: string[]
}

const instances: Instance[] = []

async function startInstance(shared: Record<string, string>): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-instance-'))
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...shared,
    // Port 0 everywhere: each server binds a port the system picks and the instance reports its own (issue 26.18).
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // Each process starts its own Stripe, GitHub and mail stand-ins (nothing is shared through them here).
    STRIPE_EMULATOR_PORT: '0',
    GITHUB_EMULATOR_PORT: '0',
    MAIL_EMULATOR_SMTP_PORT: '0',
    MAIL_EMULATOR_WEB_PORT: '0',
  }
  delete env.APP_URL
  delete env.VITEST
  delete env.VITEST_POOL_ID
  delete env.VITEST_WORKER_ID
  const output: string[] = []
  // node itself (not npx), so SIGTERM reaches the server.
  const { child, ports } = await spawnListening(['--import', 'tsx', 'server.ts', '--dev'], {
    cwd: ROOT,
    env,
    onOutput: (chunk) => output.push(chunk.toString()),
    what: 'instance',
    timeoutMs: 150_000,
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  const instance = { url: `http://127.0.0.1:${ports.http}`, child, dataDir, output }
  instances.push(instance)
  // It reports its port once it serves: the first request is answered.
  expect((await fetch(`${instance.url}/healthz`)).status, output.join('')).toBe(200)
  return instance
}

beforeAll(async () => {
  const shared = {
    NODE_ENV: 'development',
    DATABASE_URL: process.env.DATABASE_URL!,
    SESSION_SECRET: process.env.SESSION_SECRET!,
    BANK_DETAILS_KEY: process.env.BANK_DETAILS_KEY!,
    ...authAndStorageEnv(),
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_MULTIPLIER: '1',
    LOG_SILENT: 'true',
  }
  // One after the other: both at once would compile the app twice in parallel on a small machine.
  await startInstance(shared)
  await startInstance(shared)
}, 320_000)

afterAll(async () => {
  await Promise.all(
    instances.map(async ({ child, dataDir }) => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await new Promise((r) => child.once('exit', r))
      }
      rmSync(dataDir, { recursive: true, force: true })
    }),
  )
}, 60_000)

describe('two app instances on one database and one object store', () => {
  it('serves through instance 2 an image uploaded through instance 1', { timeout: 120_000 }, async () => {
    const [one, two] = instances as [Instance, Instance]
    const seller = await signUp(`scale-out-${crypto.randomUUID()}@example.com`)
    const body = new FormData()
    body.append('images', new File([new Uint8Array(await makeImage('png'))], 'screen.png', { type: 'image/png' }))
    const uploaded = await fetch(`${one.url}/api/listings/upload-images`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${seller.token}`, Origin: one.url },
      body,
    })
    expect(uploaded.status, one.output.join('')).toBe(200)
    const { images } = (await uploaded.json()) as { images: string[] }
    expect(images).toHaveLength(1)

    const fromTwo = await fetch(`${two.url}${images[0]}`)
    expect(fromTwo.status, two.output.join('')).toBe(200)
    expect(fromTwo.headers.get('Content-Type')).toBe('image/webp')
    expect(fromTwo.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    const etag = fromTwo.headers.get('ETag')
    const bytes = Buffer.from(await fromTwo.arrayBuffer())
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP')
    // Both instances answer the same bytes with the same validator, and a revalidation at either is a 304.
    const fromOne = await fetch(`${one.url}${images[0]}`)
    expect([fromOne.headers.get('ETag'), Buffer.from(await fromOne.arrayBuffer()).equals(bytes)]).toEqual([etag, true])
    expect((await fetch(`${one.url}${images[0]}`, { headers: { 'If-None-Match': etag! } })).status).toBe(304)
    // Neither instance kept a file of it in its own data directory.
    expect(s3Emulator.store.head('forkmarket-uploads', images[0]!.slice('/uploads/'.length))).toBeDefined()
  })

  // 2 min: each instance runs in dev mode and compiles /login's modules on its first request (20 s here on a quiet
  // machine, over 60 s in a loaded CI run, 2026-11-28); a GET of the page first does that outside the count.
  it('gives a client the sign-in limit (10 a minute) across both instances, not at each', { timeout: 120_000 }, async () => {
    for (const instance of instances) expect((await fetch(`${instance.url}/login`)).status).toBe(200)
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    await client.query(`DELETE FROM rate_limits WHERE key LIKE 'sign-in:%'`)
    await client.end()
    const signIn = (instance: Instance) =>
      fetch(`${instance.url}/login`, {
        method: 'POST',
        body: new URLSearchParams({ provider: 'github' }),
        headers: { Origin: instance.url },
        redirect: 'manual',
      })
    const statuses: number[] = []
    // A load balancer's round robin: 1, 2, 1, 2…
    for (let i = 0; i < 10; i++) statuses.push((await signIn(instances[i % 2]!)).status)
    expect(statuses.every((s) => s === 302 || s === 303)).toBe(true)
    for (const instance of instances) {
      const refused = await signIn(instance)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    }
  })
})
