/**
 * The demo's sales paid at the Stripe emulator, so the reconciliation (which reads the provider's
 * succeeded charges, app/server/domain/reconciliation.server.ts) finds each one: a PaymentIntent
 * per sale, shaped as checkout creates it (checkout.server.ts), confirmed with Stripe's test Visa,
 * and refunded for the refunded sales. Without a Stripe emulator (`npm run db:seed` against real
 * services) the demo keeps its invented `pi_demo_…` ids, and the reconciliation lists them.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { DB } from '../schema.ts'

/** The placeholder the demo's sales are inserted with, replaced here by the real intent id. */
export const DEMO_INTENT_PREFIX = 'pi_demo_'

/**
 * A demo sale's id (and its listing's), the same on every seed: the Stripe calls below use
 * idempotency keys made from the sale, with its ids in the metadata, so seeding again against the
 * same emulator (a fresh database, a seed rolled back halfway) replays the first payment instead
 * of charging the demo buyer twice.
 */
export function demoSaleId(listingSlug: string, buyerId: string): string {
  return demoUuid(`forkmarket-demo-sale:${listingSlug}:${buyerId}`)
}

export function demoListingId(listingSlug: string): string {
  return demoUuid(`forkmarket-demo-listing:${listingSlug}`)
}

function demoUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** Pays every demo sale still carrying a placeholder intent id; returns how many. */
export async function payDemoSales(db: Kysely<DB>, stripe: Stripe): Promise<number> {
  const sales = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select([
      'transactions.id',
      'transactions.listingId',
      'transactions.buyerId',
      'transactions.sellerId',
      'transactions.attempt',
      'transactions.amountCents',
      'transactions.applicationFeeCents',
      'transactions.currency',
      'transactions.status',
      'listings.title',
    ])
    .where('transactions.stripePaymentIntentId', 'like', `${DEMO_INTENT_PREFIX.replace(/_/g, '\\_')}%`)
    .orderBy('transactions.createdAt')
    .execute()
  for (const sale of sales) {
    const intent = await stripe.paymentIntents.create(
      {
        amount: sale.amountCents,
        currency: sale.currency.toLowerCase(),
        automatic_payment_methods: { enabled: true },
        description: sale.title,
        metadata: {
          transactionId: sale.id,
          listingId: sale.listingId,
          buyerId: sale.buyerId,
          sellerId: sale.sellerId,
          attempt: String(sale.attempt),
          applicationFeeCents: String(sale.applicationFeeCents),
        },
      },
      { idempotencyKey: `demo-sale:${sale.id}` },
    )
    if (intent.status !== 'succeeded') {
      await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' }, { idempotencyKey: `demo-sale-confirm:${sale.id}` })
    }
    const refund =
      sale.status === 'refunded'
        ? await stripe.refunds.create(
            { payment_intent: intent.id, metadata: { transactionId: sale.id } },
            { idempotencyKey: `demo-sale-refund:${sale.id}` },
          )
        : undefined
    await db
      .updateTable('transactions')
      .set({ stripePaymentIntentId: intent.id, ...(refund ? { stripeRefundId: refund.id } : {}) })
      .where('id', '=', sale.id)
      .execute()
  }
  return sales.length
}
