import pg from 'pg'
import { afterEach, describe, expect, inject, it, vi } from 'vitest'
import { consume, resetRateLimits, type RateLimit } from '../../app/server/http/rate-limit.server.ts'
import { setEnv } from '../support/config.ts'

// Rate limits are counted in PostgreSQL, so app instances share them (issue 20).
// "Another instance" here is a second copy of the app's modules (vi.resetModules):
// its own database pool, its own limiter objects and its own memory, on the same
// database, as a second process would have. tests/integration/scale-out.test.ts
// checks the same with two real server processes.

const LIMIT: RateLimit = { name: 'shared-test', limit: 10, windowMs: 60_000 }

async function secondInstance() {
  vi.resetModules()
  const limiter = await import('../../app/server/http/rate-limit.server.ts')
  const { db } = await import('../../app/server/infra/db.server.ts')
  return { consume: limiter.consume, close: () => db.destroy() }
}

afterEach(async () => {
  setEnv({ RATE_LIMIT_MULTIPLIER: '1000' })
  await resetRateLimits()
})

describe('rate limits shared by every instance', () => {
  it('two instances on one database give a client the limit in total, not the limit each', async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1' })
    await resetRateLimits()
    const other = await secondInstance()
    try {
      const answers: Array<number | null> = []
      // Alternate between the instances, as a load balancer would.
      for (let i = 0; i < 10; i++) answers.push(await (i % 2 === 0 ? consume : other.consume)(LIMIT, '203.0.113.50'))
      expect(answers).toEqual(Array(10).fill(null))
      const refusedHere = await consume(LIMIT, '203.0.113.50')
      const refusedThere = await other.consume(LIMIT, '203.0.113.50')
      expect(refusedHere).toBeGreaterThan(0)
      expect(refusedThere).toBeGreaterThan(0)
      expect(refusedThere).toBeLessThanOrEqual(60)
      // Another client is counted apart.
      expect(await other.consume(LIMIT, '198.51.100.50')).toBeNull()
    } finally {
      await other.close()
    }
  })

  it('keeps limiting in memory, per instance, while the database refuses connections, without delaying requests', async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1' })
    await resetRateLimits()
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1)
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') })
    await admin.connect()
    try {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])
      const started = Date.now()
      const answers: Array<number | null> = []
      for (let i = 0; i < 11; i++) answers.push(await consume(LIMIT, '203.0.113.60'))
      expect(answers.slice(0, 10)).toEqual(Array(10).fill(null))
      expect(answers[10]).toBeGreaterThan(0) // the insurance limiter holds the same limit
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
      await admin.end()
    }
    // Back on the shared store: a new client's requests are rows in PostgreSQL again.
    expect(await consume(LIMIT, '203.0.113.61')).toBeNull()
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query('SELECT points FROM rate_limits WHERE key = $1', ['shared-test:203.0.113.61'])
      expect(rows).toEqual([{ points: 1 }])
    } finally {
      await client.end()
    }
  })
})
