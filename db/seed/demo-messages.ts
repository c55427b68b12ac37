import type { Kysely } from 'kysely'
import type { DB } from '../schema.ts'

/**
 * Issue 18: a few messages on the demo's sales, and the recorded history of the disputed one, so
 * its admin timeline (/admin/disputes/{id}) reads like a real case: paid (Stripe), delivered
 * (the seller's fork), messages back and forth, the buyer's report. `listing` is an index in
 * DEMO_LISTINGS; `buyer` 'buyer' or 'jules'; times are hours after the sale was created.
 */
export interface DemoMessage {
  listing: number
  buyer: 'buyer' | 'jules'
  from: 'buyer' | 'seller'
  hoursAfterSale: number
  body: string
}

export const DEMO_MESSAGES: DemoMessage[] = [
  // The delivered sale (Demo Buyer): a question before confirming.
  { listing: 2, buyer: 'buyer', from: 'buyer', hoursAfterSale: 12, body: 'Thanks for the quick delivery! Does it run on PostgreSQL 17?' },
  {
    listing: 2,
    buyer: 'buyer',
    from: 'seller',
    hoursAfterSale: 13,
    body: 'Yes: tested on 16 and 17. Set DATABASE_URL and run the migrations once, the README has the details.',
  },
  // The disputed sale (Jules): the conversation before the report (a link stays text).
  {
    listing: 10,
    buyer: 'jules',
    from: 'buyer',
    hoursAfterSale: 26,
    body: 'The booking page crashes on start: relation "bookings" does not exist.\nIs there a migrations folder I am missing?',
  },
  {
    listing: 10,
    buyer: 'jules',
    from: 'seller',
    hoursAfterSale: 30,
    body: 'Sorry about that, the migrations live in a separate repository. I will push them to your fork today.',
  },
  {
    listing: 10,
    buyer: 'jules',
    from: 'buyer',
    hoursAfterSale: 47,
    body: 'Still nothing in the fork, so I am reporting the problem. The error log: https://gist.github.com/jules/booking-crash',
  },
]

export async function seedDemoMessages(
  db: Kysely<DB>,
  input: { listings: { id: string }[]; buyers: Record<DemoMessage['buyer'], string> },
): Promise<void> {
  for (const message of DEMO_MESSAGES) {
    const sale = await db
      .selectFrom('transactions')
      .select(['id', 'buyerId', 'sellerId', 'createdAt'])
      .where('listingId', '=', input.listings[message.listing]!.id)
      .where('buyerId', '=', input.buyers[message.buyer])
      .executeTakeFirstOrThrow()
    await db
      .insertInto('saleMessages')
      .values({
        transactionId: sale.id,
        authorId: message.from === 'buyer' ? sale.buyerId : sale.sellerId,
        body: message.body,
        createdAt: new Date(sale.createdAt.getTime() + message.hoursAfterSale * 3_600_000),
      })
      .execute()
  }

  // The disputed sale's history as the system would have recorded it (the timeline's other sources).
  const disputed = await db
    .selectFrom('transactions')
    .selectAll()
    .where('status', '=', 'disputed')
    .where('deliveredAt', 'is not', null)
    .execute()
  for (const sale of disputed) {
    const forkUrl = sale.deliveryProof?.forkUrl ?? null
    await db
      .insertInto('auditLog')
      .values([
        {
          actorId: null,
          actorRole: 'provider',
          action: 'payment_succeeded',
          entityType: 'transaction',
          entityId: sale.id,
          fromState: 'pending_payment',
          toState: 'paid',
          createdAt: sale.paidAtProvider ?? sale.createdAt,
        },
        {
          actorId: sale.sellerId,
          actorRole: 'seller',
          action: 'deliver',
          entityType: 'transaction',
          entityId: sale.id,
          fromState: 'paid',
          toState: 'delivered',
          metadata: forkUrl ? JSON.stringify({ forkUrl }) : null,
          createdAt: sale.deliveredAt!,
        },
        {
          actorId: sale.buyerId,
          actorRole: 'buyer',
          action: 'dispute',
          entityType: 'transaction',
          entityId: sale.id,
          fromState: 'delivered',
          toState: 'disputed',
          reason: sale.disputeReason,
          createdAt: sale.disputedAt ?? sale.updatedAt,
        },
      ])
      .execute()
  }
}
