import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { delayWebhooks, expect, listingId, payWithCard, purchaseOf, purchaseRecorded, test, webhooksLanded } from './payment-helpers'
import { DEMO, signIn, uniqueEmail, waitForHydration } from './support'

// Demo data (db/seed/demo-data.ts): ada@ has approved bank details, mateo@ pending ones,
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

  await purchaseRecorded(page, ADA_LISTING.title)
  await page.getByRole('link', { name: 'View My Purchases' }).click()
  await expect(page).toHaveURL(/\/purchases$/)
  const row = page.getByRole('row', { name: new RegExp(ADA_LISTING.title) })
  await expect(row.getByRole('cell', { name: '@adabuilds', exact: true })).toBeVisible()
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

// lin@'s "Photography Store": bought by no other spec, so the 3-D Secure sales never push ada@'s demo
// sales out of her dashboard's recent transactions (dashboards.spec.ts reads them).
const THREE_DS_LISTING = { slug: 'photography-store', title: 'Photography Store', price: '$179.00' }

test.describe('3-D Secure (cards that require authentication, issue 25)', () => {
  test('the buyer completes the challenge: Purchase Successful and the purchase is recorded', async ({ page }) => {
    await signIn(page, { email: uniqueEmail('threeds'), fullName: 'Tess Secure' })
    const id = await listingId(page.request, THREE_DS_LISTING.slug)
    await page.goto(`/checkout/${id}`)
    await payWithCard(page, '4000 0027 6000 3184')
    const challenge = page.getByRole('dialog', { name: '3D Secure test page' })
    await expect(challenge.getByText(`Authenticate this test payment of ${THREE_DS_LISTING.price}.`)).toBeVisible()
    // Nothing is charged while the challenge is open.
    await expect(page).toHaveURL(new RegExp(`/checkout/${id}$`))
    await challenge.getByRole('button', { name: 'Complete authentication' }).click()
    await expect(page).toHaveURL(/\/purchase-success\?payment_intent=pi_/)
    await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
    await purchaseRecorded(page, THREE_DS_LISTING.title)
  })

  test('the buyer fails the challenge: Payment Failed, no sale, and another card on the same form succeeds', async ({ page }) => {
    await signIn(page, { email: uniqueEmail('threeds-fail'), fullName: 'Fay Lure' })
    const id = await listingId(page.request, THREE_DS_LISTING.slug)
    await page.goto(`/checkout/${id}`)
    await payWithCard(page, '4000 0025 0000 3155')
    await page.getByRole('dialog', { name: '3D Secure test page' }).getByRole('button', { name: 'Fail authentication' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Payment Failed' }).first()).toBeVisible()
    await expect(page.getByText('We are unable to authenticate your payment method.', { exact: false }).first()).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`/checkout/${id}$`))
    expect(await purchaseOf(page, THREE_DS_LISTING.title)).toBeUndefined()

    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByRole('button', { name: /^Pay \$/ }).click()
    await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
    await purchaseRecorded(page, THREE_DS_LISTING.title)
  })
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

  // Hydrated first: the click is then React Router's in-app navigation, the path that reloads the document.
  await waitForHydration(page)
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

/** WCAG contrast of two CSS colours (rgb/rgba as the browser computes them). */
async function contrasts(page: Page) {
  return page.evaluate(() => {
    // Any CSS colour (the app's tokens are oklch) as sRGB bytes, through a canvas.
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!
    const parse = (c: string) => {
      canvas.clearRect(0, 0, 1, 1)
      canvas.fillStyle = c
      canvas.fillRect(0, 0, 1, 1)
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data
      return [r!, g!, b!, a! / 255]
    }
    const luminance = (c: string) => {
      const [r, g, b] = parse(c)
        .slice(0, 3)
        .map((v) => {
          const x = v / 255
          return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4
        })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const ratio = (a: string, b: string) => {
      const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m)
      return (x! + 0.05) / (y! + 0.05)
    }
    /** The first opaque background behind an element. */
    const backdrop = (el: Element | null): string => {
      for (let node = el; node; node = node.parentElement) {
        const bg = getComputedStyle(node).backgroundColor
        if (bg !== 'transparent' && parse(bg)[3]! > 0.9) return bg
      }
      return 'rgb(255, 255, 255)'
    }
    const form = document.querySelector('[data-stripe-emulator-element]')!
    const labels = [...form.querySelectorAll('label')].map((label) => ({
      text: label.textContent,
      ratio: ratio(getComputedStyle(label).color, backdrop(label)),
    }))
    const inputs = [...form.querySelectorAll('input')].map((input) => {
      const style = getComputedStyle(input)
      return {
        name: input.name,
        background: style.backgroundColor,
        backgroundLuminance: luminance(style.backgroundColor),
        text: ratio(style.color, style.backgroundColor),
        border: ratio(style.borderTopColor, backdrop(input.parentElement)),
      }
    })
    return { labels, inputs, pageBackground: backdrop(form) }
  })
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  const response = await page.request.post('/action/set-theme', { data: { theme }, headers: { Origin: new URL(page.url()).origin } })
  expect(response.ok()).toBe(true)
}

test.describe('the checkout page at 390 px and in both themes (issues 14.12, 14.13)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme}: no sideways scroll at 390 px, card form labels ≥ 4.5:1, inputs themed, valid markup (axe)`, async ({ page }) => {
      await signIn(page, { email: uniqueEmail(`narrow-${theme}`), fullName: 'Nia Narrow' })
      await setTheme(page, theme)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto(`/checkout/${await listingId(page.request, ADA_LISTING.slug)}`)
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
      await expect(page.getByLabel('Card number')).toBeVisible()
      await expect(page.getByRole('button', { name: 'Pay $199.00' })).toBeEnabled()

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      const { labels, inputs } = await contrasts(page)
      expect(labels.map((l) => l.text)).toEqual(['Card number', 'Expiry', 'CVC'])
      for (const label of labels) expect(label.ratio, `${label.text} label`).toBeGreaterThanOrEqual(4.5)
      for (const input of inputs) {
        expect(input.text, `${input.name} text`).toBeGreaterThanOrEqual(4.5)
        expect(input.border, `${input.name} border`).toBeGreaterThanOrEqual(3)
        // Dark theme: dark inputs (not white boxes); light theme: light ones.
        if (theme === 'dark') expect(input.backgroundLuminance, `${input.name} background ${input.background}`).toBeLessThan(0.05)
        else expect(input.backgroundLuminance, `${input.name} background`).toBeGreaterThan(0.9)
      }
      // Focus is visible on the card inputs.
      await page.getByLabel('Card number').focus()
      expect(await page.getByLabel('Card number').evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none')

      const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    })
  }
})
