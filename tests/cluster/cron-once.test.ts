import { EventEmitter } from 'node:events'
import { run, type Runner, type WorkerEvents } from 'graphile-worker'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobLogger, startJobWorker, type JobDefinition } from '../../app/server/infra/jobs.server.ts'

// Issue 20: every app instance runs a graphile-worker with the same crontab (the sweeps of
// jobs.server.ts). A timer must fire once per tick across N instances, not once per instance:
// graphile-worker records each crontab line's last execution in _private_known_crontabs and only
// the instance whose upsert advances it adds the tick's job. Two workers (two pools, two cron
// loops, as in two processes) run a sweep every minute; both try to schedule the same tick and
// exactly one run is recorded for it. The control shows the test would see a double: two more
// workers whose crontab lines have different identifiers (and no job key) run the same tick twice.
// It waits for a real minute boundary (the cron loop reads
// the clock), so it runs with the cluster tests (`npm run test:cluster`), not with the integration tests.

const TASK = 'cron_probe'
const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
const workers: Array<{ stop(): Promise<void> }> = []
const controls: Runner[] = []
/** When all four workers were running: the tick looked at comes after it. */
let readyAt = 0
/** Per worker: the ticks (ms) its cron loop scheduled, whether or not it won the tick. */
const scheduled: Array<Set<number>> = [new Set(), new Set()]

async function record(table: string, payload: unknown, worker: number) {
  const tick = (payload as { _cron?: { ts?: string } })._cron?.ts ?? 'none'
  const runner = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await runner.connect()
  await runner.query(`INSERT INTO ${table} (tick, worker) VALUES ($1, $2)`, [tick, worker])
  await runner.end()
}

function probe(worker: number): JobDefinition {
  return {
    name: TASK,
    sweep: '* * * * *',
    task: (payload) => record('cron_probe_runs', payload, worker),
  }
}

beforeAll(async () => {
  await client.connect()
  await client.query('CREATE TABLE IF NOT EXISTS cron_probe_runs (tick text NOT NULL, worker int NOT NULL)')
  await client.query('CREATE TABLE IF NOT EXISTS cron_control_runs (tick text NOT NULL, worker int NOT NULL)')
  await client.query('TRUNCATE cron_probe_runs, cron_control_runs')
  for (const worker of [0, 1]) {
    const events = new EventEmitter() as WorkerEvents
    events.on('cron:scheduled', ({ timestamp }) => scheduled[worker]!.add(timestamp))
    workers.push(await startJobWorker([probe(worker)], { events }))
  }
  for (const worker of [2, 3]) {
    controls.push(
      await run({
        connectionString: process.env.DATABASE_URL,
        concurrency: 1,
        noHandleSignals: true,
        pollInterval: 1_000,
        logger: jobLogger,
        taskList: { cron_control: (payload) => record('cron_control_runs', payload, worker) },
        crontab: `* * * * * cron_control ?id=cron_control_${worker}`,
      }),
    )
  }
  readyAt = Date.now()
})

afterAll(async () => {
  await Promise.all([...workers, ...controls].map((worker) => worker.stop()))
  await client.query('DROP TABLE IF EXISTS cron_probe_runs, cron_control_runs')
  await client.end()
})

describe('cron timers with several workers', () => {
  it('runs a crontab sweep once per tick when two workers both schedule it', { timeout: 150_000 }, async () => {
    // The first minute boundary both workers' cron loops went through once all four were running.
    const deadline = Date.now() + 130_000
    let tick: number | undefined
    while (tick === undefined && Date.now() < deadline) {
      tick = [...scheduled[0]!].find((ts) => ts > readyAt + 2_000 && scheduled[1]!.has(ts))
      if (tick === undefined) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(tick, 'both workers scheduled the same minute').toBeDefined()
    const iso = new Date(tick!).toISOString()

    let runs: Array<{ tick: string; worker: number }> = []
    while (runs.length === 0 && Date.now() < deadline) {
      runs = (await client.query('SELECT tick, worker FROM cron_probe_runs WHERE tick = $1', [iso])).rows
      if (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    // Time for a second run, had the other worker's attempt added one too (jobs are picked up within ms).
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    runs = (await client.query('SELECT tick, worker FROM cron_probe_runs WHERE tick = $1', [iso])).rows
    expect(runs).toHaveLength(1)
    // The database's record of the line: one last execution, the tick.
    const known = await client.query(
      'SELECT identifier, last_execution FROM graphile_worker._private_known_crontabs WHERE identifier = $1',
      [TASK],
    )
    expect(known.rows).toHaveLength(1)
    expect(new Date(known.rows[0].last_execution).getTime()).toBeGreaterThanOrEqual(tick!)
    // The control: the same tick under two identifiers ran twice.
    const control = await client.query('SELECT worker FROM cron_control_runs WHERE tick = $1', [iso])
    expect(control.rows).toHaveLength(2)
    // No tick of the sweep ran twice.
    const doubled = await client.query('SELECT tick FROM cron_probe_runs GROUP BY tick HAVING count(*) > 1')
    expect(doubled.rows).toEqual([])
  })
})
