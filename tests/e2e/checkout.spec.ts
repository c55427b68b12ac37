import { DEMO, signIn, uniqueEmail } from './support'
import { delayWebhooks, expect, listingId, payWithCard, purchaseOf, test, webhooksLanded } from './payment-helpers'

// Demo data (db/demo-data.ts): ada@ has approved bank details, mateo@ pending ones,
// sara@ rejected ones, noah@ none.
const ADA_LISTING = { slug: 'remix-marketplace-template', title: 'Remix Marketplace Template', price: '$199.00' }

test('buy a listing with 4242 4242 4242 4242 and see it in My Purchases as paid', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('buyer'), fullName: 'Bea Buyer' })
  const id = await listingId(page.request, ADA_LISTING.slug)
  await page.goto(`/checkout/${id}`)

  const summary = page.locator('[data-slot="card"]', { has: page.getByRole('heading', { name: 'Order Summary' }) })
  await expect(summary.getByText(ADA_LISTING.title)).toBeVisible()
  await expect(summary.getByText('by @adabuilds')).toBeVisible()
  await expect(summary.getByText('Platform fee (15%)')).toBeVisible()
  await expect(summary.getByText('$29.85')).toBeVisible()
  await expect(summary.getByText('Seller receives')).toBeVisible()
  await expect(summary.getByText('$169.15')).toBeVisible()
  await expect(summary.getByText('Total')).toBeVisible()

  await payWithCard(page)
  await expect(page).toHaveURL(/\/purchase-success\?payment_intent=pi_/)
  await expect(page.getByRole('heading', { name: 'Purchase Successful' })).toBeVisible()
  await expect(page.getByText('Thank you for your purchase!', { exact: true })).toBeVisible()
  await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')

  await page.getByRole('link', { name: 'View My Purchases' }).click()
  await expect(page).toHaveURL(/\/purchases$/)
  const row = page.getByRole('row', { name: new RegExp(ADA_LISTING.title) })
  await expect(row.getByRole('cell', { name: '@adabuilds' })).toBeVisible()
  await expect(row.getByRole('cell', { name: ADA_LISTING.price })).toBeVisible()
  await expect(row.getByText('Paid', { exact: true })).toBeVisible()
  await expect(row.getByText('Pending', { exact: true })).toBeVisible()

  // Opening checkout again for an owned listing is refused plainly.
  await page.goto(`/checkout/${id}`)
  await expect(page.getByText('You already own this listing')).toBeVisible()
})

test("a declined card shows 'Payment Failed' and creates no sale", async ({ page }) => {
  await signIn(page, { email: uniqueEmail('declined'), fullName: 'Dee Clined' })
  const id = await listingId(page.request, ADA_LISTING.slug)
  await page.goto(`/checkout/${id}`)
  await payWithCard(page, '4000 0000 0000 0002')
  const alert = page.getByRole('alert').filter({ hasText: 'Payment Failed' })
  await expect(alert.first()).toBeVisible()
  await expect(page.getByText('Your card was declined.').first()).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/checkout/${id}$`))

  await page.goto('/purchases')
  await expect(page.getByText('No purchases yet')).toBeVisible()
  expect(await purchaseOf(page, ADA_LISTING.title)).toBeUndefined()
})

test('Seller Setup Required for a seller without bank details (or rejected ones), then back to /', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('setup'), fullName: 'Sam Setup' })
  for (const slug of ['go-rest-api-boilerplate' /* noah: none */, 'shopify-style-storefront' /* sara: rejected */]) {
    const id = await listingId(page.request, slug)
    await page.goto(`/checkout/${id}`)
    await expect(page.getByRole('heading', { name: 'Seller Setup Required' })).toBeVisible()
    await expect(page.getByText('This seller needs to complete their account setup before you can purchase.').first()).toBeVisible()
    await expect(page.getByLabel('Card number')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/')
  }
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })

  // A seller with details on file (pending approval) can be paid.
  const pending = await listingId(page.request, 'django-crm-starter')
  await page.goto(`/checkout/${pending}`)
  await expect(page.getByRole('button', { name: 'Pay $89.00' })).toBeEnabled()
})

test('the seller cannot check out their own listing', async ({ page }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor' })
  const id = await listingId(page.request, ADA_LISTING.slug)
  await page.goto(`/checkout/${id}`)
  await expect(page.getByText('You cannot buy your own listing')).toBeVisible()
})

test('Buy Now on the listing page leads to a working card form; Stripe sources are allowed on checkout only', async ({ page }) => {
  const cspViolations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
  })
  // The Stripe emulator's origin in script-src or connect-src (img-src may list the auth emulator for avatars).
  const allowsStripe = (csp: string | undefined) =>
    (csp ?? '').split(';').some((d) => /^\s*(script-src|connect-src|frame-src)/.test(d) && /127\.0\.0\.1|stripe\.com/.test(d))
  await signIn(page, { email: uniqueEmail('buynow'), fullName: 'Bo Buynow' })
  const home = await page.goto('/listing/flask-recipe-book')
  expect(allowsStripe(home?.headers()['content-security-policy'])).toBe(false)

  await page.getByRole('link', { name: 'Buy Now' }).click()
  await expect(page).toHaveURL(/\/checkout\//)
  await expect(page.getByRole('button', { name: 'Pay $39.00' })).toBeEnabled()
  // The in-app navigation was turned into a document load (whose CSP allows the card form).
  const documentUrl = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.name ?? '')
  expect(new URL(documentUrl).pathname).toMatch(/^\/checkout\//)
  await payWithCard(page)
  await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
  expect(cspViolations).toEqual([])

  const checkout = await page.request.get(page.url().replace(/\/purchase-success.*/, '/purchases'))
  expect(allowsStripe(checkout.headers()['content-security-policy'])).toBe(false)
})

// ada@'s "Team Chat with Realtime Presence" ($249.00): bought by no other spec, so its webhooks can be delayed alone.
const LATE_LISTING = { slug: 'team-chat-with-realtime-presence', title: 'Team Chat with Realtime Presence' }

test('declined, then 4242 on the same checkout with the webhook late: Purchase Successful, never a stale failure', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('late'), fullName: 'Lee Late' })
  const id = await listingId(page.request, LATE_LISTING.slug)
  await page.goto(`/checkout/${id}`)
  await payWithCard(page, '4000 0000 0000 0002')
  await expect(page.getByText('Your card was declined.').first()).toBeVisible()
  await webhooksLanded(page.request, id, 'payment_intent.payment_failed') // our record now says failed

  await delayWebhooks(page.request, id, 8_000)
  try {
    await payWithCard(page)
    await expect(page).toHaveURL(/\/purchase-success\?payment_intent=pi_/)
    await expect(page.getByRole('heading', { name: 'Purchase Successful' })).toBeVisible()
    await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
    await expect(page.getByText('Thank you for your purchase!', { exact: true })).toBeVisible()
    await expect(page.getByText('Payment Failed')).toHaveCount(0)
    await expect(page.getByText(/declined/)).toHaveCount(0)
  } finally {
    await delayWebhooks(page.request, id, 0)
  }
  // When the late webhook lands, My Purchases shows the sale as paid.
  await expect.poll(async () => (await purchaseOf(page, LATE_LISTING.title))?.status, { timeout: 20_000 }).toBe('paid')
})

test('without JavaScript, Seller Setup Required shows the notice and then goes to / (issue 14.11)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  try {
    const id = await listingId(page.request, 'go-rest-api-boilerplate') // noah@: no bank details
    // Sign in with JavaScript, then look at checkout without it (the session cookie is the same).
    const jsContext = await browser.newContext()
    const jsPage = await jsContext.newPage()
    await signIn(jsPage, { email: uniqueEmail('nojs'), fullName: 'Nora Nojs' })
    await context.addCookies(await jsContext.cookies())
    await jsContext.close()

    await page.goto(`/checkout/${id}`)
    await expect(page.getByRole('heading', { name: 'Seller Setup Required' })).toBeVisible()
    await expect(page.getByText('This seller needs to complete their account setup before you can purchase.')).toBeVisible()
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
  } finally {
    await context.close()
  }
})
