import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, signIn, waitForHydration } from './support'

// Issue 14.12: the key facts and actions of every table are on screen at
// 390 px (rows stack into cards) and at 1280 px, without a sideways scroll;
// the report form does not squeeze the purchases table; the bank form's
// fields line up.

const STATUS = /^(Pending payment|Paid|Delivering|Delivered|Completed|Disputed|On hold|Refunded|Failed)$/

/** Nothing on the page, and no table, scrolls sideways. */
async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tables: Array.from(document.querySelectorAll<HTMLElement>('[data-slot="table-container"]')).map(
      (el) => el.scrollWidth - el.clientWidth,
    ),
  }))
  expect(overflow.page, 'the page scrolls sideways').toBeLessThanOrEqual(0)
  for (const table of overflow.tables) expect(table, 'a table scrolls sideways').toBeLessThanOrEqual(0)
}

/** Fully inside the viewport's width (what a person sees without scrolling sideways). */
async function inView(locator: Locator, what: string) {
  await expect(locator, what).toBeVisible()
  const box = (await locator.boundingBox())!
  const width = locator.page().viewportSize()!.width
  expect(box.x, `${what} starts off-screen`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${what} ends off-screen`).toBeLessThanOrEqual(width)
}

const bodyRows = (page: Page) => page.locator('tbody > tr[data-slot="table-row"]')

test('My Purchases and the seller tables at 390 px: status and actions on screen, nothing scrolls sideways', async ({ browser }) => {
  const buyer = await browser.newContext()
  const page = await buyer.newPage()
  await signIn(page, { email: DEMO.buyer, fullName: 'Demo Buyer', from: '/purchases' })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await waitForHydration(page)
  await noSidewaysScroll(page)
  const rows = await bodyRows(page).all()
  expect(rows.length).toBeGreaterThanOrEqual(3)
  for (const row of rows) {
    const title = (await row.getByRole('link').first().textContent())!
    await inView(row.getByText(STATUS), `status of ${title}`)
    const fork = row.getByRole('link', { name: /View Fork/ })
    if (await fork.count()) await inView(fork, `View Fork of ${title}`)
    const confirm = row.getByRole('button', { name: /Confirm Receipt/ })
    if (await confirm.count()) {
      await inView(confirm, `Confirm Receipt of ${title}`)
      await inView(row.getByRole('button', { name: /Report a problem/ }), `Report a problem with ${title}`)
    }
  }
  await expect(page.getByRole('button', { name: /Confirm Receipt/ }).first()).toBeVisible()
  await buyer.close()

  const seller = await browser.newContext()
  const sellerPage = await seller.newPage()
  await signIn(sellerPage, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor', from: '/seller/dashboard' })
  await sellerPage.setViewportSize({ width: 390, height: 844 })
  await sellerPage.reload()
  await waitForHydration(sellerPage)
  await noSidewaysScroll(sellerPage)
  const [listings, sales] = await sellerPage.getByRole('table').all()
  for (const row of await listings!.locator('tbody > tr').all()) {
    const edit = row.getByRole('link', { name: /^Edit / })
    await inView(edit, (await edit.getAttribute('aria-label'))!)
    await inView(row.getByText(/^(Active|Hidden)$/), `status beside ${await edit.getAttribute('aria-label')}`)
  }
  for (const row of await sales!.locator('tbody > tr[data-slot="table-row"]').all()) {
    await inView(row.getByText(STATUS), 'a sale’s status')
    await inView(row.getByText(/^(Paid Out|Pending Payout|—)$/), 'a sale’s payout')
  }
  await seller.close()
})

test('the admin transactions at 1280 px: Status, Payout and Mark as Paid on screen without a sideways scroll', async ({ page }) => {
  await signIn(page, { email: DEMO.admin, fullName: 'Forkmarket Admin', from: '/admin' })
  await page.setViewportSize({ width: 1280, height: 900 })
  await waitForHydration(page)
  await noSidewaysScroll(page)
  const table = page.getByRole('table')
  await expect(table.getByRole('columnheader', { name: 'Status' })).toBeVisible()
  await inView(table.getByRole('columnheader', { name: 'Status' }), 'the Status header')
  await inView(table.getByRole('columnheader', { name: 'Payout' }), 'the Payout header')
  const markPaid = table.getByRole('button', { name: 'Mark as Paid' })
  expect(await markPaid.count()).toBeGreaterThan(0)
  for (const button of await markPaid.all()) await inView(button, 'Mark as Paid')
  for (const row of await bodyRows(page).all()) await inView(row.getByText(STATUS), 'a status')

  // The same table at 390 px: rows become cards, still nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 })
  await noSidewaysScroll(page)
  await inView(markPaid.first(), 'Mark as Paid at 390 px')
})

test('Report a problem opens beside the purchases table and leaves its columns as they were', async ({ page }) => {
  await signIn(page, { email: DEMO.buyer, fullName: 'Demo Buyer', from: '/purchases' })
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /Confirm Receipt/ }) })
    .first()
  const columns = () => page.locator('thead th').evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().width)))
  const before = await columns()
  await row.getByRole('button', { name: /Report a problem/ }).click()
  const dialog = page.getByRole('dialog', { name: /Report a problem with/ })
  await expect(dialog.getByLabel('What went wrong?')).toBeVisible()
  await expect(page.getByRole('table').getByLabel('What went wrong?')).toHaveCount(0)
  expect(await columns()).toEqual(before)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
})

test('the bank form: fields side by side line up (1280 px)', async ({ page }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor', from: '/profile' })
  const top = async (label: string) => (await page.getByLabel(label, { exact: true }).boundingBox())!.y
  // ada@ banks in the UK: sort code and account number share a row (the account number's hint is longer).
  expect(await top('Account number')).toBe(await top('Sort code'))
})

test('the bank form without JavaScript: every country’s fields in one column, in reading order (1280 px)', async ({ page, browser }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor' })
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() })
  const plain = await noScript.newPage()
  await plain.setViewportSize({ width: 1280, height: 900 })
  await plain.goto('/profile')
  const boxes = await Promise.all(
    ['Sort code', 'Routing number', 'Account number', 'IBAN', 'BIC/SWIFT'].map(async (name) => {
      const box = (await plain.getByLabel(new RegExp(`^${name.replace('/', '\\/')}`)).boundingBox())!
      return { name, x: box.x, y: box.y }
    }),
  )
  for (const [before, after] of boxes.slice(0, -1).map((box, i) => [box, boxes[i + 1]!] as const)) {
    expect(after.x, `${after.name} under ${before.name}`).toBe(before.x)
    expect(after.y, `${after.name} below ${before.name}`).toBeGreaterThan(before.y)
  }
  await noScript.close()
})

// Issue 26.6 leftover: user text wraps anywhere, but an amount is never broken across lines
// ("$253.3/0" in the payout batch table at 1280 px): every text of an amount cell is one line.
test('amounts stay whole on one line in the admin tables at 1280 and 1120 px', async ({ page }) => {
  await signIn(page, { email: DEMO.admin, fullName: 'Forkmarket Admin', from: '/admin' })
  const amountCells = 'td[data-label="Amount"], td[data-label="Due"], td[data-label="Expected"], td[data-label="Found"]'
  for (const width of [1280, 1120]) {
    await page.setViewportSize({ width, height: 900 })
    for (const tab of ['transactions', 'payouts']) {
      await page.goto(`/admin?tab=${tab}`)
      await waitForHydration(page)
      const broken = await page.locator(amountCells).evaluateAll((cells) =>
        cells.flatMap((cell) => {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
          const lines: string[] = []
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent?.trim()) continue
            const range = document.createRange()
            range.selectNodeContents(node)
            const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)))
            if (tops.size > 1) lines.push(node.textContent)
          }
          return lines
        }),
      )
      expect(await page.locator(amountCells).count(), `amounts on ${tab}`).toBeGreaterThan(0)
      expect(broken, `amounts broken across lines on ${tab} at ${width} px`).toEqual([])
    }
  }
})
