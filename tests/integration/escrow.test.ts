import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as adminRefund from '../../app/routes/api/admin-refund.ts'
import * as adminRelease from '../../app/routes/api/admin-release.ts'
import * as listingPurchase from '../../app/routes/api/listing-purchase.ts'
import * as purchaseConfirm from '../../app/routes/api/purchase-confirm.ts'
import * as purchaseDispute from '../../app/routes/api/purchase-dispute.ts'
import * as purchasesApi from '../../app/routes/api/purchases.ts'
import * as deliverApi from '../../app/routes/api/seller-transaction-deliver.ts'
import * as purchasesPage from '../../app/routes/purchases.tsx'
import { AppError } from '../../app/server/domain/errors.server.ts'
import { confirmReceipt, deliverSale, disputeSale, refundSale, releaseFunds } from '../../app/server/domain/escrow-actions.server.ts'
import { autoConfirmDue, ESCROW_JOBS } from '../../app/server/domain/escrow-auto-confirm.server.ts'
import { AUTO_CONFIRM_TASK, scheduleAutoConfirm } from '../../app/server/domain/escrow.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { startJobWorker } from '../../app/server/infra/jobs.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { insertSale, payIntent, saleStatus, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { webhooksDelivered, withWebhooksWithheld } from '../support/stripe.ts'
import { ROOT, runtimeSources } from '../tools/runtime-sources.ts'

const HOUR = 3600_000
const at = (base: Date, ms: number) => new Date(base.getTime() + ms)

async function auditFor(id: string) {
  return db.selectFrom('auditLog').selectAll().where('entityId', '=', id).orderBy('id').execute()
}

async function row(id: string) {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** A buyer, a seller (with bank details) and one sale in `status`, delivered at `deliveredAt`. */
async function saleIn(status: TransactionStatus, deliveredAt?: Date) {
  const { seller, listing } = await sellerWithListing()
  const buyer = await signUp('buyer')
  const sale = await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, status, deliveredAt })
  return { seller, buyer, listing, sale }
}

/** A sale paid for real through the emulator (so it can be refunded there). */
async function paidSale() {
  const { seller, listing } = await sellerWithListing({ priceCents: 4900 })
  const buyer = await signUp('buyer')
  const response = await callRoute(
    listingPurchase,
    apiRequest(`/api/listings/${listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
    { id: listing.id },
  )
  await payIntent((await response.json()).clientSecret)
  await webhooksDelivered()
  const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', listing.id).executeTakeFirstOrThrow()
  expect(sale.status).toBe('paid')
  return { seller, buyer, listing, sale }
}

async function expectEscrowError(promise: Promise<unknown>, status: number, message?: string | RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  expect((error as AppError).status).toBe(status)
  if (message) expect((error as AppError).message).toMatch(message)
}

describe('the 72-hour window (moved clock)', () => {
  it('confirm at 71:59 completes the sale; the auto-confirm at 72:00:01 then finds nothing to do', async () => {
    const deliveredAt = new Date('2026-03-01T12:00:00Z')
    const { sale, buyer } = await saleIn('delivered', deliveredAt)
    const completed = await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id, now: at(deliveredAt, 71 * HOUR + 59 * 60_000) })
    expect(completed).toMatchObject({ status: 'completed' })
    expect(await autoConfirmDue(at(deliveredAt, 72 * HOUR + 1000))).toEqual([])
    const audit = await auditFor(sale.id)
    expect(audit.map((a) => [a.action, a.actorRole, a.actorId, a.fromState, a.toState])).toEqual([
      ['confirm_receipt', 'buyer', buyer.id, 'delivered', 'completed'],
    ])
  })

  it('nothing is auto-confirmed at 71:59; at 72:00:01 the sale completes by the system and the buyer gets a 409', async () => {
    const deliveredAt = new Date('2026-03-01T12:00:00Z')
    const { sale, buyer } = await saleIn('delivered', deliveredAt)
    expect(await autoConfirmDue(at(deliveredAt, 71 * HOUR + 59 * 60_000))).toEqual([])
    expect(await saleStatus(sale.id)).toBe('delivered')
    expect(await autoConfirmDue(at(deliveredAt, 72 * HOUR + 1000))).toEqual([sale.id])
    expect(await row(sale.id)).toMatchObject({ status: 'completed', completedAt: at(deliveredAt, 72 * HOUR + 1000) })
    await expectEscrowError(confirmReceipt({ transactionId: sale.id, buyerId: buyer.id }), 409, 'This sale is completed, not delivered')
    const audit = await auditFor(sale.id)
    expect(audit.map((a) => [a.action, a.actorRole, a.actorId, a.fromState, a.toState])).toEqual([
      ['auto_confirm', 'system', null, 'delivered', 'completed'],
    ])
    expect(audit[0]!.reason).toMatch(/72 hours/)
  })

  it('a dispute at 71:59 stops the clock; a dispute at 72:00:01 is refused', async () => {
    const deliveredAt = new Date('2026-03-01T12:00:00Z')
    const early = await saleIn('delivered', deliveredAt)
    await disputeSale({
      transactionId: early.sale.id,
      buyerId: early.buyer.id,
      reason: 'Missing files',
      now: at(deliveredAt, 71 * HOUR + 59 * 60_000),
    })
    expect(await autoConfirmDue(at(deliveredAt, 500 * HOUR))).toEqual([])
    expect(await row(early.sale.id)).toMatchObject({ status: 'disputed', disputeReason: 'Missing files' })

    const late = await saleIn('delivered', deliveredAt)
    await expectEscrowError(
      disputeSale({ transactionId: late.sale.id, buyerId: late.buyer.id, reason: 'Too late', now: at(deliveredAt, 72 * HOUR + 1000) }),
      409,
      /72-hour window .* has ended/,
    )
    expect(await saleStatus(late.sale.id)).toBe('delivered')
    expect(await auditFor(late.sale.id)).toHaveLength(0)
  })

  it("the buyer's confirm racing the auto-confirm releases exactly once, 100 times out of 100", async () => {
    const deliveredAt = new Date('2026-03-01T12:00:00Z')
    const now = at(deliveredAt, 72 * HOUR + 1000)
    const { seller, listing } = await sellerWithListing()
    for (let i = 0; i < 100; i++) {
      const buyer = await signUp('racer')
      const sale = await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, status: 'delivered', deliveredAt })
      const [confirm, auto] = await Promise.allSettled([
        confirmReceipt({ transactionId: sale.id, buyerId: buyer.id, now }),
        autoConfirmDue(now),
      ])
      const buyerWon = confirm.status === 'fulfilled'
      const systemWon = auto.status === 'fulfilled' && auto.value.includes(sale.id)
      expect(buyerWon !== systemWon, `round ${i}`).toBe(true)
      if (!buyerWon) expect((confirm as PromiseRejectedResult).reason).toMatchObject({ status: 409 })
      const completions = (await auditFor(sale.id)).filter((a) => a.toState === 'completed')
      expect(completions, `round ${i}`).toHaveLength(1)
      expect(await saleStatus(sale.id)).toBe('completed')
    }
  })
})

describe('the state machine', () => {
  const STATES: TransactionStatus[] = ['pending_payment', 'paid', 'delivered', 'completed', 'disputed', 'refunded', 'failed', 'held']
  const actions: Record<
    string,
    { allowed: TransactionStatus[]; run: (ctx: Awaited<ReturnType<typeof saleIn>> & { admin: { id: string } }) => Promise<unknown> }
  > = {
    deliver: {
      allowed: ['paid'],
      run: (c) => deliverSale({ transactionId: c.sale.id, sellerId: c.seller.id, forkUrl: 'https://github.com/b/fork' }),
    },
    confirm: { allowed: ['delivered'], run: (c) => confirmReceipt({ transactionId: c.sale.id, buyerId: c.buyer.id }) },
    dispute: { allowed: ['delivered'], run: (c) => disputeSale({ transactionId: c.sale.id, buyerId: c.buyer.id, reason: 'Broken' }) },
    release: { allowed: ['disputed'], run: (c) => releaseFunds({ transactionId: c.sale.id, adminId: c.admin.id }) },
    refund: {
      allowed: ['disputed', 'paid', 'held'],
      run: (c) => refundSale({ transactionId: c.sale.id, adminId: c.admin.id, reason: 'Refund' }),
    },
  }

  it('every transition from a state it is not allowed from answers 409 naming the current state, and changes nothing', async () => {
    const admin = await signUp('admin', { admin: true })
    let checked = 0
    for (const [name, action] of Object.entries(actions)) {
      for (const state of STATES.filter((s) => !action.allowed.includes(s))) {
        const ctx = { ...(await saleIn(state)), admin }
        const before = await row(ctx.sale.id)
        await expectEscrowError(action.run(ctx), 409, new RegExp(`^This sale is ${state}, not `))
        expect(await row(ctx.sale.id), `${name} from ${state}`).toEqual(before)
        expect(await auditFor(ctx.sale.id), `${name} from ${state}`).toHaveLength(0)
        checked += 1
      }
    }
    expect(checked).toBe(7 + 7 + 7 + 7 + 5)
  })

  it('only the sale’s own seller delivers, only its buyer confirms or disputes (403 for the other party, 404 for strangers)', async () => {
    const { sale, buyer, seller } = await saleIn('paid')
    const stranger = await signUp('stranger')
    await expectEscrowError(deliverSale({ transactionId: sale.id, sellerId: buyer.id, forkUrl: 'https://github.com/x/y' }), 403)
    await expectEscrowError(deliverSale({ transactionId: sale.id, sellerId: stranger.id, forkUrl: 'https://github.com/x/y' }), 404)
    await expectEscrowError(
      deliverSale({ transactionId: crypto.randomUUID(), sellerId: seller.id, forkUrl: 'https://github.com/x/y' }),
      404,
    )
    for (const forkUrl of ['http://github.com/x/y', 'not a url', 'javascript:alert(1)', 'ftp://github.com/x', '']) {
      await expectEscrowError(deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl }), 400, 'https')
    }
    expect(await saleStatus(sale.id)).toBe('paid')

    const delivered = await deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: ' https://github.com/buyer/kit ' })
    expect(delivered).toMatchObject({ status: 'delivered', deliveryProof: { forkUrl: 'https://github.com/buyer/kit' } })
    await expectEscrowError(confirmReceipt({ transactionId: sale.id, buyerId: seller.id }), 403)
    await expectEscrowError(disputeSale({ transactionId: sale.id, buyerId: stranger.id, reason: 'x' }), 404)
    await expectEscrowError(disputeSale({ transactionId: sale.id, buyerId: buyer.id, reason: '   ' }), 400)
    expect(await saleStatus(sale.id)).toBe('delivered')
  })

  it('delivery schedules the auto-confirm job at the end of the window, keyed per sale', async () => {
    const { sale, seller } = await saleIn('paid')
    const now = new Date('2026-05-01T08:00:00Z')
    await deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: 'https://github.com/b/kit', now })
    const { rows } = await sql<{ runAt: Date; taskIdentifier: string }>`
      SELECT run_at, task_identifier FROM graphile_worker.jobs WHERE key = ${`auto-confirm:${sale.id}`}`.execute(db)
    expect(rows).toEqual([{ runAt: at(now, 72 * HOUR), taskIdentifier: AUTO_CONFIRM_TASK }])
    expect((await auditFor(sale.id)).map((a) => [a.action, a.actorRole, a.fromState, a.toState])).toEqual([
      ['deliver', 'seller', 'paid', 'delivered'],
    ])
  })

  it('the job worker confirms a sale whose window has ended', async () => {
    const { sale } = await saleIn('delivered', new Date(Date.now() - 73 * HOUR))
    await scheduleAutoConfirm(db, sale.id, new Date(Date.now() - 1000))
    const worker = await startJobWorker(ESCROW_JOBS, { concurrency: 1 })
    try {
      await expect.poll(() => saleStatus(sale.id), { timeout: 15_000, interval: 100 }).toBe('completed')
    } finally {
      await worker.stop()
    }
    expect((await auditFor(sale.id)).map((a) => [a.action, a.actorRole])).toEqual([['auto_confirm', 'system']])
  })

  it('admin release: disputed → completed, with the reason in the audit log', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale } = await saleIn('disputed')
    const released = await releaseFunds({ transactionId: sale.id, adminId: admin.id, reason: 'Seller sent the missing files' })
    expect(released.status).toBe('completed')
    expect((await auditFor(sale.id)).map((a) => [a.action, a.actorRole, a.actorId, a.fromState, a.toState, a.reason])).toEqual([
      ['release', 'admin', admin.id, 'disputed', 'completed', 'Seller sent the missing files'],
    ])
  })
})

describe('refunds through Stripe', () => {
  it('a delivered-then-disputed sale refunded by the admin becomes refunded on charge.refunded, and the fork link disappears', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale, seller, buyer } = await paidSale()
    const deliver = await callRoute(
      deliverApi,
      apiRequest(`/api/seller/transactions/${sale.id}/deliver`, {
        method: 'POST',
        token: seller.token,
        json: { forkUrl: 'https://github.com/buyer/kit' },
      }),
      { id: sale.id },
    )
    expect(deliver.status).toBe(200)
    const listPurchases = async () => (await callRoute(purchasesApi, apiRequest('/api/purchases', { token: buyer.token }))).json()
    expect((await listPurchases())[0]).toMatchObject({ status: 'delivered', deliveryProof: { forkUrl: 'https://github.com/buyer/kit' } })

    const dispute = await callRoute(
      purchaseDispute,
      apiRequest(`/api/purchases/${sale.id}/dispute`, { method: 'POST', token: buyer.token, json: { reason: 'The fork is empty' } }),
      { id: sale.id },
    )
    expect(dispute.status).toBe(200)
    expect((await listPurchases())[0]).toMatchObject({ status: 'disputed', deliveryProof: { forkUrl: 'https://github.com/buyer/kit' } })

    const refund = await callRoute(
      adminRefund,
      apiRequest(`/api/admin/transactions/${sale.id}/refund`, { method: 'POST', token: admin.token, json: { reason: 'Buyer is right' } }),
      { transactionId: sale.id },
    )
    expect([200, 202]).toContain(refund.status)
    await webhooksDelivered()
    const refunded = await row(sale.id)
    expect(refunded).toMatchObject({ status: 'refunded', stripeRefundId: expect.stringMatching(/^re_/) })
    expect(refunded.refundedAt).toBeInstanceOf(Date)
    expect((await listPurchases())[0]).toMatchObject({ status: 'refunded', deliveryProof: null })

    // The refund's id is recorded by whichever comes first: the admin's call to Stripe returning
    // (refund_recorded) or Stripe's charge.refunded (refunded sets it); never twice.
    const audit = await auditFor(sale.id)
    expect(audit.filter((a) => a.action !== 'refund_recorded').map((a) => [a.action, a.actorRole, a.fromState, a.toState])).toEqual([
      ['payment_intent_attached', 'system', 'pending_payment', 'pending_payment'],
      ['payment_succeeded', 'provider', 'pending_payment', 'paid'],
      ['deliver', 'seller', 'paid', 'delivered'],
      ['dispute', 'buyer', 'delivered', 'disputed'],
      ['refund_requested', 'admin', 'disputed', 'disputed'],
      ['refunded', 'provider', 'disputed', 'refunded'],
    ])
    const recorded = audit.filter((a) => a.action === 'refund_recorded')
    expect(recorded.length).toBeLessThanOrEqual(1)
    for (const a of recorded)
      expect(a).toMatchObject({ actorRole: 'admin', fromState: 'disputed', metadata: { refundId: refunded.stripeRefundId } })

    // A second refund, or a release, after the refund: 409 and nothing changes.
    const again = await callRoute(
      adminRefund,
      apiRequest(`/api/admin/transactions/${sale.id}/refund`, { method: 'POST', token: admin.token, json: { reason: 'again' } }),
      { transactionId: sale.id },
    )
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'This sale is refunded, not disputed, paid, delivering or held' })
    const release = await callRoute(
      adminRelease,
      apiRequest(`/api/admin/transactions/${sale.id}/release`, { method: 'POST', token: admin.token, json: {} }),
      { transactionId: sale.id },
    )
    expect(release.status).toBe(409)
  })

  it('the admin can refund a paid sale that was never delivered; two admins at once refund once', async () => {
    const [first, second] = [await signUp('admin', { admin: true }), await signUp('admin', { admin: true })]
    const { sale } = await paidSale()
    const results = await Promise.allSettled([
      refundSale({ transactionId: sale.id, adminId: first.id, reason: 'Seller never delivered' }),
      refundSale({ transactionId: sale.id, adminId: second.id, reason: 'Seller never delivered' }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(rejected.reason).toMatchObject({ status: 409 })
    await webhooksDelivered()
    expect(await saleStatus(sale.id)).toBe('refunded')
    const requests = (await auditFor(sale.id)).filter((a) => a.action === 'refund_requested')
    expect(requests).toHaveLength(1)
  })

  it('a paid sale whose refund is on its way at Stripe cannot be delivered meanwhile (so never confirmed and paid out)', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale, seller } = await paidSale()
    await withWebhooksWithheld(() => refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Seller asked' }))
    expect(await row(sale.id)).toMatchObject({ status: 'paid', refundRequestedAt: expect.any(Date) })
    await expectEscrowError(
      deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: 'https://github.com/buyer/fork' }),
      409,
      'A refund has been requested for this sale',
    )
    expect(await saleStatus(sale.id)).toBe('paid')
  })

  it('release is refused once a refund was requested', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale } = await saleIn('disputed')
    await db.updateTable('transactions').set({ refundRequestedAt: new Date() }).where('id', '=', sale.id).execute()
    await expectEscrowError(releaseFunds({ transactionId: sale.id, adminId: admin.id }), 409, 'A refund has already been requested')
    expect(await saleStatus(sale.id)).toBe('disputed')
  })
})

describe('the API and My Purchases screen', () => {
  it('non-admins get 403 from the admin endpoints; a bad body is a 400; GET is a 405', async () => {
    const { sale, buyer } = await saleIn('disputed')
    for (const mod of [adminRelease, adminRefund]) {
      const response = await callRoute(
        mod,
        apiRequest(`/api/admin/transactions/${sale.id}/x`, { method: 'POST', token: buyer.token, json: { reason: 'x' } }),
        { transactionId: sale.id },
      )
      expect(response.status).toBe(403)
    }
    const admin = await signUp('admin', { admin: true })
    const noReason = await callRoute(
      adminRefund,
      apiRequest(`/api/admin/transactions/${sale.id}/refund`, { method: 'POST', token: admin.token, json: {} }),
      { transactionId: sale.id },
    )
    expect(noReason.status).toBe(400)
    expect(
      (await callRoute(purchaseConfirm, apiRequest(`/api/purchases/${sale.id}/confirm`, { token: buyer.token }), { id: sale.id })).status,
    ).toBe(405)
    expect(await saleStatus(sale.id)).toBe('disputed')
  })

  it('POST /api/purchases/:id/confirm completes a delivered sale; a second time is a 409 naming the state', async () => {
    const { sale, buyer } = await saleIn('delivered')
    const confirm = () =>
      callRoute(purchaseConfirm, apiRequest(`/api/purchases/${sale.id}/confirm`, { method: 'POST', token: buyer.token, json: {} }), {
        id: sale.id,
      })
    const first = await confirm()
    expect(first.status).toBe(200)
    expect((await first.json()).transaction).toMatchObject({ id: sale.id, status: 'completed' })
    const second = await confirm()
    expect(second.status).toBe(409)
    expect(await second.json()).toEqual({ error: 'This sale is completed, not delivered' })
  })

  it('the My Purchases form actions confirm receipt and report a problem without JavaScript', async () => {
    const { sale, buyer } = await saleIn('delivered')
    const other = await saleIn('delivered')
    const post = (token: string, fields: Record<string, string>) =>
      callRoute(
        purchasesPage,
        new Request(`${APP}/purchases`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, Origin: APP, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields),
        }),
      )

    const empty = await post(buyer.token, { intent: 'report-problem', transactionId: sale.id, reason: '  ' })
    expect(empty.status).toBe(400)
    expect(JSON.stringify(await empty.json())).toContain('Please describe the problem')
    expect(await saleStatus(sale.id)).toBe('delivered')

    const report = await post(buyer.token, { intent: 'report-problem', transactionId: sale.id, reason: 'Missing migrations' })
    expect(report.status).toBe(302)
    expect(report.headers.get('Location')).toBe('/purchases')
    expect(await row(sale.id)).toMatchObject({ status: 'disputed', disputeReason: 'Missing migrations' })

    // Someone else's sale: refused, unchanged.
    const foreign = await post(buyer.token, { intent: 'confirm-receipt', transactionId: other.sale.id })
    expect(foreign.status).toBe(404)
    expect(await saleStatus(other.sale.id)).toBe('delivered')

    const confirm = await post(other.buyer.token, { intent: 'confirm-receipt', transactionId: other.sale.id })
    expect(confirm.status).toBe(302)
    expect(await saleStatus(other.sale.id)).toBe('completed')

    const page = await callRoute(purchasesPage, new Request(`${APP}/purchases`, { headers: { Authorization: `Bearer ${buyer.token}` } }))
    const { purchases } = await page.json()
    expect(purchases).toHaveLength(1)
    expect(purchases[0]).toMatchObject({ id: sale.id, status: 'disputed' })
  })
})

/*
 * The machine is the only writer of transactions.status (issue 15.1): a scan of
 * the source for every write to the transactions table — Kysely's
 * updateTable/insertInto(…).set/values, and SQL text in templates — that can
 * set `status`. An argument the scan cannot read (a variable, a spread) counts
 * as a write. Only the machine's module, and the reviewed files below, may.
 */
const MACHINE = 'app/server/domain/escrow.server.ts'
const REVIEWED_STATUS_WRITERS: Record<string, string> = {
  'db/seed/demo.ts': 'demo data: inserts sales in their final states before the app runs (no transition happens)',
  'db/seed/demo-github.ts':
    "demo data (db/seed/demo.ts's GitHub half): inserts GitHub-delivered sales in their final states before the app runs",
  'db/seed/demo-payments.ts':
    'demo data: records the payment and refund ids of the demo sales paid at the Stripe emulator (the status is not written)',
}

/**
 * Issue 27.3: every write to a sale goes through the machine, not only its status — the payment
 * intent, the refund id, the payout. Outside it only checkout's INSERT of a new attempt (the
 * machine's first state, the column's default) and the demo data may write the table.
 */
const REVIEWED_SALE_WRITERS: Record<string, string> = {
  'db/seed/demo-payments.ts': REVIEWED_STATUS_WRITERS['db/seed/demo-payments.ts']!,
}

/** Every UPDATE of the transactions table (any column), by Kysely or in SQL text. */
function saleUpdates(file: string, source: string): string[] {
  return statusWriters(file, source, { anyColumn: true })
}

function statusWriters(file: string, source: string, { anyColumn = false } = {}): string[] {
  const found: string[] = []
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const where = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const targetsTransactions = (call: ts.Expression, verbs = ['updateTable', 'insertInto']): boolean => {
    // Walk down the builder chain: db.updateTable('transactions').where(…).set(…)
    let node: ts.Expression = call
    while (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text
      const first = node.arguments[0]
      if (verbs.includes(name) && first && ts.isStringLiteralLike(first)) {
        return /^transactions(\s|$)/.test(first.text)
      }
      node = node.expression.expression
    }
    return false
  }
  const setsStatus = (arg: ts.Expression | undefined): boolean => {
    if (!arg) return false
    if (ts.isArrayLiteralExpression(arg)) return arg.elements.some((e) => setsStatus(e))
    if (!ts.isObjectLiteralExpression(arg)) return true // a variable or a callback: cannot prove it leaves status alone
    return arg.properties.some(
      (p) =>
        ts.isSpreadAssignment(p) ||
        (p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'status'),
    )
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text
      if (anyColumn) {
        if (name === 'set' && targetsTransactions(node.expression.expression, ['updateTable'])) found.push(where(node))
      } else if (
        (name === 'set' || name === 'values') &&
        targetsTransactions(node.expression.expression) &&
        setsStatus(node.arguments[0])
      ) {
        found.push(where(node))
      }
    }
    if (ts.isTemplateLiteral(node) || ts.isStringLiteral(node)) {
      const text = node.getText(sf)
      const pattern = anyColumn
        ? /\bupdate\s+transactions\b/i
        : /\bupdate\s+transactions\b[\s\S]*\bstatus\b|\binsert\s+into\s+transactions\b/i
      if (pattern.test(text)) found.push(where(node))
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

describe('the only writer of transactions.status', () => {
  it('finds planted writers: a literal status, an unreadable argument, a spread, an insert and raw SQL', () => {
    const planted = [
      "await db.updateTable('transactions').set({ status: 'completed' }).where('id', '=', id).execute()",
      "await trx.updateTable('transactions as t').where('t.id', '=', id).set(changes).execute()",
      "await db.updateTable('transactions').set({ ...patch, updatedAt: now }).execute()",
      "await db.insertInto('transactions').values({ listingId, status: 'paid' }).execute()",
      "await sql`UPDATE transactions SET status = 'refunded' WHERE id = ${id}`.execute(db)",
    ]
    for (const line of planted) expect(statusWriters('app/server/domain/payouts.server.ts', line), line).toHaveLength(1)
    // Writes of other columns, and other tables, are not status writes.
    const harmless = [
      "await db.updateTable('transactions').set({ paidAt: now, paymentReference: ref }).execute()",
      "await db.insertInto('transactions').values({ listingId, buyerId, amountCents }).execute()",
      "await db.updateTable('listings').set({ status: 'x' }).execute()",
    ]
    for (const line of harmless) expect(statusWriters('app/server/domain/payouts.server.ts', line), line).toEqual([])
  })

  it('every write of transactions.status in app/, db/ and server.ts is in the machine (or reviewed)', () => {
    const files = runtimeSources()
    expect(files).toContain(MACHINE)
    const outside = files
      .filter((file) => file !== MACHINE && !(file in REVIEWED_STATUS_WRITERS))
      .flatMap((file) => statusWriters(file, readFileSync(path.join(ROOT, file), 'utf8')))
    expect(outside).toEqual([])
    // The machine itself is found by the scan (so the scan would see a copy of it elsewhere).
    expect(statusWriters(MACHINE, readFileSync(path.join(ROOT, MACHINE), 'utf8')).length).toBeGreaterThan(0)
  })
})

describe('the only writer of a sale (issue 27.3)', () => {
  it('finds planted updates of any column, and leaves inserts and other tables alone', () => {
    const planted = [
      "await db.updateTable('transactions').set({ paidAt: now, paymentReference: ref }).where('id', '=', id).execute()",
      "await trx.updateTable('transactions').where('id', '=', id).set({ stripeRefundId: refundId }).execute()",
      'await sql`UPDATE transactions SET stripe_payment_intent_id = ${pi} WHERE id = ${id}`.execute(db)',
    ]
    for (const line of planted) expect(saleUpdates('app/server/domain/payouts.server.ts', line), line).toHaveLength(1)
    const harmless = [
      "await db.insertInto('transactions').values({ listingId, buyerId, amountCents }).execute()",
      "await db.updateTable('listings').set({ title: 'x' }).execute()",
    ]
    for (const line of harmless) expect(saleUpdates('app/server/domain/payouts.server.ts', line), line).toEqual([])
  })

  it('every UPDATE of transactions in app/, db/ and server.ts is in the machine (or reviewed)', () => {
    const outside = runtimeSources()
      .filter((file) => file !== MACHINE && !(file in REVIEWED_SALE_WRITERS))
      .flatMap((file) => saleUpdates(file, readFileSync(path.join(ROOT, file), 'utf8')))
    expect(outside).toEqual([])
    expect(saleUpdates(MACHINE, readFileSync(path.join(ROOT, MACHINE), 'utf8'))).toHaveLength(1)
  })
})
