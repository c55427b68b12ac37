import { expect, test } from '@playwright/test'
import nodemailer from 'nodemailer'
import { E2E_ENV, MAIL_INBOX_URL } from '../../playwright.config'
import { axeViolations } from './support'

// The e2e server's mail catcher (started by the launcher on E2E_PORT + 24000/25000, no SMTP_URL):
// a person reads a mail in Chromium; its HTML cannot run a script; axe finds nothing at 1280 and
// 390 px, light and dark.
test('the mail inbox shows a caught mail, its HTML sandboxed, accessibly', async ({ page }) => {
  const recipient = `inbox-${Date.now()}@example.com`
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: Number(E2E_ENV.MAIL_EMULATOR_SMTP_PORT) })
  await transport.sendMail({
    from: 'Forkmarket <notifications@forkmarket.localhost>',
    to: recipient,
    subject: 'Your receipt for Invoice Kit',
    text: 'You paid $49.00',
    html: '<p id="paid">You paid $49.00</p><script>document.getElementById("paid").textContent = "SCRIPT RAN"</script>',
    headers: { 'List-Unsubscribe': '<http://localhost/profile>' },
  })

  await page.goto(`${MAIL_INBOX_URL}/`)
  await page.getByLabel('Recipient').fill(recipient)
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByText(`1 message to ${recipient}`)).toBeVisible()
  await page.getByRole('link', { name: 'Your receipt for Invoice Kit' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your receipt for Invoice Kit' })).toBeVisible()
  const mail = page.frameLocator('iframe[title="HTML part of the message"]')
  await expect(mail.locator('#paid')).toHaveText('You paid $49.00')
  await expect(page.getByText('You paid $49.00', { exact: true })).toBeVisible() // the plain-text part
  await expect(page.getByText('<http://localhost/profile>').first()).toBeVisible()

  const messagePath = new URL(page.url()).pathname
  expect(messagePath).toMatch(/^\/messages\/[\w-]+$/)
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      for (const path of [`/?to=${encodeURIComponent(recipient)}`, messagePath]) {
        await page.goto(`${MAIL_INBOX_URL}${path}`)
        expect(await axeViolations(page, `${path} [${colorScheme}, ${width}px]`, (axe) => axe.exclude('iframe'))).toEqual([])
      }
    }
  }
})
