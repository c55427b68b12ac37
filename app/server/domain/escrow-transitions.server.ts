import type { Updateable } from 'kysely'
import { DISPUTE_WINDOW_HOURS, isWindowOpen } from '~/lib/escrow'
import type { AuditActorRole, DeliveryProof, Transaction, TransactionsTable, TransactionStatus } from '../../../db/schema.ts'
import { AppError } from './errors.server.ts'
import { decide, orList, UNCHANGED, type Rule } from './state-machine.server.ts'

/**
 * The escrow state machine's table (design.md §5, docs/decisions/005-escrow-state-machine.md):
 * which event moves a sale from which state to which, who may fire it, under which guard, and
 * what it writes. Every write to a sale after checkout opens it is a row here — the state changes
 * and the facts recorded beside it (the payment intent, the refund id, the payout) — and so are
 * the Stripe outcomes that only record something. The runner (`applyEvent` in escrow.server.ts)
 * locks the sale, asks `decideEscrow`, writes, audits and runs the effects. Pure: unit-tested in
 * escrow-transitions.test.ts.
 */

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
  | 'listing_taken_down'
  // Facts recorded beside the state (issue 27.3): the sale's state does not change.
  | 'payment_intent_attached'
  | 'refund_recorded'
  | 'payout_recorded'
  | 'payout_prepared'
  // Stripe outcomes that only record something (the webhook fires them; nothing of the row changes).
  | 'duplicate_payment'
  | 'partial_refund'

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
  /** payout_recorded: the bank transfer's reference (payouts.server.ts). */
  paymentReference?: string
  /** duplicate_payment: the sale through which the buyer already owns the listing. */
  ownedSaleId?: string
  /** partial_refund: what went back, of what was captured (cents). */
  amountRefunded?: number
  amountCaptured?: number
  /** refunded: the refunded charge (a refund after the payout is a money exception about it). */
  chargeId?: string
}

export interface Transition extends Rule<EscrowEvent, TransactionStatus, Transaction, EventData> {
  /** Who may fire it: a party of this sale (buyer, seller), an admin, the platform (system) or Stripe (provider). */
  actor: AuditActorRole
  /** What it writes besides the state; a rule without it and without a new state writes nothing but its audit row. */
  set?: (sale: Transaction, data: EventData) => Updateable<TransactionsTable>
  /** The audit row's action when it is not the event's name. */
  action?: string
  /** The audit row's reason when the event has a fixed one. */
  reason?: (sale: Transaction, data: EventData) => string | null
}

const NOT_REFUNDED: TransactionStatus[] = ['pending_payment', 'failed', 'paid', 'delivering', 'delivered', 'disputed', 'completed', 'held']
const ALL_STATES: TransactionStatus[] = [...NOT_REFUNDED, 'refunded']
/** Where an admin may claim a refund (and the claim sits until Stripe confirms it). */
const REFUNDABLE: TransactionStatus[] = ['disputed', 'paid', 'delivering', 'held']
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
export function paymentMismatch(sale: Transaction, data: EventData): string | null {
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

  // Issue 30: the listing was taken down for copyright or malware (moderation.server.ts): every open
  // sale of it goes to the admin's dispute queue, its money held in escrow until they decide.
  {
    event: 'listing_taken_down',
    from: ['paid', 'delivering', 'delivered'],
    actor: 'admin',
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
    from: REFUNDABLE,
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale) =>
      sale.refundRequestedAt ? REFUND_ALREADY_REQUESTED : sale.stripePaymentIntentId ? null : 'This sale has no payment to refund',
    set: (_, data) => ({ refundRequestedAt: data.now }),
  },
  {
    event: 'refund_failed',
    from: REFUNDABLE,
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
    from: NOT_REFUNDED,
    actor: 'provider',
    to: 'refunded',
    guard: (sale) => (sale.paidAt ? 'This sale was already paid out to the seller' : null),
    set: (sale, data) => ({ refundedAt: data.now, stripeRefundId: sale.stripeRefundId ?? data.refundId ?? null }),
    reason: (sale) => (sale.refundRequestedAt ? 'Refund requested by an admin' : 'Refunded at the payment provider'),
  },
  // Refunded at the provider after the seller was paid out: the sale stays as it is, the refund is
  // recorded and an admin must handle it (issue 14.9: a money exception, escrow.server.ts ON_RECORD).
  {
    event: 'refunded',
    from: NOT_REFUNDED,
    actor: 'provider',
    to: UNCHANGED,
    guard: (sale) => (sale.paidAt ? null : 'This sale was not paid out'),
    action: 'refund_unapplied',
    reason: () => 'Refunded at the provider after the seller was paid out: needs manual handling',
  },
  // Stripe refunded part of the charge: recorded only (a full refund is `refunded`).
  {
    event: 'partial_refund',
    from: ALL_STATES,
    actor: 'provider',
    to: UNCHANGED,
    reason: (_, data) => `Partially refunded: ${data.amountRefunded} of ${data.amountCaptured} cents`,
  },
  // The buyer paid a second attempt of a listing they already own (two tabs): the first sale is
  // kept, this payment is recorded here and given back after the commit (stripe-webhook.server.ts).
  {
    event: 'duplicate_payment',
    from: ['pending_payment', 'failed'],
    actor: 'system',
    to: UNCHANGED,
    guard: (_, data) => (data.ownedSaleId ? null : 'The buyer does not own this listing through another sale'),
    action: 'duplicate_payment_refund',
    reason: (_, data) => `The buyer already owns this listing (sale ${data.ownedSaleId})`,
  },

  // Facts recorded beside the state (issue 27.3): the machine writes them too, and audits them.
  // The checkout records the attempt's PaymentIntent once Stripe created it, once. An attempt closed
  // meanwhile (its listing changed) records it too: a payment that still arrives must find its sale.
  {
    event: 'payment_intent_attached',
    from: ['pending_payment', 'failed'],
    actor: 'system',
    to: UNCHANGED,
    guard: (sale, data) =>
      !data.paymentIntentId ? 'No payment intent' : sale.stripePaymentIntentId ? 'This sale already has a payment intent' : null,
    set: (_, data) => ({ stripePaymentIntentId: data.paymentIntentId }),
  },
  // Stripe accepted the admin's refund (refundSale): its id, unless charge.refunded recorded one first.
  {
    event: 'refund_recorded',
    from: [...REFUNDABLE, 'refunded'],
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale, data) => (!data.refundId ? 'No refund' : sale.stripeRefundId ? 'The refund is already recorded' : null),
    set: (_, data) => ({ stripeRefundId: data.refundId }),
  },
  // Mark as Paid: an admin prepared a one-line payout of this sale for a second admin to approve
  // (payout-batches.server.ts). Nothing of the sale changes until it is sent (payout_recorded).
  {
    event: 'payout_prepared',
    from: ['completed'],
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale) => (sale.paidAt ? 'This sale has already been paid out' : null),
    action: 'payout.mark_paid',
  },
  // The seller was paid for this sale (a payout batch sent: payouts.server.ts), once; the payout
  // rule (payout-eligibility.server.ts) is checked by the batch before it is approved and sent.
  {
    event: 'payout_recorded',
    from: ['completed'],
    actor: 'admin',
    to: UNCHANGED,
    guard: (sale, data) =>
      sale.paidAt ? 'This sale has already been paid out' : data.paymentReference ? null : 'A payment reference is required',
    set: (_, data) => ({ paidAt: data.now, paymentReference: data.paymentReference }),
  },
]

// --- Deciding an event -------------------------------------------------------------------

export interface Actor {
  id: string | null
  role: AuditActorRole
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

export type EscrowDecision = { ok: true; rule: Transition; to: TransactionStatus } | { ok: false; error: AppError }

/**
 * What `event`, fired by `by`, does to the sale as locked: the rule it follows and the next state,
 * or the refusal — 404/403 for the wrong actor, 409 for the wrong state or a guard's message.
 */
export function decideEscrow(sale: Transaction, event: EscrowEvent, by: Actor, data: EventData): EscrowDecision {
  const first = TRANSITIONS.find((rule) => rule.event === event)
  if (!first) throw new Error(`Unknown escrow event ${event}`)
  const actorError = actorRefusal(sale, first.actor, by)
  if (actorError) return { ok: false, error: actorError }
  const decision = decide(TRANSITIONS, event, sale.status, sale, data)
  if (decision.ok) return decision
  const message = decision.reason === 'state' ? `This sale is ${sale.status}, not ${orList(decision.allowed)}` : decision.message
  return { ok: false, error: new AppError(409, message) }
}
