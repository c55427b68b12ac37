import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test'

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
