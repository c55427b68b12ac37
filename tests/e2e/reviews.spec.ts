import { expect, listingId, payWithCard, purchaseOf, test } from './payment-helpers'
import { axeViolations, DEMO, signIn, uniqueEmail, waitForHydration } from './support'

// Issue 18: a buyer reviews a purchase after confirming receipt; the review shows on the listing
// page and on the seller's page. ada@'s instant-delivery listing is delivered the moment payment succeeds.
const BLOG = { slug: 'headless-blog-engine', title: 'Headless Blog Engine' }

test('a buyer reviews after confirming; the review shows on the listing and the seller page', async ({ page }) => {
  const body = `Set up in ten minutes, the content model is clear. ${Date.now().toString(36)}`
  await signIn(page, { email: uniqueEmail('reviewer'), fullName: 'Rita Reviewer' })
  await page.goto(`/checkout/${await listingId(page.request, BLOG.slug)}`)
  await payWithCard(page)
  await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
  await expect.poll(async () => (await purchaseOf(page, BLOG.title))?.status).toBe('delivered')

  // Not reviewable before receipt is confirmed.
  await page.goto('/purchases')
  await expect(page.getByRole('link', { name: `Write a review of ${BLOG.title}` })).toHaveCount(0)
  const row = page.getByRole('row', { name: new RegExp(BLOG.title) })
  await row.getByRole('button', { name: `Confirm Receipt of ${BLOG.title}` }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm and release payment' }).click()
  await expect(page.getByText('Receipt confirmed', { exact: true })).toBeVisible()

  // My Purchases leads to the review form on the listing page.
  await page.getByRole('link', { name: `Write a review of ${BLOG.title}` }).click()
  await expect(page).toHaveURL(new RegExp(`/listing/${BLOG.slug}#reviews$`))
  const form = page.getByRole('form', { name: 'Review your purchase' })
  // A link is refused with the message, and nothing is posted.
  await form.getByRole('radio', { name: '5 stars: excellent' }).check()
  await form.getByLabel('Your review').fill('Cheaper at blog-deals.com')
  await form.getByRole('button', { name: 'Post review' }).click()
  await expect(form.getByText('Reviews cannot contain links or web addresses. Please describe your experience in words.')).toBeVisible()
  await form.getByLabel('Your review').fill(body)
  await form.getByRole('button', { name: 'Post review' }).click()
  await expect(page.getByText('Review posted', { exact: true })).toBeVisible()

  const reviews = page.getByRole('region', { name: 'Reviews' })
  const review = reviews.getByRole('article', { name: 'Review by Rita Reviewer' })
  await expect(review).toContainText(body)
  await expect(review).toContainText('Verified purchase')
  await expect(page.getByRole('form', { name: 'Review your purchase' })).toHaveCount(0)

  // The seller's page, linked from the listing's seller card, shows it too.
  await page.getByRole('link', { name: 'View seller profile' }).click()
  await expect(page).toHaveURL(/\/sellers\/adabuilds$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByText('Completed sales')).toBeVisible()
  await expect(page.getByRole('list', { name: 'Recent reviews' })).toContainText(body)
})

test('a listing without reviews says so once (issue 26.16)', async ({ page }) => {
  await page.goto('/listing/restaurant-ordering-site')
  await expect(page.getByRole('heading', { name: 'Reviews', level: 2 })).toBeVisible()
  await expect(page.getByText('No reviews yet')).toHaveCount(1)
})

// Axe on the new states, light and dark, 1280 and 390 px (as a11y.spec.ts): a listing with reviews
// and a seller's reply, the seller page, Top Rated with a minimum rating, and /profile's Public profile.
test('axe finds no violations on reviews, seller pages and the public profile', async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor' })
  const violations: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    const origin = new URL(page.url()).origin
    expect((await page.request.post('/action/set-theme', { data: { theme }, headers: { Origin: origin } })).ok()).toBe(true)
    for (const path of ['/listing/launchkit-saas-starter', '/sellers/adabuilds', '/marketplace?sortBy=top-rated&minRating=4', '/profile']) {
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.goto(path)
      await waitForHydration(page)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 })
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
        violations.push(...(await axeViolations(page, `${path} [${theme}, ${width}px]`)))
        // No sideways scroll on a phone.
        if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
      }
    }
  }
  expect(violations, violations.join('\n')).toEqual([])
})

// Forms work without JavaScript: the demo buyer's completed GitHub purchase (db/seed/demo-github.ts) is
// reviewed with a plain form post, and the seller replies the same way.
test('without JavaScript a buyer posts a review and the seller replies', async ({ page, browser }) => {
  const listing = { slug: 'documentation-site-starter', title: 'Documentation Site Starter' }
  await signIn(page, { email: DEMO.buyer, fullName: 'Demo Buyer' })
  const buyer = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() })
  const plain = await buyer.newPage()
  await plain.goto('/purchases')
  await plain.getByRole('link', { name: `Write a review of ${listing.title}` }).click()
  const form = plain.getByRole('form', { name: 'Review your purchase' })
  await form.getByRole('radio', { name: '4 stars: very good' }).check()
  await form.getByLabel('Your review').fill('x'.repeat(2001))
  await form.getByRole('button', { name: 'Post review' }).click()
  await expect(plain.getByText('Reviews must be at most 2,000 characters')).toBeVisible()
  await plain.getByLabel('Your review').fill('Good docs template; search works offline.')
  await plain.getByRole('button', { name: 'Post review' }).click()
  const review = plain.getByRole('article', { name: 'Review by Demo Buyer' })
  await expect(review).toContainText('Good docs template; search works offline.')
  await buyer.close()

  // Lin (the seller) replies, also without JavaScript.
  await page.context().clearCookies()
  await signIn(page, { email: 'lin@forkmarket.dev', fullName: 'Lin Wei' })
  const seller = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() })
  const sellerPage = await seller.newPage()
  await sellerPage.goto(`/listing/${listing.slug}#reviews`)
  const card = sellerPage.getByRole('article', { name: 'Review by Demo Buyer' })
  await card.getByLabel('Reply publicly').fill('Thanks! Offline search was the hard part.')
  await card.getByRole('button', { name: 'Post reply' }).click()
  await expect(sellerPage.getByRole('article', { name: 'Review by Demo Buyer' })).toContainText('Reply from the seller')
  await expect(sellerPage.getByRole('article', { name: 'Review by Demo Buyer' })).not.toContainText('Reply publicly')
  await seller.close()
})
