import { expect, test, type Page } from '@playwright/test'
import { as, axeViolations, DEMO, signIn, waitForHydration } from './support'

// Issue 18: a message thread per sale, and a dispute decided from its timeline.
// Demo data (db/seed/demo-messages.ts): buyer@ bought ada@'s Remix Marketplace Template (delivered) and
// they already exchanged two messages; jules@'s Restaurant Ordering Site (lin@) is disputed.
const SALE = 'Remix Marketplace Template'
const DISPUTED = 'Restaurant Ordering Site'

async function send(page: Page, body: string) {
  await page.getByLabel('Your message').fill(body)
  await page.getByRole('button', { name: 'Send message' }).click()
}

const thread = (page: Page) => page.getByRole('list', { name: 'Messages, oldest first' })

test('buyer and seller exchange messages with JavaScript off; links stay text', async ({ browser }) => {
  const buyer = await as(browser, DEMO.buyer, 'Demo Buyer', { javaScriptEnabled: false })
  const seller = await as(browser, DEMO.sellerWithBank, 'Ada Okafor', { javaScriptEnabled: false })
  try {
    // The buyer: My Purchases → the sale's Messages.
    await buyer.page.goto('/purchases')
    await buyer.page
      .getByRole('row', { name: new RegExp(SALE) })
      .getByRole('link', { name: /^Messages/ })
      .click()
    await expect(buyer.page.getByRole('heading', { level: 1 })).toHaveText(`Messages about “${SALE}”`)
    await expect(buyer.page.getByText(/If the sale is disputed, an admin can read them/)).toBeVisible()
    await expect(thread(buyer.page).getByText('Does it run on PostgreSQL 17?')).toBeVisible()

    // Over the limit: the server's message, the draft kept.
    await send(buyer.page, 'x'.repeat(5001))
    await expect(buyer.page.getByText('Messages must be at most 5,000 characters')).toBeVisible()

    await send(buyer.page, 'Can I deploy it on Fly? Their guide: https://fly.io/docs/launch <b>bold?</b>')
    await expect(buyer.page).toHaveURL(/\/sales\/[0-9a-f-]+\/messages/)
    const mine = thread(buyer.page).getByRole('listitem').last()
    await expect(mine).toContainText('Can I deploy it on Fly? Their guide: https://fly.io/docs/launch <b>bold?</b>')
    await expect(mine.getByRole('link')).toHaveCount(0)
    await expect(mine.locator('b')).toHaveCount(0)
    await expect(buyer.page.getByLabel('Your message')).toHaveValue('')

    // The seller: the dashboard's sales → Messages, reads it and answers.
    await seller.page.goto('/seller/dashboard')
    await seller.page
      .getByRole('link', { name: new RegExp(`^Messages with @\\w+ about ${SALE}`) })
      .first()
      .click()
    await expect(thread(seller.page).getByText('Can I deploy it on Fly?')).toBeVisible()
    await send(seller.page, 'Yes: fly launch picks up the Dockerfile.')
    await expect(thread(seller.page).getByRole('listitem').last()).toContainText('Yes: fly launch picks up the Dockerfile.')

    // The buyer sees the answer on the next page load.
    await buyer.page.reload()
    await expect(thread(buyer.page).getByRole('listitem').last()).toContainText('Yes: fly launch picks up the Dockerfile.')
  } finally {
    await buyer.close()
    await seller.close()
  }
})

test('with JavaScript the open thread shows the other side’s new message without a reload, and is announced', async ({ page, browser }) => {
  await signIn(page, { email: DEMO.buyer, fullName: 'Demo Buyer' })
  await page.goto('/purchases')
  await page
    .getByRole('row', { name: new RegExp(SALE) })
    .getByRole('link', { name: /^Messages/ })
    .click()
  // A client-side navigation: the URL changes once the thread's data has loaded.
  await expect(page).toHaveURL(/\/sales\/[0-9a-f-]+\/messages/)
  await waitForHydration(page)
  const url = page.url()

  const seller = await as(browser, DEMO.sellerWithBank, 'Ada Okafor')
  const saleId = url.match(/sales\/([0-9a-f-]+)\/messages/)![1]!
  await seller.page.goto('/seller/dashboard')
  const response = await seller.page.request.post(`/api/transactions/${saleId}/messages`, {
    data: { body: 'Pushed a Fly config to your fork too.' },
    headers: { Origin: new URL(seller.page.url()).origin },
  })
  expect(response.status(), await response.text()).toBe(201)
  await seller.close()

  // The page asks again every 15 seconds while visible: no reload here.
  await expect(thread(page).getByText('Pushed a Fly config to your fork too.')).toBeVisible({ timeout: 25_000 })
  await expect(page.getByTestId('thread-live')).toContainText('New message from @')
  expect(page.url()).toBe(url)

  // Accessible in both themes at 1280 and 390 px, with no sideways scroll.
  await scan(page, url)
})

test('an admin resolves a dispute from its timeline: sources shown, reason required, audited', async ({ page }) => {
  await signIn(page, { email: DEMO.admin, fullName: 'Forkmarket Admin' })
  await page.goto('/admin?tab=transactions&status=disputed')
  await page.getByRole('link', { name: `Resolve dispute about ${DISPUTED}` }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Dispute: ${DISPUTED}`)
  await waitForHydration(page)
  const disputeUrl = page.url()

  const timeline = page.getByRole('list', { name: 'Timeline, oldest first' })
  const titles = await timeline.getByRole('heading', { level: 3 }).allTextContents()
  expect(titles).toEqual([
    'Checkout opened',
    'Payment received',
    'Seller delivered the fork',
    'Message from the buyer',
    'Message from the seller',
    'Message from the buyer',
    'Buyer reported a problem',
  ])
  await expect(timeline.getByRole('listitem').nth(1)).toContainText('Stripe webhook (audit log)')
  await expect(timeline.getByRole('listitem').nth(3)).toContainText('Message')
  await expect(timeline.getByRole('listitem').last()).toContainText('Audit log')
  // The buyer's link in a message is text.
  await expect(timeline.getByText(/https:\/\/gist\.github\.com\/jules\/booking-crash/)).toBeVisible()
  await expect(timeline.getByRole('link')).toHaveCount(0)

  // Accessible in both themes at 1280 and 390 px, with no sideways scroll.
  await scan(page, disputeUrl)

  await page.getByRole('button', { name: 'Release Funds' }).click()
  const dialog = page.getByRole('dialog', { name: 'Release the funds to the seller' })
  await dialog.getByRole('button', { name: 'Release Funds' }).click()
  await expect(dialog.getByText('Please give the reason for your decision')).toBeVisible()
  await dialog.getByLabel('Reason').fill('The seller pushed the migrations; the buyer confirmed it builds.')
  await dialog.getByRole('button', { name: 'Release Funds' }).click()
  await expect(page.getByText('Funds released', { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/\/admin\?tab=transactions/)

  // The decision is in the audit log with its reason.
  await page.goto('/admin?tab=audit-log')
  // Found by its reason: other tests running meanwhile write rows that also say "released".
  const row = page.getByRole('row', { name: /The seller pushed the migrations; the buyer confirmed it builds\./ })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText(/release/)
  await expect(row).toContainText('disputed → completed')
  // Decided, the dispute still opens (issue 26.7): read only, with the decision, who made it and why.
  const again = await page.goto(disputeUrl)
  expect(again?.status()).toBe(200)
  const decision = page.locator('[data-dispute-decision="released"]')
  await expect(decision).toContainText('Funds released to the seller')
  await expect(decision).toContainText(DEMO.admin)
  await expect(decision).toContainText('The seller pushed the migrations; the buyer confirmed it builds.')
  await expect(page.getByRole('button', { name: 'Release Funds' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Read the conversation between buyer and seller' })).toHaveCount(0)
  await expect(timeline.getByRole('heading', { level: 3 }).last()).toHaveText('Admin released the funds to the seller')
  await scan(page, disputeUrl)
})

async function scan(page: Page, path: string) {
  const origin = new URL(page.url()).origin
  const violations: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    const set = await page.request.post('/action/set-theme', { data: { theme }, headers: { Origin: origin } })
    expect(set.ok()).toBe(true)
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(path)
      await waitForHydration(page)
      violations.push(...(await axeViolations(page, `${path} [${theme}, ${width}px]`)))
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)
      if (sideways) violations.push(`${path} [${theme}, ${width}px] scrolls sideways`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  expect(violations, violations.join('\n')).toEqual([])
}
