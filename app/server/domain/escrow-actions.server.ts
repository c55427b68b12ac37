import { isValidForkUrl, windowEndsAt } from '~/lib/escrow'
import type { Transaction } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent, fire, getTransaction, type Actor } from './escrow.server.ts'

/**
 * What people do to a sale — the seller delivers, the buyer confirms or disputes, an admin
 * releases or refunds — each one event (or, for a refund, a claim, Stripe and the outcome) of the
 * escrow machine (escrow.server.ts), which checks and writes it. The screens and /api/* call these.
 */

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
