import type { Task } from 'graphile-worker'
import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { ACCESS_STATUSES, DISPUTE_WINDOW_MS, isValidForkUrl, windowEndsAt } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import type { DB, Transaction, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, queueJob, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { decideEscrow, paymentMismatch, TRANSITIONS, type Actor, type EscrowEvent, type EventData } from './escrow-transitions.server.ts'
import { purchaseGithubViews, type PurchaseGithub } from './github-views.server.ts'
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

// --- The surfaces' verbs ------------------------------------------------------------------

export async function getTransaction(id: string): Promise<Transaction | undefined> {
  if (!isUuid(id)) return undefined
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst()
}

/** paid → delivered: the seller hands over the buyer's fork; the 72-hour window starts. */
export async function deliverSale(input: { transactionId: string; sellerId: string; forkUrl: string; now?: Date }) {
  const forkUrl = input.forkUrl.trim()
  if (!isValidForkUrl(forkUrl)) throw new AppError(400, 'The fork URL must be an https:// link')
  return fire({
    saleId: input.transactionId,
    event: 'deliver',
    by: { id: input.sellerId, role: 'seller' },
    forkUrl,
    metadata: { forkUrl },
    now: input.now,
  })
}

/** delivered → completed: the buyer confirms receipt and the funds are released to the seller. */
export async function confirmReceipt(input: { transactionId: string; buyerId: string; now?: Date }) {
  return fire({ saleId: input.transactionId, event: 'confirm_receipt', by: { id: input.buyerId, role: 'buyer' }, now: input.now })
}

/** delivered → disputed, only while the window is open: stops the auto-confirm clock. */
export async function disputeSale(input: { transactionId: string; buyerId: string; reason: string; now?: Date }) {
  const reason = input.reason.trim()
  if (!reason) throw new AppError(400, 'Please describe the problem')
  return fire({ saleId: input.transactionId, event: 'dispute', by: { id: input.buyerId, role: 'buyer' }, reason, now: input.now })
}

/** disputed → completed: the admin sides with the seller and releases the funds. */
export async function releaseFunds(input: { transactionId: string; adminId: string; reason?: string; now?: Date }) {
  return fire({
    saleId: input.transactionId,
    event: 'release',
    by: { id: input.adminId, role: 'admin' },
    reason: input.reason?.trim() || null,
    now: input.now,
  })
}

/**
 * The admin's refund: claim the sale (refund_requested, so two admins clicking
 * at once ask Stripe once; the idempotency key covers a retried call), ask
 * Stripe, and let charge.refunded make the sale refunded. When Stripe refuses,
 * the claim is given back (refund_failed) so the admin can try again.
 */
export async function refundSale(input: { transactionId: string; adminId: string; reason: string; now?: Date }) {
  const reason = input.reason.trim()
  if (!reason) throw new AppError(400, 'Please give a reason for the refund')
  const by: Actor = { id: input.adminId, role: 'admin' }
  const claimed = await fire({ saleId: input.transactionId, event: 'refund_requested', by, reason, now: input.now })

  let refundId: string
  try {
    const refund = await getStripe().refunds.create(
      {
        payment_intent: claimed.stripePaymentIntentId!,
        reason: 'requested_by_customer',
        metadata: { transactionId: claimed.id, adminId: input.adminId },
      },
      { idempotencyKey: `refund:${claimed.id}` },
    )
    refundId = refund.id
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await fire({ saleId: claimed.id, event: 'refund_failed', by, reason: message, claimedAt: claimed.refundRequestedAt! }).catch(
      () => undefined, // charge.refunded may have landed meanwhile: then there is no claim to give back
    )
    logEvent('error', 'refund_failed', { transactionId: claimed.id, message })
    throw new AppError(502, 'The payment provider could not refund this sale. Please try again.')
  }

  // The charge.refunded webhook may already have moved the sale to refunded and recorded the id.
  const recorded = await db
    .transaction()
    .execute((trx) => applyEvent(trx, { saleId: claimed.id, event: 'refund_recorded', by, refundId, metadata: { refundId } }))
  return recorded.applied ? recorded.sale : (recorded.sale ?? (await getTransaction(claimed.id))!)
}

// --- The auto-confirm job ------------------------------------------------------------------

export const AUTO_CONFIRM_TASK = 'auto-confirm'

/** One job per sale; re-delivering or re-scheduling replaces it instead of adding another. */
export function autoConfirmJobKey(transactionId: string): string {
  return `${AUTO_CONFIRM_TASK}:${transactionId}`
}

/** Queues the auto-confirm of a delivered sale at the end of its window, in the caller's transaction. */
export function scheduleAutoConfirm(executor: Executor, transactionId: string, runAt: Date): Promise<void> {
  return queueJob(executor, AUTO_CONFIRM_TASK, { transactionId }, { runAt, jobKey: autoConfirmJobKey(transactionId) })
}

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

// --- The buyer's purchases -------------------------------------------------------------

/** Statuses shown in My Purchases: attempts that never got paid are not purchases. */
const PURCHASE_STATUSES: readonly TransactionStatus[] = ['paid', 'delivering', 'delivered', 'completed', 'disputed', 'refunded', 'held']

export interface Purchase {
  id: string
  createdAt: Date
  amountCents: number
  status: TransactionStatus
  listing: { id: string; title: string; slug: string }
  seller: { username: string }
  /** Only while the buyer has access (a refund ends it). */
  deliveryProof: { forkUrl: string } | null
  deliveredAt: Date | null
  /** When the 72-hour window ends, for a delivered sale. */
  windowEndsAt: Date | null
  disputeReason: string | null
  /** Delivery through GitHub (issue 16): the invitation while delivering, then the repository and the fork. */
  github: PurchaseGithub | null
}

/** The spec's buyer view (GET /api/purchases and /purchases), newest first. */
export async function listPurchases(buyerId: string): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .select([
      'transactions.id',
      'transactions.createdAt',
      'transactions.amountCents',
      'transactions.status',
      'transactions.deliveryProof',
      'transactions.deliveredAt',
      'transactions.disputeReason',
      'listings.id as listingId',
      'listings.title',
      'listings.slug',
      'seller.username as sellerUsername',
    ])
    .where('transactions.buyerId', '=', buyerId)
    .where('transactions.status', 'in', [...PURCHASE_STATUSES])
    .orderBy('transactions.createdAt', 'desc')
    .orderBy('transactions.id', 'desc')
    .execute()
  const github = await purchaseGithubViews(rows.map((row) => row.id))
  return rows.map((row) => {
    const hasAccess = (ACCESS_STATUSES as readonly TransactionStatus[]).includes(row.status)
    const forkUrl = hasAccess ? row.deliveryProof?.forkUrl : undefined
    return {
      id: row.id,
      createdAt: row.createdAt,
      amountCents: row.amountCents,
      status: row.status,
      listing: { id: row.listingId, title: row.title, slug: row.slug },
      seller: { username: row.sellerUsername },
      deliveryProof: forkUrl ? { forkUrl } : null,
      deliveredAt: row.deliveredAt,
      windowEndsAt: row.status === 'delivered' && row.deliveredAt ? windowEndsAt(row.deliveredAt) : null,
      disputeReason: row.disputeReason,
      github: github.get(row.id) ?? null,
    }
  })
}

// --- JSON for the API ------------------------------------------------------------------

/** A sale as the /api/* endpoints answer it (no provider ids). */
export function saleJson(sale: Transaction) {
  return {
    id: sale.id,
    listingId: sale.listingId,
    buyerId: sale.buyerId,
    sellerId: sale.sellerId,
    status: sale.status,
    amountCents: sale.amountCents,
    applicationFeeCents: sale.applicationFeeCents,
    deliveryProof: sale.deliveryProof,
    deliveredAt: sale.deliveredAt,
    windowEndsAt: sale.status === 'delivered' && sale.deliveredAt ? windowEndsAt(sale.deliveredAt) : null,
    completedAt: sale.completedAt,
    disputedAt: sale.disputedAt,
    disputeReason: sale.disputeReason,
    refundRequestedAt: sale.refundRequestedAt,
    refundedAt: sale.refundedAt,
    createdAt: sale.createdAt,
    updatedAt: sale.updatedAt,
  }
}
