import { Logger, run, runMigrations, type Runner, type Task, type WorkerEvents } from 'graphile-worker'
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../../../db/schema.ts'
import { config } from './env.server.ts'
import { logEvent } from './log.server.ts'

/**
 * Timers that must survive restarts and run once across many app instances
 * live in PostgreSQL (graphile-worker, docs/decisions/004-job-queue.md): its
 * own schema `graphile_worker` in the app's database, LISTEN/NOTIFY to wake
 * up, SKIP LOCKED so each job runs on one instance, job keys to de-duplicate.
 *
 * This module knows no domain: each domain module declares its jobs
 * (`JobDefinition`) and the server passes the list to `startJobWorker`.
 */

export interface JobDefinition {
  /** The task identifier jobs are queued under. */
  name: string
  task: Task
  /** A crontab schedule (`*\/10 * * * *`): a sweep that catches anything a lost or failed job missed. */
  sweep?: string
  /** Also run once when the worker starts (catch up on what fell due while no instance was running). */
  runAtStartup?: boolean
}

let schemaReady: Promise<void> | undefined

/** Creates or upgrades the queue's schema once per process (graphile-worker's own migrations). */
export function ensureJobSchema(): Promise<void> {
  schemaReady ??= runMigrations({ connectionString: config().DATABASE_URL, logger: jobLogger }).catch((error: unknown) => {
    schemaReady = undefined
    throw error
  })
  return schemaReady
}

/**
 * Queues a job in the caller's database transaction, so it exists if and only
 * if the change that needs it commits. A job with the same key is replaced
 * (rescheduled), never duplicated. Call ensureJobSchema() before opening the
 * transaction.
 */
export async function queueJob(
  executor: Kysely<DB> | Transaction<DB>,
  task: string,
  payload: Record<string, string>,
  options: { runAt: Date; jobKey: string; maxAttempts?: number },
): Promise<void> {
  await sql`SELECT graphile_worker.add_job(
    ${task},
    ${JSON.stringify(payload)}::json,
    run_at := ${options.runAt.toISOString()}::timestamptz,
    max_attempts := ${options.maxAttempts ?? 10}::int,
    job_key := ${options.jobKey}
  )`.execute(executor)
}

export const jobLogger = new Logger(() => (level, message) => {
  // The queue is chatty at info level; keep warnings and errors in the app's log.
  if (level === 'error' || level === 'warning') {
    // Only the message: the meta graphile-worker passes can hold whole pg clients.
    logEvent(level === 'error' ? 'error' : 'warn', 'job_queue', { message })
  }
})

/** Starts this instance's worker for `jobs` (safe to run on every instance at once). */
export async function startJobWorker(
  jobs: readonly JobDefinition[],
  options: {
    concurrency?: number
    /** graphile-worker's events (the cron test watches each worker schedule its ticks). */
    events?: WorkerEvents
  } = {},
): Promise<{ stop(): Promise<void> }> {
  await ensureJobSchema()
  const concurrency = options.concurrency ?? 2
  const crontab = jobs
    .filter((job) => job.sweep)
    .map((job) => `${job.sweep} ${job.name} ?max=5&jobKey=${job.name}:sweep`)
    .join('\n')
  const runner: Runner = await run({
    connectionString: config().DATABASE_URL,
    concurrency,
    maxPoolSize: concurrency + 2,
    noHandleSignals: true,
    pollInterval: 5_000,
    logger: jobLogger,
    taskList: Object.fromEntries(jobs.map((job) => [job.name, job.task])),
    crontab,
    events: options.events,
  })
  for (const job of jobs.filter((j) => j.runAtStartup)) {
    await runner.addJob(job.name, {}, { jobKey: `${job.name}:startup` })
  }
  logEvent('info', 'job_worker_started', { tasks: jobs.map((job) => job.name) })
  return {
    stop: async () => {
      await runner.stop()
    },
  }
}
