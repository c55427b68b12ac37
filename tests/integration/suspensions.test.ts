import { describe, expect, it } from 'vitest'
import * as listingsApi from '../../app/routes/api/listings.ts'
import * as purchasesApi from '../../app/routes/api/purchases.ts'
import * as purchasesRoute from '../../app/routes/purchases.tsx'
import { payable } from '../../app/server/domain/payouts.server.ts'
import {
  approveSuspension,
  cancelSuspension,
  liftSuspension,
  openSuspensions,
  requestSuspension,
} from '../../app/server/domain/suspensions.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

const unique = () => Math.random().toString(36).slice(2, 8)

async function setting() {
  const seller = await signUp(`suspended-${unique()}@example.com`)
  await giveBankDetails(seller.id, 'approved')
  const buyer = await signUp(`buyer-${unique()}@example.com`)
  const first = await signUp(`admin-a-${unique()}@example.com`, { admin: true })
  const second = await signUp(`admin-b-${unique()}@example.com`, { admin: true })
  const title = `Suspended kit ${unique()}`
  const shown = await createListing(seller.id, { title })
  const hidden = await createListing(seller.id, { visible: false })
  const sale = await createSale({ listingId: shown.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 5000, status: 'completed' })
  return { seller, buyer, first, second, title, shown, hidden, sale }
}

async function inSearch(title: string) {
  const body = await (await callRoute(listingsApi, apiRequest(`/api/listings?search=${encodeURIComponent(title)}`))).json()
  return body.listings.some((l: { title: string }) => l.title === title)
}
const isPayable = async (saleId: string) =>
  (await db.selectFrom('transactions').select('id').where('id', '=', saleId).where(payable).executeTakeFirst()) !== undefined
const visible = async (id: string) =>
  (await db.selectFrom('listings').select('visible').where('id', '=', id).executeTakeFirstOrThrow()).visible

describe('suspending a user', () => {
  it('needs a second admin; stops sign-in, hides the listings and holds the payouts; lifting restores them', async () => {
    const { seller, first, second, title, shown, hidden, sale } = await setting()
    expect(await inSearch(title)).toBe(true)
    expect(await isPayable(sale.id)).toBe(true)

    await requestSuspension({ userId: seller.id, adminId: first.id, reason: 'Sells stolen code' })
    // Requested only: nothing changes yet, and the requester cannot approve it.
    expect(await inSearch(title)).toBe(true)
    await expect(approveSuspension({ userId: seller.id, adminId: first.id })).rejects.toMatchObject({
      status: 409,
      message: 'A second admin must approve a suspension you requested',
    })
    await expect(requestSuspension({ userId: seller.id, adminId: second.id, reason: 'Again' })).rejects.toMatchObject({ status: 409 })
    expect((await openSuspensions()).find((s) => s.user.id === seller.id)).toMatchObject({
      status: 'requested',
      requestedBy: { id: first.id },
    })
    // The database refuses one admin approving their own request, whoever writes.
    await expect(
      db
        .updateTable('userSuspensions')
        .set({ status: 'active', approvedBy: first.id, approvedAt: new Date() })
        .where('userId', '=', seller.id)
        .execute(),
    ).rejects.toThrow(/user_suspensions_four_eyes/)

    const active = await approveSuspension({ userId: seller.id, adminId: second.id })
    expect(active).toMatchObject({ status: 'active', hiddenListingIds: [shown.id] })
    expect(await inSearch(title)).toBe(false)
    expect(await visible(shown.id)).toBe(false)
    // The seller is signed out everywhere: screens send them to sign in, the API answers 401.
    const screen = await callRoute(purchasesRoute, screenRequest('/purchases', seller.token))
    expect(screen.status).toBe(302)
    expect(screen.headers.get('Location')).toMatch(/^\/login/)
    expect((await callRoute(purchasesApi, apiRequest('/api/purchases', { token: seller.token }))).status).toBe(401)
    // Their payouts are held, and no write shows their listings meanwhile.
    expect(await isPayable(sale.id)).toBe(false)
    await db.updateTable('listings').set({ visible: true }).where('id', '=', shown.id).execute()
    expect(await visible(shown.id)).toBe(false)

    await liftSuspension({ userId: seller.id, adminId: first.id, reason: 'Appeal accepted' })
    expect(await inSearch(title)).toBe(true)
    expect(await visible(hidden.id)).toBe(false) // hidden by the seller before: stays hidden
    expect(await isPayable(sale.id)).toBe(true)
    expect((await callRoute(purchasesApi, apiRequest('/api/purchases', { token: seller.token }))).status).toBe(200)

    const audit = await db
      .selectFrom('auditLog')
      .select(['action', 'actorId', 'fromState', 'toState'])
      .where('entityId', '=', seller.id)
      .orderBy('id')
      .execute()
    expect(audit).toEqual([
      { action: 'user.suspension_requested', actorId: first.id, fromState: 'none', toState: 'requested' },
      { action: 'user.suspended', actorId: second.id, fromState: 'requested', toState: 'active' },
      { action: 'user.suspension_lifted', actorId: first.id, fromState: 'active', toState: 'none' },
    ])
  })

  it('a request can be cancelled; nobody suspends themselves', async () => {
    const { seller, first } = await setting()
    await expect(requestSuspension({ userId: first.id, adminId: first.id, reason: 'Me' })).rejects.toMatchObject({ status: 400 })
    await requestSuspension({ userId: seller.id, adminId: first.id, reason: 'Spam' })
    await cancelSuspension({ userId: seller.id, adminId: first.id, reason: 'Wrong account' })
    expect((await openSuspensions()).some((s) => s.user.id === seller.id)).toBe(false)
    await expect(liftSuspension({ userId: seller.id, adminId: first.id, reason: 'x' })).rejects.toMatchObject({ status: 409 })
  })
})
