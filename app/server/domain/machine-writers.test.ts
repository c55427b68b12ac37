import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, runtimeSources } from '../../../tests/tools/runtime-sources.ts'

/*
 * Issue 27.4: a write to a payout batch, to bank details or to a GitHub delivery that bypasses its
 * machine's runner is a bug even when the state does not change (style.md). A scan of the source for
 * the writes of those tables — Kysely's updateTable/insertInto and SQL text — outside the runner's
 * module. The sales have their own, stricter scan (tests/integration/escrow.test.ts).
 */
interface Machine {
  table: string
  sql: string
  runner: string
  /** The INSERT a row is born by, in another module than the runner: that many writes there, no more. */
  birth?: { file: string; writes: number }
  /** Files outside the app's run allowed to write the table, and why. */
  reviewed: Record<string, string>
}

const MACHINES: readonly Machine[] = [
  {
    table: 'payoutBatches',
    sql: 'payout_batches',
    runner: 'app/server/domain/payout-batches.server.ts',
    // A batch is born draft by the INSERT that prepares it (beside the runner, audited as payout_batch.prepare).
    reviewed: { 'db/seed/demo-payouts.ts': 'demo data: batches walked to their final states before the app runs' },
  },
  {
    table: 'bankDetails',
    sql: 'bank_details',
    runner: 'app/server/domain/bank-details.server.ts',
    reviewed: {
      'db/seed/demo.ts': 'demo data: sellers’ details in their final states before the app runs',
      'db/seed/bulk.ts': 'the benchmark’s bulk data, before the app runs',
    },
  },
  {
    table: 'githubDeliveries',
    sql: 'github_deliveries',
    runner: 'app/server/domain/github-delivery-steps.server.ts',
    // A delivery is born queued at payment, by the INSERT in beginGithubDelivery.
    birth: { file: 'app/server/domain/github-delivery.server.ts', writes: 1 },
    reviewed: { 'db/seed/demo-github.ts': 'demo data: deliveries in their final states before the app runs' },
  },
  {
    // Issue 30: a listing's takedown is born hidden by the runner's own INSERT (take_down).
    table: 'listingTakedowns',
    sql: 'listing_takedowns',
    runner: 'app/server/domain/moderation.server.ts',
    reviewed: {},
  },
  {
    // Issue 30: a suspension is born requested by the runner's own INSERT (request).
    table: 'userSuspensions',
    sql: 'user_suspensions',
    runner: 'app/server/domain/suspensions.server.ts',
    reviewed: {},
  },
]

function writesOf(source: string, table: string, sqlName: string): number {
  const kysely = new RegExp(`\\.(updateTable|insertInto)\\(\\s*['"\`]${table}\\b`, 'g')
  const text = new RegExp(`\\b(update|insert\\s+into)\\s+${sqlName}\\b`, 'gi')
  return (source.match(kysely)?.length ?? 0) + (source.match(text)?.length ?? 0)
}

describe('each machine is the only writer of its rows', () => {
  it('finds planted writes: Kysely updates and inserts, and SQL text', () => {
    for (const { table, sql } of MACHINES) {
      expect(writesOf(`await trx.updateTable('${table}').set({ status: 'x' }).execute()`, table, sql)).toBe(1)
      expect(writesOf(`await db.insertInto('${table}').values(row).execute()`, table, sql)).toBe(1)
      expect(writesOf(`await sql\`UPDATE ${sql} SET status = 'x'\`.execute(db)`, table, sql)).toBe(1)
      expect(writesOf(`await db.selectFrom('${table}').selectAll().execute()`, table, sql)).toBe(0)
    }
  })

  for (const { table, sql, runner, birth, reviewed } of MACHINES) {
    it(`${table} is written only by ${path.basename(runner)} (and its reviewed exceptions)`, () => {
      const files = runtimeSources()
      const writesIn = (file: string) => writesOf(readFileSync(path.join(ROOT, file), 'utf8'), table, sql)
      expect(files).toContain(runner)
      const outside = files
        .filter((file) => file !== runner && file !== birth?.file && !(file in reviewed))
        .filter((file) => writesIn(file) > 0)
      expect(outside).toEqual([])
      expect(writesIn(runner)).toBeGreaterThan(0)
      if (birth) expect(writesIn(birth.file), `${birth.file}: only the INSERT a row is born by`).toBe(birth.writes)
      for (const file of Object.keys(reviewed)) expect(files, `${file} is gone: drop it from the reviewed list`).toContain(file)
    })
  }
})
