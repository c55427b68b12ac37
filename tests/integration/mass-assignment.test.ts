import { beforeEach, describe, expect, it } from 'vitest'
import { approvePayoutBatch } from '../../app/server/domain/payout-batches.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { callRoute } from '../support/call-route.ts'
import { API_LISTING, buildRequest, buildWorld, VALID_BANK_DETAILS, type Body, type World } from './hardening-fixtures.ts'

/*
 * Mass assignment (issue 9, ASVS V15.3.3): fields a client must never set —
 * status, sellerId, priceCents/amountCents on a sale, isAdmin, approved,
 * paidAt (and ids, timestamps) — are sent through every form and endpoint
 * where they could matter, and have no effect.
 */

const HOSTILE = (w: World) => ({
  id: '00000000-0000-4000-8000-000000000000',
  sellerId: w.users.other.id,
  buyerId: w.users.other.id,
  userId: w.users.other.id,
  status: 'completed',
  isAdmin: true,
  is_admin: true,
  approved: true,
  approvedBy: w.users.admin.id,
  paidAt: '2001-01-01T00:00:00.000Z',
  paid_at: '2001-01-01T00:00:00.000Z',
  paymentReference: 'SELF-PAID',
  amountCents: 1,
  applicationFeeCents: 0,
  priceCents: 1,
  createdAt: '2001-01-01T00:00:00.000Z',
  archivedAt: '2001-01-01T00:00:00.000Z',
})

/** The same hostile fields as form fields (strings). */
function asForm(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))
}

const modules = {
  listings: () => import('../../app/routes/api/listings.ts'),
  listing: () => import('../../app/routes/api/listing.ts'),
  bank: () => import('../../app/routes/api/bank-details.ts'),
  sync: () => import('../../app/routes/api/users-sync.ts'),
  purchase: () => import('../../app/routes/api/listing-purchase.ts'),
  deliver: () => import('../../app/routes/api/seller-transaction-deliver.ts'),
  confirm: () => import('../../app/routes/api/purchase-confirm.ts'),
  dispute: () => import('../../app/routes/api/purchase-dispute.ts'),
  markPaid: () => import('../../app/routes/api/admin-mark-paid.ts'),
  create: () => import('../../app/routes/listing-create.tsx'),
  edit: () => import('../../app/routes/listing-edit.tsx'),
  profile: () => import('../../app/routes/profile.tsx'),
  admin: () => import('../../app/routes/admin.tsx'),
  purchases: () => import('../../app/routes/purchases.tsx'),
  dashboard: () => import('../../app/routes/seller-dashboard.tsx'),
}

async function call(
  mod: keyof typeof modules,
  method: string,
  path: string,
  token: string,
  body: Body,
  params: Record<string, string> = {},
) {
  return callRoute(await modules[mod](), buildRequest(method, path, token, body), params)
}

const user = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const sale = (id: string) => db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const bank = (userId: string) => db.selectFrom('bankDetails').selectAll().where('userId', '=', userId).executeTakeFirstOrThrow()

let w: World
beforeEach(async () => {
  w = await buildWorld()
})

describe('mass assignment has no effect', () => {
  it('POST /api/listings: the listing belongs to the caller, whatever sellerId/id/createdAt say', async () => {
    const response = await call('listings', 'POST', '/api/listings', w.users.buyer.token, {
      json: { ...API_LISTING, ...HOSTILE(w), priceCents: 4900 },
    })
    expect(response.status).toBe(201)
    const created = (await response.json()) as { id: string }
    const row = await db.selectFrom('listings').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(row.sellerId).toBe(w.users.buyer.id)
    expect(row.id).not.toBe(HOSTILE(w).id)
    expect(row.archivedAt).toBeNull()
    expect(row.createdAt.getFullYear()).toBeGreaterThan(2001)
    expect((await user(w.users.buyer.id)).isAdmin).toBe(false)
  })

  it('PATCH /api/listings/:id: the owner cannot hand the listing to someone else or archive it', async () => {
    const response = await call(
      'listing',
      'PATCH',
      `/api/listings/${w.listing.id}`,
      w.users.owner.token,
      { json: { ...HOSTILE(w), priceCents: 5000 } },
      { slugOrId: w.listing.id },
    )
    expect(response.status).toBe(200)
    const row = await db.selectFrom('listings').selectAll().where('id', '=', w.listing.id).executeTakeFirstOrThrow()
    expect(row.sellerId).toBe(w.users.owner.id)
    expect(row.archivedAt).toBeNull()
    expect((await user(w.users.owner.id)).isAdmin).toBe(false)
  })

  it('POST /api/profile/bank-details: saved details are pending and the caller\u2019s own', async () => {
    const response = await call('bank', 'POST', '/api/profile/bank-details', w.users.buyer.token, {
      json: { ...VALID_BANK_DETAILS, ...HOSTILE(w) },
    })
    expect(response.status).toBe(200)
    const row = await bank(w.users.buyer.id)
    expect(row.status).toBe('pending')
    expect(row.approvedBy).toBeNull()
    expect(row.approvedAt).toBeNull()
    // The other user's (pending) record is untouched.
    expect((await bank(w.users.other.id)).accountHolder).toBe('Test Seller')
  })

  it('/profile form: status=approved is ignored', async () => {
    const response = await call('profile', 'POST', '/profile', w.users.buyer.token, {
      form: { ...asForm(HOSTILE(w)), ...VALID_BANK_DETAILS },
    })
    expect(response.status).toBe(302)
    expect((await bank(w.users.buyer.id)).status).toBe('pending')
    expect((await bank(w.users.other.id)).status).toBe('pending')
  })

  it('POST /api/users/sync: isAdmin in the body does not make anyone an admin', async () => {
    const response = await call('sync', 'POST', '/api/users/sync', w.users.buyer.token, { json: HOSTILE(w) })
    expect(response.status).toBe(200)
    expect((await user(w.users.buyer.id)).isAdmin).toBe(false)
    expect((await user(w.users.other.id)).isAdmin).toBe(false)
  })

  it('POST /api/listings/:id/purchase: the sale costs the listing price and starts pending', async () => {
    const response = await call(
      'purchase',
      'POST',
      `/api/listings/${w.listing.id}/purchase`,
      w.users.other.token,
      { json: HOSTILE(w) },
      { id: w.listing.id },
    )
    expect(response.status).toBe(200)
    const row = await db.selectFrom('transactions').selectAll().where('listingId', '=', w.listing.id).executeTakeFirstOrThrow()
    expect(row.amountCents).toBe(w.listing.priceCents)
    expect(row.sellerId).toBe(w.users.owner.id)
    expect(row.buyerId).toBe(w.users.other.id)
    expect(row.status).toBe('pending_payment')
    expect(row.paidAt).toBeNull()
  })

  it('deliver / confirm / dispute: the state machine decides the status, not the body', async () => {
    const delivered = await call(
      'deliver',
      'POST',
      `/api/seller/transactions/${w.salePaid.id}/deliver`,
      w.users.owner.token,
      {
        json: { forkUrl: 'https://github.com/x/y', ...HOSTILE(w) },
      },
      { id: w.salePaid.id },
    )
    expect(delivered.status).toBe(200)
    let row = await sale(w.salePaid.id)
    expect(row.status).toBe('delivered')
    expect([row.paidAt, row.paymentReference, row.amountCents]).toEqual([null, null, 9900])

    const confirmed = await call(
      'confirm',
      'POST',
      `/api/purchases/${w.saleDelivered.id}/confirm`,
      w.users.buyer.token,
      { json: { ...HOSTILE(w), status: 'refunded' } },
      { id: w.saleDelivered.id },
    )
    expect(confirmed.status).toBe(200)
    row = await sale(w.saleDelivered.id)
    expect(row.status).toBe('completed')
    expect([row.paidAt, row.paymentReference, row.amountCents]).toEqual([null, null, 9900])

    const disputed = await call(
      'dispute',
      'POST',
      `/api/purchases/${w.salePaid.id}/dispute`,
      w.users.buyer.token,
      { json: { reason: 'Broken', ...HOSTILE(w) } },
      { id: w.salePaid.id },
    )
    expect(disputed.status).toBe(200)
    row = await sale(w.salePaid.id)
    expect(row.status).toBe('disputed')
    expect(row.paidAt).toBeNull()
  })

  it('POST mark-paid: paidAt is now and the amount is the sale\u2019s, whatever the body says', async () => {
    const before = Date.now()
    const response = await call(
      'markPaid',
      'POST',
      `/api/admin/transactions/${w.saleCompleted.id}/mark-paid`,
      w.users.admin.token,
      {
        json: { ...HOSTILE(w), paymentReference: 'REF-9' },
      },
      { transactionId: w.saleCompleted.id },
    )
    expect(response.status).toBe(200)
    const { batch } = await response.json()
    expect(batch).toMatchObject({ kind: 'single', status: 'draft', totalCents: 9900 - 1485, bankReference: 'REF-9' })
    // Issue 19: recorded when a second admin approves the one-line batch.
    // The database refuses an approver who is not an admin, whatever calls it.
    await expect(approvePayoutBatch({ batchId: batch.id, adminId: w.users.other.id })).rejects.toThrow(
      'Only an admin can approve a payout batch',
    )
    await db.updateTable('users').set({ isAdmin: true }).where('id', '=', w.users.other.id).execute()
    await approvePayoutBatch({ batchId: batch.id, adminId: w.users.other.id })
    const row = await sale(w.saleCompleted.id)
    expect(row.paymentReference).toBe('REF-9')
    expect(row.paidAt!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect([row.status, row.amountCents, row.sellerId]).toEqual(['completed', 9900, w.users.owner.id])
  })

  it('screen forms: /seller/create, /seller/edit, /admin, /purchases, /seller/dashboard ignore hostile fields', async () => {
    const form = { title: 'Form listing', shortDescription: 'x', type: 'template', licence: 'personal', price: '10' }
    const created = await call('create', 'POST', '/seller/create', w.users.buyer.token, { form: { ...asForm(HOSTILE(w)), ...form } })
    expect(created.status).toBe(302)
    const mine = await db.selectFrom('listings').selectAll().where('title', '=', 'Form listing').executeTakeFirstOrThrow()
    expect(mine.sellerId).toBe(w.users.buyer.id)
    expect(mine.priceCents).toBe(1000)

    const edited = await call(
      'edit',
      'POST',
      `/seller/edit/${w.listing.id}`,
      w.users.owner.token,
      { form: { ...asForm(HOSTILE(w)), ...form } },
      { id: w.listing.id },
    )
    expect(edited.status).toBe(302)
    const listing = await db.selectFrom('listings').selectAll().where('id', '=', w.listing.id).executeTakeFirstOrThrow()
    expect([listing.sellerId, listing.archivedAt]).toEqual([w.users.owner.id, null])

    const marked = await call('admin', 'POST', '/admin', w.users.admin.token, {
      form: { ...asForm(HOSTILE(w)), intent: 'mark-paid', transactionId: w.saleCompleted.id, paymentReference: 'REF-F' },
    })
    expect(marked.status).toBe(302)
    // Issue 19: a one-line payout batch of the sale's own share, recorded when a second admin approves.
    const batch = await db.selectFrom('payoutBatches').selectAll().executeTakeFirstOrThrow()
    expect(batch).toMatchObject({ kind: 'single', totalCents: 9900 - 1485, preparedBy: w.users.admin.id, bankReference: 'REF-F' })
    await db.updateTable('users').set({ isAdmin: true }).where('id', '=', w.users.other.id).execute()
    const approved = await call('admin', 'POST', '/admin', w.users.other.token, {
      form: { ...asForm(HOSTILE(w)), intent: 'approve-batch', batchId: batch.id },
    })
    expect(approved.status).toBe(302)
    const paid = await sale(w.saleCompleted.id)
    expect(paid.paidAt!.getFullYear()).toBeGreaterThan(2001)
    expect(paid.amountCents).toBe(9900)

    const confirmed = await call('purchases', 'POST', '/purchases', w.users.buyer.token, {
      form: { ...asForm(HOSTILE(w)), intent: 'confirm-receipt', transactionId: w.saleDelivered.id, status: 'refunded' },
    })
    expect(confirmed.status).toBe(302)
    expect((await sale(w.saleDelivered.id)).status).toBe('completed')

    const delivered = await call('dashboard', 'POST', '/seller/dashboard', w.users.owner.token, {
      form: { ...asForm(HOSTILE(w)), intent: 'deliver', transactionId: w.salePaid.id, forkUrl: 'https://github.com/x/y' },
    })
    expect(delivered.status).toBe(302)
    const row = await sale(w.salePaid.id)
    expect([row.status, row.paidAt, row.amountCents]).toEqual(['delivered', null, 9900])
    for (const id of [w.users.buyer.id, w.users.owner.id]) expect((await user(id)).isAdmin).toBe(false)
  })
})
