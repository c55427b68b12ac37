import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENV_EXAMPLE_FILE, README_FILE, renderEnvExample, renderEnvTable } from '../../../tests/tools/env-docs.ts'
import { ConfigError, heapGrowingPercent, parseConfig } from './env.server.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://forkmarket:secret-password@db:5432/forkmarket',
  SESSION_SECRET: 'session-secret-value',
  BANK_DETAILS_KEY: 'bank-details-key-value',
  SUPABASE_URL: 'https://project.supabase.co',
  SUPABASE_ANON_KEY: 'anon-key',
  STRIPE_SECRET_KEY: 'sk_live_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_123',
}

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('configuration', () => {
  it('listens by default only on ports outside the ranges systems hand to outgoing connections (issue 26.18)', () => {
    // Linux's default ip_local_port_range, and the IANA dynamic range macOS and Windows use: a default port
    // in them can be taken by any outgoing connection (the embedded PostgreSQL's 54329 was).
    const ephemeral = (value: number) => (value >= 32_768 && value <= 60_999) || value >= 49_152
    const defaults = Object.entries(parseConfig({})).filter(([name]) => name === 'PORT' || name.endsWith('_PORT'))
    expect(defaults.length).toBeGreaterThanOrEqual(8)
    expect(defaults.filter(([, value]) => ephemeral(Number(value)))).toEqual([])
  })

  it('accepts an empty environment locally, with the documented defaults', () => {
    const config = parseConfig({})
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DB_POOL_MAX: 10,
      RATE_LIMIT_MULTIPLIER: 1,
      LOG_SILENT: false,
      ADMIN_EMAILS: [],
    })
    expect(config.DATABASE_URL).toBeUndefined()
  })

  it('accepts a complete production environment', () => {
    expect(problems(PRODUCTION)).toEqual([])
    expect(parseConfig({ ...PRODUCTION, ADMIN_EMAILS: ' Boss@Example.com, ,a@b.c' }).ADMIN_EMAILS).toEqual(['boss@example.com', 'a@b.c'])
  })

  it('refuses a malformed DATABASE_URL with one line naming it (and never echoes it)', () => {
    expect(problems({ DATABASE_URL: 'mysql://root:hunter2@db/forkmarket' })).toEqual([
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
    ])
    expect(problems({ ...PRODUCTION, DATABASE_URL: 'not a url' })).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL'])
  })

  it('refuses a missing production secret with one line naming it', () => {
    const { SESSION_SECRET: _, ...withoutSecret } = PRODUCTION
    expect(problems(withoutSecret)).toEqual(['SESSION_SECRET must be set in production'])
    expect(problems({ ...PRODUCTION, STRIPE_WEBHOOK_SECRET: '' })).toEqual(['STRIPE_WEBHOOK_SECRET must be set in production'])
  })

  it('names every bad variable at once, one line each', () => {
    expect(problems({ NODE_ENV: 'prod', PORT: 'eighty', RATE_LIMIT_MULTIPLIER: '0', LOG_SILENT: 'yes' })).toEqual([
      'NODE_ENV must be development, test or production (got "prod")',
      'PORT must be a port number (got "eighty")',
      'LOG_SILENT must be true or false (got "yes")',
      'RATE_LIMIT_MULTIPLIER must be a number above 0 (got "0")',
    ])
  })

  it.each([
    ['a malformed DATABASE_URL', { DATABASE_URL: 'mysql://db/forkmarket' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['a missing production secret', { ...PRODUCTION, SESSION_SECRET: '' }, 'SESSION_SECRET must be set in production'],
  ])(
    'npm start refuses %s with one line, before starting anything',
    (_, env, problem) => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(run.status).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr.trim().split('\n')).toEqual([`[forkmarket] invalid configuration: ${problem}`])
    },
    30_000,
  )

  it('is the only reader of process.env in the app, its launcher and the database scripts', () => {
    const files = [
      ...readdirSync(path.join(ROOT, 'app'), { recursive: true, encoding: 'utf8' }).map((file) => path.join('app', file)),
      ...readdirSync(path.join(ROOT, 'db'), { encoding: 'utf8' }).map((file) => path.join('db', file)),
      'server.ts',
      'emulators/local-services.ts',
    ].filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && file !== path.join('app', 'server', 'infra', 'env.server.ts'))
    const readers = files.filter((file) => /process\.env(\.|\[)/.test(readFileSync(path.join(ROOT, file), 'utf8')))
    expect(readers).toEqual([])
  })

  it('documents every variable in .env.example and the README (else: npm run gen:env-docs)', () => {
    expect(readFileSync(ENV_EXAMPLE_FILE, 'utf8')).toBe(renderEnvExample())
    expect(readFileSync(README_FILE, 'utf8')).toContain(renderEnvTable())
  })

  it('HEAP_GROWING_PERCENT: 50 unless set, 0 leaves V8 its own factor, anything else is refused (issue 28.1)', () => {
    expect(heapGrowingPercent({}).data).toBe(50)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: '' }).data).toBe(50)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: '0' }).data).toBe(0)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: '75' }).data).toBe(75)
    for (const bad of ['-5', '1.5', 'half', '5000']) expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: bad }).success, bad).toBe(false)
    // A bad value stops the server before it serves, with the variable's name.
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'heap-policy.server.ts')], {
      env: { ...process.env, HEAP_GROWING_PERCENT: 'half' },
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain("HEAP_GROWING_PERCENT must be a whole number of percent (0 for V8's own)")
  })
})
