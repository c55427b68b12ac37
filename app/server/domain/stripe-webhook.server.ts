import type { Transaction as DbTransaction } from 'kysely'
import type Stripe from 'stripe'
import { isValidForkUrl, OWNED_STATUSES } from '~/lib/escrow'
import type { DB, Transaction } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { applyEvent, prepareEscrow, type Actor } from './escrow.server.ts'
import { beginGithubDelivery } from './github-delivery.server.ts'
import { getDeliveryUrl } from './listings.server.ts'

/**
 * Stripe's verified events, turned into escrow events (app/server/domain/escrow.server.ts).
 * The event id is recorded in the same database transaction as its effect, so
 * a redelivery (or two deliveries at once: the second INSERT waits for the
 * first) does nothing, and a failure rolls both back for Stripe to retry.
 * Events may arrive in any order: the machine applies each one only from the
 * states where it makes sense, so a late event never moves a sale backwards.
 */

const HANDLED_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.canceled', 'charge.refunded'])

export type EventResult = 'processed' | 'duplicate' | 'ignored'

type Executor = DbTransaction<DB>
type FollowUp = () => Promise<void>

const PROVIDER: Actor = { id: null, role: 'provider' }
const SYSTEM: Actor = { id: null, role: 'system' }

export async function processStripeEvent(event: Stripe.Event): Promise<EventResult> {
  if (!HANDLED_EVENTS.has(event.type)) return 'ignored'
  await prepareEscrow()
  // Calls to Stripe happen before the database transaction (a read) or after it has committed.
  const refundId = event.type === 'charge.refunded' ? await newestRefundId(event.data.object) : null
  const followUps: FollowUp[] = []
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
        await chargeRefunded(trx, event.data.object, refundId, now)
        break
    }
    return 'processed'
  })
  for (const followUp of followUps) await followUp()
  return result
}

/** The sale of a PaymentIntent: matched by the intent id only (unique in the table). */
async function saleForIntent(trx: Executor, intentId: string): Promise<Transaction | undefined> {
  const sale = await trx.selectFrom('transactions').selectAll().where('stripePaymentIntentId', '=', intentId).executeTakeFirst()
  if (!sale) logEvent('warn', 'webhook_unknown_payment_intent', { paymentIntentId: intentId })
  return sale
}

/** The listing's private delivery link when it is an instant-delivery listing. */
async function instantDeliveryUrl(trx: Executor, listingId: string): Promise<string | null> {
  const listing = await trx.selectFrom('listings').select('deliveryTimeframe').where('id', '=', listingId).executeTakeFirst()
  if (listing?.deliveryTimeframe !== 'instant') return null
  const url = await getDeliveryUrl(listingId)
  return url && isValidForkUrl(url) ? url : null
}

async function paymentSucceeded(trx: Executor, intent: Stripe.PaymentIntent, now: Date, followUps: FollowUp[]) {
  const sale = await saleForIntent(trx, intent.id)
  if (!sale) return
  if (sale.status === 'pending_payment' || sale.status === 'failed') {
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
      const recorded = await applyEvent(trx, {
        saleId: sale.id,
        event: 'duplicate_payment',
        by: SYSTEM,
        ownedSaleId: duplicate.id,
        metadata: { paymentIntentId: intent.id },
        now,
      })
      if (recorded.applied) {
        followUps.push(async () => {
          await getStripe().refunds.create(
            { payment_intent: intent.id, reason: 'duplicate', metadata: { transactionId: sale.id } },
            { idempotencyKey: `duplicate-refund:${intent.id}` },
          )
        })
      }
      return
    }
  }

  const paid = await applyEvent(trx, {
    saleId: sale.id,
    event: 'payment_succeeded',
    by: PROVIDER,
    paymentIntentId: intent.id,
    amountReceived: intent.amount_received,
    currency: intent.currency,
    metadata: { paymentIntentId: intent.id, amountReceived: intent.amount_received, currency: intent.currency },
    now,
  })
  if (!paid.applied || paid.sale.status !== 'paid') return

  // A listing with a connected GitHub repository is delivered by invitation (issue 16): paid → delivering.
  if (await beginGithubDelivery(trx, paid.sale, now)) return

  const forkUrl = await instantDeliveryUrl(trx, sale.listingId)
  if (!forkUrl) return
  await applyEvent(trx, { saleId: sale.id, event: 'instant_delivery', by: SYSTEM, forkUrl, now })
}

async function paymentFailed(trx: Executor, intent: Stripe.PaymentIntent, now: Date, reason: string) {
  const sale = await saleForIntent(trx, intent.id)
  if (!sale) return
  await applyEvent(trx, {
    saleId: sale.id,
    event: intent.status === 'canceled' ? 'payment_canceled' : 'payment_failed',
    by: PROVIDER,
    failureReason: reason,
    reason,
    metadata: { paymentIntentId: intent.id },
    now,
  })
}

/**
 * The refund a `charge.refunded` event reports: the newest of the charge's refunds. Since API version
 * 2022-11-15 a Charge carries no `refunds` list unless expanded, and webhook payloads never are, so it
 * is asked of Stripe (newest first). A failure throws: the webhook answers 5xx and Stripe retries.
 */
async function newestRefundId(charge: Stripe.Charge): Promise<string | null> {
  const listed = charge.refunds?.data[0]?.id
  if (listed) return listed
  const { data } = await getStripe().refunds.list({ charge: charge.id, limit: 1 })
  return data[0]?.id ?? null
}

/**
 * The money went back to the buyer (an admin's refund, or one made in Stripe's
 * dashboard): the sale is refunded and the buyer's access ends. Partial refunds
 * are only recorded. A sale already paid out to the seller is not refunded by
 * the machine: it records the refund for a person to handle.
 */
async function chargeRefunded(trx: Executor, charge: Stripe.Charge, refundId: string | null, now: Date) {
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id
  if (!intentId) return
  const sale = await saleForIntent(trx, intentId)
  if (!sale) return
  const metadata = { chargeId: charge.id, refundId }
  if (!charge.refunded) {
    const amounts = { amountRefunded: charge.amount_refunded, amountCaptured: charge.amount_captured }
    await applyEvent(trx, { saleId: sale.id, event: 'partial_refund', by: PROVIDER, ...amounts, metadata, now })
    return
  }
  // After the payout the machine records the refund without applying it (refund_unapplied): that needs a person.
  await applyEvent(trx, {
    saleId: sale.id,
    event: 'refunded',
    by: PROVIDER,
    refundId,
    chargeId: charge.id,
    amountRefunded: charge.amount_refunded,
    currency: charge.currency,
    metadata,
    now,
  })
}
