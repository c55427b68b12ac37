import { sql } from 'kysely'
import { splitFee } from '../../app/lib/money.ts'
import { backfillLedger } from '../../app/server/domain/ledger.server.ts'
import { createDb } from '../../db/connection.ts'
import { emailUserId } from '../../db/seed/demo-data.ts'

/**
 * Issue 28.3: the pages no cache will ever serve, measured signed in. A buyer with SALES completed
 * purchases (/purchases, and B and C as that buyer) and their seller (/seller/dashboard), both new
 * accounts of the run's copy of the database: the seller takes over the SALES oldest visible listings, each
 * sold once to the buyer, completed, posted to the ledger by the app's own posting functions
 * (backfillLedger). Ids are the auth emulator's (emailUserId), so signing in finds these users.
 */
export const SIGNED_IN_SALES = 50
export const BENCH_BUYER = { email: 'bench-buyer@bench.forkmarket.dev', username: 'bench-buyer', displayName: 'Bench Buyer' }
export const BENCH_SELLER = { email: 'bench-seller@bench.forkmarket.dev', username: 'bench-seller', displayName: 'Bench Seller' }

export async function seedSignedInFixture(databaseUrl: string, sales = SIGNED_IN_SALES): Promise<{ listingSlugs: string[] }> {
  const db = createDb(databaseUrl, { max: 1, applicationName: 'forkmarket-bench' })
  try {
    const buyerId = emailUserId(BENCH_BUYER.email)
    const sellerId = emailUserId(BENCH_SELLER.email)
    await db
      .insertInto('users')
      .values([
        { id: buyerId, ...BENCH_BUYER },
        { id: sellerId, ...BENCH_SELLER },
      ])
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    const listings = await db
      .selectFrom('listings')
      .select(['id', 'slug', 'priceCents'])
      .where('visible', '=', true)
      .where('archivedAt', 'is', null)
      // The oldest: the measured pages (newest first, by price) and the floors' recorded data stay as they were.
      .orderBy('createdAt', 'asc')
      .orderBy('id')
      .limit(sales)
      .execute()
    if (listings.length < sales) throw new Error(`the signed-in fixture needs ${sales} listings, the database has ${listings.length}`)
    await db
      .updateTable('listings')
      .set({ sellerId })
      .where(
        'id',
        'in',
        listings.map((l) => l.id),
      )
      .execute()
    const day = 24 * 3600 * 1000
    const now = Date.now()
    await db
      .insertInto('transactions')
      .values(
        listings.map((listing, i) => {
          const { amountCents, applicationFeeCents } = splitFee(listing.priceCents)
          const paid = new Date(now - (i + 10) * day)
          return {
            buyerId,
            sellerId,
            listingId: listing.id,
            amountCents,
            applicationFeeCents,
            status: 'completed' as const,
            stripePaymentIntentId: `pi_bench_${i}`,
            createdAt: paid,
            paidAtProvider: paid,
            deliveredAt: new Date(paid.getTime() + day / 2),
            completedAt: new Date(paid.getTime() + 3 * day),
          }
        }),
      )
      .execute()
    await backfillLedger(db)
    await sql`ANALYZE`.execute(db)
    return { listingSlugs: listings.map((l) => l.slug) }
  } finally {
    await db.destroy()
  }
}
