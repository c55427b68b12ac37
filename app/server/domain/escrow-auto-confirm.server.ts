import type { Task } from 'graphile-worker'
import { DISPUTE_WINDOW_MS, windowEndsAt } from '~/lib/escrow'
import { db } from '../infra/db.server.ts'
import type { JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { applyEvent, AUTO_CONFIRM_TASK, autoConfirmJobKey, getTransaction } from './escrow.server.ts'

/**
 * The auto-confirm job: a delivered sale the buyer neither confirms nor disputes within the
 * 72-hour window completes at its end (design.md §5). The machine queues one job per sale when it
 * enters delivered (`scheduleAutoConfirm`, escrow.server.ts); this fires the machine's auto_confirm.
 */

/**
 * Confirms every delivered, undisputed sale whose 72-hour window has ended at
 * `now`, each through the same locked transition as the buyer's Confirm
 * Receipt (the job calls this; tests call it with a moved clock). Returns the
 * ids it completed; a sale the buyer confirmed or disputed meanwhile is skipped.
 */
export async function autoConfirmDue(now: Date = new Date()): Promise<string[]> {
  const due = await db
    .selectFrom('transactions')
    .select('id')
    .where('status', '=', 'delivered')
    .where('deliveredAt', '<=', new Date(now.getTime() - DISPUTE_WINDOW_MS))
    .orderBy('deliveredAt')
    .execute()
  const completed: string[] = []
  for (const { id } of due) {
    const outcome = await db
      .transaction()
      .execute((trx) => applyEvent(trx, { saleId: id, event: 'auto_confirm', by: { id: null, role: 'system' }, now }))
    if (outcome.applied) completed.push(id)
  }
  return completed
}

/** When a delivered sale's window ends (for the job that auto-confirms it). */
async function autoConfirmDueAt(transactionId: string): Promise<Date | null> {
  const sale = await getTransaction(transactionId)
  if (!sale || sale.status !== 'delivered' || !sale.deliveredAt) return null
  return windowEndsAt(sale.deliveredAt)
}

/**
 * The job: confirm whatever is due now. When the job fired a little early for
 * its sale (clock skew between instances), put it back at the window's end.
 */
const autoConfirmTask: Task = async (payload, helpers) => {
  const now = new Date()
  const confirmed = await autoConfirmDue(now)
  if (confirmed.length > 0) logEvent('info', 'auto_confirmed', { count: confirmed.length, ids: confirmed })
  const transactionId = payload && typeof payload === 'object' && 'transactionId' in payload ? String(payload.transactionId) : null
  if (!transactionId) return
  const dueAt = await autoConfirmDueAt(transactionId)
  if (dueAt && dueAt > now) {
    await helpers.addJob(AUTO_CONFIRM_TASK, { transactionId }, { runAt: dueAt, jobKey: autoConfirmJobKey(transactionId) })
  }
}

/** The escrow's jobs for the worker (server start-up passes them to startJobWorker). */
export const ESCROW_JOBS: readonly JobDefinition[] = [
  // A sweep every 10 minutes catches anything a lost or failed job missed.
  { name: AUTO_CONFIRM_TASK, task: autoConfirmTask, sweep: '*/10 * * * *', runAtStartup: true },
]
