import { sql } from 'kysely'
import type Stripe from 'stripe'
import { PAYMENT_INTENT_FAILED, PRICE_CHANGED_MESSAGE } from '~/lib/checkout'
import { OWNED_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import { splitFee, type FeeSplit } from '~/lib/money'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import type { Transaction } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { AppError } from './errors.server.ts'
import { fire } from './escrow.server.ts'
import { deliversThroughGithub, invitationsWebUrl } from './github-views.server.ts'

/**
 * Checkout (design.md §5): one open payment attempt per buyer and listing,
 * the amount always from the database, and fulfilment only from Stripe's
 * verified webhook — never from the browser coming back.
 *
 * Reading (the page's GET: `checkoutSummary`) never writes; the payment
 * attempt and its PaymentIntent are opened by a POST (`startCheckout`: the
 * page's action, or POST /api/listings/:id/purchase), so no cross-site link
 * can make one (issue 14.6).
 */

export interface CheckoutSummary {
  listingId: string
  title: string
  slug: string
  sellerUsername: string
  fee: FeeSplit
}

/**
 * `requiresGithub` (issue 16): the listing is delivered through GitHub and the
 * buyer has no connected GitHub account — nothing may be paid until they connect one.
 */
export type CheckoutView = { kind: 'ready' | 'requiresOnboarding' | 'requiresGithub'; summary: CheckoutSummary }

export type CheckoutResult =
  | { kind: 'ready'; clientSecret: string; transactionId: string; paymentIntentId: string; summary: CheckoutSummary }
  | { kind: 'requiresOnboarding'; summary: CheckoutSummary }
  | { kind: 'requiresGithub'; summary: CheckoutSummary }
  /** The open attempt's payment already went through; the webhook has not landed yet. */
  | { kind: 'processing'; paymentIntentId: string; summary: CheckoutSummary }

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
      'listings.githubRepoId',
      'listings.githubAccessLostAt',
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

/** What may be bought, and what the checkout shows: refuses (AppError) what may not; reads only. */
async function purchasable(input: { listingId: string; buyerId: string }) {
  const listing = await getCheckoutListing(input.listingId)
  if (!listing || listing.archivedAt) throw new AppError(404, 'Listing not found')
  if (listing.sellerId === input.buyerId) throw new AppError(403, 'You cannot buy your own listing')
  // A GitHub listing whose repository the App can no longer reach (issue 16) cannot be delivered until the seller reconnects.
  if (!listing.visible || listing.githubAccessLostAt) throw new AppError(409, 'This listing is not available for purchase')
  if (await ownedCopy(input.buyerId, listing.id)) throw new AppError(409, 'You already own this listing')

  const summary: CheckoutSummary = {
    listingId: listing.id,
    title: listing.title,
    slug: listing.slug,
    sellerUsername: listing.sellerUsername,
    fee: splitFee(listing.priceCents),
  }
  // design.md §5: no bank details on file (or rejected ones, which must be resubmitted).
  return { listing, summary, canPay: sellerCanTakePayments(listing.bankStatus), needsGithub: await needsGithub(listing, input.buyerId) }
}

/** A GitHub-delivered listing (issue 16) and a buyer without a connected GitHub account. */
async function needsGithub(listing: { githubRepoId: number | null; githubAccessLostAt: Date | null }, buyerId: string): Promise<boolean> {
  if (listing.githubRepoId === null || listing.githubAccessLostAt !== null || !githubEnabled()) return false
  const buyer = await db.selectFrom('users').select('githubUserId').where('id', '=', buyerId).executeTakeFirst()
  return !buyer?.githubUserId
}

/** The checkout page's GET: the order summary, or the seller-setup notice. Writes nothing. */
export async function checkoutSummary(input: { listingId: string; buyerId: string }): Promise<CheckoutView> {
  const { summary, canPay, needsGithub } = await purchasable(input)
  return { kind: !canPay ? 'requiresOnboarding' : needsGithub ? 'requiresGithub' : 'ready', summary }
}

/**
 * The buyer proceeds to pay (a POST): finds or opens this buyer's attempt and
 * its PaymentIntent. `expectedAmountCents` is the price the buyer's page
 * showed; when the price has changed since, nothing is opened (409) and the
 * page shows the new price first.
 */
export async function startCheckout(input: { listingId: string; buyerId: string; expectedAmountCents?: number }): Promise<CheckoutResult> {
  const { listing, summary, canPay, needsGithub } = await purchasable(input)
  if (!canPay) return { kind: 'requiresOnboarding', summary }
  if (needsGithub) return { kind: 'requiresGithub', summary }
  if (input.expectedAmountCents !== undefined && input.expectedAmountCents !== listing.priceCents) {
    throw new AppError(409, PRICE_CHANGED_MESSAGE)
  }

  for (let round = 0; round < 3; round++) {
    const attempt = await openAttempt(listing.id, listing.sellerId, input.buyerId, summary.fee)
    if (attempt.amountCents !== listing.priceCents) {
      // Opened before the seller changed the price: its intent is for the old amount. Close it, open the next.
      const closed = await closeAttempt(attempt, PRICE_CHANGED)
      if (closed === 'paid') return { kind: 'processing', paymentIntentId: attempt.stripePaymentIntentId!, summary }
      if (closed === 'unreachable') throw new AppError(502, PAYMENT_INTENT_FAILED)
      continue
    }
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
      return await stripe.paymentIntents.retrieve(attempt.stripePaymentIntentId)
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
    // Recorded once: a racing request of the same attempt got the same intent (the idempotency key).
    await fire({
      saleId: attempt.id,
      event: 'payment_intent_attached',
      by: { id: null, role: 'system' },
      paymentIntentId: intent.id,
      metadata: { paymentIntentId: intent.id },
    }).catch((error: unknown) => {
      if (!(error instanceof AppError && error.status === 409)) throw error
    })
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

// --- Open checkouts that can no longer be paid as shown ---------------------------------

const NO_LONGER_AVAILABLE = 'This listing is no longer available'
const PRICE_CHANGED = 'The price of this listing changed'

/**
 * Issue 14.5: a buyer is never charged an amount other than the one their
 * checkout showed, and never pays for a listing that stopped being for sale.
 * Called after every change of a listing (app/server/domain/listings.server.ts: the
 * form, the API and the dashboard go through it): every open checkout of the
 * listing whose amount is no longer the price, or whose listing is hidden,
 * archived or gone, has its PaymentIntent canceled at Stripe and is closed
 * (checkout_canceled). Never throws: a failure is logged, and the attempt is
 * closed on the buyer's next visit (startCheckout checks the amount again).
 */
export async function cancelStaleCheckouts(listingId: string): Promise<void> {
  try {
    const listing = await db
      .selectFrom('listings')
      .select(['priceCents', 'visible', 'archivedAt'])
      .where('id', '=', listingId)
      .executeTakeFirst()
    const open = await db
      .selectFrom('transactions')
      .select(['id', 'amountCents', 'stripePaymentIntentId'])
      .where('listingId', '=', listingId)
      .where('status', '=', 'pending_payment')
      .execute()
    for (const attempt of open) {
      const reason =
        !listing || !listing.visible || listing.archivedAt
          ? NO_LONGER_AVAILABLE
          : listing.priceCents !== attempt.amountCents
            ? PRICE_CHANGED
            : null
      if (reason) await closeAttempt(attempt, reason)
    }
  } catch (error) {
    logEvent('error', 'checkout_cancel_failed', { listingId, message: error instanceof Error ? error.message : String(error) })
  }
}

/**
 * Cancels the attempt's PaymentIntent, then closes the attempt. 'paid' when
 * the payment already went through (the buyer paid what they were shown; the
 * webhook fulfils it), 'unreachable' when Stripe could not be asked (the
 * attempt stays open).
 */
async function closeAttempt(
  attempt: Pick<Transaction, 'id' | 'stripePaymentIntentId'>,
  reason: string,
): Promise<'closed' | 'paid' | 'unreachable'> {
  const intentId = attempt.stripePaymentIntentId
  if (intentId) {
    const stripe = getStripe()
    try {
      await stripe.paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' })
    } catch (error) {
      const status = await stripe.paymentIntents.retrieve(intentId).then(
        (intent) => intent.status,
        () => null,
      )
      if (status !== 'canceled') {
        logEvent(status ? 'warn' : 'error', 'checkout_cancel_failed', {
          transactionId: attempt.id,
          paymentIntentStatus: status,
          message: error instanceof Error ? error.message : String(error),
        })
        return status === 'succeeded' || status === 'processing' || status === 'requires_capture' ? 'paid' : 'unreachable'
      }
    }
  }
  await fire({ saleId: attempt.id, event: 'checkout_canceled', by: { id: null, role: 'system' }, failureReason: reason, reason }).catch(
    (error: unknown) => {
      // The webhook's payment_intent.canceled may have closed it first.
      if (!(error instanceof AppError && error.status === 409)) throw error
    },
  )
  return 'closed'
}

// --- After the browser returns ----------------------------------------------------

export type PurchaseOutcome = 'confirmed' | 'processing' | 'failed' | 'held' | 'unknown'

/**
 * What /purchase-success shows: the real outcome of the buyer's payment (issue
 * 14.10). The browser's redirect_status is never trusted. When our record has
 * not caught up yet (the webhook is late) or still shows an earlier declined
 * try on the same card form, Stripe is asked for the PaymentIntent: a read
 * only — the verified webhook still does the fulfilment. If Stripe cannot be
 * asked, the page says "processing" and asks again, never a stale failure.
 */
export async function purchaseOutcome(buyerId: string, paymentIntentId: string | null) {
  if (!paymentIntentId) return { outcome: 'unknown' as PurchaseOutcome, sale: null }
  const row = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select(['transactions.id', 'transactions.status', 'transactions.amountCents', 'transactions.failureReason', 'listings.title'])
    .select(['listings.githubRepoId', 'listings.githubInstallationId', 'listings.githubRepoFullName'])
    .where('transactions.buyerId', '=', buyerId)
    .where('transactions.stripePaymentIntentId', '=', paymentIntentId)
    .executeTakeFirst()
  if (!row) return { outcome: 'unknown' as PurchaseOutcome, sale: null }
  const { githubRepoId, githubInstallationId, githubRepoFullName, ...rest } = row
  // Issue 26.9: delivered through GitHub, the next step is the buyer's: accept the invitation GitHub sends.
  const source = { githubRepoId, githubInstallationId, githubRepoFullName }
  const sale = { ...rest, githubInvitationUrl: deliversThroughGithub(source) ? invitationsWebUrl(source.githubRepoFullName) : null }
  if (sale.status === 'held') return { outcome: 'held' as PurchaseOutcome, sale }
  if (sale.status !== 'pending_payment' && sale.status !== 'failed') return { outcome: 'confirmed' as PurchaseOutcome, sale }

  const intent = await getStripe()
    .paymentIntents.retrieve(paymentIntentId)
    .catch((error: unknown) => {
      logEvent('warn', 'purchase_outcome_unavailable', {
        transactionId: sale.id,
        message: error instanceof Error ? error.message : String(error),
      })
      return null
    })
  switch (intent?.status) {
    case 'succeeded':
      return { outcome: 'confirmed' as PurchaseOutcome, sale }
    case 'canceled':
      return { outcome: 'failed' as PurchaseOutcome, sale: { ...sale, failureReason: sale.failureReason ?? 'Payment canceled' } }
    case 'requires_payment_method':
      // Failed only when a try was made and refused (nothing tried yet: still waiting).
      if (intent.last_payment_error) {
        return {
          outcome: 'failed' as PurchaseOutcome,
          sale: { ...sale, failureReason: intent.last_payment_error.message ?? sale.failureReason },
        }
      }
      return { outcome: 'processing' as PurchaseOutcome, sale }
    default:
      // processing, an action still required, or Stripe could not be asked.
      return { outcome: 'processing' as PurchaseOutcome, sale }
  }
}
