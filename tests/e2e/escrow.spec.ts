import type { Browser, Page } from '@playwright/test'
import { expect, listingId, payWithCard, purchaseOf, purchaseRecorded, test } from './payment-helpers'
import { as, DEMO, signIn, uniqueEmail } from './support'

// ada@ (approved bank details) sells "Remix Marketplace Template", delivered by hand (24 hours): no
// connected repository, so the seller's manual delivery is what the buyer gets (Invoice Tracker is now
// delivered through GitHub in the demo data).
const LISTING = { slug: 'remix-marketplace-template', title: 'Remix Marketplace Template' }

async function buy(page: Page) {
  const id = await listingId(page.request, LISTING.slug)
  await page.goto(`/checkout/${id}`)
  await payWithCard(page)
  await expect(page.getByText('Your payment is confirmed.')).toBeVisible()
  const purchase = await purchaseRecorded(page, LISTING.title)
  expect(purchase.status).toBe('paid')
  return purchase.id
}

async function deliverAsSeller(browser: Browser, transactionId: string, forkUrl: string) {
  const seller = await as(browser, DEMO.sellerWithBank, 'Ada Okafor')
  // A cookie-authenticated POST names its origin, as a browser's fetch does (CSRF rule, issue 14.8).
  const response = await seller.page.request.post(`/api/seller/transactions/${transactionId}/deliver`, {
    data: { forkUrl },
    headers: { Origin: new URL(seller.page.url()).origin },
  })
  expect(response.status(), await response.text()).toBe(200)
  await seller.close()
}

test('the seller delivers, the buyer sees View Fork and confirms receipt', async ({ page, browser }) => {
  await signIn(page, { email: uniqueEmail('escrow'), fullName: 'Eli Escrow' })
  const transactionId = await buy(page)

  await page.goto('/purchases')
  const row = page.getByRole('row', { name: new RegExp(LISTING.title) })
  await expect(row.getByText('Pending', { exact: true })).toBeVisible()
  await expect(row.getByRole('button', { name: /Confirm Receipt/ })).toHaveCount(0)

  await deliverAsSeller(browser, transactionId, 'https://github.com/eli/invoice-tracker')
  await page.reload()
  await expect(row.getByRole('link', { name: /View Fork/ })).toHaveAttribute('href', 'https://github.com/eli/invoice-tracker')
  await expect(row.getByText('Delivered', { exact: true })).toBeVisible()
  await expect(row.getByText(/2 days 2\d hours left|3 days left/)).toBeVisible()

  await row.getByRole('button', { name: /Confirm Receipt/ }).click()
  // It releases the money, so it asks first (issue 14.14).
  await page
    .getByRole('alertdialog', { name: /Confirm receipt of/ })
    .getByRole('button', { name: 'Confirm and release payment' })
    .click()
  await expect(page.getByText('Receipt confirmed', { exact: true })).toBeVisible()
  await expect(row.getByText('Completed', { exact: true })).toBeVisible()
  await expect(row.getByRole('link', { name: /View Fork/ })).toBeVisible()
  await expect(row.getByRole('button', { name: /Confirm Receipt/ })).toHaveCount(0)
})

test('the buyer reports a problem and the admin refunds: the fork link is gone', async ({ page, browser }) => {
  await signIn(page, { email: uniqueEmail('dispute'), fullName: 'Dora Dispute' })
  const transactionId = await buy(page)
  await deliverAsSeller(browser, transactionId, 'https://github.com/dora/invoice-tracker')

  await page.goto('/purchases')
  const row = page.getByRole('row', { name: new RegExp(LISTING.title) })
  await row.getByText('Report a problem').click()
  // The report form opens in a dialog beside the table (issue 14.12: it no longer squeezes the row).
  const report = page.getByRole('dialog', { name: new RegExp(`Report a problem with .${LISTING.title}.`) })
  await report.getByRole('button', { name: 'Submit report' }).click()
  await expect(report.getByText('Please describe the problem')).toBeVisible()
  await report.getByLabel('What went wrong?').fill('The fork has no database migrations.')
  await report.getByRole('button', { name: 'Submit report' }).click()
  await expect(page.getByText('Problem reported', { exact: true })).toBeVisible()
  await expect(row.getByText('Disputed', { exact: true })).toBeVisible()
  await expect(row.getByRole('button', { name: /Confirm Receipt/ })).toHaveCount(0)

  const admin = await as(browser, DEMO.admin, 'Forkmarket Admin')
  const refund = await admin.page.request.post(`/api/admin/transactions/${transactionId}/refund`, {
    data: { reason: 'The delivery was incomplete.' },
    headers: { Origin: new URL(admin.page.url()).origin },
  })
  expect([200, 202]).toContain(refund.status())
  await admin.close()

  await expect.poll(async () => (await purchaseOf(page, LISTING.title))?.status, { timeout: 10_000 }).toBe('refunded')
  await page.reload()
  await expect(row.getByText('Refunded', { exact: true })).toBeVisible()
  await expect(row.getByRole('link', { name: /View Fork/ })).toHaveCount(0)
  expect(await page.content()).not.toContain('https://github.com/dora/invoice-tracker')
})
