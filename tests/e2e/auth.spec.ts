import { expect, test } from '@playwright/test'
import { authSession, signIn, uniqueEmail, writeAuthSession } from './support'

const PROTECTED = ['/seller/dashboard', '/seller-dashboard', '/seller/create', '/create-listing', '/purchases', '/profile', '/admin']

test('every protected route sends a signed-out visitor to /login and back after sign-in', async ({ page }) => {
  for (const path of PROTECTED) {
    await page.goto(path)
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path).replace(/[-/]/g, '\\$&')}`))
  }
  await page.goto('/purchases')
  await page.getByRole('button', { name: 'Sign in with GitHub' }).click()
  await page.getByLabel('Email').fill(uniqueEmail('back'))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/purchases$/)
})

test('sign in with GitHub, see the e-mail in the sidebar, sign out', async ({ page }) => {
  const email = uniqueEmail('octo')
  await signIn(page, { email, fullName: 'Octo Cat', provider: 'GitHub' })
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByText(email)).toBeVisible()
  await expect(nav.getByText(email[0]!.toUpperCase(), { exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0)
  await page.goto('/login')
  await expect(page).toHaveURL(/\/$/)
  await page.getByRole('button', { name: 'Sign Out' }).click()
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible()
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login\?redirectTo=/)
})

test('sign in with Google lands where the visitor was going', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('goo'), fullName: 'Gina Google', provider: 'Google', from: '/seller/dashboard' })
  await expect(page).toHaveURL(/\/seller\/dashboard$/)
})

test('a signed-in non-admin cannot open /admin; an admin sees it in the sidebar', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('plain') })
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/$/)
})

test('the admin sees the Admin Dashboard entry', async ({ page }) => {
  await signIn(page, { email: 'admin@forkmarket.dev', fullName: 'Forkmarket Admin' })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Dashboard' }).click()
  await expect(page).toHaveURL(/\/admin$/)
})

test('the session refreshes silently once the access token has expired', async ({ page }) => {
  const email = uniqueEmail('refresh')
  await signIn(page, { email })
  // The session in the cookie says its access token expired a minute ago (what a 30 s sleep did before,
  // issue 27.8): supabase-js decides by expires_at (with a 90 s margin), so the next request must refresh
  // it, and the rotated refresh token shows it did (a session told it is valid for an hour keeps its token).
  const before = await authSession(page)
  await writeAuthSession(page, { ...before, expires_at: Math.floor(Date.now() / 1000) - 60 })
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/profile$/)
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible()
  const after = await authSession(page)
  expect(after.refresh_token).not.toBe(before.refresh_token)
  expect(after.expires_at).toBeGreaterThan(Date.now() / 1000)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('sign in and sign out still work (plain form posts and redirects)', async ({ page }) => {
    const email = uniqueEmail('nojs')
    await signIn(page, { email, from: '/profile' })
    await expect(page).toHaveURL(/\/profile$/)
    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible()
  })
})
