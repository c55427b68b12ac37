import type { Page } from '@playwright/test'
import { expect, listingId, payWithCard, purchaseOf, test } from './payment-helpers'
import { signIn, uniqueEmail } from './support'

// Issue 14.14: Confirm Receipt releases the money, so it asks first: a dialog
// with JavaScript, a confirmation step (its own page state) without.
// ada@'s instant-delivery listings without a source repository are delivered the moment payment
// succeeds (a private link; db/seed/demo-github.ts connects other listings to GitHub).
const BLOG = { slug: 'headless-blog-engine', title: 'Headless Blog Engine', price: '$29.00' }
const DASHBOARD = { slug: 'react-admin-dashboard-pro', title: 'React Admin Dashboard Pro', price: '$49.00' }

async function buyDelivered(page: Page, listing: { slug: string; title: string }) {
  await page.goto(`/checkout/${await listingId(page.request, listing.slug)}`)
  await payWithCard(page)
  await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
  await expect.poll(async () => (await purchaseOf(page, listing.title))?.status).toBe('delivered')
}

test('Confirm Receipt asks before it releases the money: a dialog (390 px, dark), and a confirmation step without JavaScript', async ({
  page,
  browser,
}) => {
  await signIn(page, { email: uniqueEmail('confirm'), fullName: 'Cora Confirm' })
  await buyDelivered(page, BLOG)
  await buyDelivered(page, DASHBOARD)

  // With JavaScript, on a phone, in the dark theme.
  await page.goto('/purchases')
  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await page.setViewportSize({ width: 390, height: 844 })
  const blog = page.getByRole('row', { name: new RegExp(BLOG.title) })
  await blog.getByRole('button', { name: `Confirm Receipt of ${BLOG.title}` }).click()
  const dialog = page.getByRole('alertdialog', { name: `Confirm receipt of “${BLOG.title}”?` })
  await expect(dialog).toContainText(`This releases your payment of ${BLOG.price} to @adabuilds.`)
  await expect(dialog).toBeInViewport({ ratio: 1 })
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  expect((await purchaseOf(page, BLOG.title))?.status).toBe('delivered')
  await expect(blog.getByText('Delivered', { exact: true })).toBeVisible()
  // Confirming releases it.
  await blog.getByRole('button', { name: `Confirm Receipt of ${BLOG.title}` }).click()
  await dialog.getByRole('button', { name: 'Confirm and release payment' }).click()
  await expect(page.getByText('Receipt confirmed', { exact: true })).toBeVisible()
  await expect(blog.getByText('Completed', { exact: true })).toBeVisible()

  // Without JavaScript: Confirm Receipt leads to a confirmation step.
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() })
  const plain = await noScript.newPage()
  await plain.goto('/purchases')
  const dashboard = plain.getByRole('row', { name: new RegExp(DASHBOARD.title) })
  await dashboard.getByRole('link', { name: `Confirm Receipt of ${DASHBOARD.title}` }).click()
  await expect(plain).toHaveURL(/\/purchases\?confirm=/)
  const step = plain.getByRole('region', { name: `Confirm receipt of “${DASHBOARD.title}”?` })
  await expect(step).toContainText(`This releases your payment of ${DASHBOARD.price} to @adabuilds.`)
  expect((await purchaseOf(plain, DASHBOARD.title))?.status).toBe('delivered')
  // Cancel goes back without a change…
  await step.getByRole('link', { name: 'Cancel' }).click()
  await expect(plain).toHaveURL(/\/purchases$/)
  await expect(dashboard.getByText('Delivered', { exact: true })).toBeVisible()
  // …and confirming on the step releases it.
  await dashboard.getByRole('link', { name: `Confirm Receipt of ${DASHBOARD.title}` }).click()
  await plain.getByRole('button', { name: 'Confirm and release payment' }).click()
  await expect(plain).toHaveURL(/\/purchases$/)
  await expect(dashboard.getByText('Completed', { exact: true })).toBeVisible()
  await noScript.close()
})

test('Report a problem works without JavaScript: its own step with the form', async ({ page, browser }) => {
  await signIn(page, { email: uniqueEmail('report'), fullName: 'Remy Report' })
  await buyDelivered(page, DASHBOARD)
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() })
  const plain = await noScript.newPage()
  await plain.goto('/purchases')
  const row = plain.getByRole('row', { name: new RegExp(DASHBOARD.title) })
  await row.getByRole('link', { name: `Report a problem with ${DASHBOARD.title}` }).click()
  const step = plain.getByRole('region', { name: `Report a problem with “${DASHBOARD.title}”` })
  await step.getByLabel('What went wrong?').fill('The fork link gives a 404.')
  await step.getByRole('button', { name: 'Submit report' }).click()
  await expect(plain).toHaveURL(/\/purchases$/)
  await expect(row.getByText('Disputed', { exact: true })).toBeVisible()
  await noScript.close()
})
