import { Logger, run, runMigrations, type Runner, type Task } from 'graphile-worker'
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { requireEnv } from './env.server.ts'
import { autoConfirmDue, autoConfirmDueAt } from './escrow.server.ts'
import { logEvent } from './log.server.ts'

/**
 * Timers that must survive restarts and run once across many app instances
 * live in PostgreSQL (graphile-worker, docs/decisions/004-job-queue.md): its
 * own schema `graphile_worker` in the app's database, LISTEN/NOTIFY to wake
 * up, SKIP LOCKED so each job runs on one instance, job keys to de-duplicate.
 */

export const AUTO_CONFIRM_TASK = 'auto-confirm'

/** One job per sale; re-delivering or re-scheduling replaces it instead of adding another. */
export function autoConfirmJobKey(transactionId: string): string {
  return `${AUTO_CONFIRM_TASK}:${transactionId}`
}

// A sweep every 10 minutes catches anything a lost or failed job missed
// (a sale delivered while the queue's schema did not exist yet, a crash).
const CRONTAB = `*/10 * * * * ${AUTO_CONFIRM_TASK} ?max=5&jobKey=${AUTO_CONFIRM_TASK}:sweep`

let schemaReady: Promise<void> | undefined

/** Creates or upgrades the queue's schema once per process (graphile-worker's own migrations). */
export function ensureJobSchema(): Promise<void> {
  schemaReady ??= runMigrations({ connectionString: requireEnv('DATABASE_URL'), logger: jobLogger }).catch(
    (error: unknown) => {
      schemaReady = undefined
      throw error
    },
  )
  return schemaReady
}

/**
 * Schedules the auto-confirm of a delivered sale at the end of its window, in
 * the caller's database transaction: the job exists if and only if the
 * delivery committed. Call ensureJobSchema() before opening the transaction.
 */
export async function scheduleAutoConfirm(
  executor: Kysely<DB> | Transaction<DB>,
  transactionId: string,
  runAt: Date,
): Promise<void> {
  await sql`SELECT graphile_worker.add_job(
    ${AUTO_CONFIRM_TASK},
    json_build_object('transactionId', ${transactionId}::text),
    run_at := ${runAt.toISOString()}::timestamptz,
    max_attempts := 10,
    job_key := ${autoConfirmJobKey(transactionId)}
  )`.execute(executor)
}

/**
 * The job: confirm whatever is due now. When the job fired a little early for
 * its sale (clock skew between instances), put it back at the window's end.
 */
export const autoConfirmTask: Task = async (payload, helpers) => {
  const now = new Date()
  const confirmed = await autoConfirmDue(now)
  if (confirmed.length > 0) logEvent('info', 'auto_confirmed', { count: confirmed.length, ids: confirmed })
  const transactionId =
    payload && typeof payload === 'object' && 'transactionId' in payload ? String(payload.transactionId) : null
  if (!transactionId) return
  const dueAt = await autoConfirmDueAt(transactionId)
  if (dueAt && dueAt > now) {
    await helpers.addJob(AUTO_CONFIRM_TASK, { transactionId }, { runAt: dueAt, jobKey: autoConfirmJobKey(transactionId) })
  }
}

export const jobLogger = new Logger(() => (level, message) => {
  // The queue is chatty at info level; keep warnings and errors in the app's log.
  if (level === 'error' || level === 'warning') {
    // Only the message: the meta graphile-worker passes can hold whole pg clients.
    logEvent(level === 'error' ? 'error' : 'warn', 'job_queue', { message })
  }
})

/** Starts this instance's worker (safe to run on every instance at once). */
export async function startJobWorker(options: { concurrency?: number } = {}): Promise<{ stop(): Promise<void> }> {
  await ensureJobSchema()
  const runner: Runner = await run({
    connectionString: requireEnv('DATABASE_URL'),
    concurrency: options.concurrency ?? 2,
    maxPoolSize: (options.concurrency ?? 2) + 2,
    noHandleSignals: true,
    pollInterval: 5_000,
    logger: jobLogger,
    taskList: { [AUTO_CONFIRM_TASK]: autoConfirmTask },
    crontab: CRONTAB,
  })
  // Catch up at start-up on anything that fell due while no instance was running.
  await runner.addJob(AUTO_CONFIRM_TASK, {}, { jobKey: `${AUTO_CONFIRM_TASK}:startup` })
  logEvent('info', 'job_worker_started', { tasks: [AUTO_CONFIRM_TASK] })
  return {
    stop: async () => {
      await runner.stop()
    },
  }
}
