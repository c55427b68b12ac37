import { expect, test } from '@playwright/test'
import { signIn, uniqueEmail, waitForHydration } from './support'

/*
 * Issue 26.19: connecting GitHub works at http://127.0.0.1:PORT — what a person may type — as it does at
 * http://localhost:PORT. The App's Setup URL is localhost's, where the seller has no session: the app
 * sends them back to 127.0.0.1, and the App's user authorization returns to 127.0.0.1 as well.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100)
const LOOPBACK = `http://127.0.0.1:${PORT}`

test('a seller at 127.0.0.1 connects GitHub and stays signed in', async ({ browser }) => {
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`
  const context = await browser.newContext({ baseURL: LOOPBACK })
  const page = await context.newPage()
  await signIn(page, { email: uniqueEmail('loopback-seller'), fullName: 'Loopback Seller', from: '/profile' })
  await expect(page).toHaveURL(`${LOOPBACK}/profile`)

  await waitForHydration(page)
  await page.getByRole('link', { name: 'Connect GitHub', exact: true }).click()
  // Where the click led, if not to the App's installation page (CI 2026-11-28 saw the next step time out).
  await expect(page).toHaveURL(/\/apps\/[^/]+\/installations\/new\?/)
  await page.getByLabel('Your GitHub login').fill(`loop-${run}`)
  await page.getByLabel('New organization name').fill(`loop-org-${run}`)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('radio', { name: 'All repositories' }).check()
  await page.getByRole('button', { name: 'Install' }).click()
  // The installation is verified through the seller's own GitHub account, on the way back to 127.0.0.1.
  await expect(page.getByRole('heading', { name: /^Authorize / })).toBeVisible()
  await page.getByLabel('GitHub login').fill(`loop-${run}`)
  await page.getByRole('button', { name: 'Authorize' }).click()

  await expect(page).toHaveURL(`${LOOPBACK}/profile`)
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Connected GitHub accounts' }).getByText(`loop-org-${run}`, { exact: true })).toBeVisible()
  await context.close()
})
