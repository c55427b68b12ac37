import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { sql, type Transaction as DbTransaction } from 'kysely'
import type Stripe from 'stripe'
import type { DB, Transaction, TransactionStatus } from '../../db/schema.ts'
import { PAYMENT_INTENT_FAILED } from '~/lib/checkout'
import { isValidForkUrl, OWNED_STATUSES, windowEndsAt } from '~/lib/escrow'
import { splitFee, type FeeSplit } from '~/lib/money'
import { recordAudit } from './audit.server.ts'
import { db } from './db.server.ts'
import { transitionSale } from './escrow.server.ts'
import { ensureJobSchema, scheduleAutoConfirm } from './jobs.server.ts'
import { getDeliveryUrl } from './listings.server.ts'
import { logEvent } from './log.server.ts'
import { getStripe } from './stripe.server.ts'

/**
 * Checkout (design.md §5): one open payment attempt per buyer and listing,
 * the amount always from the database, and fulfilment only from Stripe's
 * verified webhook — never from the browser coming back.
 */

export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 | 502,
  ) {
    super(message)
    this.name = 'CheckoutError'
  }
}


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

type Executor = DbTransaction<DB>

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
  if (!listing || listing.archivedAt) throw new CheckoutError('Listing not found', 404)
  if (listing.sellerId === input.buyerId) throw new CheckoutError('You cannot buy your own listing', 403)
  if (!listing.visible) throw new CheckoutError('This listing is not available for purchase', 409)
  if (await ownedCopy(input.buyerId, listing.id)) throw new CheckoutError('You already own this listing', 409)

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
      await db.transaction().execute((trx) =>
        transitionSale(trx, {
          id: attempt.id,
          from: ['pending_payment'],
          to: 'failed',
          set: { failureReason: 'Payment canceled' },
          actorId: null,
          actorRole: 'provider',
          action: 'payment_canceled',
          reason: 'The payment intent was canceled',
          now: new Date(),
        }),
      )
      continue
    }
    if (!intent.client_secret) throw new CheckoutError(PAYMENT_INTENT_FAILED, 502)
    return {
      kind: 'ready',
      clientSecret: intent.client_secret,
      transactionId: attempt.id,
      paymentIntentId: intent.id,
      summary: { ...summary, fee: splitFee(attempt.amountCents) },
    }
  }
  throw new CheckoutError(PAYMENT_INTENT_FAILED, 502)
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
        status: 'pending_payment',
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
    if (inserted) {
      await cancelEarlierIntents(inserted)
      return inserted
    }
  }
  throw new CheckoutError(PAYMENT_INTENT_FAILED, 502)
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
    if (error instanceof CheckoutError) throw error
    logEvent('error', 'payment_intent_failed', {
      transactionId: attempt.id,
      message: error instanceof Error ? error.message : String(error),
    })
    throw new CheckoutError(PAYMENT_INTENT_FAILED, 502)
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

// --- The webhook ------------------------------------------------------------------

const HANDLED_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
])

export type EventResult = 'processed' | 'duplicate' | 'ignored'

/**
 * Applies one verified Stripe event. The event id is recorded in the same
 * database transaction as its effect, so a redelivery (or two deliveries at
 * once: the second INSERT waits for the first) does nothing, and a failure
 * rolls both back for Stripe to retry. Every transition is guarded by the
 * state it expects, so events arriving out of order never move a sale back.
 */
export async function processStripeEvent(event: Stripe.Event): Promise<EventResult> {
  if (!HANDLED_EVENTS.has(event.type)) return 'ignored'
  if (event.type === 'payment_intent.succeeded') await ensureJobSchema()
  const followUps: Array<() => Promise<void>> = []
  const result = await db.transaction().execute(async (trx): Promise<EventResult> => {
    const fresh = await trx
      .insertInto('processedEvents')
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!fresh) return 'duplicate'
    const now = new Date()
    switch (event.type) {
      case 'payment_intent.succeeded':
        await paymentSucceeded(trx, event.data.object, now, followUps)
        break
      case 'payment_intent.payment_failed':
        await paymentFailed(trx, event.data.object, now, event.data.object.last_payment_error?.message ?? 'Payment failed')
        break
      case 'payment_intent.canceled':
        await paymentFailed(trx, event.data.object, now, 'Payment canceled')
        break
      case 'charge.refunded':
        await chargeRefunded(trx, event.data.object, now)
        break
    }
    return 'processed'
  })
  for (const followUp of followUps) await followUp()
  return result
}

async function saleForIntent(trx: Executor, intent: { id: string; metadata?: Stripe.Metadata | null }) {
  const byId = intent.metadata?.transactionId
  let query = trx.selectFrom('transactions').selectAll()
  query =
    byId && isUuid(byId)
      ? query.where((eb) => eb.or([eb('id', '=', byId), eb('stripePaymentIntentId', '=', intent.id)]))
      : query.where('stripePaymentIntentId', '=', intent.id)
  const sale = await query.forUpdate().executeTakeFirst()
  if (!sale) logEvent('warn', 'webhook_unknown_payment_intent', { paymentIntentId: intent.id })
  return sale
}

/** The listing's private delivery link when it is an instant-delivery listing. */
async function instantDeliveryUrl(trx: Executor, listingId: string): Promise<string | null> {
  const listing = await trx
    .selectFrom('listings')
    .select('deliveryTimeframe')
    .where('id', '=', listingId)
    .executeTakeFirst()
  if (listing?.deliveryTimeframe !== 'instant') return null
  const url = await getDeliveryUrl(listingId)
  return url && isValidForkUrl(url) ? url : null
}

async function paymentSucceeded(
  trx: Executor,
  intent: Stripe.PaymentIntent,
  now: Date,
  followUps: Array<() => Promise<void>>,
): Promise<void> {
  const sale = await saleForIntent(trx, intent)
  if (!sale) return
  // A failed attempt whose intent later succeeded (a retry on the same card form) was paid after all.
  const payable: TransactionStatus[] = ['pending_payment', 'failed']
  if (!payable.includes(sale.status)) return

  const duplicate = await trx
    .selectFrom('transactions')
    .select('id')
    .where('buyerId', '=', sale.buyerId)
    .where('listingId', '=', sale.listingId)
    .where('status', 'in', [...OWNED_STATUSES])
    .where('id', '!=', sale.id)
    .executeTakeFirst()
  if (duplicate) {
    // The buyer paid twice (two tabs on two attempts): keep the first sale, give this money back.
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'system',
      action: 'duplicate_payment_refund',
      entityType: 'transaction',
      entityId: sale.id,
      fromState: sale.status,
      toState: sale.status,
      reason: `The buyer already owns this listing (sale ${duplicate.id})`,
      metadata: { paymentIntentId: intent.id },
    })
    followUps.push(async () => {
      await getStripe().refunds.create(
        { payment_intent: intent.id, reason: 'duplicate', metadata: { transactionId: sale.id } },
        { idempotencyKey: `duplicate-refund:${intent.id}` },
      )
    })
    return
  }

  const paid = await transitionSale(trx, {
    id: sale.id,
    from: payable,
    to: 'paid',
    set: {
      stripePaymentIntentId: intent.id,
      paidAtProvider: now,
      failureReason: null,
    },
    actorId: null,
    actorRole: 'provider',
    action: 'payment_succeeded',
    metadata: { paymentIntentId: intent.id, amountReceived: intent.amount_received },
    now,
  })
  if (!paid) return
  if (intent.amount_received !== sale.amountCents) {
    logEvent('error', 'payment_amount_mismatch', { transactionId: sale.id, expected: sale.amountCents, received: intent.amount_received })
  }

  const deliveryUrl = await instantDeliveryUrl(trx, sale.listingId)
  if (!deliveryUrl) return
  const delivered = await transitionSale(trx, {
    id: sale.id,
    from: ['paid'],
    to: 'delivered',
    set: { deliveryProof: JSON.stringify({ forkUrl: deliveryUrl }), deliveredAt: now },
    actorId: null,
    actorRole: 'system',
    action: 'instant_delivery',
    reason: 'Instant-delivery listing: the private delivery link is released on payment',
    now,
  })
  if (delivered) await scheduleAutoConfirm(trx, sale.id, windowEndsAt(now))
}

async function paymentFailed(trx: Executor, intent: Stripe.PaymentIntent, now: Date, reason: string): Promise<void> {
  const sale = await saleForIntent(trx, intent)
  if (!sale) return
  await transitionSale(trx, {
    id: sale.id,
    from: ['pending_payment'],
    to: 'failed',
    set: { failureReason: reason },
    actorId: null,
    actorRole: 'provider',
    action: intent.status === 'canceled' ? 'payment_canceled' : 'payment_failed',
    reason,
    metadata: { paymentIntentId: intent.id },
    now,
  })
}

/**
 * The money went back to the buyer (an admin's refund, or one made in Stripe's
 * dashboard): the sale is refunded and the buyer's access ends. A sale already
 * paid out to the seller cannot be refunded by the database's rules; that needs
 * a person, so it is logged loudly instead.
 */
async function chargeRefunded(trx: Executor, charge: Stripe.Charge, now: Date): Promise<void> {
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id
  if (!intentId) return
  const sale = await saleForIntent(trx, { id: intentId, metadata: charge.metadata })
  if (!sale) return
  const refundId = charge.refunds?.data[0]?.id ?? null
  if (!charge.refunded) {
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'provider',
      action: 'partial_refund',
      entityType: 'transaction',
      entityId: sale.id,
      fromState: sale.status,
      toState: sale.status,
      reason: `Partially refunded: ${charge.amount_refunded} of ${charge.amount_captured} cents`,
      metadata: { chargeId: charge.id, refundId },
    })
    return
  }
  const refunded = await transitionSale(trx, {
    id: sale.id,
    from: ['pending_payment', 'failed', 'paid', 'delivered', 'disputed', 'completed'],
    to: 'refunded',
    set: { refundedAt: now, stripeRefundId: sale.stripeRefundId ?? refundId },
    where: (qb) => qb.where('paidAt', 'is', null),
    actorId: null,
    actorRole: 'provider',
    action: 'refunded',
    reason: sale.refundRequestedAt ? 'Refund requested by an admin' : 'Refunded at the payment provider',
    metadata: { chargeId: charge.id, refundId },
    now,
  })
  if (!refunded && sale.status !== 'refunded') {
    logEvent('error', 'refund_after_payout', { transactionId: sale.id, status: sale.status })
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'provider',
      action: 'refund_unapplied',
      entityType: 'transaction',
      entityId: sale.id,
      fromState: sale.status,
      toState: sale.status,
      reason: 'Refunded at the provider after the seller was paid out: needs manual handling',
      metadata: { chargeId: charge.id, refundId },
    })
  }
}
