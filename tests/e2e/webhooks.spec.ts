import { expect, test, type Page } from '@playwright/test'
import { startReceiver } from '../support/webhook-receiver'
import { as, axeViolations, signIn, uniqueEmail, waitForHydration } from './support'

// Issue 29: a seller registers an endpoint at a receiver running in this test (it verifies every
// delivery with the Standard Webhooks library), sends a test event, rotates the secret and deletes
// the endpoint, all with JavaScript off; then axe on both pages in both themes at 1280 and 390 px.

async function registerEndpoint(page: Page, url: string, description: string) {
  await page.goto('/seller/webhooks')
  await page.getByLabel('Endpoint URL').fill(url)
  await page.getByRole('checkbox', { name: /sale\.paid/ }).check()
  await page.getByLabel('Description (optional)').fill(description)
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByRole('heading', { level: 1, name: url })).toBeVisible()
  return (await page.getByTestId('webhook-secret').textContent())!.trim()
}

/** The delivery log after the job worker had its turn: reloads until the first row is no longer pending. */
async function untilDelivered(page: Page) {
  const log = page.getByRole('table', { name: 'Delivery log' })
  await expect(async () => {
    await page.reload()
    await expect(log.getByRole('row').nth(1)).toContainText('Delivered · 200', { timeout: 1_000 })
  }).toPass({ timeout: 30_000, intervals: [500, 1_000] })
  return log
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('register an endpoint, send a test event it verifies, rotate the secret, delete it', async ({ page }) => {
    let secret = ''
    const receiver = await startReceiver({ secret: () => secret })
    try {
      await signIn(page, { email: uniqueEmail('webhooks'), from: '/seller/webhooks' })
      await expect(page.getByText('You have no webhook endpoints yet.')).toBeVisible()

      secret = await registerEndpoint(page, receiver.url, 'Local receiver')
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      const here = page.url()

      await page.getByRole('button', { name: 'Send test event' }).click()
      const log = await untilDelivered(page)
      const first = log.getByRole('row').nth(1)
      await expect(first).toContainText('webhook.test')
      await expect(first).toContainText('ok')
      const webhookId = (await first.getByRole('cell').nth(1).textContent())!.trim()
      expect(receiver.processed.get(webhookId)).toMatchObject({ type: 'webhook.test', data: { message: expect.any(String) } })

      // The list shows it with its last delivery.
      await page.goto('/seller/webhooks')
      const row = page.getByRole('row').filter({ hasText: 'Local receiver' })
      await expect(row).toContainText('Local receiver')
      await expect(row).toContainText('Enabled')
      await expect(row).toContainText('Delivered · 200')
      await row.getByRole('link', { name: receiver.url }).click()

      // Rotate: a confirm step, then a new secret; the old one keeps signing for 24 h (both signatures sent).
      await page.getByRole('link', { name: 'Rotate secret' }).click()
      await expect(page.getByRole('heading', { name: 'Rotate the signing secret?' })).toBeVisible()
      await expect(page.getByText('The old one keeps working for 24 hours')).toBeVisible()
      await page.getByRole('button', { name: 'Rotate secret' }).click()
      const rotated = (await page.getByTestId('webhook-secret').textContent())!.trim()
      expect(rotated).not.toBe(secret)
      await expect(page.getByText('The previous secret also signs every delivery until')).toBeVisible()
      const oldSecret = secret
      secret = rotated
      await page.getByRole('button', { name: 'Send test event' }).click()
      await untilDelivered(page)
      const second = receiver.received.at(-1)!
      expect(second.payload?.type).toBe('webhook.test')
      expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2)
      secret = oldSecret // a receiver not switched yet still verifies the same delivery
      await page.getByRole('button', { name: 'Resend webhook.test' }).first().click()
      await untilDelivered(page)
      expect(receiver.received.at(-1)!.payload?.type).toBe('webhook.test')

      // Delete: a confirm step, then the list is empty and the page is gone.
      await page.getByRole('link', { name: 'Delete endpoint…' }).click()
      await expect(page.getByRole('heading', { name: 'Delete this endpoint?' })).toBeVisible()
      await page.getByRole('button', { name: 'Delete endpoint' }).click()
      await expect(page).toHaveURL(/\/seller\/webhooks$/)
      await expect(page.getByText('You have no webhook endpoints yet.')).toBeVisible()
      expect((await page.request.get(here)).status()).toBe(404)
    } finally {
      await receiver.close()
    }
  })
})

test('another seller cannot open the endpoint (404)', async ({ page, browser }) => {
  const receiver = await startReceiver({ secret: () => 'whsec_unused' })
  try {
    await signIn(page, { email: uniqueEmail('webhooks-owner'), from: '/seller/webhooks' })
    await registerEndpoint(page, receiver.url, 'Mine')
    const other = await as(browser, uniqueEmail('webhooks-other'), 'Other Seller')
    expect((await other.page.request.get(page.url())).status()).toBe(404)
    await other.close()
  } finally {
    await receiver.close()
  }
})

test('axe finds nothing on the webhook pages, light and dark, 1280 and 390 px', async ({ page }) => {
  test.setTimeout(180_000)
  let secret = ''
  const receiver = await startReceiver({ secret: () => secret })
  try {
    await signIn(page, { email: uniqueEmail('webhooks-axe'), from: '/seller/webhooks' })
    secret = await registerEndpoint(page, receiver.url, 'Axe receiver')
    const detail = new URL(page.url()).pathname
    await page.getByRole('button', { name: 'Send test event' }).click()
    await untilDelivered(page)
    const violations: string[] = []
    for (const theme of ['light', 'dark'] as const) {
      const response = await page.request.post('/action/set-theme', { data: { theme }, headers: { Origin: new URL(page.url()).origin } })
      expect(response.ok()).toBe(true)
      for (const path of ['/seller/webhooks', detail, `${detail}?rotate`, `${detail}?delete`]) {
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.goto(path)
        await waitForHydration(page)
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 })
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
          violations.push(...(await axeViolations(page, `${path} [${theme}, ${width}px]`)))
          if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
        }
      }
    }
    expect(violations, violations.join('\n')).toEqual([])
  } finally {
    await receiver.close()
  }
})
