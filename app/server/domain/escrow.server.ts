import type { Task } from 'graphile-worker'
import type { Transaction as DbTransaction, Kysely, Updateable } from 'kysely'
import { ACCESS_STATUSES, DISPUTE_WINDOW_HOURS, DISPUTE_WINDOW_MS, isValidForkUrl, isWindowOpen, windowEndsAt } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import type { AuditActorRole, DB, DeliveryProof, Transaction, TransactionsTable, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, queueJob, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { purchaseGithubViews, type PurchaseGithub } from './github-views.server.ts'
import { recordMoneyException } from './money-exceptions.server.ts'
import { runSaleEffects } from './sale-effects.server.ts'

/**
 * The escrow state machine of design.md §5 (docs/decisions/005-escrow-state-machine.md).
 *
 * One table says which event moves a sale from which state to which, who may
 * fire it and under which guard. Every surface — the Stripe webhook, the
 * screens, /api/*, the checkout and the jobs — fires events through `fire` or
 * `applyEvent`; this module is the only writer of `transactions.status`
 * (tests/integration/escrow.test.ts checks the source for any other).
 *
 * Each event runs in one database transaction: lock the row (FOR UPDATE),
 * check the actor, the state and the guard on the locked row, UPDATE … WHERE
 * status = <the state it was in>, write the audit row, run the target state's
 * entry hook. Racing events therefore apply once, and a refused event leaves
 * no trace.
 */

// --- The table -----------------------------------------------------------------------

export type EscrowEvent =
  | 'payment_succeeded'
  | 'payment_failed'
  | 'payment_canceled'
  | 'checkout_canceled'
  | 'deliver'
  | 'instant_delivery'
  | 'confirm_receipt'
  | 'auto_confirm'
  | 'dispute'
  | 'release'
  | 'refund_requested'
  | 'refund_failed'
  | 'refunded'
  | 'github_delivery_started'
  | 'access_confirmed'
  | 'fork_recorded'
  | 'delivery_failed'

/** What an event carries besides the sale (each transition reads what it needs). */
export interface EventData {
  now: Date
  /** The audit row's reason (a dispute's description, an admin's note). */
  reason?: string | null
  metadata?: Record<string, unknown>
  forkUrl?: string
  paymentIntentId?: string
  /** payment_succeeded: what Stripe says arrived (amount_received, in cents, and its currency). */
  amountReceived?: number
  currency?: string
  failureReason?: string
  refundId?: string | null
  /** refund_failed: the claim being given back (so a newer claim is never undone). */
  claimedAt?: Date
  /** access_confirmed: the evidence of a GitHub delivery (github-delivery.server.ts). */
  deliveryProof?: DeliveryProof
}

/** The sale stays in its state; only the row's other fields change (a claim). */
const UNCHANGED = 'unchanged'

interface Transition {
  event: EscrowEvent
  from: readonly TransactionStatus[]
  /** Who may fire it: a party of this sale (buyer, seller), an admin, the platform (system) or Stripe (provider). */
  actor: AuditActorRole
  to: TransactionStatus | typeof UNCHANGED
  /** Checked on the locked row after the state: null lets it through, a message refuses it (409). */
  guard?: (sale: Transaction, data: EventData) => string | null
  set?: (sale: Transaction, data: EventData) => Updateable<TransactionsTable>
  /** The audit row's action when it is not the event's name. */
  action?: string
  /** The audit row's reason when the event has a fixed one. */
  reason?: (sale: Transaction, data: EventData) => string | null
}

const REFUND_ALREADY_REQUESTED = 'A refund has already been requested for this sale'
/**
 * Between an admin's refund claim and Stripe's charge.refunded the sale must not move towards a
 * payout: delivered, then confirmed, it would be paid out, and the refund would then arrive for a
 * sale already paid (the money out twice). Found by the ledger's property test (issue 19).
 */
const notWhileRefunding = (sale: Transaction) => (sale.refundRequestedAt ? 'A refund has been requested for this sale' : null)
const delivery = (_: Transaction, data: EventData) => ({
  deliveryProof: JSON.stringify({ forkUrl: data.forkUrl }),
  deliveredAt: data.now,
})
const completion = (_: Transaction, data: EventData) => ({ completedAt: data.now })
const failure = (_: Transaction, data: EventData) => ({ failureReason: data.failureReason ?? 'Payment failed' })
const payment = (sale: Transaction, data: EventData) => ({
  stripePaymentIntentId: data.paymentIntentId ?? sale.stripePaymentIntentId,
  paidAtProvider: data.now,
  failureReason: null,
})
/** null when Stripe received exactly the sale's amount in the sale's currency, else what differs. */
function paymentMismatch(sale: Transaction, data: EventData): string | null {
  const currency = (data.currency ?? '').toUpperCase()
  if (data.amountReceived === sale.amountCents && currency === sale.currency.toUpperCase()) return null
  return `Received ${data.amountReceived ?? 'an unknown amount'} ${currency || '(no currency)'} for a sale of ${sale.amountCents} ${sale.currency.toUpperCase()} (in cents)`
}

export const TRANSITIONS: readonly Transition[] = [
  // Payment (Stripe's verified webhook). A failed attempt whose intent later succeeds (a retry
  // on the same card form after a decline) was paid after all; a late failure never undoes a payment.
  { event: 'payment_succeeded', from: ['pending_payment', 'failed'], actor: 'provider', to: 'paid', guard: paymentMismatch, set: payment },
  // Any other amount or currency is never fulfilled: the sale waits for an admin (a money exception).
  {
    event: 'payment_succeeded',
    from: ['pending_payment', 'failed'],
    actor: 'provider',
    to: 'held',
    set: payment,
    action: 'payment_held',
    reason: paymentMismatch,
  },
  { event: 'payment_failed', from: ['pending_payment'], actor: 'provider', to: 'failed', set: failure },
  { event: 'payment_canceled', from: ['pending_payment'], actor: 'provider', to: 'failed', set: failure },
  // The platform closes an open attempt that can no longer be paid (the listing changed or went away).
  { event: 'checkout_canceled', from: ['pending_payment'], actor: 'system', to: 'failed', set: failure },

  // Delivery: by the seller, or at payment for an instant-delivery listing.
  { event: 'deliver', from: ['paid'], actor: 'seller', to: 'delivered', guard: notWhileRefunding, set: delivery },
  {
    event: 'instant_delivery',
    from: ['paid'],
    actor: 'system',
    to: 'delivered',
    set: delivery,
    reason: () => 'Instant-delivery listing: the private delivery link is released on payment',
  },

  // Delivery through GitHub (issue 16): a listing with a connected repository is delivered by an
  // invitation (github-delivery.server.ts). The 72-hour window starts only when access is confirmed
  // (the `member` webhook, or polling the collaborator endpoint).
  {
    event: 'github_delivery_started',
    from: ['paid'],
    actor: 'system',
    to: 'delivering',
    guard: notWhileRefunding,
    reason: () => 'GitHub listing: the buyer is invited to the repository as a read collaborator',
  },
  {
    event: 'access_confirmed',
    from: ['delivering'],
    actor: 'system',
    to: 'delivered',
    guard: (sale, data) => notWhileRefunding(sale) ?? (data.deliveryProof?.github ? null : 'No proof that the buyer has access'),
    set: (_, data) => ({ deliveryProof: JSON.stringify(data.deliveryProof), deliveredAt: data.now }),
  },
  // The buyer forked the repository: the proof gains the fork (the sale's state is unchanged).
  {
    event: 'fork_recorded',
    from: ['delivered', 'completed', 'disputed'],
    actor: 'system',
    to: UNCHANGED,
    guard: (sale, data) => (sale.deliveryProof?.github && data.forkUrl ? null : 'Not a GitHub delivery'),
    set: (sale, data) => ({
      deliveryProof: JSON.stringify({
        ...sale.deliveryProof,
        forkUrl: data.forkUrl,
        github: { ...sale.deliveryProof!.github, forkUrl: data.forkUrl },
      }),
    }),
  },
  // Never accepted within 14 days, or the seller's repository became unreachable: the admin decides.
  {
    event: 'delivery_failed',
    from: ['delivering'],
    actor: 'system',
    to: 'disputed',
    guard: (_, data) => (data.reason?.trim() ? null : 'A reason is required'),
    set: (_, data) => ({ disputedAt: data.now, disputeReason: data.reason ?? null }),
  },

  // The 72-hour window: the buyer confirms or reports a problem; at its end the system confirms.
  { event: 'confirm_receipt', from: ['delivered'], actor: 'buyer', to: 'completed', set: completion },
  {
    event: 'auto_confirm',
    from: ['delivered'],
    actor: 'system',
    to: 'completed',
    guard: (sale, data) => (sale.deliveredAt && !isWindowOpen(sale.deliveredAt, data.now) ? null : 'The window has not ended yet'),
    set: completion,
    reason: () => `No problem reported within ${DISPUTE_WINDOW_HOURS} hours of delivery`,
  },
  {
    event: 'dispute',
    from: ['delivered'],
    actor: 'buyer',
    to: 'disputed',
    guard: (sale, data) =>
      sale.deliveredAt && isWindowOpen(sale.deliveredAt, data.now)
        ? null
        : `The ${DISPUTE_WINDOW_HOURS}-hour window to report a problem with this sale has ended`,
    set: (_, data) => ({ disputedAt: data.now, disputeReason: data.reason ?? null }),
  },

  // Admin decisions. A refund is two steps: the admin's claim (asked of Stripe once), then
  // Stripe's charge.refunded. A release is refused while a refund is requested.
  {
    event: 'release',
    from: ['disputed'],
    actor: 'admin',
    to: 'completed',
    guard: (sale) => (sale.refundRequestedAt ? REFUND_ALREADY_REQUESTED : null),
    set: completion,
  },
  {
    event: 'refund_requested',
    from: ['disputed', 'paid', 'delivering', 'held'],
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale) =>
      sale.refundRequestedAt ? REFUND_ALREADY_REQUESTED : sale.stripePaymentIntentId ? null : 'This sale has no payment to refund',
    set: (_, data) => ({ refundRequestedAt: data.now }),
  },
  {
    event: 'refund_failed',
    from: ['disputed', 'paid', 'delivering', 'held'],
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale, data) =>
      sale.refundRequestedAt && sale.refundRequestedAt.getTime() === data.claimedAt?.getTime() ? null : 'No refund claim to give back',
    set: () => ({ refundRequestedAt: null }),
  },
  // The money went back (an admin's refund, or one made in Stripe's dashboard), whatever the
  // order of events — except after the payout: that needs a person (a money exception).
  {
    event: 'refunded',
    from: ['pending_payment', 'failed', 'paid', 'delivering', 'delivered', 'disputed', 'completed', 'held'],
    actor: 'provider',
    to: 'refunded',
    guard: (sale) => (sale.paidAt ? 'This sale was already paid out to the seller' : null),
    set: (sale, data) => ({ refundedAt: data.now, stripeRefundId: sale.stripeRefundId ?? data.refundId ?? null }),
    reason: (sale) => (sale.refundRequestedAt ? 'Refund requested by an admin' : 'Refunded at the payment provider'),
  },
]

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

/** The job that revokes a refunded buyer's GitHub access (its task: github-revocation.server.ts). */
export const GITHUB_REVOKE_TASK = 'github-revoke'

// --- The runner ------------------------------------------------------------------------

export interface Actor {
  id: string | null
  role: AuditActorRole
}

export interface EventInput extends Partial<Omit<EventData, 'now'>> {
  saleId: string
  event: EscrowEvent
  by: Actor
  now?: Date
}

export type EventOutcome =
  { applied: true; sale: Transaction; from: TransactionStatus } | { applied: false; error: AppError; sale?: Transaction }

/** "paid", "disputed or paid", "disputed, paid or held". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

function rowsFor(event: EscrowEvent): Transition[] {
  return TRANSITIONS.filter((t) => t.event === event)
}

/** 404 for anyone outside the sale, 403 for its other party, null when `by` may fire the event. */
function actorRefusal(sale: Transaction, actor: AuditActorRole, by: Actor): AppError | null {
  if (actor === 'buyer' || actor === 'seller') {
    if (by.id === null || (by.id !== sale.buyerId && by.id !== sale.sellerId)) return new AppError(404, 'Sale not found')
    const party = actor === 'buyer' ? sale.buyerId : sale.sellerId
    if (party !== by.id) return new AppError(403, actor === 'buyer' ? 'Only the buyer can do this' : 'Only the seller can do this')
    return null
  }
  return by.role === actor ? null : new AppError(403, 'Not allowed')
}

/**
 * Applies one event inside the caller's database transaction and says what
 * happened; a refusal writes nothing. The webhook uses this directly (an
 * event that no longer applies is simply not applied); everyone else uses `fire`.
 */
export async function applyEvent(trx: Executor, input: EventInput): Promise<EventOutcome> {
  const rows = rowsFor(input.event)
  if (rows.length === 0) throw new Error(`Unknown escrow event ${input.event}`)
  if (!isUuid(input.saleId)) return { applied: false, error: new AppError(404, 'Sale not found') }
  const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', input.saleId).forUpdate().executeTakeFirst()
  if (!sale) return { applied: false, error: new AppError(404, 'Sale not found') }

  const actorError = actorRefusal(sale, rows[0]!.actor, input.by)
  if (actorError) return { applied: false, error: actorError, sale }
  const data: EventData = { ...input, now: input.now ?? new Date() }
  const candidates = rows.filter((row) => row.from.includes(sale.status))
  if (candidates.length === 0) {
    const expected = [...new Set(rows.flatMap((row) => row.from))]
    return { applied: false, error: new AppError(409, `This sale is ${sale.status}, not ${orList(expected)}`), sale }
  }
  let row: Transition | undefined
  let refusal: string | null = null
  for (const candidate of candidates) {
    refusal = candidate.guard?.(sale, data) ?? null
    if (refusal === null) {
      row = candidate
      break
    }
  }
  if (!row) return { applied: false, error: new AppError(409, refusal!), sale }

  const to = row.to === UNCHANGED ? sale.status : row.to
  const updated = await trx
    .updateTable('transactions')
    .set({ ...row.set?.(sale, data), status: to, updatedAt: data.now })
    .where('id', '=', sale.id)
    .where('status', '=', sale.status)
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(trx, {
    actorId: input.by.id,
    actorRole: input.by.role,
    action: row.action ?? input.event,
    entityType: 'transaction',
    entityId: sale.id,
    fromState: sale.status,
    toState: to,
    reason: row.reason?.(sale, data) ?? data.reason ?? null,
    metadata: data.metadata,
  })
  if (to !== sale.status) await ON_ENTER[to]?.(trx, updated, data)
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

  // The charge.refunded webhook may already have moved the sale to refunded: only fill the id.
  const stored = await db
    .updateTable('transactions')
    .set({ stripeRefundId: refundId })
    .where('id', '=', claimed.id)
    .where('stripeRefundId', 'is', null)
    .returningAll()
    .executeTakeFirst()
  return stored ?? (await getTransaction(claimed.id))!
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
