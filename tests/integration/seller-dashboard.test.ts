import { describe, expect, it } from 'vitest'
import * as sellerTransactionsApi from '../../app/routes/api/seller-transactions.ts'
import * as dashboard from '../../app/routes/seller-dashboard.tsx'
import { getSellerDashboard } from '../../app/server/domain/seller-dashboard.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, formRequest, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

/** A seller with one sale in every state (amounts chosen so each state's share is recognisable). */
async function sellerWithSales() {
  const seller = await signUp('seller@example.com')
  const buyer = await signUp('buyer@example.com')
  const sale = async (
    status: Parameters<typeof createSale>[0]['status'],
    amountCents: number,
    paymentReference?: string,
    createdAt?: Date,
  ) => {
    const listing = await createListing(seller.id, { priceCents: amountCents })
    return createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents, status, paymentReference, createdAt })
  }
  const sales = {
    paid: await sale('paid', 1000), // fee 150, share 850
    delivered: await sale('delivered', 2000), // fee 300, share 1700
    completed: await sale('completed', 4000), // fee 600, share 3400
    paidOut: await sale('completed', 8000, 'BACS-1'), // fee 1200, share 6800 (already paid out)
    disputed: await sale('disputed', 16000), // fee 2400, share 13600
    refunded: await sale('refunded', 32000), // never counts
    pending: await sale('pending_payment', 64000), // never counts
    failed: await sale('failed', 128000), // never counts
  }
  await createListing(seller.id, { visible: false })
  return { seller, buyer, sales }
}

describe('seller dashboard figures', () => {
  it('Total Sales, Pending payouts and Active Listings follow the escrow states', async () => {
    const { seller } = await sellerWithSales()
    const dashboardData = await getSellerDashboard(seller.id)
    expect(dashboardData.stats).toEqual({
      totalSalesCents: 1000 + 2000 + 4000 + 8000 + 16000,
      pendingPayoutCents: 850 + 1700 + 3400 + 13600,
      pendingSales: 4,
      activeListings: 8,
    })
    // Refunded sales stay visible as such; abandoned and failed checkouts do not.
    expect(dashboardData.transactions.map((t) => t.status).sort()).toEqual(
      ['completed', 'completed', 'delivered', 'disputed', 'paid', 'refunded'].sort(),
    )
    expect(dashboardData.listings).toHaveLength(9)
  })

  it('shows the latest 10 transactions, newest first', async () => {
    const seller = await signUp('busy@example.com')
    for (let i = 0; i < 12; i++) {
      const buyer = await signUp(`b${i}@example.com`)
      const listing = await createListing(seller.id)
      await createSale({
        listingId: listing.id,
        sellerId: seller.id,
        buyerId: buyer.id,
        amountCents: 100 + i,
        status: 'completed',
        createdAt: new Date(Date.UTC(2026, 0, i + 1)),
      })
    }
    const { transactions } = await getSellerDashboard(seller.id)
    expect(transactions.map((t) => t.amountCents)).toEqual([111, 110, 109, 108, 107, 106, 105, 104, 103, 102])
  })

  it('raises the bank alert only while a sale waits for a payout and the details are not approved', async () => {
    const { seller, sales } = await sellerWithSales()
    expect((await getSellerDashboard(seller.id)).bankAlert).toBe('missing')
    await giveBankDetails(seller.id, 'rejected')
    expect((await getSellerDashboard(seller.id)).bankAlert).toBe('missing')
    await db
      .updateTable('bankDetails')
      .set({ status: 'pending', rejectedAt: null, rejectionReason: null })
      .where('userId', '=', seller.id)
      .execute()
    expect((await getSellerDashboard(seller.id)).bankAlert).toBe('pending')
    await db.updateTable('bankDetails').set({ status: 'approved', approvedAt: new Date() }).where('userId', '=', seller.id).execute()
    expect((await getSellerDashboard(seller.id)).bankAlert).toBeNull()

    // No sale waiting (only paid-out and refunded ones): no alert while details on file wait for approval.
    const quiet = await signUp('quiet@example.com')
    const listing = await createListing(quiet.id)
    await createSale({ listingId: listing.id, sellerId: quiet.id, buyerId: sales.paid.buyerId, amountCents: 500, status: 'refunded' })
    await giveBankDetails(quiet.id, 'pending')
    expect((await getSellerDashboard(quiet.id)).bankAlert).toBeNull()
  })

  it('tells a seller with listings but no bank details (or rejected ones) that buyers cannot buy them, before any sale', async () => {
    const fresh = await signUp('fresh@example.com')
    // Nothing listed yet: nothing to say.
    expect((await getSellerDashboard(fresh.id)).bankAlert).toBeNull()
    await createListing(fresh.id)
    expect((await getSellerDashboard(fresh.id)).bankAlert).toBe('missing')
    await giveBankDetails(fresh.id, 'rejected')
    expect((await getSellerDashboard(fresh.id)).bankAlert).toBe('missing')
    await db
      .updateTable('bankDetails')
      .set({ status: 'pending', rejectedAt: null, rejectionReason: null })
      .where('userId', '=', fresh.id)
      .execute()
    expect((await getSellerDashboard(fresh.id)).bankAlert).toBeNull()
  })
})

describe('GET /api/seller/transactions', () => {
  it('anonymous → 401', async () => {
    const response = await callRoute(sellerTransactionsApi, apiRequest('/api/seller/transactions'))
    expect(response.status).toBe(401)
  })

  it("returns only the seller's own sales, with the buyer's public fields only", async () => {
    const { seller, buyer } = await sellerWithSales()
    const other = await signUp('other-seller@example.com')
    const otherListing = await createListing(other.id)
    await createSale({ listingId: otherListing.id, sellerId: other.id, buyerId: buyer.id, amountCents: 777, status: 'paid' })

    const response = await callRoute(sellerTransactionsApi, apiRequest('/api/seller/transactions', { token: seller.token }))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain('buyer@example.com')
    const body = JSON.parse(text)
    expect(body).toHaveLength(6)
    expect(body.some((t: { amountCents: number }) => t.amountCents === 777)).toBe(false)
    const paidOut = body.find((t: { amountCents: number }) => t.amountCents === 8000)
    expect(paidOut).toMatchObject({ sellerShareCents: 6800, paymentReference: 'BACS-1', status: 'completed' })
    expect(paidOut.paidAt).toBeTruthy()
    expect(Object.keys(paidOut.buyer).sort()).toEqual(['avatarUrl', 'displayName', 'username'])
  })
})

describe('/seller/dashboard screen', () => {
  it('anonymous → login', async () => {
    const response = await callRoute(dashboard, screenRequest('/seller/dashboard'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fseller%2Fdashboard')
  })

  it('hides and shows a listing with the set-visibility intent (no JavaScript needed)', async () => {
    const seller = await signUp('toggle@example.com')
    const listing = await createListing(seller.id)
    const hide = await callRoute(
      dashboard,
      formRequest('/seller-dashboard', { intent: 'set-visibility', listingId: listing.id, visible: 'false' }, seller.token),
    )
    expect(hide.status).toBe(302)
    expect(hide.headers.get('Location')).toBe('/seller-dashboard')
    const stored = await db.selectFrom('listings').select('visible').where('id', '=', listing.id).executeTakeFirstOrThrow()
    expect(stored.visible).toBe(false)
    expect((await getSellerDashboard(seller.id)).stats.activeListings).toBe(0)
  })

  it("cannot change another seller's listing", async () => {
    const owner = await signUp('owner@example.com')
    const intruder = await signUp('intruder@example.com')
    const listing = await createListing(owner.id)
    const response = await callRoute(
      dashboard,
      formRequest('/seller/dashboard', { intent: 'set-visibility', listingId: listing.id, visible: 'false' }, intruder.token),
    )
    expect(response.status).toBe(404)
    const stored = await db.selectFrom('listings').select('visible').where('id', '=', listing.id).executeTakeFirstOrThrow()
    expect(stored.visible).toBe(true)
  })

  it('delivers a paid sale with an https fork URL; refuses other URLs and wrong states inline', async () => {
    const { seller, sales } = await sellerWithSales()
    const deliver = (transactionId: string, forkUrl: string) =>
      callRoute(dashboard, formRequest('/seller/dashboard', { intent: 'deliver', transactionId, forkUrl }, seller.token))

    const bad = await deliver(sales.paid.id, 'http://github.com/buyer/fork')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({
      targetId: sales.paid.id,
      result: { error: { forkUrl: ['Enter the https:// link to the buyer’s fork'] } },
    })

    const wrongState = await deliver(sales.completed.id, 'https://github.com/buyer/fork')
    expect(wrongState.status).toBe(409)
    expect(await wrongState.json()).toMatchObject({
      targetId: sales.completed.id,
      result: { error: { '': [expect.stringContaining('completed')] } },
    })

    const ok = await deliver(sales.paid.id, 'https://github.com/buyer/fork')
    expect(ok.status).toBe(302)
    const stored = await db
      .selectFrom('transactions')
      .select(['status', 'deliveryProof'])
      .where('id', '=', sales.paid.id)
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ status: 'delivered', deliveryProof: { forkUrl: 'https://github.com/buyer/fork' } })
  })

  it('the loader carries no e-mail of the buyer and no bank number', async () => {
    const { seller } = await sellerWithSales()
    await giveBankDetails(seller.id, 'approved')
    const response = await callRoute(dashboard, screenRequest('/seller/dashboard', seller.token))
    const text = await response.text()
    expect(text).not.toContain('buyer@example.com')
    expect(text).not.toContain('31415926')
    expect(JSON.parse(text).stats.totalSalesCents).toBe(31000)
  })
})
