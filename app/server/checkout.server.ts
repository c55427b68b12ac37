import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { sql } from 'kysely'
import type Stripe from 'stripe'
import type { Transaction } from '../../db/schema.ts'
import { PAYMENT_INTENT_FAILED } from '~/lib/checkout'
import { OWNED_STATUSES } from '~/lib/escrow'
import { splitFee, type FeeSplit } from '~/lib/money'
import { db } from './db.server.ts'
import { AppError } from './errors.server.ts'
import { fire } from './escrow.server.ts'
import { logEvent } from './log.server.ts'
import { getStripe } from './stripe.server.ts'

/**
 * Checkout (design.md §5): one open payment attempt per buyer and listing,
 * the amount always from the database, and fulfilment only from Stripe's
 * verified webhook — never from the browser coming back.
 */

export interface CheckoutSummary {
  listingId: string
  title: string
  slug: string
  sellerUsername: string
  fee: FeeSplit
}

export type CheckoutResult =
  | { kind: 'ready'; clientSecret: string; transactionId: string; paymentIntentId: string; summary: CheckoutSummary }
  | { kind: 'requiresOnboarding'; summary: CheckoutSummary }
  /** The open attempt's payment already went through; the webhook has not landed yet. */
  | { kind: 'processing'; paymentIntentId: string; summary: CheckoutSummary }

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

async function getCheckoutListing(listingId: string) {
  if (!isUuid(listingId)) return undefined
  return db
    .selectFrom('listings')
    .innerJoin('users as seller', 'seller.id', 'listings.sellerId')
    .leftJoin('bankDetails', 'bankDetails.userId', 'listings.sellerId')
    .select([
      'listings.id',
      'listings.title',
      'listings.slug',
      'listings.priceCents',
      'listings.sellerId',
      'listings.visible',
      'listings.archivedAt',
      'seller.username as sellerUsername',
      'bankDetails.status as bankStatus',
    ])
    .where('listings.id', '=', listingId)
    .executeTakeFirst()
}

async function ownedCopy(buyerId: string, listingId: string, exceptId?: string) {
  let query = db
    .selectFrom('transactions')
    .select(['id', 'status'])
    .where('buyerId', '=', buyerId)
    .where('listingId', '=', listingId)
    .where('status', 'in', [...OWNED_STATUSES])
  if (exceptId) query = query.where('id', '!=', exceptId)
  return query.executeTakeFirst()
}

/**
 * Everything the checkout page (and POST /api/listings/:id/purchase) needs:
 * refuses what may not be bought, then finds or opens this buyer's attempt
 * and its PaymentIntent.
 */
export async function startCheckout(input: { listingId: string; buyerId: string }): Promise<CheckoutResult> {
  const listing = await getCheckoutListing(input.listingId)
  if (!listing || listing.archivedAt) throw new AppError(404, 'Listing not found')
  if (listing.sellerId === input.buyerId) throw new AppError(403, 'You cannot buy your own listing')
  if (!listing.visible) throw new AppError(409, 'This listing is not available for purchase')
  if (await ownedCopy(input.buyerId, listing.id)) throw new AppError(409, 'You already own this listing')

  const summary: CheckoutSummary = {
    listingId: listing.id,
    title: listing.title,
    slug: listing.slug,
    sellerUsername: listing.sellerUsername,
    fee: splitFee(listing.priceCents),
  }
  // design.md §5: no bank details on file (or rejected ones, which must be resubmitted).
  if (!sellerCanTakePayments(listing.bankStatus)) return { kind: 'requiresOnboarding', summary }

  for (let round = 0; round < 3; round++) {
    const attempt = await openAttempt(listing.id, listing.sellerId, input.buyerId, summary.fee)
    const intent = await intentFor(attempt, listing.title)
    if (intent.status === 'succeeded' || intent.status === 'processing') {
      return { kind: 'processing', paymentIntentId: intent.id, summary }
    }
    if (intent.status === 'canceled') {
      // Canceled at the provider (by us or in Stripe's dashboard): close this attempt, open the next.
      await fire({
        saleId: attempt.id,
        event: 'payment_canceled',
        by: { id: null, role: 'provider' },
        failureReason: 'Payment canceled',
        reason: 'The payment intent was canceled',
      }).catch(() => undefined) // the webhook's payment_intent.canceled may have closed it already
      continue
    }
    if (!intent.client_secret) throw new AppError(502, PAYMENT_INTENT_FAILED)
    return {
      kind: 'ready',
      clientSecret: intent.client_secret,
      transactionId: attempt.id,
      paymentIntentId: intent.id,
      summary: { ...summary, fee: splitFee(attempt.amountCents) },
    }
  }
  throw new AppError(502, PAYMENT_INTENT_FAILED)
}

/**
 * The buyer's open attempt for this listing, or a new one (attempt = previous + 1).
 * The partial unique index transactions_one_open_checkout makes concurrent
 * requests converge on one row: the losers' INSERT does nothing and they read
 * the winner's row.
 */
async function openAttempt(listingId: string, sellerId: string, buyerId: string, fee: FeeSplit): Promise<Transaction> {
  for (let i = 0; i < 5; i++) {
    const open = await db
      .selectFrom('transactions')
      .selectAll()
      .where('buyerId', '=', buyerId)
      .where('listingId', '=', listingId)
      .where('status', '=', 'pending_payment')
      .executeTakeFirst()
    if (open) return open
    const inserted = await db
      .insertInto('transactions')
      .values({
        listingId,
        buyerId,
        sellerId,
        attempt: sql<number>`(SELECT coalesce(max(attempt), 0) + 1 FROM transactions WHERE buyer_id = ${buyerId} AND listing_id = ${listingId})`,
        amountCents: fee.amountCents,
        applicationFeeCents: fee.applicationFeeCents,
        // status: the column's default, pending_payment (the machine owns every later change)
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
    if (inserted) {
      await cancelEarlierIntents(inserted)
      return inserted
    }
  }
  throw new AppError(502, PAYMENT_INTENT_FAILED)
}

/**
 * A tab still open on an earlier, failed attempt could otherwise pay its old
 * intent too; cancel those (best effort: an intent that already succeeded or
 * was canceled stays as it is, and the webhook deals with a late success).
 */
async function cancelEarlierIntents(current: Transaction): Promise<void> {
  const earlier = await db
    .selectFrom('transactions')
    .select('stripePaymentIntentId')
    .where('buyerId', '=', current.buyerId)
    .where('listingId', '=', current.listingId)
    .where('status', '=', 'failed')
    .where('stripePaymentIntentId', 'is not', null)
    .where('attempt', '<', current.attempt)
    .execute()
  for (const row of earlier) {
    try {
      await getStripe().paymentIntents.cancel(row.stripePaymentIntentId!, { cancellation_reason: 'abandoned' })
    } catch {
      // Already canceled or succeeded: nothing to do here.
    }
  }
}

/** The attempt's PaymentIntent: created once per attempt (idempotency key), then retrieved. */
async function intentFor(attempt: Transaction, title: string): Promise<Stripe.PaymentIntent> {
  const stripe = getStripe()
  try {
    if (attempt.stripePaymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(attempt.stripePaymentIntentId)
      return await keepAmountCurrent(attempt, intent)
    }
    const intent = await stripe.paymentIntents.create(
      {
        amount: attempt.amountCents,
        currency: attempt.currency.toLowerCase(),
        automatic_payment_methods: { enabled: true },
        description: title,
        metadata: {
          transactionId: attempt.id,
          listingId: attempt.listingId,
          buyerId: attempt.buyerId,
          sellerId: attempt.sellerId,
          attempt: String(attempt.attempt),
          applicationFeeCents: String(attempt.applicationFeeCents),
        },
      },
      { idempotencyKey: `checkout:${attempt.buyerId}:${attempt.listingId}:${attempt.attempt}` },
    )
    await db
      .updateTable('transactions')
      .set({ stripePaymentIntentId: intent.id, updatedAt: new Date() })
      .where('id', '=', attempt.id)
      .where('stripePaymentIntentId', 'is', null)
      .execute()
    return intent
  } catch (error) {
    if (error instanceof AppError) throw error
    logEvent('error', 'payment_intent_failed', {
      transactionId: attempt.id,
      message: error instanceof Error ? error.message : String(error),
    })
    throw new AppError(502, PAYMENT_INTENT_FAILED)
  }
}

const UPDATABLE_INTENT = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action'])

/** The seller changed the price while this attempt was open: charge the current price. */
async function keepAmountCurrent(attempt: Transaction, intent: Stripe.PaymentIntent): Promise<Stripe.PaymentIntent> {
  const listing = await db
    .selectFrom('listings')
    .select('priceCents')
    .where('id', '=', attempt.listingId)
    .executeTakeFirstOrThrow()
  if (listing.priceCents === attempt.amountCents || !UPDATABLE_INTENT.has(intent.status)) return intent
  const fee = splitFee(listing.priceCents)
  const updated = await getStripe().paymentIntents.update(intent.id, {
    amount: fee.amountCents,
    metadata: { applicationFeeCents: String(fee.applicationFeeCents) },
  })
  await db
    .updateTable('transactions')
    .set({ amountCents: fee.amountCents, applicationFeeCents: fee.applicationFeeCents, updatedAt: new Date() })
    .where('id', '=', attempt.id)
    .where('status', '=', 'pending_payment')
    .execute()
  attempt.amountCents = fee.amountCents
  attempt.applicationFeeCents = fee.applicationFeeCents
  return updated
}

// --- After the browser returns ----------------------------------------------------

export type PurchaseOutcome = 'confirmed' | 'processing' | 'failed' | 'unknown'

/**
 * What /purchase-success shows: the server's state of the buyer's sale for
 * this PaymentIntent (the browser's redirect_status is never trusted).
 */
export async function purchaseOutcome(buyerId: string, paymentIntentId: string | null) {
  if (!paymentIntentId) return { outcome: 'unknown' as PurchaseOutcome, sale: null }
  const sale = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select([
      'transactions.id',
      'transactions.status',
      'transactions.amountCents',
      'transactions.failureReason',
      'listings.title',
    ])
    .where('transactions.buyerId', '=', buyerId)
    .where('transactions.stripePaymentIntentId', '=', paymentIntentId)
    .executeTakeFirst()
  if (!sale) return { outcome: 'unknown' as PurchaseOutcome, sale: null }
  const outcome: PurchaseOutcome =
    sale.status === 'pending_payment' ? 'processing' : sale.status === 'failed' ? 'failed' : 'confirmed'
  return { outcome, sale }
}
