import { expect, test } from '@playwright/test'
import Stripe from 'stripe'
import { E2E_ENV } from '../../playwright.config'
import { DEMO, signIn } from './support'

// Issue 19: an admin runs the reconciliation from /admin without JavaScript (a plain form POST)
// and downloads the run as CSV. The demo's sales are paid at this run's Stripe emulator and
// reconcile; a payment taken at the provider outside checkout (as from Stripe's dashboard)
// matches no sale: listed with the rule it breaks.

test('an admin runs the reconciliation without JavaScript, sees each difference with its rule, and downloads the CSV', async ({
  browser,
}) => {
  const context = await browser.newContext()
  const signedIn = await context.newPage()
  await signIn(signedIn, { email: DEMO.admin, fullName: 'Forkmarket Admin' })
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
  await context.close()
  const page = await noScript.newPage()
  const stripe = new Stripe('sk_test_emulator', { host: '127.0.0.1', port: Number(E2E_ENV.STRIPE_EMULATOR_PORT), protocol: 'http' })
  const stray = await stripe.paymentIntents.create({ amount: 1234, currency: 'usd', confirm: true, payment_method: 'pm_card_visa' })

  await page.goto('/admin')
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Reconciliation' }).click()
  await expect(page.getByRole('heading', { name: 'Reconciliation', level: 2 })).toBeVisible()
  await page.getByRole('button', { name: 'Run reconciliation now' }).click()

  await expect(page).toHaveURL(/tab=reconciliation/)
  await expect(page.getByRole('heading', { name: /Latest run: .*by an admin/ })).toBeVisible()
  await expect(page.getByText(/\d+ differences? found/)).toBeVisible()
  await expect(page.getByRole('cell', { name: /provider_charges/ }).first()).toBeVisible()

  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')
  const csv = await page.request.get(href!)
  expect(csv.headers()['content-type']).toContain('text/csv')
  const lines = (await csv.text()).trim().split('\r\n')
  expect(lines[0]).toBe('"run_id","started_at","rule","rule_text","sale_id","seller_id","expected_usd","actual_usd","details"')
  expect(lines.length).toBeGreaterThan(1)
  expect(lines[1]).toContain('"provider_charges"')
  expect(lines.find((line) => line.includes(String(stray.latest_charge)))).toContain('"provider_charges"')
  await noScript.close()
})
