import { expect, test } from '@playwright/test'
import { signIn, uniqueEmail } from './support'

// Issue 29: a personal API key, created and revoked on /profile with JavaScript off.
test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('create an API key, see it once, use it, revoke it', async ({ page }) => {
    await signIn(page, { email: uniqueEmail('api-key'), from: '/profile' })
    const section = page.locator('#api-keys')
    await expect(section.getByText('You have no API keys.')).toBeVisible()

    await section.getByLabel('Name').fill('Price sync')
    await section.getByRole('checkbox', { name: /listings:read/ }).check()
    await section.getByRole('button', { name: 'Create key' }).click()

    const shown = section.getByTestId('new-api-key')
    await expect(shown).toHaveText(/^fm_pat_[0-9A-Za-z]{36}$/)
    const key = (await shown.textContent())!.trim()
    const prefix = key.slice(0, 11)
    await expect(section.getByRole('cell', { name: 'Price sync', exact: true })).toBeVisible()

    const api = await page.request.get('/api/seller/listings', { headers: { Authorization: `Bearer ${key}` } })
    expect(api.status()).toBe(200)
    const bank = await page.request.get('/api/profile/bank-details', { headers: { Authorization: `Bearer ${key}` } })
    expect(bank.status()).toBe(403)

    // Shown once: the next visit lists the key by its prefix only.
    await page.goto('/profile')
    await expect(section.getByText(`${prefix}…`)).toBeVisible()
    await expect(page.getByText(key)).toHaveCount(0)

    await section.getByRole('link', { name: 'Revoke Price sync' }).click()
    await expect(section.getByRole('heading', { name: 'Revoke “Price sync”?' })).toBeVisible()
    await section.getByRole('button', { name: 'Revoke key' }).click()
    await expect(section.getByText('You have no API keys.')).toBeVisible()

    const revoked = await page.request.get('/api/seller/listings', { headers: { Authorization: `Bearer ${key}` } })
    expect(revoked.status()).toBe(401)
  })
})
