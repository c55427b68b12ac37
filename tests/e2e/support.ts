import { expect, type BrowserContext, type Cookie, type Page } from '@playwright/test'

/**
 * The login fixture. The first signIn of an e-mail in a worker goes through the
 * real flow (/login → the emulator's consent page → /auth/callback); later ones
 * reuse that session's cookies. Playwright runs each worker in its own process
 * and its tests one after another, so this map is one worker's sessions.
 *
 * The stored cookies follow the session as it lives on: Supabase rotates the
 * refresh token on every refresh (20-second access tokens here), and presenting
 * a superseded one more than 10 s later revokes the whole session as stolen. So
 * every response that sets an auth cookie updates the stored copy, and a
 * session that ended anyway (signed out, revoked) is signed in afresh.
 */
const sessions = new Map<string, Cookie[]>()
const owners = new WeakMap<BrowserContext, string>()
const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/

const authCookies = (cookies: Cookie[]) => cookies.filter((cookie) => AUTH_COOKIE.test(cookie.name))

function followSession(context: BrowserContext, email: string) {
  const watched = owners.has(context)
  owners.set(context, email)
  if (watched) return
  context.on('response', (response) => {
    void (async () => {
      const setCookie = await response.headerValue('set-cookie').catch(() => null)
      if (!setCookie || !/sb-[^=]*-auth-token/.test(setCookie)) return
      const owner = owners.get(context)
      const cookies = authCookies(await context.cookies().catch(() => []))
      if (!owner) return
      if (cookies.length > 0) sessions.set(owner, cookies)
      else sessions.delete(owner)
    })()
  })
}

async function signedIn(page: Page, timeout: number): Promise<boolean> {
  return expect(page.getByRole('button', { name: 'Sign Out' }))
    .toBeVisible({ timeout })
    .then(
      () => true,
      () => false,
    )
}

/** Signs in as `email` (the real flow once per worker, then its stored session) and lands on `from` (default /). */
export async function signIn(
  page: Page,
  { email, fullName = '', provider = 'GitHub', from }: { email: string; fullName?: string; provider?: 'GitHub' | 'Google'; from?: string },
) {
  const context = page.context()
  const stored = sessions.get(email)
  if (stored) {
    await context.addCookies(stored)
    followSession(context, email)
    await page.goto(from ?? '/')
    if (await signedIn(page, 5_000)) return
    sessions.delete(email)
    await context.clearCookies({ name: AUTH_COOKIE })
  }
  await page.goto(from ? `/login?redirectTo=${encodeURIComponent(from)}` : '/login')
  await page.getByRole('button', { name: `Sign in with ${provider}` }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Full name').fill(fullName)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible()
  sessions.set(email, authCookies(await context.cookies()))
  followSession(context, email)
}

/**
 * Waits until React has hydrated the page (app/entry.client.tsx marks <html data-hydrated>),
 * so clicks reach client-side handlers. Not for contexts without JavaScript.
 */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
}

/** Demo accounts from db/demo-data.ts (the e2e server loads the demo data). */
export const DEMO = {
  admin: 'admin@forkmarket.dev',
  /** Issue 19: the second admin (payout batches and changed bank details need two). */
  secondAdmin: 'finance@forkmarket.dev',
  sellerWithBank: 'ada@forkmarket.dev',
  sellerWithoutBank: 'noah@forkmarket.dev',
  buyer: 'buyer@forkmarket.dev',
}

/**
 * An anonymous visitor's public page (/, /marketplace, a listing) may come from a shared cache in
 * front of the app — nginx in the cluster run (E2E_CLUSTER), a CDN in production — for up to the
 * pages' TTL (docs/decisions/023: s-maxage 10 s + stale-while-revalidate 20 s). A step that changes
 * such a page and then looks at it anonymously repeats `look` until the change shows, within that.
 * (A single server shows it at once.)
 */
export const PUBLIC_PAGE_MAX_STALENESS_MS = 30_000

export async function untilAnonymousPageIsFresh(look: () => Promise<void>) {
  await expect(look).toPass({ timeout: PUBLIC_PAGE_MAX_STALENESS_MS + 5_000, intervals: [500, 1_000] })
}
