import { describe, expect, it } from 'vitest'
import { PAYMENT_INTENT_FAILED } from '../../app/lib/checkout.ts'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import * as checkoutPage from '../../app/routes/checkout.tsx'
import { refundSale } from '../../app/server/domain/escrow-actions.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { FailureSpec } from '../../emulators/stripe/server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { payIntent, saleStatus, sellerWithListing, signUp, stripe } from '../support/payment-fixtures.ts'
import { stripeEmulator, webhooksDelivered } from '../support/stripe.ts'

/*
 * Stripe busy or broken (issue 25: failure injection): the emulator answers the app's calls with
 * 409, 429 or 500, and the app's own Stripe client (app/server/infra/stripe.server.ts:
 * maxNetworkRetries 2, our Idempotency-Keys) must create each PaymentIntent and refund exactly once,
 * and a failure that outlasts its retries must reach the buyer or admin as the app's clear error.
 */

async function purchase(listingId: string, token: string) {
  return callRoute(purchaseApi, apiRequest(`/api/listings/${listingId}/purchase`, { method: 'POST', token, json: {} }), { id: listingId })
}

function intentsCreatedFor(listingId: string) {
  return stripeEmulator.events.filter(
    (e) => e.type === 'payment_intent.created' && (e.data.object as { metadata: Record<string, string> }).metadata.listingId === listingId,
  )
}

function failNext(...specs: FailureSpec[]) {
  for (const spec of specs) stripeEmulator.failNext(spec)
}

async function salesFor(listingId: string) {
  return db.selectFrom('transactions').selectAll().where('listingId', '=', listingId).execute()
}

describe('the app against a busy or failing Stripe: PaymentIntents', () => {
  const transient: Array<[string, FailureSpec[]]> = [
    ['409 idempotency_key_in_use, then 500', [{ status: 409 }, { status: 500 }]],
    ['429 lock_timeout (Stripe-Should-Retry: true), then 409', [{ status: 429, code: 'lock_timeout' }, { status: 409 }]],
  ]
  for (const [name, specs] of transient) {
    it(`checkout recovers from ${name}: one PaymentIntent, under one Idempotency-Key`, async () => {
      const { listing } = await sellerWithListing({ priceCents: 4900 })
      const buyer = await signUp('buyer')
      failNext(...specs.map((spec) => ({ ...spec, operationId: 'PostPaymentIntents' as const })))

      const response = await purchase(listing.id, buyer.token)
      expect(response.status, await response.clone().text()).toBe(200)
      const { clientSecret } = await response.json()

      const key = `checkout:${buyer.id}:${listing.id}:1`
      expect(stripeEmulator.injectedFailures.filter((f) => f.idempotencyKey === key).map((f) => f.status)).toEqual(
        specs.map((spec) => spec.status),
      )
      const created = intentsCreatedFor(listing.id)
      expect(created).toHaveLength(1)
      expect(created[0]!.request.idempotency_key).toBe(key)
      const [sale] = await salesFor(listing.id)
      expect(clientSecret).toMatch(new RegExp(`^${sale!.stripePaymentIntentId}_secret_`))
    })
  }

  it('a 500 that outlasts the retries answers the clear 502; the next try creates the one PaymentIntent', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    failNext({ status: 500, times: 3, operationId: 'PostPaymentIntents' })

    const failed = await purchase(listing.id, buyer.token)
    expect(failed.status).toBe(502)
    expect(await failed.json()).toEqual({ error: PAYMENT_INTENT_FAILED })
    expect(intentsCreatedFor(listing.id)).toEqual([])
    expect((await salesFor(listing.id)).map((s) => [s.status, s.stripePaymentIntentId])).toEqual([['pending_payment', null]])

    const retried = await purchase(listing.id, buyer.token)
    expect(retried.status).toBe(200)
    expect(intentsCreatedFor(listing.id)).toHaveLength(1)
    expect((await salesFor(listing.id)).map((s) => s.status)).toEqual(['pending_payment'])
  })

  it('a rate limit (429 without Stripe-Should-Retry) is not retried: the checkout page shows the clear error, not a 500 page', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    failNext({ status: 429, operationId: 'PostPaymentIntents' })
    const response = await callRoute(
      checkoutPage,
      new Request(`${APP}/checkout/${listing.id}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${buyer.token}`, Origin: APP, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ amountCents: '4900' }),
      }),
      { id: listing.id },
    )
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ error: PAYMENT_INTENT_FAILED })
    expect(stripeEmulator.injectedFailures.filter((f) => f.idempotencyKey === `checkout:${buyer.id}:${listing.id}:1`)).toHaveLength(1)
    expect(intentsCreatedFor(listing.id)).toEqual([])
  })
})

describe('the app against a busy or failing Stripe: refunds', () => {
  async function paidSale() {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const { clientSecret } = await (await purchase(listing.id, buyer.token)).json()
    await payIntent(clientSecret)
    await webhooksDelivered()
    const [sale] = await salesFor(listing.id)
    expect(sale!.status).toBe('paid')
    return sale!
  }

  it("an admin's refund through 409 and 500 answers is made once", async () => {
    const sale = await paidSale()
    const admin = await signUp('admin', { admin: true })
    failNext({ status: 409, operationId: 'PostRefunds' }, { status: 500, operationId: 'PostRefunds' })

    const refunded = await refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Seller asked' })
    await webhooksDelivered()
    const refunds = await stripe.refunds.list({ payment_intent: sale.stripePaymentIntentId! })
    expect(refunds.data.map((r) => r.id)).toEqual([refunded.stripeRefundId])
    expect(stripeEmulator.injectedFailures.filter((f) => f.idempotencyKey === `refund:${sale.id}`).map((f) => f.status)).toEqual([409, 500])
    expect(await saleStatus(sale.id)).toBe('refunded')
  })

  it('a refund failing past the retries is the clear 502, the sale stays paid, and asking again refunds once', async () => {
    const sale = await paidSale()
    const admin = await signUp('admin', { admin: true })
    failNext({ status: 500, times: 3, operationId: 'PostRefunds' })

    await expect(refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Seller asked' })).rejects.toMatchObject({
      status: 502,
      message: 'The payment provider could not refund this sale. Please try again.',
    })
    expect(await saleStatus(sale.id)).toBe('paid')
    expect((await stripe.refunds.list({ payment_intent: sale.stripePaymentIntentId! })).data).toEqual([])

    await refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Seller asked' })
    await webhooksDelivered()
    expect((await stripe.refunds.list({ payment_intent: sale.stripePaymentIntentId! })).data).toHaveLength(1)
    expect(await saleStatus(sale.id)).toBe('refunded')
  })
})
