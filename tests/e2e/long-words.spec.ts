import type { Browser, Page } from '@playwright/test'
import { expect, payWithCard, purchaseRecorded, test } from './payment-helpers'
import { as, uniqueEmail, waitForHydration } from './support'

/*
 * Issue 26.6: a long unbroken word in anything a user writes (a listing's title and descriptions, its
 * tags and tech, the seller's name and bio, a message) wraps: no page is wider than a 390 px phone.
 * Issue 26.8 on the way: the buyer who owns the listing sees "You own this", not Buy Now.
 */
const PHONE = { width: 390, height: 844 }
const long = (seed: string, length = 95) => (seed + 'x'.repeat(length)).slice(0, length)

/** Signed in on a desktop-sized window (the header's Sign Out is in the side sheet on a phone), then a phone. */
async function asOnPhone(browser: Browser, email: string, fullName: string) {
  const person = await as(browser, email, fullName)
  await person.page.setViewportSize(PHONE)
  return person
}

/** The page is no wider than the viewport (nothing scrolls sideways). */
async function fitsThePhone(page: Page, path: string) {
  await page.goto(path)
  await expect(page.locator('main')).toBeVisible()
  const widths = await page.evaluate(() => {
    const viewport = window.innerWidth
    // The innermost elements that stick out, to name in the failure.
    const out = [...document.querySelectorAll('body *')].filter(
      (el) =>
        el.getBoundingClientRect().right > viewport + 1 && ![...el.children].some((c) => c.getBoundingClientRect().right > viewport + 1),
    )
    const names = out.slice(0, 5).map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}">`)
    return { scroll: document.documentElement.scrollWidth, viewport, names }
  })
  expect(widths.scroll, `${path} is ${widths.scroll} px wide at ${widths.viewport} px: ${widths.names.join(', ')}`).toBeLessThanOrEqual(
    widths.viewport,
  )
}

test('a 95-character word in every user field wraps at 390 px: marketplace, listing, seller page, dashboard, purchases, messages', async ({
  browser,
}) => {
  test.setTimeout(150_000)
  const suffix = Date.now().toString(36)
  const seller = await asOnPhone(browser, uniqueEmail('longword-seller'), 'Lee Longword')
  const origin = { Origin: new URL(seller.page.url()).origin }

  // The seller's public profile: a long display name and bio.
  await seller.page.goto('/profile')
  await waitForHydration(seller.page)
  await seller.page.getByLabel('Display name').fill(long(`Lee${suffix}`))
  await seller.page.getByLabel('Bio').fill(`About me: ${long('bio')} and more.`)
  await seller.page.getByRole('button', { name: 'Save profile' }).click()
  await expect(seller.page.getByText('Profile saved', { exact: true })).toBeVisible()
  await expect(seller.page.getByLabel('Display name')).toHaveValue(long(`Lee${suffix}`))
  const username = await seller.page.getByLabel('Username').inputValue()

  const bank = await seller.page.request.post('/api/profile/bank-details', {
    data: { country: 'GB', accountHolder: 'Lee Longword', bankName: 'Monzo', sortCode: '040004', accountNumber: '31415926' },
    headers: origin,
  })
  expect(bank.status(), await bank.text()).toBe(200)
  const title = `Zl${suffix} ${long('Title', 100)}`
  const created = await seller.page.request.post('/api/listings', {
    data: {
      title,
      shortDescription: `Short ${long('short')} end.`,
      longDescription: `Long ${long('longdesc')} end.\n\n${long('para')}`,
      type: 'template',
      priceCents: 2500,
      licence: 'personal',
      deliveryTimeframe: '24-hours',
      tags: [long('tag', 40), `t${suffix}`],
      languages: [long('Lang', 50)],
      frameworks: [long('Frame', 50)],
      dependencies: [long('Dep', 50)],
      setupCallAvailable: true,
      setupCallDetails: `Call ${long('call')}`,
      additionalNotes: `Notes ${long('notes')}`,
      visible: true,
    },
    headers: origin,
  })
  expect(created.status(), await created.text()).toBe(201)
  const listing = (await created.json()) as { id: string; slug: string }

  // A buyer pays and writes to the seller.
  const buyer = await asOnPhone(browser, uniqueEmail('longword-buyer'), 'Bo Buyer')
  await buyer.page.goto(`/checkout/${listing.id}`)
  await payWithCard(buyer.page)
  await expect(buyer.page.getByText('Your payment is confirmed.')).toBeVisible()
  const purchase = await purchaseRecorded(buyer.page, title)
  const message = await buyer.page.request.post(`/api/transactions/${purchase.id}/messages`, {
    data: { body: `Hello ${long('message')} thanks` },
    headers: { Origin: new URL(buyer.page.url()).origin },
  })
  expect(message.status(), await message.text()).toBe(201)

  for (const path of [
    `/marketplace?search=Zl${suffix}`,
    '/marketplace',
    `/listing/${listing.slug}`,
    `/sellers/${username}`,
    '/purchases',
    `/sales/${purchase.id}/messages`,
  ]) {
    await fitsThePhone(buyer.page, path)
  }
  // Issue 26.8: the buyer owns it — no Buy Now, a link to the purchase instead.
  await buyer.page.goto(`/listing/${listing.slug}`)
  const aside = buyer.page.getByRole('complementary', { name: 'Purchase' })
  await expect(aside.getByText('You own this')).toBeVisible()
  await expect(aside.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
  await expect(aside.getByRole('link', { name: 'View your purchase' })).toHaveAttribute('href', `/purchases#purchase-${purchase.id}`)

  // Issue 26.13: the seller's setup checklist, each step with its state and link.
  await seller.page.goto('/seller/dashboard')
  const steps = seller.page.getByRole('list', { name: 'Setup steps' })
  await expect(seller.page.getByRole('heading', { name: 'Set up your shop' })).toBeVisible()
  await expect(steps.getByRole('listitem')).toHaveCount(4)
  await expect(steps).toContainText('Waiting for approval')
  await expect(steps.getByRole('link', { name: 'Connect GitHub' })).toHaveAttribute('href', '/profile#github-card-title')

  for (const path of ['/seller/dashboard', `/listing/${listing.slug}`, `/sales/${purchase.id}/messages`, '/profile']) {
    await fitsThePhone(seller.page, path)
  }
  await buyer.close()
  await seller.close()
})
