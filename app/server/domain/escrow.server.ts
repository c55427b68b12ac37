import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { windowEndsAt } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import type { DB, Transaction, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, queueJob } from '../infra/jobs.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { decideEscrow, paymentMismatch, TRANSITIONS, type Actor, type EscrowEvent, type EventData } from './escrow-transitions.server.ts'
import { recordMoneyException } from './money-exceptions.server.ts'
import { runSaleEffects } from './sale-effects.server.ts'

/**
 * The escrow state machine of design.md §5 (docs/decisions/005-escrow-state-machine.md).
 *
 * One table (`TRANSITIONS`, escrow-transitions.server.ts) says which event moves a sale from which
 * state to which, who may fire it, under which guard, and what it writes. Every surface — the Stripe
 * webhook, the screens, /api/*, the checkout, the payouts and the jobs — fires events through `fire`
 * or `applyEvent`; this module is the only writer of a sale after checkout opens it
 * (tests/integration/escrow.test.ts checks the source for any other).
 *
 * Each event runs in one database transaction: lock the row (FOR UPDATE),
 * check the actor, the state and the guard on the locked row, UPDATE … WHERE
 * status = <the state it was in>, write the audit row, run the target state's
 * entry hook and the event's effects. Racing events therefore apply once, and a
 * refused event leaves no trace.
 *
 * Beside it: what people do to a sale (escrow-actions.server.ts), the auto-confirm job
 * (escrow-auto-confirm.server.ts) and the buyer's purchases (purchases.server.ts).
 */

export type { Actor, EscrowEvent, EventData } from './escrow-transitions.server.ts'

type Executor = Kysely<DB> | DbTransaction<DB>

/**
 * Entering a state may start something that must exist if and only if the
 * transition commits (same database transaction). Written once per state,
 * whichever event led there.
 */
const ON_ENTER: Partial<Record<TransactionStatus, (trx: Executor, sale: Transaction, data: EventData) => Promise<void>>> = {
  // The 72-hour window starts: the auto-confirm job fires at its end.
  delivered: (trx, sale) => scheduleAutoConfirm(trx, sale.id, windowEndsAt(sale.deliveredAt!)),
  // Money arrived that does not match the sale: admins see it and are alerted.
  held: (trx, sale, data) =>
    recordMoneyException(trx, {
      transactionId: sale.id,
      kind: 'payment_mismatch',
      amountCents: data.amountReceived ?? 0,
      currency: data.currency || '?',
      details: paymentMismatch(sale, data) ?? 'Payment held for review',
      providerRef: data.paymentIntentId ?? sale.stripePaymentIntentId,
    }),
  // Refunded before completion: the buyer's GitHub access is revoked (a job: GitHub is called after
  // the commit). After completion access is never revoked.
  refunded: async (trx, sale, data) => {
    // Refunded at the provider while an approved or exported payout batch pays the seller for it:
    // the transfer may be on its way (the batch cannot be marked sent), so an admin must act.
    const batch = await trx
      .selectFrom('payoutBatchLines')
      .innerJoin('payoutBatches', 'payoutBatches.id', 'payoutBatchLines.batchId')
      .select(['payoutBatches.id', 'payoutBatches.status'])
      .where('payoutBatchLines.transactionId', '=', sale.id)
      .where('payoutBatchLines.cancelled', '=', false)
      .where('payoutBatches.status', 'in', ['approved', 'exported'])
      .executeTakeFirst()
    if (batch)
      await recordMoneyException(trx, {
        kind: 'refund_after_payout',
        transactionId: sale.id,
        amountCents: sale.amountCents,
        currency: sale.currency,
        details: `Refunded while payout batch ${batch.id} (${batch.status}) pays the seller for it: ${batch.status === 'approved' ? 'cancel the batch before exporting it' : 'the bank transfer may already be on its way'}`,
        providerRef: data.refundId ?? sale.stripeRefundId ?? sale.stripePaymentIntentId,
      })
    if (sale.completedAt) return
    const delivery = await trx
      .selectFrom('githubDeliveries')
      .select('transactionId')
      .where('transactionId', '=', sale.id)
      .executeTakeFirst()
    if (delivery)
      await queueJob(trx, GITHUB_REVOKE_TASK, { transactionId: sale.id }, { runAt: new Date(), jobKey: `${GITHUB_REVOKE_TASK}:${sale.id}` })
  },
}

/**
 * An event that keeps the sale in its state may still start something, by the audit action it
 * records (written once, whoever fires it).
 */
const ON_RECORD: Partial<Record<string, (trx: Executor, sale: Transaction, data: EventData) => Promise<void>>> = {
  // Issue 14.9: the money went back after the seller was paid: admins are alerted and see it on /admin.
  refund_unapplied: (trx, sale, data) =>
    recordMoneyException(trx, {
      transactionId: sale.id,
      kind: 'refund_after_payout',
      amountCents: data.amountRefunded ?? sale.amountCents,
      currency: data.currency || sale.currency,
      details: `Refunded at the payment provider after the seller was paid out (payout reference ${sale.paymentReference ?? 'unknown'})`,
      providerRef: data.chargeId ?? null,
    }),
}

/** The job that revokes a refunded buyer's GitHub access (its task: github-revocation.server.ts). */
export const GITHUB_REVOKE_TASK = 'github-revoke'

// --- The runner ------------------------------------------------------------------------

export interface EventInput extends Partial<Omit<EventData, 'now'>> {
  saleId: string
  event: EscrowEvent
  by: Actor
  now?: Date
}

export type EventOutcome =
  { applied: true; sale: Transaction; from: TransactionStatus } | { applied: false; error: AppError; sale?: Transaction }

/**
 * Applies one event inside the caller's database transaction and says what
 * happened; a refusal writes nothing. The webhook uses this directly (an
 * event that no longer applies is simply not applied); everyone else uses `fire`.
 */
export async function applyEvent(trx: Executor, input: EventInput): Promise<EventOutcome> {
  if (!TRANSITIONS.some((rule) => rule.event === input.event)) throw new Error(`Unknown escrow event ${input.event}`)
  if (!isUuid(input.saleId)) return { applied: false, error: new AppError(404, 'Sale not found') }
  const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', input.saleId).forUpdate().executeTakeFirst()
  if (!sale) return { applied: false, error: new AppError(404, 'Sale not found') }

  const data: EventData = { ...input, now: input.now ?? new Date() }
  const decision = decideEscrow(sale, input.event, input.by, data)
  if (!decision.ok) return { applied: false, error: decision.error, sale }
  const { rule, to } = decision

  // A rule that sets nothing and keeps the state only records a fact: its audit row is the write.
  const updated =
    rule.set || to !== sale.status
      ? await trx
          .updateTable('transactions')
          .set({ ...rule.set?.(sale, data), status: to, updatedAt: data.now })
          .where('id', '=', sale.id)
          .where('status', '=', sale.status)
          .returningAll()
          .executeTakeFirstOrThrow()
      : sale
  const action = rule.action ?? input.event
  await recordAudit(trx, {
    actorId: input.by.id,
    actorRole: input.by.role,
    action,
    entityType: 'transaction',
    entityId: sale.id,
    fromState: sale.status,
    toState: to,
    reason: rule.reason?.(sale, data) ?? data.reason ?? null,
    metadata: data.metadata,
  })
  if (to !== sale.status) await ON_ENTER[to]?.(trx, updated, data)
  await ON_RECORD[action]?.(trx, updated, data)
  await runSaleEffects(trx, { event: input.event, from: sale.status, to, before: sale, sale: updated, by: input.by, data })
  return { applied: true, sale: updated, from: sale.status }
}

/** Everything an event's entry hooks need outside its transaction (the job queue's schema). */
export function prepareEscrow(): Promise<void> {
  return ensureJobSchema()
}

/** Fires one event in its own database transaction; a refusal is thrown as an AppError (403/404/409). */
export async function fire(input: EventInput): Promise<Transaction> {
  await prepareEscrow()
  const outcome = await db.transaction().execute((trx) => applyEvent(trx, input))
  if (!outcome.applied) throw outcome.error
  return outcome.sale
}

export async function getTransaction(id: string): Promise<Transaction | undefined> {
  if (!isUuid(id)) return undefined
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst()
}

// --- Scheduling the auto-confirm (its job: escrow-auto-confirm.server.ts) -----------------

export const AUTO_CONFIRM_TASK = 'auto-confirm'

/** One job per sale; re-delivering or re-scheduling replaces it instead of adding another. */
export function autoConfirmJobKey(transactionId: string): string {
  return `${AUTO_CONFIRM_TASK}:${transactionId}`
}

/** Queues the auto-confirm of a delivered sale at the end of its window, in the caller's transaction. */
export function scheduleAutoConfirm(executor: Executor, transactionId: string, runAt: Date): Promise<void> {
  return queueJob(executor, AUTO_CONFIRM_TASK, { transactionId }, { runAt, jobKey: autoConfirmJobKey(transactionId) })
}
