import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import { E2E_ENV } from '../../playwright.config'

/**
 * Checkout and escrow specs run against the local Stripe emulator only: any
 * request to Stripe's real hosts is aborted and fails the test.
 */
export const test = base.extend<{ stripeGuard: string[] }>({
  stripeGuard: [
    async ({ context }, use) => {
      const forbidden: string[] = []
      await context.route(/^https?:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, (route) => {
        forbidden.push(route.request().url())
        return route.abort()
      })
      context.on('request', (request) => {
        if (/\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//.test(request.url())) forbidden.push(request.url())
      })
      await use(forbidden)
      expect(forbidden, 'requests to js.stripe.com / api.stripe.com').toEqual([])
    },
    { auto: true },
  ],
})
export { expect }

/** The demo listing's id (via GET /api/listings/:slug). */
export async function listingId(request: APIRequestContext, slug: string): Promise<string> {
  const response = await request.get(`/api/listings/${slug}`)
  expect(response.status(), slug).toBe(200)
  return (await response.json()).id as string
}

/** Pays on /checkout/:id with the stand-in card form and waits for the success page. */
export async function payWithCard(page: Page, card = '4242 4242 4242 4242') {
  await page.getByLabel('Card number').fill(card)
  await page.getByRole('button', { name: /^Pay \$/ }).click()
}

/** The signed-in buyer's purchase of a listing (GET /api/purchases with the page's session). */
export async function purchaseOf(page: Page, title: string) {
  const response = await page.request.get('/api/purchases')
  expect(response.status()).toBe(200)
  const purchases = (await response.json()) as Array<{ id: string; status: string; listing: { title: string } }>
  return purchases.find((p) => p.listing.title === title)
}

/**
 * Waits until the purchase is in My Purchases. The success page says "confirmed" from Stripe's own
 * answer as soon as the card is charged; the sale becomes a purchase when the verified
 * payment_intent.succeeded webhook lands (design.md: fulfilment only from the webhook), which under
 * CI's load can come a moment later.
 */
export async function purchaseRecorded(page: Page, title: string) {
  await expect.poll(async () => (await purchaseOf(page, title))?.status, { timeout: 20_000 }).toBeTruthy()
  return (await purchaseOf(page, title))!
}

/** The e2e server's Stripe emulator (its control endpoints are test hooks). */
const EMULATOR = `http://127.0.0.1:${E2E_ENV.STRIPE_EMULATOR_PORT}`

/**
 * Holds back the emulator's webhooks for one listing's payments (a late
 * webhook, as Stripe sometimes sends them); `ms: 0` ends it. Scoped by the
 * listing so tests running in parallel are not slowed.
 */
export async function delayWebhooks(request: APIRequestContext, listingId: string, ms: number) {
  const response = await request.post(`${EMULATOR}/_emulator/webhook-delay`, { data: { ms, metadata: { listingId } } })
  expect(response.status()).toBe(200)
}

/** Waits until every webhook of `type` for this listing's payments has been answered 2xx by the app. */
export async function webhooksLanded(request: APIRequestContext, listingId: string, type: string) {
  await expect
    .poll(async () => {
      const events = (await (await request.get(`${EMULATOR}/_emulator/events`)).json()).data as Array<{
        id: string
        type: string
        data: { object: { metadata?: Record<string, string> } }
      }>
      const deliveries = (await (await request.get(`${EMULATOR}/_emulator/deliveries`)).json()).data as Array<{
        eventId: string
        status: number
      }>
      const mine = events.filter((e) => e.type === type && e.data.object.metadata?.listingId === listingId)
      return mine.length > 0 && mine.every((e) => deliveries.some((d) => d.eventId === e.id && d.status >= 200 && d.status < 300))
    })
    .toBe(true)
}
