import { describe, expect, it } from 'vitest'
import { splitFee } from '../../app/lib/money.ts'
import { isPayoutDue } from '../../app/lib/payouts.ts'
import { payoutDue } from '../../app/server/domain/payouts.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { createListing, createSale, signUp } from './admin-fixtures.ts'

// Issue 15.3: each money rule lives once; these tests keep the SQL and the
// TypeScript forms of a rule from drifting apart.

describe('one owner per money rule', () => {
  it('the seller share is the database’s amount − fee, equal to splitFee, for any amount', async () => {
    const seller = await signUp('share-seller@example.com')
    const buyer = await signUp('share-buyer@example.com')
    for (const amountCents of [1, 3, 7, 50, 99, 4321, 99_999_999]) {
      const listing = await createListing(seller.id, { priceCents: amountCents })
      const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents, status: 'paid' })
      expect(sale.sellerShareCents, String(amountCents)).toBe(splitFee(amountCents).sellerShareCents)
    }
  })

  it('the SQL payout-due rule and isPayoutDue agree on every state, paid out or not', async () => {
    const seller = await signUp('due-seller@example.com')
    const buyer = await signUp('due-buyer@example.com')
    const statuses: TransactionStatus[] = ['pending_payment', 'failed', 'paid', 'delivered', 'disputed', 'completed', 'refunded']
    const sales = []
    for (const status of statuses) {
      for (const paymentReference of [undefined, 'REF']) {
        if (paymentReference && status !== 'completed') continue // the schema allows payouts of completed sales only
        const listing = await createListing(seller.id)
        sales.push(
          await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 1000, status, paymentReference }),
        )
      }
    }
    const dueInSql = new Set((await db.selectFrom('transactions').select('id').where(payoutDue).execute()).map((r) => r.id))
    for (const sale of sales) expect(dueInSql.has(sale.id), `${sale.status} paid=${Boolean(sale.paidAt)}`).toBe(isPayoutDue(sale))
    expect(dueInSql.size).toBe(1)
  })
})
