import { expect, type Page } from '@playwright/test'

/** Signs in through the real flow: /login → provider consent page (emulator) → callback. */
export async function signIn(
  page: Page,
  { email, fullName = '', provider = 'GitHub', from }: { email: string; fullName?: string; provider?: 'GitHub' | 'Google'; from?: string },
) {
  await page.goto(from ? `/login?redirectTo=${encodeURIComponent(from)}` : '/login')
  await page.getByRole('button', { name: `Sign in with ${provider}` }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Full name').fill(fullName)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible()
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
}

/** Demo accounts from db/demo-data.ts (the e2e server loads the demo data). */
export const DEMO = {
  admin: 'admin@forkmarket.dev',
  sellerWithBank: 'ada@forkmarket.dev',
  sellerWithoutBank: 'noah@forkmarket.dev',
  buyer: 'buyer@forkmarket.dev',
}
