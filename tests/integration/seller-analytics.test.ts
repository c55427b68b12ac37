import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import * as viewsApi from '../../app/routes/api/listing-views.ts'
import * as analyticsApi from '../../app/routes/api/seller-analytics.ts'
import * as listingPage from '../../app/routes/listing.tsx'
import * as dashboardScreen from '../../app/routes/seller-dashboard.tsx'
import {
  countListingView,
  countListingViewLater,
  flushListingViews,
  getSellerAnalytics,
} from '../../app/server/domain/seller-analytics.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

async function views(listingId: string): Promise<number> {
  const row = await db.selectFrom('listingViewsDaily').select('views').where('listingId', '=', listingId).executeTakeFirst()
  return row?.views ?? 0
}

/** The page does not wait for its counter: wait for the tally to be written (within VIEW_TALLY_FLUSH_MS). */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('condition not met')
}

function visit(slug: string, userAgent: string, token?: string) {
  const request = screenRequest(`/listing/${slug}`, token)
  request.headers.set('User-Agent', userAgent)
  return callRoute(listingPage, request, { slug })
}

async function report(listingId: string, userAgent: string, token?: string) {
  const request = apiRequest(`/api/listings/${listingId}/views`, { method: 'POST', token })
  request.headers.set('User-Agent', userAgent)
  const response = await callRoute(viewsApi, request, { id: listingId })
  return [response.status, await response.json()]
}

describe('listing views', () => {
  it('stores no personal data: one counter per listing and day', async () => {
    const columns = await sql<{ columnName: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'listing_views_daily' ORDER BY column_name
    `.execute(db)
    expect(columns.rows.map((c) => c.columnName)).toEqual(['day', 'listing_id', 'views'])
  })

  it('counts a visitor’s view of the listing page, not a bot’s, not the seller’s own; one row per day', async () => {
    const seller = await signUp('seller@example.com')
    const visitor = await signUp('visitor@example.com')
    await giveBankDetails(seller.id, 'approved')
    const listing = await createListing(seller.id)

    // An anonymous page may come from a shared cache: its loader counts nothing, the browser reports the view.
    const anonymous = await visit(listing.slug, BROWSER)
    expect(anonymous.status).toBe(200)
    expect(await anonymous.text()).toContain(`"reportView":true`)
    expect(await report(listing.id, BROWSER)).toEqual([200, { counted: true }])
    await until(async () => (await views(listing.id)) === 1)
    // A signed-in visitor's page is private: the loader counts it, the page reports nothing. The count waits in
    // the instance's tally (written within a second, every listing in one statement), not in the page.
    const signedIn = await visit(listing.slug, BROWSER, visitor.token)
    expect(signedIn.status).toBe(200)
    expect(await signedIn.text()).toContain(`"reportView":false`)
    expect((await visit(listing.slug, BROWSER, visitor.token)).status).toBe(200)
    await until(async () => (await views(listing.id)) === 3)
    expect(await report(listing.id, BOT)).toEqual([200, { counted: false }])
    expect(await report(listing.id, BROWSER, seller.token)).toEqual([200, { counted: false }])

    expect((await visit(listing.slug, BOT)).status).toBe(200)
    expect((await visit(listing.slug, BROWSER, seller.token)).status).toBe(200)
    const prefetch = screenRequest(`/listing/${listing.slug}`)
    prefetch.headers.set('User-Agent', BROWSER)
    prefetch.headers.set('Sec-Purpose', 'prefetch')
    expect((await callRoute(listingPage, prefetch, { slug: listing.slug })).status).toBe(200)
    await flushListingViews()
    await countListingView(listing.id) // a later real view: the counter is ordered after the ignored ones
    expect(await views(listing.id)).toBe(4)
    expect(await db.selectFrom('listingViewsDaily').selectAll().execute()).toHaveLength(1)

    await db.updateTable('listings').set({ visible: false }).where('id', '=', listing.id).execute()
    expect(await report(listing.id, BROWSER)).toEqual([404, { error: 'Listing not found' }])
    expect(await report('not-a-listing', BROWSER)).toEqual([404, { error: 'Listing not found' }])
    expect(await views(listing.id)).toBe(4)
  })

  it('writes the tally of every listing together, leaving out a listing deleted meanwhile', async () => {
    const seller = await signUp('seller@example.com')
    const [first, second] = [await createListing(seller.id), await createListing(seller.id)]
    countListingViewLater(first.id)
    countListingViewLater(second.id)
    countListingViewLater(first.id)
    countListingViewLater('00000000-0000-4000-8000-000000000000')
    expect(await views(first.id)).toBe(0)
    await flushListingViews()
    expect([await views(first.id), await views(second.id)]).toEqual([2, 1])
    await flushListingViews() // nothing left to write: counted once
    expect([await views(first.id), await views(second.id)]).toEqual([2, 1])
  })
})

describe('seller analytics', () => {
  it('30 days of views, sales, revenue and conversion, and the balance held / due / paid', async () => {
    const seller = await signUp('seller@example.com')
    const buyer = await signUp('buyer@example.com')
    const listing = await createListing(seller.id, { priceCents: 4000 })
    for (let i = 0; i < 8; i += 1) await countListingView(listing.id)
    // One listing per sale (a buyer owns one copy of a listing); views of any of them count.
    const sale = async (status: Parameters<typeof createSale>[0]['status'], paymentReference?: string) =>
      createSale({
        listingId: (await createListing(seller.id, { priceCents: 4000 })).id,
        sellerId: seller.id,
        buyerId: buyer.id,
        amountCents: 4000,
        status,
        paymentReference,
      })
    await sale('paid')
    await sale('completed')
    await sale('completed', 'BACS-1')
    await sale('refunded')
    // 40 days ago: outside the chart, inside the balance.
    await createSale({
      listingId: listing.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 1000,
      status: 'delivered',
      createdAt: new Date(Date.now() - 40 * 864e5),
    })

    const analytics = await getSellerAnalytics(seller.id)
    expect(analytics.days).toHaveLength(30)
    expect(analytics.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), views: 8, sales: 3, revenueCents: 3 * 3400 })
    expect(analytics.totals).toEqual({ views: 8, sales: 3, revenueCents: 10200, conversionPercent: 37.5 })
    expect(analytics.balance).toEqual({ heldCents: 3400 + 850, dueCents: 3400, paidCents: 3400 })

    const api = await callRoute(analyticsApi, apiRequest('/api/seller/analytics', { token: seller.token }))
    expect((await api.json()).analytics.totals).toEqual(analytics.totals)
    // Another user's analytics are their own (nothing of this seller's).
    const other = await callRoute(analyticsApi, apiRequest('/api/seller/analytics', { token: buyer.token }))
    expect((await other.json()).analytics.totals).toEqual({ views: 0, sales: 0, revenueCents: 0, conversionPercent: null })
    expect((await callRoute(analyticsApi, apiRequest('/api/seller/analytics'))).status).toBe(401)

    const page = await (await callRoute(dashboardScreen, screenRequest('/seller/dashboard', seller.token))).json()
    expect(page.analytics.totals).toEqual(analytics.totals)
    expect(page.statements).toEqual([])
  })
})
