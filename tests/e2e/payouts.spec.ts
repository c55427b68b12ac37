import { expect, test } from '@playwright/test'
import { as, DEMO, signIn, waitForHydration } from './support'

// Issue 19: payout batches with four eyes, the bank files, the seller's statement and chart.
// Lin's completed GitHub sale (Documentation Site Starter, db/seed/demo-github.ts) is the one this
// batch pays: the admin ticks Lin only, so Ada's due sales stay for the other specs.

const LIN = 'lin@forkmarket.dev'

test('admin A prepares a batch, admin B approves and exports it (without JavaScript) and records the bank reference; the seller sees the statement', async ({
  browser,
}) => {
  const adminA = await as(browser, DEMO.admin, 'Forkmarket Admin')
  await adminA.page.goto('/admin?tab=payouts')
  await waitForHydration(adminA.page)
  await expect(adminA.page.getByRole('heading', { name: 'Due to sellers' })).toBeVisible()
  const sellers = adminA.page.getByRole('group', { name: 'Sellers to pay' })
  for (const box of await sellers.getByRole('checkbox').all()) await box.uncheck()
  await sellers.getByRole('checkbox', { name: new RegExp(LIN) }).check()
  await adminA.page.getByRole('button', { name: 'Prepare payout batch' }).click()
  await expect(adminA.page.getByText('Payout batch prepared', { exact: true })).toBeVisible()

  const batch = adminA.page.getByRole('listitem').filter({ hasText: 'Waiting for approval' }).filter({ hasText: LIN }).first()
  await expect(batch.getByRole('button', { name: 'Approve' })).toBeDisabled()
  await expect(batch.getByText('Another admin must approve: you prepared this batch.')).toBeVisible()
  const batchLabel = (await batch.getAttribute('aria-label'))!
  await adminA.close()

  // Admin B, without JavaScript: plain form posts.
  const adminB = await as(browser, DEMO.secondAdmin, 'Forkmarket Finance', { javaScriptEnabled: false })
  await adminB.page.goto('/admin?tab=payouts')
  const sameBatch = adminB.page.getByRole('listitem', { name: batchLabel })
  const badge = sameBatch.locator('[data-slot="badge"]')
  // Issue 26.11: approving asks first, naming the total and the count; opening the step approves nothing.
  await sameBatch.locator('summary', { hasText: 'Approve' }).click()
  const confirm = sameBatch.locator('details[open]')
  const total = (await sameBatch.locator('.tabular-nums').first().textContent())!
  // Lin's completed sales: 1 from the demo data, more when another spec of the run has completed one of hers.
  const sales = await sameBatch.locator('td[data-label="Sales"] li').count()
  expect(sales).toBeGreaterThanOrEqual(1)
  await expect(confirm.getByText(`Pay ${total} to 1 seller for ${sales} sale${sales === 1 ? '' : 's'}.`, { exact: false })).toBeVisible()
  await expect(badge).toHaveText('Waiting for approval')
  await confirm.getByRole('button', { name: `Approve ${total}` }).click()
  await expect(badge).toHaveText('Approved')
  await expect(sameBatch.getByText(/SHA-256/)).toBeVisible()
  await sameBatch.getByRole('button', { name: 'Export bank file' }).click()
  await expect(badge).toHaveText('Exported')

  // Lin is paid to an IBAN: the pain.001 file, the same bytes on every download.
  const href = await sameBatch.getByRole('link', { name: 'pain.001 XML (IBAN)' }).getAttribute('href')
  const first = await (await adminB.page.request.get(href!)).text()
  const again = await (await adminB.page.request.get(href!)).text()
  expect(again).toBe(first)
  expect(first).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">')
  expect(first).toContain('<IBAN>DE89370400440532013000</IBAN>')

  await sameBatch.getByLabel('Bank reference').fill('SEPA-E2E-2026-11')
  await sameBatch.getByRole('button', { name: 'Record as sent' }).click()
  await expect(badge).toHaveText('Sent')
  await expect(sameBatch.getByText('SEPA-E2E-2026-11')).toBeVisible()
  await adminB.close()

  const lin = await as(browser, LIN, 'Lin Wei')
  await lin.page.goto('/seller/dashboard')
  await expect(lin.page.getByRole('heading', { name: 'Payout statements' })).toBeVisible()
  const statement = lin.page.getByRole('listitem', { name: /^Payout of / }).filter({ hasText: 'Reference SEPA-E2E-2026-11' })
  await expect(statement).toBeVisible()
  await expect(statement.getByText(/Documentation Site Starter/)).toBeVisible()
  const csvHref = await statement.getByRole('link', { name: 'Statement (CSV)' }).getAttribute('href')
  const csv = await (await lin.page.request.get(csvHref!)).text()
  expect(csv).toContain('"SEPA-E2E-2026-11"')
  expect(csv).toContain('Documentation Site Starter')
  await lin.close()
})

test('the seller dashboard chart renders with the demo data, with the demo payout statement', async ({ page }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor', from: '/seller/dashboard' })
  await expect(page.getByRole('heading', { name: 'Last 30 days' })).toBeVisible()
  for (const chart of ['Views', 'Sales', 'Revenue', 'Conversion']) {
    const svg = page.locator(`svg[data-chart="${chart}"]`)
    await expect(svg).toBeVisible()
    await expect(svg.locator('rect')).toHaveCount(30)
  }
  // The demo's views are counted: a non-zero total, and the label says it.
  await expect(page.getByRole('img', { name: /^Views, last 30 days: [1-9]\d*$/ })).toBeVisible()
  await expect(page.getByRole('img', { name: /^Your share: In escrow \$.*, Due \$.*, Paid out \$/ })).toBeVisible()
  await expect(page.getByRole('listitem', { name: /^Payout of / }).filter({ hasText: 'Reference BACS-2026-1042' })).toBeVisible()
})
