import { describe, expect, it } from 'vitest'
import * as adminPage from '../../app/routes/admin.tsx'
import * as adminTransactionsApi from '../../app/routes/api/admin-transactions.ts'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import * as listingApi from '../../app/routes/api/listing.ts'
import * as purchasesApi from '../../app/routes/api/purchases.ts'
import * as checkoutPage from '../../app/routes/checkout.tsx'
import * as purchaseSuccessPage from '../../app/routes/purchase-success.tsx'
import { setListingVisibility } from '../../app/server/domain/listings.server.ts'
import { declaredPolicy } from '../../app/server/http/route-policy.server.ts'
import { securityHeaders } from '../../app/server/http/security-headers.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { createListing, giveBankDetails, payIntent, saleStatus, sellerWithListing, signUp, stripe } from '../support/payment-fixtures.ts'
import { stripeEmulator, webhooksDelivered, withWebhooksWithheld } from '../support/stripe.ts'

async function purchase(listingId: string, token: string | undefined, json: unknown = {}) {
  return callRoute(purchaseApi, apiRequest(`/api/listings/${listingId}/purchase`, { method: 'POST', token, json }), { id: listingId })
}

function pageRequest(path: string, token: string, headers: Record<string, string> = {}) {
  return new Request(`${APP}${path}`, { headers: { Authorization: `Bearer ${token}`, ...headers } })
}

/** The checkout page's POST (the buyer proceeds), with the amount the page showed. */
function proceed(listingId: string, token: string, amountCents: number, origin = APP) {
  return callRoute(
    checkoutPage,
    new Request(`${APP}/checkout/${listingId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ amountCents: String(amountCents) }),
    }),
    { id: listingId },
  )
}

async function salesFor(buyerId: string, listingId: string) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('buyerId', '=', buyerId)
    .where('listingId', '=', listingId)
    .orderBy('attempt')
    .execute()
}

function intentsCreatedFor(listingId: string) {
  return stripeEmulator.events.filter(
    (e) => e.type === 'payment_intent.created' && (e.data.object as { metadata: Record<string, string> }).metadata.listingId === listingId,
  )
}

describe('POST /api/listings/:id/purchase', () => {
  it('answers a client secret for a pending payment attempt priced from the database, not the body', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const response = await purchase(listing.id, buyer.token, { amountCents: 1, priceCents: 1 })
    expect(response.status).toBe(200)
    const { clientSecret } = await response.json()
    expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/)

    const [sale] = await salesFor(buyer.id, listing.id)
    expect(sale).toMatchObject({ status: 'pending_payment', amountCents: 4900, applicationFeeCents: 735, attempt: 1 })
    const intent = await stripe.paymentIntents.retrieve(sale!.stripePaymentIntentId!)
    expect(intent.amount).toBe(4900)
    expect(intent.currency).toBe('usd')
    expect(intent.metadata.transactionId).toBe(sale!.id)
  })

  it('records the 15 % fee rounded like the spec for 1, 3, 7, 10, 33 and 99999 cents', async () => {
    const expected: Record<number, number> = { 1: 0, 3: 0, 7: 1, 10: 2, 33: 5, 99999: 15000 }
    const seller = await signUp('seller')
    await giveBankDetails(seller.id, 'approved')
    const buyer = await signUp('buyer')
    for (const [price, fee] of Object.entries(expected)) {
      const listing = await createListing(seller.id, { priceCents: Number(price) })
      expect((await purchase(listing.id, buyer.token)).status).toBe(200)
      const [sale] = await salesFor(buyer.id, listing.id)
      expect(sale, `price ${price}`).toMatchObject({ amountCents: Number(price), applicationFeeCents: fee })
      expect(sale!.amountCents - sale!.applicationFeeCents).toBe(Number(price) - fee)
      expect((await stripe.paymentIntents.retrieve(sale!.stripePaymentIntentId!)).amount).toBe(Number(price))
    }
  })

  it('20 concurrent requests by one buyer for one listing make one payment intent and one sale', async () => {
    const { listing } = await sellerWithListing()
    const buyer = await signUp('buyer')
    const responses = await Promise.all(Array.from({ length: 20 }, () => purchase(listing.id, buyer.token)))
    const secrets = await Promise.all(responses.map(async (r) => (expect(r.status).toBe(200), (await r.json()).clientSecret)))
    expect(new Set(secrets).size).toBe(1)
    expect(await salesFor(buyer.id, listing.id)).toHaveLength(1)
    expect(intentsCreatedFor(listing.id)).toHaveLength(1)

    // Paying it makes exactly one sale; asking again afterwards is refused (already owned).
    await payIntent(secrets[0])
    await webhooksDelivered()
    const sales = await salesFor(buyer.id, listing.id)
    expect(sales.map((s) => s.status)).toEqual(['paid'])
    const again = await Promise.all(Array.from({ length: 5 }, () => purchase(listing.id, buyer.token)))
    expect(again.map((r) => r.status)).toEqual([409, 409, 409, 409, 409])
    expect(await salesFor(buyer.id, listing.id)).toHaveLength(1)
  })

  it('reuses the open attempt on reload, and opens a new attempt (new intent) after a declined card', async () => {
    const { listing } = await sellerWithListing()
    const buyer = await signUp('buyer')
    const first = (await (await purchase(listing.id, buyer.token)).json()).clientSecret
    const reload = (await (await purchase(listing.id, buyer.token)).json()).clientSecret
    expect(reload).toBe(first)

    await expect(payIntent(first, '4000000000000002')).rejects.toMatchObject({ type: 'StripeCardError' })
    await webhooksDelivered()
    const [failed] = await salesFor(buyer.id, listing.id)
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Your card was declined.' })

    const second = (await (await purchase(listing.id, buyer.token)).json()).clientSecret
    expect(second).not.toBe(first)
    const sales = await salesFor(buyer.id, listing.id)
    expect(sales.map((s) => [s.attempt, s.status])).toEqual([
      [1, 'failed'],
      [2, 'pending_payment'],
    ])
    // The stale attempt's intent is canceled, so an old tab cannot pay it as well.
    expect((await stripe.paymentIntents.retrieve(failed!.stripePaymentIntentId!)).status).toBe('canceled')
    await payIntent(second)
    await webhooksDelivered()
    expect((await salesFor(buyer.id, listing.id)).map((s) => s.status)).toEqual(['failed', 'paid'])
  })

  it('asks for onboarding while the seller has no bank details, or rejected ones; pending details are enough', async () => {
    const buyer = await signUp('buyer')
    for (const [bank, expected] of [
      [null, { requiresOnboarding: true }],
      ['rejected', { requiresOnboarding: true }],
      ['pending', { clientSecret: expect.stringMatching(/^pi_/) }],
      ['approved', { clientSecret: expect.stringMatching(/^pi_/) }],
    ] as const) {
      const seller = await signUp('seller')
      if (bank) await giveBankDetails(seller.id, bank)
      const listing = await createListing(seller.id)
      const response = await purchase(listing.id, buyer.token)
      expect(response.status, String(bank)).toBe(200)
      expect(await response.json()).toEqual(expected)
      if ('requiresOnboarding' in expected) expect(await salesFor(buyer.id, listing.id)).toHaveLength(0)
    }
  })

  it('refuses the own listing, a hidden or archived one, an unknown id and anonymous callers', async () => {
    const { seller, listing } = await sellerWithListing()
    const buyer = await signUp('buyer')
    const hidden = await createListing(seller.id, { visible: false })
    const archived = await createListing(seller.id, { archived: true })

    const own = await purchase(listing.id, seller.token)
    expect(own.status).toBe(403)
    expect(await own.json()).toEqual({ error: 'You cannot buy your own listing' })
    const hiddenResponse = await purchase(hidden.id, buyer.token)
    expect(hiddenResponse.status).toBe(409)
    expect(await hiddenResponse.json()).toEqual({ error: 'This listing is not available for purchase' })
    expect((await purchase(archived.id, buyer.token)).status).toBe(404)
    expect((await purchase('not-a-uuid', buyer.token)).status).toBe(404)
    expect((await purchase(crypto.randomUUID(), buyer.token)).status).toBe(404)
    expect((await purchase(listing.id, undefined)).status).toBe(401)
    expect(await db.selectFrom('transactions').select('id').execute()).toHaveLength(0)
  })

  it("says 'Failed to create payment intent' when the provider cannot be reached", async () => {
    const { listing } = await sellerWithListing()
    const buyer = await signUp('buyer')
    const base = process.env.STRIPE_API_BASE
    setEnv({ STRIPE_API_BASE: 'http://127.0.0.1:9' })
    try {
      const response = await purchase(listing.id, buyer.token)
      expect(response.status).toBe(502)
      expect(await response.json()).toEqual({ error: 'Failed to create payment intent' })
    } finally {
      setEnv({ STRIPE_API_BASE: base })
    }
    // The attempt stays open and gets its intent on the next try.
    expect((await purchase(listing.id, buyer.token)).status).toBe(200)
    expect(await salesFor(buyer.id, listing.id)).toHaveLength(1)
  })
})

describe('/checkout/:id', () => {
  it('loads the order summary and the emulator stand-in script; the POST answers the client secret', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const response = await callRoute(checkoutPage, pageRequest(`/checkout/${listing.id}`, buyer.token), { id: listing.id })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({
      state: 'ready',
      summary: { title: listing.title, fee: { amountCents: 4900, applicationFeeCents: 735, sellerShareCents: 4165 } },
      stripe: { publishableKey: stripeEmulator.publishableKey, scriptUrl: stripeEmulator.scriptUrl },
      returnUrl: `${APP}/purchase-success`,
    })
    expect(body).not.toHaveProperty('clientSecret')
    const post = await proceed(listing.id, buyer.token, 4900)
    expect(post.status).toBe(200)
    expect(await post.json()).toEqual({ clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/), amountCents: 4900 })
    expect((await salesFor(buyer.id, listing.id)).map((s) => [s.status, s.amountCents])).toEqual([['pending_payment', 4900]])
  })

  it('shows Seller Setup Required for a seller without bank details', async () => {
    const seller = await signUp('seller')
    const listing = await createListing(seller.id)
    const buyer = await signUp('buyer')
    const response = await callRoute(checkoutPage, pageRequest(`/checkout/${listing.id}`, buyer.token), { id: listing.id })
    expect(await response.json()).toMatchObject({ state: 'seller-setup' })
  })

  it('sends anonymous visitors to sign in', async () => {
    const response = await callRoute(checkoutPage, new Request(`${APP}/checkout/${crypto.randomUUID()}`))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toMatch(/^\/login\?redirectTo=%2Fcheckout%2F/)
  })

  it('allows Stripe sources in the CSP of checkout pages only', async () => {
    const origin = new URL(stripeEmulator.scriptUrl).origin
    // The CSP variant each route declares (app/server/http/route-policy.server.ts).
    const cspOf = (mod: object) => securityHeaders(declaredPolicy(mod)?.csp, 'n0nce')['Content-Security-Policy']!
    const checkout = cspOf(checkoutPage)
    expect(checkout).toContain(`script-src 'self' 'nonce-n0nce' 'strict-dynamic' ${origin}`)
    expect(checkout).toContain(`connect-src 'self' ${origin}`)
    const others = {
      '/': await import('../../app/routes/home.tsx'),
      '/marketplace': await import('../../app/routes/marketplace.tsx'),
      '/purchases': await import('../../app/routes/purchases.tsx'),
      '/purchase-success': purchaseSuccessPage,
      '/checkout': await import('../../app/routes/not-found.tsx'),
    }
    for (const [path, mod] of Object.entries(others)) {
      const csp = cspOf(mod)
      expect(csp, path).not.toContain(origin)
      expect(csp, path).not.toContain('stripe.com')
      expect(csp, path).toContain(`connect-src 'self';`)
    }
    const saved = process.env.STRIPE_JS_URL
    setEnv({ STRIPE_JS_URL: undefined })
    try {
      const production = cspOf(checkoutPage)
      expect(production).toContain('https://js.stripe.com')
      expect(production).toContain(`connect-src 'self' https://api.stripe.com`)
      expect(production).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com')
    } finally {
      setEnv({ STRIPE_JS_URL: saved })
    }
  })
})

describe('/purchase-success and GET /api/purchases', () => {
  it("tells 'processing' from 'confirmed' by the server's state, and lists the purchase", async () => {
    const { listing, seller } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const { clientSecret } = await (await purchase(listing.id, buyer.token)).json()
    const intentId = clientSecret.split('_secret_')[0]
    const success = async (token: string) =>
      (
        await callRoute(purchaseSuccessPage, pageRequest(`/purchase-success?payment_intent=${intentId}&redirect_status=succeeded`, token))
      ).json()

    expect(await success(buyer.token)).toMatchObject({ outcome: 'processing' })
    const listed = async () => (await callRoute(purchasesApi, apiRequest('/api/purchases', { token: buyer.token }))).json()
    expect(await listed()).toEqual([]) // an unpaid attempt is not a purchase

    await payIntent(clientSecret)
    await webhooksDelivered()
    expect(await success(buyer.token)).toMatchObject({ outcome: 'confirmed', sale: { title: listing.title, amountCents: 4900 } })
    // Someone else's intent id tells nothing.
    expect(await success(seller.token)).toMatchObject({ outcome: 'unknown', sale: null })

    const [item] = await listed()
    expect(item).toMatchObject({
      amountCents: 4900,
      status: 'paid',
      listing: { title: listing.title },
      seller: { username: expect.any(String) },
      deliveryProof: null,
    })
    expect(await saleStatus(item.id)).toBe('paid')
  })
})

describe('open checkouts when the listing changes (issue 14.5)', () => {
  /** A buyer with an open checkout (client secret) for a fresh listing at $49.00. */
  async function openCheckout() {
    const { seller, listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const { clientSecret } = await (await purchase(listing.id, buyer.token)).json()
    return { seller, listing, buyer, clientSecret: clientSecret as string }
  }
  const editListing = (id: string, token: string, json: unknown) =>
    callRoute(listingApi, apiRequest(`/api/listings/${id}`, { method: 'PATCH', token, json }), { slugOrId: id })
  const deleteListing = (id: string, token: string) =>
    callRoute(listingApi, apiRequest(`/api/listings/${id}`, { method: 'DELETE', token }), { slugOrId: id })

  async function expectClosed(buyerId: string, listingId: string, clientSecret: string) {
    // The old card form cannot pay: its intent is canceled at Stripe, and the attempt is closed.
    const intentId = clientSecret.split('_secret_')[0]!
    expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe('canceled')
    await expect(payIntent(clientSecret)).rejects.toMatchObject({ type: 'StripeInvalidRequestError' })
    await webhooksDelivered()
    const sales = await salesFor(buyerId, listingId)
    expect(sales.map((s) => s.status)).toEqual(['failed'])
    const audit = await db
      .selectFrom('auditLog')
      .select(['action', 'actorRole', 'fromState', 'toState'])
      .where('entityId', '=', sales[0]!.id)
      .execute()
    expect(audit).toContainEqual({
      action: expect.stringMatching(/^(checkout_canceled|payment_canceled)$/),
      actorRole: expect.any(String),
      fromState: 'pending_payment',
      toState: 'failed',
    })
  }

  it('a price change (PATCH /api/listings/:id) cancels the open checkout; the next one charges the new price', async () => {
    const { seller, listing, buyer, clientSecret } = await openCheckout()
    expect((await editListing(listing.id, seller.token, { priceCents: 9900 })).status).toBe(200)
    await expectClosed(buyer.id, listing.id, clientSecret)

    const next = await (await purchase(listing.id, buyer.token)).json()
    expect(next.clientSecret).not.toBe(clientSecret)
    expect((await stripe.paymentIntents.retrieve(next.clientSecret.split('_secret_')[0])).amount).toBe(9900)
    await payIntent(next.clientSecret)
    await webhooksDelivered()
    expect((await salesFor(buyer.id, listing.id)).map((s) => [s.status, s.amountCents])).toEqual([
      ['failed', 4900],
      ['paid', 9900],
    ])
  })

  it('a page opened at the old price never pays the new one, even when the buyer reopened checkout meanwhile', async () => {
    const { seller, listing, buyer, clientSecret } = await openCheckout()
    // The price changes in the database without the listing surfaces (as a direct edit would):
    // the buyer's next visit still closes the stale attempt instead of re-pricing its intent.
    await db.updateTable('listings').set({ priceCents: 9900 }).where('id', '=', listing.id).execute()
    const reopened = await (await purchase(listing.id, buyer.token)).json()
    expect(reopened.clientSecret).not.toBe(clientSecret)
    const oldIntent = await stripe.paymentIntents.retrieve(clientSecret.split('_secret_')[0]!)
    expect(oldIntent).toMatchObject({ status: 'canceled', amount: 4900 })
    await expect(payIntent(clientSecret)).rejects.toMatchObject({ type: 'StripeInvalidRequestError' })
    expect(seller.id).not.toBe(buyer.id)
  })

  it('hiding the listing (seller dashboard) cancels its open checkouts; unchanged listings keep theirs', async () => {
    const { seller, listing, buyer, clientSecret } = await openCheckout()
    const other = await openCheckout()
    await setListingVisibility({ listingId: listing.id, sellerId: seller.id, visible: false })
    await expectClosed(buyer.id, listing.id, clientSecret)
    // A save that changes neither price nor visibility leaves an open checkout as it is.
    expect((await editListing(other.listing.id, other.seller.token, { title: 'Renamed kit' })).status).toBe(200)
    expect((await salesFor(other.buyer.id, other.listing.id)).map((s) => s.status)).toEqual(['pending_payment'])
    await payIntent(other.clientSecret)
    await webhooksDelivered()
    expect((await salesFor(other.buyer.id, other.listing.id)).map((s) => s.status)).toEqual(['paid'])
  })

  it('deleting the listing (archived, DELETE /api/listings/:id) cancels its open checkouts', async () => {
    const { seller, listing, buyer, clientSecret } = await openCheckout()
    const response = await deleteListing(listing.id, seller.token)
    expect(await response.json()).toMatchObject({ archived: true })
    await expectClosed(buyer.id, listing.id, clientSecret)
  })
})

describe('no payment on a GET (issue 14.6)', () => {
  it('opening /checkout/:id — from this site, typed, or linked from another site — creates no sale and no payment intent', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    for (const site of ['same-origin', 'none', 'cross-site', 'same-site']) {
      const response = await callRoute(checkoutPage, pageRequest(`/checkout/${listing.id}`, buyer.token, { 'Sec-Fetch-Site': site }), {
        id: listing.id,
      })
      expect(response.status, site).toBe(200)
      // The page asks for the payment by itself only when the buyer came from this site or typed the address.
      expect((await response.json()).autoStart, site).toBe(site === 'same-origin' || site === 'none')
    }
    expect(await salesFor(buyer.id, listing.id)).toEqual([])
    expect(intentsCreatedFor(listing.id)).toEqual([])
  })

  it('the POST opens the attempt for the amount the page showed; a price changed since is a 409 that opens nothing', async () => {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const stale = await proceed(listing.id, buyer.token, 3900)
    expect(stale.status).toBe(409)
    expect(await stale.json()).toEqual({ error: 'The price of this listing has changed. Please check the new price before you pay.' })
    expect(await salesFor(buyer.id, listing.id)).toEqual([])
    expect((await proceed(listing.id, buyer.token, 0)).status).toBe(400)
    // From another site the POST is refused before anything happens.
    expect((await proceed(listing.id, buyer.token, 4900, 'https://evil.example')).status).toBe(403)
    expect(await salesFor(buyer.id, listing.id)).toEqual([])
    expect(intentsCreatedFor(listing.id)).toEqual([])
  })

  it('abandoned and declined attempts are not sales on the admin list (GET /api/admin/transactions, /admin)', async () => {
    const admin = await signUp('admin', { admin: true })
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const [abandoning, declined, paying] = [await signUp('buyer'), await signUp('buyer'), await signUp('buyer')]
    await (await proceed(listing.id, abandoning.token, 4900)).json()
    const { clientSecret: declinedSecret } = await (await proceed(listing.id, declined.token, 4900)).json()
    await expect(payIntent(declinedSecret, '4000000000000002')).rejects.toMatchObject({ type: 'StripeCardError' })
    const { clientSecret } = await (await proceed(listing.id, paying.token, 4900)).json()
    await payIntent(clientSecret)
    await webhooksDelivered()
    const [paid] = await salesFor(paying.id, listing.id)
    expect((await salesFor(declined.id, listing.id)).map((s) => s.status)).toEqual(['failed'])

    const api = await (await callRoute(adminTransactionsApi, apiRequest('/api/admin/transactions', { token: admin.token }))).json()
    expect(api.map((t: { id: string }) => t.id)).toEqual([paid!.id])
    const page = await (await callRoute(adminPage, pageRequest('/admin', admin.token))).json()
    expect(page.transactions.map((t: { id: string }) => t.id)).toEqual([paid!.id])
    // Asking for attempts by status is not a sales filter.
    for (const status of ['pending_payment', 'failed']) {
      const response = await callRoute(adminTransactionsApi, apiRequest(`/api/admin/transactions?status=${status}`, { token: admin.token }))
      expect(response.status, status).toBe(400)
    }
  })
})

describe('/purchase-success shows the real outcome (issue 14.10)', () => {
  async function declinedThenPaid() {
    const { listing } = await sellerWithListing({ priceCents: 4900 })
    const buyer = await signUp('buyer')
    const { clientSecret } = await (await purchase(listing.id, buyer.token)).json()
    const intentId = clientSecret.split('_secret_')[0] as string
    await expect(payIntent(clientSecret, '4000000000000002')).rejects.toMatchObject({ type: 'StripeCardError' })
    await webhooksDelivered()
    const [sale] = await salesFor(buyer.id, listing.id)
    expect(sale!.status).toBe('failed')
    const success = async () =>
      (
        await callRoute(
          purchaseSuccessPage,
          pageRequest(`/purchase-success?payment_intent=${intentId}&redirect_status=succeeded`, buyer.token),
        )
      ).json()
    return { listing, buyer, clientSecret, intentId, sale: sale!, success }
  }

  it('declined, then 4242 on the same card form, with the succeeded webhook late: confirmed, never a stale failure', async () => {
    const { listing, clientSecret, intentId, sale, success } = await declinedThenPaid()
    expect(await success()).toMatchObject({ outcome: 'failed', sale: { failureReason: 'Your card was declined.' } })

    await withWebhooksWithheld(() => payIntent(clientSecret))
    expect(await saleStatus(sale.id)).toBe('failed') // our record has not caught up…
    expect(await success()).toMatchObject({ outcome: 'confirmed', sale: { title: listing.title, amountCents: 4900 } })
    expect(await saleStatus(sale.id)).toBe('failed') // …and the page wrote nothing

    const succeeded = stripeEmulator.events.find(
      (e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === intentId,
    )!
    expect(await stripeEmulator.resend(succeeded.id)).toBe(200)
    expect(await saleStatus(sale.id)).toBe('paid')
    expect(await success()).toMatchObject({ outcome: 'confirmed' })
  })

  it("says 'processing' (not failed) while the payment provider cannot be asked", async () => {
    const { success } = await declinedThenPaid()
    const base = process.env.STRIPE_API_BASE
    setEnv({ STRIPE_API_BASE: 'http://127.0.0.1:9' })
    try {
      expect(await success()).toMatchObject({ outcome: 'processing' })
    } finally {
      setEnv({ STRIPE_API_BASE: base })
    }
  })
})
