import { describe, expect, it } from 'vitest'
import { splitFee } from '../../app/lib/money.ts'
import * as adminScreen from '../../app/routes/admin.tsx'
import * as auditLogApi from '../../app/routes/api/admin-audit-log.ts'
import * as approveApi from '../../app/routes/api/admin-bank-approve.ts'
import * as pendingApi from '../../app/routes/api/admin-bank-details-pending.ts'
import * as rejectApi from '../../app/routes/api/admin-bank-reject.ts'
import * as markPaidApi from '../../app/routes/api/admin-mark-paid.ts'
import * as batchActionApi from '../../app/routes/api/admin-payout-batch-action.ts'
import * as payoutsCsvApi from '../../app/routes/api/admin-payouts-csv.ts'
import * as transactionsApi from '../../app/routes/api/admin-transactions.ts'
import * as sellerBankApi from '../../app/routes/api/bank-details.ts'
import { getAdminSummary } from '../../app/server/domain/admin.server.ts'
import { backfillLedger } from '../../app/server/domain/ledger.server.ts'
import { csvCell, payoutsToCsv } from '../../app/server/domain/payouts.server.ts'
import { reconcile } from '../../app/server/domain/reconciliation.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, formRequest, GB_ACCOUNT, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

async function world() {
  const admin = await signUp('admin@example.com', { admin: true })
  const seller = await signUp('seller@example.com')
  const buyer = await signUp('buyer@example.com')
  const sale = async (status: Parameters<typeof createSale>[0]['status'], amountCents: number, paymentReference?: string) => {
    const listing = await createListing(seller.id, { priceCents: amountCents, title: `Sold ${status} ${amountCents}` })
    return createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents, status, paymentReference })
  }
  return { admin, seller, buyer, sale }
}

const UNKNOWN = '00000000-0000-4000-a000-000000000000'

describe('admin endpoints refuse everyone but admins', () => {
  const endpoints = [
    { name: 'GET transactions', mod: transactionsApi, path: '/api/admin/transactions', method: 'GET' },
    { name: 'GET pending bank details', mod: pendingApi, path: '/api/admin/bank-details/pending', method: 'GET' },
    { name: 'GET payouts CSV', mod: payoutsCsvApi, path: '/api/admin/payouts.csv', method: 'GET' },
    { name: 'GET audit log', mod: auditLogApi, path: '/api/admin/audit-log', method: 'GET' },
    {
      name: 'POST mark-paid',
      mod: markPaidApi,
      path: `/api/admin/transactions/${UNKNOWN}/mark-paid`,
      method: 'POST',
      params: { transactionId: UNKNOWN },
      json: { paymentReference: 'X' },
    },
    {
      name: 'POST approve',
      mod: approveApi,
      path: `/api/admin/bank-details/${UNKNOWN}/approve`,
      method: 'POST',
      params: { userId: UNKNOWN },
      json: {},
    },
    {
      name: 'POST reject',
      mod: rejectApi,
      path: `/api/admin/bank-details/${UNKNOWN}/reject`,
      method: 'POST',
      params: { userId: UNKNOWN },
      json: { reason: 'x' },
    },
  ] as const

  it.each(endpoints)('$name: anonymous → 401, signed-in non-admin → 403 (JSON)', async (endpoint) => {
    const { token } = await signUp('plain@example.com')
    const params = 'params' in endpoint ? endpoint.params : {}
    const json = 'json' in endpoint ? endpoint.json : undefined
    const anonymous = await callRoute(endpoint.mod, apiRequest(endpoint.path, { method: endpoint.method, json }), params)
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ error: 'Authentication required' })
    const forbidden = await callRoute(endpoint.mod, apiRequest(endpoint.path, { method: endpoint.method, json, token }), params)
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual({ error: 'Admin access required' })
  })

  it('the /admin screen sends a non-admin home and an anonymous visitor to login; its actions too', async () => {
    const { token } = await signUp('plain@example.com')
    const page = await callRoute(adminScreen, screenRequest('/admin', token))
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toBe('/')
    const anonymous = await callRoute(adminScreen, screenRequest('/admin'))
    expect(anonymous.headers.get('Location')).toBe('/login?redirectTo=%2Fadmin')

    const seller = await signUp('victim@example.com')
    await giveBankDetails(seller.id, 'pending')
    const post = await callRoute(adminScreen, formRequest('/admin', { intent: 'approve-bank', userId: seller.id }, token))
    expect(post.status).toBe(302)
    expect(post.headers.get('Location')).toBe('/')
    expect((await db.selectFrom('bankDetails').select('status').executeTakeFirstOrThrow()).status).toBe('pending')
  })
})

describe('summary figures', () => {
  it('gross, fees, payouts due and paid out follow the escrow states', async () => {
    const { sale } = await world()
    await sale('paid', 1000) // fee 150
    await sale('delivered', 2000) // fee 300
    await sale('completed', 4000) // fee 600, due 3400
    await sale('completed', 8000, 'BACS-1') // fee 1200, paid out 6800
    await sale('disputed', 16000) // fee 2400
    await sale('refunded', 32000)
    await sale('pending_payment', 64000)
    await sale('failed', 128000)
    expect(await getAdminSummary()).toEqual({
      grossSalesCents: 31000,
      // Issue 26.12: the fees named by where they stand, adding up to 15 % of the gross (4650).
      platformFeesEarnedCents: 1800,
      platformFeesInEscrowCents: 2850,
      payoutsDueCents: 3400,
      paidOutCents: 6800,
    })
  })

  it("the fees earned are the Reconciliation tab's (the ledger's platform_fee); with those in escrow they add up to every gross sale's fee", async () => {
    const { sale } = await world()
    await sale('paid', 1000)
    await sale('disputed', 2000)
    await sale('completed', 4000)
    await sale('completed', 8000, 'BACS-2')
    await sale('refunded', 16000)
    await backfillLedger(db)
    const summary = await getAdminSummary()
    const { totals } = await reconcile([])
    expect(totals.platformFeeCents).toBe(summary.platformFeesEarnedCents)
    expect(totals.platformFeeInEscrowCents).toBe(summary.platformFeesInEscrowCents)
    expect(summary.platformFeesEarnedCents + summary.platformFeesInEscrowCents).toBe(
      [1000, 2000, 4000, 8000].reduce((fees, amount) => fees + splitFee(amount).applicationFeeCents, 0),
    )
  })
})

describe('GET /api/admin/transactions', () => {
  it('returns the admin view fields (plus status), newest first, and filters by status', async () => {
    const { admin, sale, seller } = await world()
    await sale('paid', 1000)
    const done = await sale('completed', 4000, 'BACS-9')
    const response = await callRoute(transactionsApi, apiRequest('/api/admin/transactions', { token: admin.token }))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toHaveLength(2)
    expect(Object.keys(body[0]).sort()).toEqual(
      ['amountCents', 'applicationFeeCents', 'createdAt', 'id', 'paidAt', 'paymentReference', 'sellerEmail', 'status'].sort(),
    )
    const filtered = await (
      await callRoute(transactionsApi, apiRequest('/api/admin/transactions?status=completed', { token: admin.token }))
    ).json()
    expect(filtered).toEqual([
      expect.objectContaining({
        id: done.id,
        sellerEmail: seller.email,
        amountCents: 4000,
        applicationFeeCents: 600,
        paymentReference: 'BACS-9',
        status: 'completed',
      }),
    ])
    const bad = await callRoute(transactionsApi, apiRequest('/api/admin/transactions?status=nope', { token: admin.token }))
    expect(bad.status).toBe(400)
  })
})

describe('bank details approval', () => {
  it('lists pending entries with the full numbers for the admin', async () => {
    const { admin, seller } = await world()
    await giveBankDetails(seller.id, 'pending')
    const other = await signUp('approved@example.com')
    await giveBankDetails(other.id, 'approved', '87654321')
    const body = await (await callRoute(pendingApi, apiRequest('/api/admin/bank-details/pending', { token: admin.token }))).json()
    expect(body).toEqual([
      {
        id: seller.id,
        email: seller.email,
        bankDetails: expect.objectContaining({ accountNumber: GB_ACCOUNT, sortCode: '040004', status: 'pending' }),
        // No other seller's approved details name this account (issue 26.5).
        sharedAccountWith: [],
      },
    ])
  })

  it('approve: pending → approved once, then 409; unknown user 404; audited', async () => {
    const { admin, seller } = await world()
    await giveBankDetails(seller.id, 'pending')
    const approve = (userId: string) =>
      callRoute(
        approveApi,
        apiRequest(`/api/admin/bank-details/${userId}/approve`, { method: 'POST', token: admin.token, json: { version: 1 } }),
        { userId },
      )

    const ok = await approve(seller.id)
    expect(ok.status).toBe(200)
    const okText = await ok.text()
    expect(okText).not.toContain(GB_ACCOUNT)
    expect(JSON.parse(okText).bankDetails).toMatchObject({ status: 'approved', approved: true })
    const stored = await db.selectFrom('bankDetails').selectAll().executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ status: 'approved', approvedBy: admin.id })
    expect(stored.approvedAt).toBeInstanceOf(Date)

    const again = await approve(seller.id)
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'These bank details are approved, not pending: only pending details can be approved' })
    expect((await approve(UNKNOWN)).status).toBe(404)
    expect((await approve('not-a-uuid')).status).toBe(404)

    const audit = await db.selectFrom('auditLog').selectAll().where('action', '=', 'bank_details.approve').execute()
    expect(audit).toMatchObject([{ actorId: admin.id, actorRole: 'admin', entityId: seller.id, fromState: 'pending', toState: 'approved' }])
  })

  it('reject needs a reason, works only on pending details, and the seller sees the reason', async () => {
    const { admin, seller } = await world()
    await giveBankDetails(seller.id, 'pending')
    const reject = (reason: unknown) =>
      callRoute(
        rejectApi,
        apiRequest(`/api/admin/bank-details/${seller.id}/reject`, { method: 'POST', token: admin.token, json: { reason, version: 1 } }),
        {
          userId: seller.id,
        },
      )
    for (const reason of [undefined, '', '   ', 42]) {
      const response = await reject(reason)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: 'Please provide a rejection reason', field: 'reason' })
    }
    const ok = await reject('  Name does not match the account  ')
    expect(ok.status).toBe(200)
    expect((await ok.json()).bankDetails).toMatchObject({ status: 'rejected', rejectionReason: 'Name does not match the account' })
    expect((await reject('again')).status).toBe(409)

    const approveRejected = await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: admin.token, json: { version: 1 } }),
      { userId: seller.id },
    )
    expect(approveRejected.status).toBe(409)
    const audit = await db.selectFrom('auditLog').selectAll().execute()
    expect(audit).toMatchObject([{ action: 'bank_details.reject', reason: 'Name does not match the account', toState: 'rejected' }])
  })
})

describe('bank details approval names the version the admin reviewed (issue 14.1)', () => {
  const GB_FORM = { country: 'GB', accountHolder: 'Ada Okafor', bankName: 'Monzo', sortCode: '040004', accountNumber: '31415926' }

  it('a change saved after the admin opened the details is refused (409), from the API and the form; nothing approved', async () => {
    const { admin, seller } = await world()
    const save = (json: Record<string, string>) =>
      callRoute(sellerBankApi, apiRequest('/api/profile/bank-details', { method: 'POST', token: seller.token, json }))
    expect((await save(GB_FORM)).status).toBe(200)
    // The admin opens the pending entry: version 1, Monzo.
    const pending = await (await callRoute(pendingApi, apiRequest('/api/admin/bank-details/pending', { token: admin.token }))).json()
    expect(pending[0].bankDetails).toMatchObject({ bankName: 'Monzo', version: 1 })
    // The seller swaps the account while the admin is looking.
    expect((await save({ ...GB_FORM, bankName: 'Evil Bank', accountNumber: '99999999' })).status).toBe(200)

    const viaApi = await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: admin.token, json: { version: 1 } }),
      { userId: seller.id },
    )
    expect(viaApi.status).toBe(409)
    expect(await viaApi.json()).toEqual({ error: 'These bank details changed since you opened them' })
    const viaForm = await callRoute(
      adminScreen,
      formRequest('/admin', { intent: 'approve-bank', userId: seller.id, version: '1' }, admin.token),
    )
    expect(viaForm.status).toBe(409)
    expect(JSON.stringify(await viaForm.json())).toContain('These bank details changed since you opened them')
    const rejectOld = await callRoute(
      rejectApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/reject`, { method: 'POST', token: admin.token, json: { reason: 'x', version: 1 } }),
      { userId: seller.id },
    )
    expect(rejectOld.status).toBe(409)
    expect(await db.selectFrom('bankDetails').select(['status', 'bankName', 'version']).executeTakeFirstOrThrow()).toEqual({
      status: 'pending',
      bankName: 'Evil Bank',
      version: 2,
    })
    expect(await db.selectFrom('auditLog').select('action').where('action', 'like', 'bank_details.%').execute()).toEqual([
      { action: 'bank_details.submit' },
      { action: 'bank_details.resubmit' },
    ])

    // Approving without naming a version is refused; naming the current one works.
    const unnamed = await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: admin.token, json: {} }),
      { userId: seller.id },
    )
    expect(unnamed.status).toBe(400)
    const current = await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: admin.token, json: { version: 2 } }),
      { userId: seller.id },
    )
    expect(current.status).toBe(200)
    expect((await current.json()).bankDetails).toMatchObject({ status: 'approved', bankName: 'Evil Bank', version: 2 })
  })
})

describe('mark paid', () => {
  const markPaid = (token: string, transactionId: string, json: unknown) =>
    callRoute(markPaidApi, apiRequest(`/api/admin/transactions/${transactionId}/mark-paid`, { method: 'POST', token, json }), {
      transactionId,
    })

  const approveBatch = (token: string, batchId: string) =>
    callRoute(batchActionApi, apiRequest(`/api/admin/payout-batches/${batchId}/approve`, { method: 'POST', token, json: {} }), {
      batchId,
      action: 'approve',
    })

  it('records the payout of a completed sale to approved details once a second admin approves: paidAt + reference, audited, once', async () => {
    const { admin, seller, sale } = await world()
    const second = await signUp('second-admin@example.com', { admin: true })
    await giveBankDetails(seller.id, 'approved')
    const done = await sale('completed', 4000)
    const response = await markPaid(admin.token, done.id, { paymentReference: '  BACS-2026-7  ' })
    expect(response.status).toBe(200)
    const { batch } = await response.json()
    expect(batch).toMatchObject({ kind: 'single', status: 'draft', bankReference: 'BACS-2026-7', transactionId: done.id, totalCents: 3400 })
    // Issue 19, four eyes: nothing is paid until another admin approves; the preparer cannot.
    const waiting = await db.selectFrom('transactions').selectAll().where('id', '=', done.id).executeTakeFirstOrThrow()
    expect(waiting).toMatchObject({ status: 'completed', paidAt: null, paymentReference: null })
    const own = await approveBatch(admin.token, batch.id)
    expect(own.status).toBe(403)
    expect(await own.json()).toEqual({ error: 'A different admin must approve this payout: you prepared it' })
    const twice = await markPaid(second.token, done.id, { paymentReference: 'BACS-2026-8' })
    expect(twice.status).toBe(409)
    expect(await twice.json()).toEqual({ error: 'This sale is already in a payout waiting for approval' })
    const approved = await approveBatch(second.token, batch.id)
    expect(approved.status).toBe(200)
    expect((await approved.json()).batch).toMatchObject({ status: 'sent', bankReference: 'BACS-2026-7' })

    const stored = await db.selectFrom('transactions').selectAll().where('id', '=', done.id).executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ status: 'completed', paymentReference: 'BACS-2026-7' })
    expect(stored.paidAt).toBeInstanceOf(Date)
    expect(await getAdminSummary()).toMatchObject({ payoutsDueCents: 0, paidOutCents: 3400 })

    const again = await markPaid(admin.token, done.id, { paymentReference: 'BACS-2026-8' })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'This sale has already been paid out' })
    const audit = await db.selectFrom('auditLog').selectAll().where('action', '=', 'payout.mark_paid').execute()
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      actorId: admin.id,
      entityId: done.id,
      metadata: { paymentReference: 'BACS-2026-7', sellerShareCents: 3400 },
    })
  })

  it('requires a payment reference', async () => {
    const { admin, seller, sale } = await world()
    await giveBankDetails(seller.id, 'approved')
    const done = await sale('completed', 4000)
    for (const json of [{}, { paymentReference: '' }, { paymentReference: '   ' }]) {
      const response = await markPaid(admin.token, done.id, json)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: 'Payment reference is required', field: 'paymentReference' })
    }
  })

  it('refuses sales that are not completed (409 naming the state) and unknown ones (404)', async () => {
    const { admin, seller, sale } = await world()
    await giveBankDetails(seller.id, 'approved')
    for (const status of ['paid', 'delivered', 'disputed', 'refunded', 'pending_payment', 'failed'] as const) {
      const t = await sale(status, 1000)
      const response = await markPaid(admin.token, t.id, { paymentReference: 'REF' })
      expect(response.status, status).toBe(409)
      expect(await response.json()).toEqual({ error: `This sale is ${status}: only completed sales can be paid out` })
    }
    expect((await markPaid(admin.token, UNKNOWN, { paymentReference: 'REF' })).status).toBe(404)
    expect(await db.selectFrom('transactions').select('paidAt').where('paidAt', 'is not', null).execute()).toEqual([])
  })

  it('refuses while the seller has no approved bank details', async () => {
    const { admin, seller, sale } = await world()
    const done = await sale('completed', 4000)
    const none = await markPaid(admin.token, done.id, { paymentReference: 'REF' })
    expect(none.status).toBe(409)
    expect(await none.json()).toEqual({ error: 'The seller has no bank details on file' })
    for (const status of ['pending', 'rejected'] as const) {
      await db.deleteFrom('bankDetails').execute()
      await giveBankDetails(seller.id, status)
      const response = await markPaid(admin.token, done.id, { paymentReference: 'REF' })
      expect(response.status).toBe(409)
      expect(await response.json()).toEqual({ error: `The seller's bank details are ${status}, not approved` })
    }
  })
})

describe('payouts CSV', () => {
  it('lists completed unpaid sales with the full bank details, escaping formulas', async () => {
    const { admin, seller, sale } = await world()
    await giveBankDetails(seller.id, 'approved')
    await sale('completed', 4000)
    await sale('completed', 8000, 'BACS-1')
    await sale('delivered', 2000)
    const response = await callRoute(payoutsCsvApi, apiRequest('/api/admin/payouts.csv', { token: admin.token }))
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="forkmarket-payouts-due-\d{4}-\d{2}-\d{2}\.csv"$/)
    const lines = (await response.text()).trim().split('\r\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('seller_email')
    expect(lines[1]).toContain(seller.email)
    expect(lines[1]).toContain(GB_ACCOUNT)
    expect(lines[1]).toMatch(/,"40\.00","6\.00","34\.00"$/)

    const csv = payoutsToCsv([
      {
        transactionId: 't1',
        completedAt: null,
        listingTitle: '=HYPERLINK("http://evil")',
        sellerId: 's',
        sellerEmail: 'a@b.c',
        sellerUsername: 'a',
        amountCents: 100,
        applicationFeeCents: 15,
        sellerShareCents: 85,
        bankStatus: null,
        bankDetails: null,
      },
    ])
    expect(csv.split('\r\n')[1]).toContain(`"'=HYPERLINK(""http://evil"")"`)
  })

  it('quotes every cell and neutralises formulas for `,` and `;` locales (issue 14.8)', () => {
    expect(csvCell('plain')).toBe('"plain"')
    expect(csvCell(42)).toBe('"42"')
    expect(csvCell(null)).toBe('""')
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`)
    // Read with `;` as the separator, the text after it starts a new cell.
    expect(csvCell('Shop;=HYPERLINK("http://evil")')).toBe(`"Shop;'=HYPERLINK(""http://evil"")"`)
    expect(csvCell('Shop, -2+3')).toBe(`"Shop, '-2+3"`)
    expect(csvCell('a@b.c')).toBe('"a@b.c"')
    const header = payoutsToCsv([]).split('\r\n')[0]!
    expect(header.split(',').every((cell) => /^"[a-z_]+"$/.test(cell))).toBe(true)
  })
})

describe('audit log API', () => {
  it('shows the latest entries with the actor', async () => {
    const { admin, seller } = await world()
    await giveBankDetails(seller.id, 'pending')
    await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: admin.token, json: { version: 1 } }),
      { userId: seller.id },
    )
    const body = await (await callRoute(auditLogApi, apiRequest('/api/admin/audit-log', { token: admin.token }))).json()
    expect(body).toEqual([
      expect.objectContaining({
        actorEmail: admin.email,
        actorRole: 'admin',
        action: 'bank_details.approve',
        entityId: seller.id,
        toState: 'approved',
      }),
    ])
  })
})

describe('/admin screen', () => {
  it('loads each tab with what it shows, and the pending count', async () => {
    const { admin, seller, sale } = await world()
    await giveBankDetails(seller.id, 'approved')
    const done = await sale('completed', 4000)
    const other = await signUp('pending@example.com')
    await giveBankDetails(other.id, 'pending', '11223344')

    const transactions = await (await callRoute(adminScreen, screenRequest('/admin', admin.token))).json()
    expect(transactions).toMatchObject({ tab: 'transactions', pendingBankCount: 1, pendingBank: null, auditLog: null })
    expect(transactions.transactions.map((t: { id: string }) => t.id)).toEqual([done.id])
    // The Mark as Paid dialog shows the seller's full details.
    expect(transactions.payoutBankDetails[seller.id]).toMatchObject({ accountNumber: GB_ACCOUNT })

    const bank = await (await callRoute(adminScreen, screenRequest('/admin?tab=bank-details', admin.token))).json()
    expect(bank).toMatchObject({
      tab: 'bank-details',
      transactions: null,
      pendingBank: [{ id: other.id, bankDetails: { accountNumber: '11223344' } }],
    })

    const filtered = await (await callRoute(adminScreen, screenRequest('/admin?status=paid', admin.token))).json()
    expect(filtered.transactions).toEqual([])
  })

  it('form posts without JavaScript: mark paid, reject with reason, approve; refusals come back to the dialog', async () => {
    const { admin, seller, sale } = await world()
    await giveBankDetails(seller.id, 'pending')
    const done = await sale('completed', 4000)
    const post = (fields: Record<string, string>) => callRoute(adminScreen, formRequest('/admin?tab=transactions', fields, admin.token))

    const notApproved = await post({ intent: 'mark-paid', transactionId: done.id, paymentReference: 'REF-1' })
    expect(notApproved.status).toBe(409)
    expect(await notApproved.json()).toMatchObject({
      formId: `mark-paid-${done.id}`,
      result: { error: { '': ["The seller's bank details are pending, not approved"] } },
    })

    const noReason = await post({ intent: 'reject-bank', userId: seller.id, reason: ' ', version: '1' })
    expect(noReason.status).toBe(400)
    expect(await noReason.json()).toMatchObject({
      formId: `reject-bank-${seller.id}`,
      result: { error: { reason: ['Please provide a rejection reason'] } },
    })

    const noReference = await post({ intent: 'mark-paid', transactionId: done.id, paymentReference: '' })
    expect(await noReference.json()).toMatchObject({ result: { error: { paymentReference: ['Payment reference is required'] } } })

    const approved = await post({ intent: 'approve-bank', userId: seller.id, version: '1' })
    expect(approved.status).toBe(302)
    expect(approved.headers.get('Location')).toBe('/admin?tab=transactions')

    const paid = await post({ intent: 'mark-paid', transactionId: done.id, paymentReference: 'REF-1' })
    expect(paid.status).toBe(302)
    // Issue 19: a one-line payout batch that a second admin approves from the Payouts tab.
    const batch = await db.selectFrom('payoutBatches').selectAll().executeTakeFirstOrThrow()
    expect(batch).toMatchObject({ kind: 'single', status: 'draft', bankReference: 'REF-1', preparedBy: admin.id })
    // The table says the sale waits in a payout (no second Mark as Paid).
    const table = await (await callRoute(adminScreen, screenRequest('/admin?tab=transactions', admin.token))).json()
    expect(table.inPayoutBatch).toEqual({ [done.id]: 'draft' })
    const ownApproval = await post({ intent: 'approve-batch', batchId: batch.id })
    expect(ownApproval.status).toBe(403)
    expect(await ownApproval.json()).toMatchObject({
      formId: `approve-batch-${batch.id}`,
      result: { error: { '': ['A different admin must approve this payout: you prepared it'] } },
    })
    const second = await signUp('second-admin@example.com', { admin: true })
    const approvedBySecond = await callRoute(
      adminScreen,
      formRequest('/admin?tab=payouts', { intent: 'approve-batch', batchId: batch.id }, second.token),
    )
    expect(approvedBySecond.status).toBe(302)
    const stored = await db
      .selectFrom('transactions')
      .select(['paymentReference', 'paidAt'])
      .where('id', '=', done.id)
      .executeTakeFirstOrThrow()
    expect(stored.paymentReference).toBe('REF-1')
  })

  it('releases a disputed sale; refusing a refund of a completed one', async () => {
    const { admin, sale } = await world()
    const disputed = await sale('disputed', 4000)
    const completed = await sale('completed', 2000)
    const post = (fields: Record<string, string>) => callRoute(adminScreen, formRequest('/admin', fields, admin.token))

    const refundRequest = await post({ intent: 'refund', transactionId: completed.id, reason: '' })
    expect(await refundRequest.json()).toMatchObject({ result: { error: { reason: ['Please provide a reason for the refund'] } } })
    const refundCompleted = await post({ intent: 'refund', transactionId: completed.id, reason: 'Asked for it' })
    expect(refundCompleted.status).toBe(409)

    const released = await post({ intent: 'release', transactionId: disputed.id, reason: 'Fork works' })
    expect(released.status).toBe(302)
    const stored = await db.selectFrom('transactions').select('status').where('id', '=', disputed.id).executeTakeFirstOrThrow()
    expect(stored.status).toBe('completed')
    const audit = await db.selectFrom('auditLog').selectAll().where('entityId', '=', disputed.id).execute()
    expect(audit).toMatchObject([
      { action: 'release', actorId: admin.id, fromState: 'disputed', toState: 'completed', reason: 'Fork works' },
    ])
  })
})
