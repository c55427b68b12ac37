import { describe, expect, it } from 'vitest'
import * as marketplaceRoute from '../../app/routes/marketplace.tsx'
import * as sellerDashboard from '../../app/routes/seller-dashboard.tsx'
import { db } from '../../app/server/infra/db.server.ts'
import { APP, callRoute } from '../support/call-route.ts'
import { createListing, giveBankDetails, signUp } from '../support/payment-fixtures.ts'
import { getListings } from './marketplace-fixtures.ts'

/*
 * Issue 26.13: a new seller's dashboard has a setup checklist (public profile, GitHub, bank details, first
 * listing), and listings that cannot be bought (the seller cannot take payments) are not in the marketplace
 * — the page or GET /api/listings — while their seller sees them on the dashboard with the reason.
 */
const get = (path: string, token?: string) => new Request(`${APP}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })

async function found(title: string) {
  const api = await getListings(`search=${encodeURIComponent(title)}`)
  expect(api.status).toBe(200)
  const page = (await (await callRoute(marketplaceRoute, get(`/marketplace?search=${encodeURIComponent(title)}`))).json()) as {
    listings: { title: string }[]
  }
  const titles = (api.body.listings as { title: string }[]).map((l) => l.title)
  expect(
    page.listings.map((l) => l.title),
    'the marketplace page agrees with the API',
  ).toEqual(titles)
  return titles.includes(title)
}

async function dashboard(token: string) {
  const response = await callRoute(sellerDashboard, get('/seller/dashboard', token))
  expect(response.status).toBe(200)
  return response.json() as Promise<{
    setup: { id: string; done: boolean; state: string; link: { to: string } }[]
    notForSale: string | null
    listings: { title: string }[]
  }>
}

describe('a new seller: the setup checklist, and listings that cannot be bought', () => {
  it('a new seller sees every step to do; their listing is not in the marketplace until bank details are on file', async () => {
    const seller = await signUp('setup-seller')
    const fresh = await dashboard(seller.token)
    expect(fresh.setup.map((s) => [s.id, s.done])).toEqual([
      ['public-profile', false],
      ['github', false],
      ['bank-details', false],
      ['first-listing', false],
    ])

    const listing = await createListing(seller.id)
    expect(await found(listing.title)).toBe(false)
    const listed = await dashboard(seller.token)
    expect(listed.listings.map((l) => l.title)).toEqual([listing.title])
    expect(listed.notForSale).toMatch(/Not in the marketplace: add your bank details/)
    expect(listed.setup.find((s) => s.id === 'first-listing')!.done).toBe(true)

    await giveBankDetails(seller.id, 'pending')
    expect(await found(listing.title)).toBe(true)
    const pending = await dashboard(seller.token)
    expect(pending.notForSale).toBeNull()
    expect(pending.setup.find((s) => s.id === 'bank-details')).toMatchObject({
      done: false,
      state: expect.stringMatching(/^Waiting for approval/),
    })

    // Rejected details must be resubmitted: out of the marketplace again, with the reason.
    await db
      .updateTable('bankDetails')
      .set({ status: 'rejected', rejectedAt: new Date(), rejectionReason: 'The name does not match' })
      .where('userId', '=', seller.id)
      .execute()
    expect(await found(listing.title)).toBe(false)
    expect((await dashboard(seller.token)).notForSale).toMatch(/rejected/)

    await db.updateTable('users').set({ bio: 'I build starter kits.' }).where('id', '=', seller.id).execute()
    await db.updateTable('bankDetails').set({ status: 'approved', approvedAt: new Date() }).where('userId', '=', seller.id).execute()
    const approved = await dashboard(seller.token)
    expect(approved.setup.map((s) => s.done)).toEqual([true, false, true, true])
    expect(await found(listing.title)).toBe(true)
  })
})
