import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import * as adminPage from '../../app/routes/admin.tsx'
import * as adminTransactionsApi from '../../app/routes/api/admin-transactions.ts'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import * as webhook from '../../app/routes/api/stripe-webhook.ts'
import { confirmReceipt, deliverSale, refundSale } from '../../app/server/domain/escrow-actions.server.ts'
import { approvePayoutBatch, markPaid } from '../../app/server/domain/payout-batches.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { StripeEvent } from '../../emulators/stripe/server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { payIntent, saleStatus, sellerWithListing, signedEvent, signUp, stripe } from '../support/payment-fixtures.ts'
import { stripeEmulator, webhooksDelivered, withWebhooksWithheld } from '../support/stripe.ts'

async function postWebhook(payload: string, signature: string | null) {
  const headers = new Headers({ 'Content-Type': 'application/json' })
  if (signature !== null) headers.set('Stripe-Signature', signature)
  return callRoute(webhook, new Request(`${APP}/api/stripe/webhook`, { method: 'POST', headers, body: payload }))
}

/** Sends a real emulator event to the route, freshly signed (as a redelivery would be). */
async function deliver(event: StripeEvent) {
  const { payload, header } = signedEvent(event)
  return postWebhook(payload, header)
}

async function openSale(options: Parameters<typeof sellerWithListing>[0] = {}) {
  const { listing, seller } = await sellerWithListing(options)
  const buyer = await signUp('buyer')
  const response = await callRoute(
    purchaseApi,
    apiRequest(`/api/listings/${listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
    { id: listing.id },
  )
  const { clientSecret } = await response.json()
  const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', listing.id).executeTakeFirstOrThrow()
  return { listing, seller, buyer, clientSecret: clientSecret as string, sale }
}

async function auditFor(id: string) {
  return db.selectFrom('auditLog').selectAll().where('entityId', '=', id).orderBy('id').execute()
}

async function processedCount() {
  return (await db.selectFrom('processedEvents').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n
}

function eventsFor(intentId: string, types: string[]): StripeEvent[] {
  return stripeEmulator.events.filter((e) => {
    const object = e.data.object as { id: string; payment_intent?: string }
    return types.includes(e.type) && (object.id === intentId || object.payment_intent === intentId)
  })
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items]
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))
}

/** Puts a sale back where it was before any event arrived (between replays of one scenario). */
async function resetSale(id: string) {
  await db
    .updateTable('transactions')
    .set({
      status: 'pending_payment',
      paidAtProvider: null,
      deliveredAt: null,
      deliveryProof: null,
      refundedAt: null,
      stripeRefundId: null,
      failureReason: null,
    })
    .where('id', '=', id)
    .execute()
  await db.deleteFrom('processedEvents').execute()
  await db.deleteFrom('auditLog').where('entityId', '=', id).execute()
}

describe('POST /api/stripe/webhook: signature', () => {
  it('refuses a bad signature, a changed body and a 6-minute-old timestamp with 400, changing nothing', async () => {
    const { sale } = await withWebhooksWithheld(async () => {
      const opened = await openSale()
      await payIntent(opened.clientSecret)
      return opened
    })
    const [succeeded] = eventsFor(sale.stripePaymentIntentId!, ['payment_intent.succeeded'])
    expect(succeeded).toBeDefined()

    const good = signedEvent(succeeded!)
    const wrongSecret = signedEvent(succeeded!, { secret: 'whsec_not_the_right_one' })
    const changedBody = good.payload.replace('"amount_received":4900', '"amount_received":1')
    const stale = signedEvent(succeeded!, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })

    const attempts: Array<[string, string, string | null]> = [
      ['wrong secret', wrongSecret.payload, wrongSecret.header],
      ['changed body', changedBody, good.header],
      ['6 minutes old', stale.payload, stale.header],
      ['no signature', good.payload, null],
      ['garbage signature', good.payload, 't=1,v1=deadbeef'],
    ]
    for (const [name, payload, header] of attempts) {
      const response = await postWebhook(payload, header)
      expect(response.status, name).toBe(400)
      expect(await response.json(), name).toEqual({ error: 'Invalid signature' })
    }
    expect(changedBody).not.toBe(good.payload)
    expect(await saleStatus(sale.id)).toBe('pending_payment')
    expect(await processedCount()).toBe(0)
    // Only checkout's record of the payment intent (issue 27.3: the machine audits it too).
    expect((await auditFor(sale.id)).map((a) => a.action)).toEqual(['payment_intent_attached'])

    // The same event, correctly signed and fresh, is accepted.
    const accepted = await postWebhook(good.payload, good.header)
    expect(accepted.status).toBe(200)
    expect(await saleStatus(sale.id)).toBe('paid')
  })

  it('answers 405 to GET', async () => {
    const response = await callRoute(webhook, new Request(`${APP}/api/stripe/webhook`))
    expect(response.status).toBe(405)
  })
})

describe('POST /api/stripe/webhook: events', () => {
  it('payment_intent.succeeded makes the sale paid, once, however often it is delivered', async () => {
    const { sale, clientSecret } = await openSale()
    await payIntent(clientSecret)
    await webhooksDelivered()
    expect(await saleStatus(sale.id)).toBe('paid')

    const [succeeded] = eventsFor(sale.stripePaymentIntentId!, ['payment_intent.succeeded'])
    for (let i = 0; i < 5; i++) expect(await stripeEmulator.resend(succeeded!.id)).toBe(200)
    // Five more deliveries at once, too.
    const statuses = await Promise.all(Array.from({ length: 5 }, () => deliver(succeeded!).then((r) => r.status)))
    expect(statuses).toEqual([200, 200, 200, 200, 200])

    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'paid', paidAtProvider: expect.any(Date) })
    const audit = await auditFor(sale.id)
    expect(audit.map((a) => [a.action, a.actorRole, a.fromState, a.toState])).toEqual([
      ['payment_intent_attached', 'system', 'pending_payment', 'pending_payment'],
      ['payment_succeeded', 'provider', 'pending_payment', 'paid'],
    ])
    const processed = await db.selectFrom('processedEvents').selectAll().where('id', '=', succeeded!.id).execute()
    expect(processed).toHaveLength(1)
  })

  it('an instant-delivery listing is delivered at once with its private link, and the auto-confirm is scheduled', async () => {
    const { sale, clientSecret } = await openSale({ instantDeliveryUrl: 'https://github.com/acme/private-kit' })
    await payIntent(clientSecret)
    await webhooksDelivered()
    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'delivered', deliveryProof: { forkUrl: 'https://github.com/acme/private-kit' } })
    expect(row.deliveredAt).toBeInstanceOf(Date)
    expect((await auditFor(sale.id)).map((a) => [a.fromState, a.toState])).toEqual([
      ['pending_payment', 'pending_payment'],
      ['pending_payment', 'paid'],
      ['paid', 'delivered'],
    ])
    const { rows } = await sql<{ runAt: Date }>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`auto-confirm:${sale.id}`}`.execute(
      db,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.runAt.getTime()).toBe(row.deliveredAt!.getTime() + 72 * 3600_000)
  })

  it('events shuffled (declined, then paid, then refunded at the provider) give the same final state', async () => {
    const { sale, intentId } = await withWebhooksWithheld(async () => {
      const opened = await openSale()
      await expect(payIntent(opened.clientSecret, '4000000000000002')).rejects.toMatchObject({ type: 'StripeCardError' })
      await payIntent(opened.clientSecret) // a retry on the same card form
      await stripe.refunds.create({ payment_intent: opened.sale.stripePaymentIntentId! })
      return { sale: opened.sale, intentId: opened.sale.stripePaymentIntentId! }
    })
    const events = eventsFor(intentId, ['payment_intent.payment_failed', 'payment_intent.succeeded', 'charge.refunded'])
    expect(events.map((e) => e.type).sort()).toEqual(['charge.refunded', 'payment_intent.payment_failed', 'payment_intent.succeeded'])

    for (const order of permutations(events)) {
      await resetSale(sale.id)
      // Each event twice, the copies interleaved with the others.
      for (const event of [...order, ...order.reverse()]) expect((await deliver(event)).status).toBe(200)
      const label = order.map((e) => e.type).join(' → ')
      const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
      expect(row.status, label).toBe('refunded')
      expect(row.refundedAt, label).toBeInstanceOf(Date)
      expect(await processedCount(), label).toBe(3)
    }

    // Without the refund, both orders of declined/paid end paid (a late failure never undoes a payment).
    const [failed, succeeded] = [events.find((e) => e.type.endsWith('failed'))!, events.find((e) => e.type.endsWith('succeeded'))!]
    for (const order of [
      [failed, succeeded],
      [succeeded, failed],
    ]) {
      await resetSale(sale.id)
      for (const event of order) await deliver(event)
      expect(await saleStatus(sale.id)).toBe('paid')
    }
  })

  it('ignores event types it does not handle, and unknown payment intents', async () => {
    const { sale, clientSecret } = await openSale()
    await payIntent(clientSecret)
    await webhooksDelivered()
    const created = eventsFor(sale.stripePaymentIntentId!, ['payment_intent.created'])[0]!
    const response = await deliver(created)
    expect(await response.json()).toEqual({ received: true, result: 'ignored' })

    const stranger = structuredClone(eventsFor(sale.stripePaymentIntentId!, ['payment_intent.succeeded'])[0]!)
    stranger.id = 'evt_unknown_intent'
    ;(stranger.data.object as { id: string; metadata: object }).id = 'pi_unknown'
    ;(stranger.data.object as { id: string; metadata: object }).metadata = {}
    expect((await deliver(stranger)).status).toBe(200)
    expect(await saleStatus(sale.id)).toBe('paid')
  })

  it('a declined card marks the attempt failed and creates no sale', async () => {
    const { sale, clientSecret, buyer } = await openSale()
    await expect(payIntent(clientSecret, '4000000000009995')).rejects.toMatchObject({ code: 'card_declined' })
    await webhooksDelivered()
    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'failed', failureReason: 'Your card has insufficient funds.' })
    const owned = await db
      .selectFrom('transactions')
      .select('id')
      .where('buyerId', '=', buyer.id)
      .where('status', 'in', ['paid', 'delivered', 'completed', 'disputed'])
      .execute()
    expect(owned).toHaveLength(0)
  })
})

describe('POST /api/stripe/webhook: amount and currency (issue 14.4)', () => {
  /** A real succeeded event for a fresh sale, withheld from the app. */
  async function succeededEvent(options: Parameters<typeof sellerWithListing>[0]) {
    return withWebhooksWithheld(async () => {
      const opened = await openSale(options)
      await payIntent(opened.clientSecret)
      const [event] = eventsFor(opened.sale.stripePaymentIntentId!, ['payment_intent.succeeded'])
      return { ...opened, event: event! }
    })
  }

  it('another amount or currency holds the sale for an admin: never paid or delivered, audited, alerted, listed', async () => {
    const admin = await signUp('admin', { admin: true })
    for (const [name, change, received] of [
      ['1 cent for $43.21', { amount_received: 1 }, { amountCents: 1, currency: 'USD' }],
      ['yen instead of dollars', { currency: 'jpy' }, { amountCents: 4321, currency: 'JPY' }],
    ] as const) {
      const { sale, event } = await succeededEvent({ priceCents: 4321, instantDeliveryUrl: 'https://github.com/acme/private-kit' })
      const forged = structuredClone(event)
      forged.id = `${event.id}_forged`
      Object.assign(forged.data.object as object, change)

      const errors: string[] = []
      const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
      try {
        expect((await deliver(forged)).status, name).toBe(200)
      } finally {
        spy.mockRestore()
      }
      const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
      expect(row, name).toMatchObject({ status: 'held', deliveryProof: null, deliveredAt: null })
      expect(
        (await auditFor(sale.id)).map((a) => [a.action, a.actorRole, a.fromState, a.toState]),
        name,
      ).toEqual([
        ['payment_intent_attached', 'system', 'pending_payment', 'pending_payment'],
        ['payment_held', 'provider', 'pending_payment', 'held'],
      ])
      const exceptions = await db.selectFrom('moneyExceptions').selectAll().where('transactionId', '=', sale.id).execute()
      expect(exceptions, name).toEqual([
        expect.objectContaining({ kind: 'payment_mismatch', ...received, providerRef: sale.stripePaymentIntentId, resolvedAt: null }),
      ])
      expect(
        errors.map((line) => JSON.parse(line)),
        name,
      ).toContainEqual(
        expect.objectContaining({
          level: 'error',
          event: 'money_exception',
          alert: true,
          kind: 'payment_mismatch',
          transactionId: sale.id,
        }),
      )
      const jobs = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`auto-confirm:${sale.id}`}`.execute(db)
      expect(jobs.rows, name).toHaveLength(0)

      // The genuine event arriving afterwards does not fulfil a held sale either.
      expect((await deliver(event)).status).toBe(200)
      expect(await saleStatus(sale.id), name).toBe('held')

      // Admins see it: in GET /api/admin/transactions and on /admin (with the exception).
      const listed = await (await callRoute(adminTransactionsApi, apiRequest('/api/admin/transactions', { token: admin.token }))).json()
      expect(listed, name).toContainEqual(expect.objectContaining({ id: sale.id, status: 'held' }))
      const page = await (
        await callRoute(adminPage, new Request(`${APP}/admin`, { headers: { Authorization: `Bearer ${admin.token}` } }))
      ).json()
      expect(page.moneyExceptions, name).toContainEqual(
        expect.objectContaining({ transactionId: sale.id, kind: 'payment_mismatch', amountCents: received.amountCents }),
      )
      // The admin's way out: refund the buyer.
      await refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'The payment did not match the price' })
      await webhooksDelivered()
      expect(await saleStatus(sale.id), name).toBe('refunded')
    }
  })

  it('the exact amount and currency fulfil as before', async () => {
    const { sale, event } = await succeededEvent({ priceCents: 4321 })
    expect((await deliver(event)).status).toBe(200)
    expect(await saleStatus(sale.id)).toBe('paid')
    expect(await db.selectFrom('moneyExceptions').selectAll().execute()).toEqual([])
  })

  it('matches an event to its sale by the payment intent id only, never by the metadata', async () => {
    const victim = await openSale()
    const { sale, event } = await succeededEvent({})
    // An event for another intent that names the victim's sale in its metadata.
    const stranger = structuredClone(event)
    stranger.id = `${event.id}_stranger`
    Object.assign(stranger.data.object as object, { id: 'pi_not_ours', metadata: { transactionId: victim.sale.id } })
    expect((await deliver(stranger)).status).toBe(200)
    expect(await saleStatus(victim.sale.id)).toBe('pending_payment')
    expect((await auditFor(victim.sale.id)).map((a) => a.action)).toEqual(['payment_intent_attached'])

    // The real intent with the victim's id in its metadata still pays only its own sale.
    const misleading = structuredClone(event)
    misleading.id = `${event.id}_misleading`
    Object.assign(misleading.data.object as object, { metadata: { transactionId: victim.sale.id } })
    expect((await deliver(misleading)).status).toBe(200)
    expect(await saleStatus(sale.id)).toBe('paid')
    expect(await saleStatus(victim.sale.id)).toBe('pending_payment')
  })
})

describe('charge.refunded made outside the admin flow (issue 25)', () => {
  it("records the refund's id, which the event's charge does not carry (API 2022-11-15 on)", async () => {
    const { sale, clientSecret } = await openSale()
    await payIntent(clientSecret)
    await webhooksDelivered()
    // Refunded in Stripe's dashboard: only the charge.refunded webhook tells the app.
    const refund = await stripe.refunds.create({ payment_intent: sale.stripePaymentIntentId! })
    await webhooksDelivered()
    const event = eventsFor(sale.stripePaymentIntentId!, ['charge.refunded'])[0]!
    expect(event.data.object).not.toHaveProperty('refunds')
    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'refunded', stripeRefundId: refund.id })
    const audit = (await auditFor(sale.id)).find((a) => a.toState === 'refunded')
    expect(audit?.metadata).toMatchObject({ refundId: refund.id })
  })
})

describe('charge.refunded after the seller was paid out (issue 14.9)', () => {
  it('alerts the admins and lists a money exception; the sale stays as it was', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale, seller, buyer, clientSecret } = await openSale({ priceCents: 4321 })
    await payIntent(clientSecret)
    await webhooksDelivered()
    await deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: 'https://github.com/b/kit' })
    await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id })
    // Issue 19: Mark as Paid is a one-line payout batch a second admin approves.
    const payout = await markPaid({ transactionId: sale.id, adminId: admin.id, paymentReference: 'BACS-77' })
    await approvePayoutBatch({ batchId: payout.id, adminId: (await signUp('admin2', { admin: true })).id })

    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    try {
      // Refunded in Stripe's dashboard, after the payout.
      await stripe.refunds.create({ payment_intent: sale.stripePaymentIntentId! })
      await webhooksDelivered()
    } finally {
      spy.mockRestore()
    }
    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'completed', paymentReference: 'BACS-77', refundedAt: null })
    expect((await auditFor(sale.id)).map((a) => a.action)).toContain('refund_unapplied')
    const exceptions = await db.selectFrom('moneyExceptions').selectAll().where('transactionId', '=', sale.id).execute()
    expect(exceptions).toEqual([
      expect.objectContaining({
        kind: 'refund_after_payout',
        amountCents: 4321,
        currency: 'USD',
        providerRef: expect.stringMatching(/^ch_/),
        resolvedAt: null,
      }),
    ])
    expect(errors.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ event: 'money_exception', alert: true, kind: 'refund_after_payout', transactionId: sale.id }),
    )
    const page = await (
      await callRoute(adminPage, new Request(`${APP}/admin`, { headers: { Authorization: `Bearer ${admin.token}` } }))
    ).json()
    expect(page.moneyExceptions).toContainEqual(
      expect.objectContaining({ transactionId: sale.id, kind: 'refund_after_payout', amountCents: 4321 }),
    )
  })
})

describe("Stripe's outcomes that only record something go through the machine (issue 27.3)", () => {
  it('a partial refund is recorded on the sale, which stays as it was', async () => {
    const { sale, clientSecret } = await openSale({ priceCents: 5000 })
    await payIntent(clientSecret)
    await webhooksDelivered()
    await stripe.refunds.create({ payment_intent: sale.stripePaymentIntentId!, amount: 1200 })
    await webhooksDelivered()
    const row = await db.selectFrom('transactions').selectAll().where('id', '=', sale.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'paid', refundedAt: null, stripeRefundId: null })
    const audit = (await auditFor(sale.id)).at(-1)!
    expect(audit).toMatchObject({
      action: 'partial_refund',
      actorRole: 'provider',
      fromState: 'paid',
      toState: 'paid',
      reason: 'Partially refunded: 1200 of 5000 cents',
      metadata: { chargeId: expect.stringMatching(/^ch_/), refundId: expect.stringMatching(/^re_/) },
    })
  })

  it('a second payment of a listing the buyer already owns is recorded, the sale not fulfilled, and the money given back', async () => {
    const { sale, clientSecret, buyer, listing, seller } = await openSale({ priceCents: 3000 })
    await payIntent(clientSecret)
    await webhooksDelivered()
    // A second tab on an earlier attempt: its own intent, paid after the first sale was.
    const intent = await stripe.paymentIntents.create({ amount: 3000, currency: 'usd' })
    const second = await db
      .insertInto('transactions')
      .values({
        listingId: listing.id,
        buyerId: buyer.id,
        sellerId: seller.id,
        attempt: 2,
        amountCents: 3000,
        applicationFeeCents: sale.applicationFeeCents,
        status: 'failed',
        failureReason: 'Your card was declined.',
        stripePaymentIntentId: intent.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await payIntent(intent.client_secret!)
    await webhooksDelivered()

    // Never fulfilled; the money given back makes it refunded (charge.refunded, from failed).
    expect(await saleStatus(sale.id)).toBe('paid')
    expect(await saleStatus(second.id)).toBe('refunded')
    expect((await auditFor(second.id)).map((a) => [a.action, a.actorRole, a.fromState, a.toState, a.reason])).toEqual([
      ['duplicate_payment_refund', 'system', 'failed', 'failed', `The buyer already owns this listing (sale ${sale.id})`],
      ['refunded', 'provider', 'failed', 'refunded', 'Refunded at the payment provider'],
    ])
    const refunds = await stripe.refunds.list({ payment_intent: intent.id })
    expect(refunds.data.map((r) => [r.amount, r.reason])).toEqual([[3000, 'duplicate']])
  })
})
