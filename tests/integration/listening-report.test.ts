import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../app/server/infra/env.server.ts'
import { startLocalServices } from '../../emulators/local-services.ts'
import { spawnListening, type ListeningChild } from '../../scripts/spawn-listening.ts'
import { authAndStorageEnv } from '../support/services.ts'

// Issue 26.18: a port found free and handed to a child process could be taken before the child bound it
// (a test run failed with EADDRINUSE). A child now binds port 0 and reports the port it got over its IPC
// channel (decision 031); these are the reports and what follows the port.

const ROOT = path.resolve(import.meta.dirname, '../..')
const children: ListeningChild['child'][] = []
const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function temporaryDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forkmarket-listening-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The environment of this test worker without the runner's own variables and APP_URL (the port decides the origin). */
function childEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra }
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'APP_URL') delete env[name]
  return env
}

describe('a child process on port 0', () => {
  it('server.ts with PORT=0 reports the port it bound and answers /healthz there', { timeout: 200_000 }, async () => {
    const output: string[] = []
    const started = await spawnListening(['--import', 'tsx', 'server.ts', '--dev'], {
      cwd: ROOT,
      env: childEnv({
        NODE_ENV: 'development',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: temporaryDir(),
        ...authAndStorageEnv(),
        STRIPE_EMULATOR_PORT: '0',
        GITHUB_EMULATOR_PORT: '0',
        MAIL_EMULATOR_SMTP_PORT: '0',
        MAIL_EMULATOR_WEB_PORT: '0',
        SEED_DEMO_DATA: 'false',
        LOG_SILENT: 'false',
      }),
      onOutput: (chunk) => output.push(chunk.toString()),
      what: 'server.ts',
      timeoutMs: 180_000,
    })
    children.push(started.child)
    const port = started.ports.http!
    expect(port).toBeGreaterThan(0)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(health.status, output.join('')).toBe(200)
    // The person at the terminal reads the same port.
    expect(output.join('')).toContain(`Forkmarket is running at http://localhost:${port}`)
  })

  it('an emulator reports every port it bound (the mail catcher: SMTP and its inbox)', { timeout: 60_000 }, async () => {
    const started = await spawnListening(['--import', 'tsx', 'emulators/mail/main.ts'], {
      cwd: ROOT,
      env: childEnv({ DATA_DIR: temporaryDir(), MAIL_EMULATOR_SMTP_PORT: '0', MAIL_EMULATOR_WEB_PORT: '0' }),
      what: 'the mail emulator',
      timeoutMs: 50_000,
    })
    children.push(started.child)
    const { smtp, web } = started.ports
    expect(smtp).toBeGreaterThan(0)
    expect(web).toBeGreaterThan(0)
    expect(smtp).not.toBe(web)
    expect((await fetch(`http://127.0.0.1:${web}/`)).status).toBe(200)
  })

  it('a child that exits before it reports rejects with what it wrote', { timeout: 30_000 }, async () => {
    const failure = await spawnListening(['-e', 'console.error("cannot start: no database"); process.exit(3)'], {
      env: childEnv({}),
      what: 'the broken child',
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toMatch(
      /^the broken child exited \(code 3\) before it reported its port:\ncannot start: no database/,
    )
  })
})

describe('the emulators of an app that binds its port later', () => {
  it('send webhooks and redirects to the port setAppPort gives', { timeout: 60_000 }, async () => {
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: temporaryDir(),
      STORAGE: 'local',
      SUPABASE_EMULATOR_PORT: '0',
      STRIPE_EMULATOR_PORT: '0',
      GITHUB_EMULATOR_PORT: '0',
      MAIL_EMULATOR_SMTP_PORT: '0',
      MAIL_EMULATOR_WEB_PORT: '0',
    })
    const services = await startLocalServices({ config, dataDir: config.DATA_DIR, appPort: 0, log: () => {} })
    cleanups.push(() => services.stop())
    // The app, once it has bound its port: here a recorder of what reaches it.
    const received: string[] = []
    const app = createServer((request: IncomingMessage, response) => {
      received.push(`${request.method} ${request.url}`)
      request.resume()
      response.end('{}')
    })
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => app.close(() => resolve())))
    const appPort = (app.address() as AddressInfo).port
    services.setAppPort(appPort)

    const stripe = services.demoStripe!
    const intent = await stripe.paymentIntents.create({ amount: 4900, currency: 'eur', automatic_payment_methods: { enabled: true } })
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })
    await expect.poll(() => received, { timeout: 10_000 }).toContain('POST /api/stripe/webhook')

    // A sign-in without a usable redirect_to lands on the site URL: the app's, on its port.
    const consent = await fetch(`${services.supplied.SUPABASE_URL}/auth/v1/authorize/consent`, {
      method: 'POST',
      body: new URLSearchParams({ provider: 'github', email: 'port@example.com', full_name: 'Port Zero' }),
      redirect: 'manual',
    })
    expect(consent.headers.get('location')).toMatch(new RegExp(`^http://localhost:${appPort}[/?#]`))
  })
})
