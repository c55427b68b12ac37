import { expect, test, type Page } from '@playwright/test'
import { OWNED_STATUSES } from '../../app/lib/escrow'
import { splitFee } from '../../app/lib/money'
import { DEMO_LISTINGS } from '../../db/seed/demo-data'
import { payWithCard } from './payment-helpers'
import { as, DEMO, signIn, uniqueEmail, waitForHydration } from './support'

// Seller dashboard, bank details on /profile and the admin payouts desk.

const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100)

/** The stat card's figure (cards are groups named by their title). */
const stat = (page: Page, title: string) => page.getByRole('group', { name: title }).getByTestId('stat-value')

/** Waits until the page has hydrated, so clicks reach the client-side UI. */
async function hydrated(page: Page) {
  await waitForHydration(page)
}

// ada@'s demo sales (db/seed/demo.ts): LaunchKit completed and paid out; React Admin Dashboard Pro and
// Team Chat completed, not paid out; Remix Marketplace Template delivered.
const ADA_SEED_SALES = [
  { title: 'LaunchKit SaaS Starter', status: 'completed', paidOut: true },
  { title: 'React Admin Dashboard Pro', status: 'completed', paidOut: false },
  { title: 'Remix Marketplace Template', status: 'delivered', paidOut: false },
  { title: 'Team Chat with Realtime Presence', status: 'completed', paidOut: false },
]
const price = (title: string) => DEMO_LISTINGS.find((l) => l.title === title)!.price
const ADA_ACTIVE_LISTINGS = DEMO_LISTINGS.filter((l) => l.seller === 0 && !l.hidden).length

interface SellerSale {
  amountCents: number
  applicationFeeCents: number
  status: string
  paidAt: string | null
  listing: { title: string }
}

/** The dashboard's rules, computed independently: paid-by-buyer, not-refunded sales count. */
function expectedTotals(sales: SellerSale[]) {
  const counted = sales.filter((s) => (OWNED_STATUSES as readonly string[]).includes(s.status))
  return {
    total: counted.reduce((sum, s) => sum + s.amountCents, 0),
    pending: counted.filter((s) => !s.paidAt).reduce((sum, s) => sum + s.amountCents - s.applicationFeeCents, 0),
  }
}

test('a seller with sales sees the right totals, listings and payouts', async ({ page }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor', from: '/seller/dashboard' })
  await expect(page.getByRole('heading', { level: 1, name: 'Seller Dashboard' })).toBeVisible()

  // The figures straight from db/seed/demo.ts (when no other spec has sold ada's listings yet)…
  const seedTotal = ADA_SEED_SALES.reduce((sum, s) => sum + price(s.title), 0)
  const seedPending = ADA_SEED_SALES.filter((s) => !s.paidOut).reduce((sum, s) => sum + splitFee(price(s.title)).sellerShareCents, 0)
  expect(seedTotal).toBe(64600)
  expect(seedPending).toBe(42245)

  // …and in any case the cards must agree with the seller's own sales (other specs may add some meanwhile).
  await expect(async () => {
    const sales = (await (await page.request.get('/api/seller/transactions')).json()) as SellerSale[]
    const untouched =
      sales.length === ADA_SEED_SALES.length &&
      ADA_SEED_SALES.every((s) =>
        sales.some((t) => t.listing.title === s.title && t.status === s.status && Boolean(t.paidAt) === s.paidOut),
      )
    const expected = untouched ? { total: seedTotal, pending: seedPending } : expectedTotals(sales)
    await page.reload()
    await expect(stat(page, 'Total Sales')).toHaveText(usd(expected.total), { timeout: 1000 })
    await expect(stat(page, 'Pending payouts')).toHaveText(usd(expected.pending), { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  const listings = page.getByRole('table').first()
  // Active Listings counts the visible ones (demo: every listing of ada@ but the retired one;
  // counted on the page because other specs may add listings meanwhile).
  await expect(listings.getByText('Active', { exact: true }).first()).toBeVisible()
  const activeRows = await listings.getByText('Active', { exact: true }).count()
  expect(activeRows).toBeGreaterThanOrEqual(ADA_ACTIVE_LISTINGS)
  await expect(stat(page, 'Active Listings')).toHaveText(String(activeRows))

  const hidden = listings.getByRole('row', { name: /Old Beta Starter \(retired\)/ })
  await expect(hidden.getByText('Hidden', { exact: true })).toBeVisible()
  await expect(hidden.getByRole('link', { name: 'Edit Old Beta Starter (retired)' })).toHaveAttribute('href', /^\/seller\/edit\//)
  await expect(page.getByRole('link', { name: 'Create Listing' })).toHaveAttribute('href', '/create-listing')

  await expect(page.getByRole('row', { name: /LaunchKit SaaS Starter/ }).getByText('Paid Out')).toBeVisible()
  // A paid-out sale says when and under which reference the transfer was made (issue 14.14).
  const paidOut = (
    (await (await page.request.get('/api/seller/transactions')).json()) as Array<SellerSale & { paymentReference: string }>
  ).find((s) => s.listing.title === 'LaunchKit SaaS Starter')!
  const launchKit = page.getByRole('row', { name: /LaunchKit SaaS Starter @/ })
  await expect(launchKit).toContainText(
    new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(paidOut.paidAt!)),
  )
  await expect(launchKit).toContainText(paidOut.paymentReference)
  // Approved bank details: no alert.
  await expect(page.getByText('Add bank details to receive payouts')).toHaveCount(0)
  await expect(page.getByText('Bank details pending approval')).toHaveCount(0)
})

test('a new seller sees the empty state and no bank alert', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('fresh'), fullName: 'Fresh Seller', from: '/seller-dashboard' })
  await expect(page.getByText("You haven't created any listings yet")).toBeVisible()
  await expect(page.getByRole('link', { name: 'Create Your First Listing' })).toHaveAttribute('href', '/seller/create')
  await expect(stat(page, 'Total Sales')).toHaveText('$0.00')
  await expect(page.getByText('Add bank details to receive payouts')).toHaveCount(0)
})

test('sellers who cannot take payments are told on the dashboard before any sale; buyers see no dead-end Buy Now (390 px)', async ({
  browser,
}) => {
  for (const seller of [
    { email: DEMO.sellerWithoutBank, fullName: 'Noah Becker', link: 'Add Bank Details', listing: 'go-rest-api-boilerplate' },
    { email: 'sara@forkmarket.dev', fullName: 'Sara Kowalski', link: 'Update Bank Details', listing: 'shopify-style-storefront' },
  ]) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await signIn(page, { email: seller.email, fullName: seller.fullName, from: '/seller/dashboard' })
    await page.setViewportSize({ width: 390, height: 844 })
    const notice = page.getByRole('alert').filter({ hasText: 'Add bank details to receive payouts' })
    await expect(notice).toContainText('Buyers can’t purchase your listings until you')
    await expect(notice.getByRole('link', { name: seller.link })).toHaveAttribute('href', '/profile')
    await expect(notice.getByRole('link', { name: seller.link })).toBeInViewport()
    await context.close()

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const visitorPage = await visitor.newPage()
    await visitorPage.goto(`/listing/${seller.listing}`)
    await expect(visitorPage.getByRole('complementary', { name: 'Purchase' }).getByText('Not yet available to buy')).toBeVisible()
    await expect(visitorPage.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
    await visitor.close()
  }
})

test("a fresh seller's sale: listings switch, totals, bank alert and delivery from the dashboard", async ({ page, browser }) => {
  await signIn(page, { email: uniqueEmail('maker'), fullName: 'Mia Maker' })
  // A cookie-authenticated POST names its origin, as a browser's fetch does (CSRF rule, issue 14.8).
  const origin = { Origin: new URL(page.url()).origin }
  const bank = await page.request.post('/api/profile/bank-details', {
    data: { country: 'GB', accountHolder: 'Mia Maker', bankName: 'Monzo', sortCode: '040004', accountNumber: '31415926' },
    headers: origin,
  })
  expect(bank.status(), await bank.text()).toBe(200)
  const create = async (title: string, visible: boolean) => {
    const response = await page.request.post('/api/listings', {
      data: {
        title,
        shortDescription: 'A dashboard e2e listing.',
        type: 'template',
        priceCents: 2500,
        licence: 'personal',
        deliveryTimeframe: '24-hours',
        visible,
      },
      headers: origin,
    })
    expect(response.status(), await response.text()).toBe(201)
    return (await response.json()).id as string
  }
  const suffix = Date.now().toString(36)
  const soldTitle = `Zq Dashboard Kit ${suffix}`
  const hiddenTitle = `Zq Hidden Kit ${suffix}`
  const soldId = await create(soldTitle, true)
  await create(hiddenTitle, false)

  await page.goto('/seller/dashboard')
  await hydrated(page)
  await expect(stat(page, 'Total Sales')).toHaveText('$0.00')
  await expect(stat(page, 'Active Listings')).toHaveText('1')
  // No sale waits for a payout yet: no bank alert.
  await expect(page.getByText('Bank details pending approval')).toHaveCount(0)

  // The show/hide switch (a one-button form per row).
  const hiddenRow = page.getByRole('row', { name: new RegExp(hiddenTitle) })
  const toggle = hiddenRow.getByRole('switch', { name: `Show ${hiddenTitle} in the marketplace` })
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await toggle.click()
  await expect(hiddenRow.getByText('Active', { exact: true })).toBeVisible()
  await expect(stat(page, 'Active Listings')).toHaveText('2')
  await toggle.click()
  await expect(hiddenRow.getByText('Hidden', { exact: true })).toBeVisible()
  await expect(stat(page, 'Active Listings')).toHaveText('1')

  // A buyer pays for the visible listing.
  const buyer = await as(browser, uniqueEmail('payer'), 'Pat Payer')
  await buyer.page.goto(`/checkout/${soldId}`)
  await payWithCard(buyer.page)
  await expect(buyer.page.getByText('Your payment is confirmed.')).toBeVisible()
  await buyer.close()

  // The seller sees the sale counted, the pending-approval alert, and delivers it.
  await expect(async () => {
    await page.reload()
    await expect(stat(page, 'Total Sales')).toHaveText('$25.00', { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(stat(page, 'Pending payouts')).toHaveText(usd(splitFee(2500).sellerShareCents))
  await expect(page.getByText('Bank details pending approval')).toBeVisible()
  await hydrated(page)
  const saleRow = page.getByRole('row', { name: new RegExp(`${soldTitle}.*@`) })
  await expect(saleRow.getByText('Pending Payout')).toBeVisible()
  const deliver = page.getByRole('form', { name: 'Deliver this sale' })
  await deliver.getByLabel('Fork URL').fill('http://github.com/pat/zq-kit')
  await deliver.getByRole('button', { name: 'Deliver' }).click()
  await expect(deliver.getByText('Enter the https:// link to the buyer’s fork')).toBeVisible()
  await deliver.getByLabel('Fork URL').fill('https://github.com/pat/zq-kit')
  await deliver.getByRole('button', { name: 'Deliver' }).click()
  await expect(page.getByText('Sale delivered', { exact: true })).toBeVisible()
  await expect(saleRow.getByText('Delivered', { exact: true })).toBeVisible()
  await expect(page.getByRole('form', { name: 'Deliver this sale' })).toHaveCount(0)
})

test('bank details: GB, US and IBAN country; rejected, resubmitted, approved; a payout marked paid shows Paid Out', async ({
  page,
  browser,
}) => {
  // Three people, three bank-detail rounds and a four-eyes payout: 2 min ran out on a loaded machine.
  test.setTimeout(180_000)
  const email = uniqueEmail('banker')
  await signIn(page, { email, fullName: 'Bea Banker', from: '/profile' })
  await hydrated(page)
  await expect(page.getByText('Add bank details to receive payouts')).toBeVisible()
  await expect(page.getByText(/1-2 business days/).first()).toBeVisible()
  await expect(page.getByText(/requires admin approval again/)).toBeVisible()

  // The spec's required-field messages.
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByText('Country is required')).toBeVisible()
  await expect(page.getByText('Account holder name is required')).toBeVisible()
  await expect(page.getByText('Bank name is required')).toBeVisible()

  // United Kingdom: sort code + account number.
  await page.getByLabel('Country', { exact: true }).selectOption('GB')
  await expect(page.getByLabel('IBAN')).toHaveCount(0)
  await expect(page.getByText('UK sort code: 6 digits')).toBeVisible()
  await expect(page.getByText('Account number: 8 digits')).toBeVisible()
  await page.getByLabel('Account holder name').fill('Bea Banker')
  await page.getByLabel('Bank name').fill('Monzo')
  await page.getByLabel('Sort code').fill('040004')
  await page.getByLabel('Account number').fill('31415926')
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByText('Bank details pending approval')).toBeVisible()
  await expect(page.getByLabel('Account number')).toHaveValue('•••• 5926')
  expect(await page.content()).not.toContain('31415926')

  // United States: routing number (with its check digit) + account number.
  await hydrated(page)
  await page.getByLabel('Country', { exact: true }).selectOption('US')
  await expect(page.getByLabel('Sort code')).toHaveCount(0)
  await expect(page.getByText('US routing number: 9 digits')).toBeVisible()
  await page.getByLabel('Routing number').fill('021000022')
  await page.getByLabel('Account number').fill('12345678')
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByText('Routing number is not valid (check digit mismatch)')).toBeVisible()
  await page.getByLabel('Routing number').fill('021000021')
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByLabel('Account number')).toHaveValue('•••• 5678')
  await expect(page.getByLabel('Routing number')).toHaveValue('021000021')

  // Germany: IBAN (mod-97) + BIC.
  await hydrated(page)
  await page.getByLabel('Country', { exact: true }).selectOption('DE')
  await expect(page.getByText('BIC: 8 or 11 characters')).toBeVisible()
  await page.getByLabel('IBAN').fill('DE89370400440532013001')
  await page.getByLabel('BIC/SWIFT').fill('COBADEFFXXX')
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByText('IBAN check digits do not match — please check for typos')).toBeVisible()
  await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
  await page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(page.getByLabel('IBAN')).toHaveValue('•••• 3000')
  await expect(page.getByLabel('BIC/SWIFT')).toHaveValue('COBADEFFXXX')

  // The admin rejects with a reason (the reason is required).
  const admin = await as(browser, DEMO.admin, 'Forkmarket Admin')
  await admin.page.goto('/admin')
  await admin.page.getByRole('link', { name: /^Bank Details \(\d+\)$/ }).click()
  await hydrated(admin.page)
  const entry = admin.page.getByRole('group', { name: `Bank details of ${email}` })
  await expect(entry.getByText('DE89 3704 0044 0532 0130 00')).toBeVisible()
  await entry.getByRole('button', { name: 'Reject' }).click()
  const rejectDialog = admin.page.getByRole('dialog', { name: 'Reject bank details' })
  await rejectDialog.getByRole('button', { name: 'Reject' }).click()
  await expect(rejectDialog.getByText('Please provide a rejection reason')).toBeVisible()
  await rejectDialog.getByLabel('Rejection reason').fill('The account holder name does not match your profile.')
  await rejectDialog.getByRole('button', { name: 'Reject' }).click()
  await expect(admin.page.getByText('Bank details rejected', { exact: true })).toBeVisible()
  await expect(entry).toHaveCount(0)

  // The seller sees the reason, resubmits (the stored IBAN is kept), and is pending again.
  await page.reload()
  await hydrated(page)
  await expect(page.getByText('The account holder name does not match your profile.')).toBeVisible()
  await page.getByLabel('Account holder name').fill('Beatrice Banker')
  await page.getByRole('button', { name: 'Resubmit for Approval' }).click()
  await expect(page.getByText('Bank details pending approval')).toBeVisible()
  await expect(page.getByText('The account holder name does not match your profile.')).toHaveCount(0)

  // The admin approves; the seller sees it approved.
  await admin.page.reload()
  await hydrated(admin.page)
  await expect(entry.getByText('Beatrice Banker')).toBeVisible()
  await entry.getByRole('button', { name: 'Approve' }).click()
  await admin.page.getByRole('dialog', { name: 'Approve bank details' }).getByRole('button', { name: 'Approve' }).click()
  await expect(admin.page.getByText('Bank details approved', { exact: true })).toBeVisible()
  await expect(entry).toHaveCount(0)
  await page.reload()
  await expect(page.getByText('Bank details approved')).toBeVisible()
  await expect(page.getByText(/requires admin approval again/)).toBeVisible()

  // The payouts-due CSV carries the full bank details for the bank run.
  await admin.page.getByRole('link', { name: 'Transactions' }).click()
  await expect(admin.page.getByRole('link', { name: 'Export payouts due (CSV)' })).toHaveAttribute('href', '/api/admin/payouts.csv')
  const csv = await (await admin.page.request.get('/api/admin/payouts.csv')).text()
  expect(csv).toMatch(
    /"Team Chat with Realtime Presence","ada@forkmarket\.dev","adabuilds","approved","GB","Ada Okafor","Monzo Bank","040004","31415920"/,
  )

  // The admin marks ada@'s completed, unpaid Team Chat sale paid (its full bank details are in the dialog)…
  await hydrated(admin.page)
  await admin.page.getByLabel('Status').selectOption('completed')
  await expect(admin.page).toHaveURL(/status=completed/)
  await hydrated(admin.page)
  const sale = admin.page.getByRole('row', { name: /Team Chat with Realtime Presence/ })
  await expect(sale.getByText('Pending Payout')).toBeVisible()
  await sale.getByRole('button', { name: 'Mark as Paid' }).click()
  const dialog = admin.page.getByRole('dialog', { name: 'Mark as Paid' })
  await expect(dialog.getByText('31415920')).toBeVisible()
  await expect(dialog.getByText('04-00-04')).toBeVisible()
  await dialog.getByRole('button', { name: 'Mark as Paid' }).click()
  await expect(dialog.getByText('Payment reference is required')).toBeVisible()
  await dialog.getByLabel('Payment reference').fill('BACS-E2E-0001')
  await dialog.getByRole('button', { name: 'Mark as Paid' }).click()
  // Issue 19: a one-line payout batch; nothing is paid until a second admin approves it.
  await expect(admin.page.getByText('Payout waiting for approval', { exact: true })).toBeVisible()
  await expect(sale.getByText('Pending Payout')).toBeVisible()
  await expect(sale.getByRole('link', { name: 'Awaiting approval' })).toBeVisible()
  await admin.page.goto('/admin?tab=payouts')
  const single = admin.page.getByRole('listitem').filter({ hasText: 'BACS-E2E-0001' })
  await expect(single.getByRole('button', { name: 'Approve' })).toBeDisabled()
  await expect(single.getByText('Another admin must approve: you prepared this payout.')).toBeVisible()
  const finance = await as(browser, DEMO.secondAdmin, 'Forkmarket Finance')
  await finance.page.goto('/admin?tab=payouts')
  await finance.page.getByRole('listitem').filter({ hasText: 'BACS-E2E-0001' }).getByRole('button', { name: 'Approve' }).click()
  // Issue 26.11: approving asks first, naming the total and the count.
  await finance.page
    .getByRole('dialog', { name: 'Approve this payout' })
    .getByRole('button', { name: /^Approve \$/ })
    .click()
  await expect(finance.page.getByText('Payout batch approved', { exact: true })).toBeVisible()
  await finance.close()
  await admin.page.goto('/admin?status=completed')
  await expect(sale.getByText('Paid Out')).toBeVisible()
  await expect(sale.getByText(/BACS-E2E-0001/)).toBeVisible()

  // …the audit log has it, and the seller sees 'Paid Out'.
  await admin.page.getByRole('link', { name: 'Audit log' }).click()
  await expect(admin.page.getByRole('row', { name: /payout\.mark_paid/ }).first()).toBeVisible()
  await expect(admin.page.getByRole('row', { name: /bank_details\.reject.*does not match your profile/ })).toBeVisible()
  await admin.close()

  const ada = await as(browser, DEMO.sellerWithBank, 'Ada Okafor')
  await ada.page.goto('/seller/dashboard')
  await expect(ada.page.getByRole('row', { name: /Team Chat with Realtime Presence/ }).getByText('Paid Out')).toBeVisible()
  await ada.close()
})

test('without JavaScript: the profile form shows every country group, and the admin dialogs still work', async ({ browser }) => {
  const email = uniqueEmail('nojs')
  const seller = await as(browser, email, 'Nia NoScript', { javaScriptEnabled: false })
  await seller.page.goto('/profile')
  for (const label of ['Sort code', 'Routing number', 'Account number', 'IBAN', 'BIC/SWIFT']) {
    await expect(seller.page.getByLabel(new RegExp(`^${label.replace('/', '\\/')}`))).toBeVisible()
  }
  await seller.page.getByLabel('Country', { exact: true }).selectOption('FR')
  await seller.page.getByLabel('Account holder name').fill('Nia NoScript')
  await seller.page.getByLabel('Bank name').fill('BNP Paribas')
  await seller.page.getByLabel(/^Account number/).fill('99999999') // ignored: France uses the IBAN
  await seller.page.getByLabel(/^IBAN/).fill('FR14 2004 1010 0505 0001 3M02 606')
  await seller.page.getByRole('button', { name: 'Save Bank Details' }).click()
  await expect(seller.page.getByText('Bank details pending approval')).toBeVisible()
  await expect(seller.page.getByLabel(/^IBAN/)).toHaveValue('•••• 2606')
  await expect(seller.page.getByLabel(/^Account number/)).toHaveValue('')

  const admin = await as(browser, DEMO.admin, 'Forkmarket Admin', { javaScriptEnabled: false })
  await admin.page.goto('/admin?tab=bank-details')
  const entry = admin.page.getByRole('group', { name: `Bank details of ${email}` })
  // The dialog falls back to a disclosure holding the same form.
  await entry.locator('summary', { hasText: 'Reject' }).click()
  await entry.locator('details[open]').getByRole('button', { name: 'Reject' }).click()
  await expect(admin.page.getByText('Please provide a rejection reason')).toBeVisible()
  const reopened = admin.page.getByRole('group', { name: `Bank details of ${email}` }).locator('details[open]')
  await reopened.getByLabel('Rejection reason').fill('Please use an account in your own name.')
  await reopened.getByRole('button', { name: 'Reject' }).click()
  await expect(admin.page.getByRole('group', { name: `Bank details of ${email}` })).toHaveCount(0)

  await seller.page.reload()
  await expect(seller.page.getByText('Please use an account in your own name.')).toBeVisible()
  await seller.page.getByRole('button', { name: 'Resubmit for Approval' }).click()
  await expect(seller.page.getByText('Bank details pending approval')).toBeVisible()

  await admin.page.reload()
  const toApprove = admin.page.getByRole('group', { name: `Bank details of ${email}` })
  await toApprove.locator('summary', { hasText: 'Approve' }).click()
  await toApprove.locator('details[open]').getByRole('button', { name: 'Approve' }).click()
  await expect(admin.page.getByRole('group', { name: `Bank details of ${email}` })).toHaveCount(0)
  await seller.page.reload()
  await expect(seller.page.getByText('Bank details approved')).toBeVisible()
  await admin.close()
  await seller.close()
})
