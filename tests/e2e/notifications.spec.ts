import { MAIL_INBOX_URL } from '../../playwright.config'
import { expect, listingId, payWithCard, test } from './payment-helpers'
import { axeViolations, signIn, uniqueEmail } from './support'

// Issue 17: a purchase's receipt reaches the buyer's inbox (the e2e server's mail catcher), sent by
// the app's job worker from the outbox row the payment webhook wrote; its link opens My Purchases.
test('buy with 4242… and read the receipt in the mail catcher: amount, fee, a link to My Purchases that works', async ({ page }) => {
  const email = uniqueEmail('receipt')
  await signIn(page, { email, fullName: 'Rita Receipt' })
  const id = await listingId(page.request, 'remix-marketplace-template')
  await page.goto(`/checkout/${id}`)
  await payWithCard(page)
  await expect(page.getByRole('heading', { name: 'Purchase Successful' })).toBeVisible()

  let receipt: { subject: string; text: string; html: string } | undefined
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${MAIL_INBOX_URL}/api/messages?to=${encodeURIComponent(email)}`)
        const body = (await response.json()) as { messages: Array<{ subject: string; text: string; html: string }> }
        receipt = body.messages.find((m) => m.subject.startsWith('Your receipt for'))
        return receipt?.subject
      },
      { timeout: 20_000 },
    )
    .toBe('Your receipt for Remix Marketplace Template')
  expect(receipt!.text).toContain('$199.00')
  expect(receipt!.text).toContain('$29.85') // the 15 % fee
  expect(receipt!.html).not.toMatch(/undefined|NaN/)
  const link = /View My Purchases: (\S+)/.exec(receipt!.text)![1]!
  await page.goto(link)
  await expect(page).toHaveURL(/\/purchases$/)
  await expect(page.getByRole('row', { name: /Remix Marketplace Template/ })).toBeVisible()

  // The bell shows the receipt; the page lists it and marks it read.
  const bell = page.getByRole('link', { name: /^Notifications, \d+ unread$/ })
  await expect(bell).toBeVisible()
  await bell.click()
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Thank you for your purchase' })).toBeVisible()
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page, `/notifications [${colorScheme}]`)).toEqual([])
  }
  await page.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible()

  // A person reads the same mail in the inbox page.
  await page.goto(`${MAIL_INBOX_URL}/?to=${encodeURIComponent(email)}`)
  await expect(page.getByRole('link', { name: 'Your receipt for Remix Marketplace Template' })).toBeVisible()
})
