import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type BrowserContext, type Cookie, type Page } from '@playwright/test'
import { DEMO_ADMIN, DEMO_ADMIN_2, DEMO_BUYERS, DEMO_SELLERS } from '../../db/seed/demo-data'

/**
 * The login fixture (issue 27.8): an e-mail signs in through the real flow (/login → the emulator's
 * consent page → /auth/callback) once per test worker; later sign-ins of that e-mail in other browser
 * contexts reuse the auth cookies it got (Playwright's stored-state idea, kept per worker in memory).
 *
 * Reuse is safe only while no holder of those cookies refreshes the session: Supabase rotates the
 * refresh token on every refresh, and a superseded token presented more than 10 s after its rotation
 * revokes the whole session as stolen (seen when sessions were copied with 20-second access tokens:
 * CI, github-delivery.spec.ts, 2026-11-25). supabase-js refreshes only when the access token is within
 * 90 s of its expiry (the e2e run has production's 10 minutes), so a kept sign-in is handed out only
 * while its token outlives that margin plus the whole test (its timeout) — no context using it will refresh —
 * and otherwise signed in anew. A kept sign-in that no longer works (the test before signed that
 * e-mail out) is seen on its first page and replaced the same way. (A test that signs out an e-mail
 * while another of its own contexts holds the same sign-in signs both out: the auth specs sign out
 * fresh e-mails only.)
 */
const signedInAs = new WeakMap<BrowserContext, string>()
const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/
const kept = new Map<string, { cookies: Cookie[]; expiresAt: number }>()
/** supabase-js's refresh margin (90 s) + the running test's whole timeout (2–3 min, test.setTimeout) + slack. */
const keepMarginS = () => 90 + test.info().timeout / 1000 + 30

async function signedIn(page: Page, timeout: number): Promise<boolean> {
  return expect(page.getByRole('button', { name: 'Sign Out' }))
    .toBeVisible({ timeout })
    .then(
      () => true,
      () => false,
    )
}

/**
 * The seeded accounts' names. Signing in sets the display name from the provider's full name (until
 * the profile is edited), so a test that signed a demo account in under another name renamed it for
 * every test after it — the failure of CI's stop 33 ("Review by Demo Buyer" not found). A demo
 * account therefore signs in under its seeded name, and another name is refused.
 */
const SEEDED_NAMES = new Map<string, string>(
  [DEMO_ADMIN, DEMO_ADMIN_2, ...DEMO_SELLERS, ...DEMO_BUYERS].map(({ email, displayName }) => [email, displayName]),
)

/** Signs in as `email` (the real flow once per worker while its session lasts) and lands on `from` (default /). */
export async function signIn(
  page: Page,
  { email, fullName, provider = 'GitHub', from }: { email: string; fullName?: string; provider?: 'GitHub' | 'Google'; from?: string },
) {
  const seeded = SEEDED_NAMES.get(email)
  if (seeded && fullName !== undefined && fullName !== seeded) {
    throw new Error(`${email} is seeded as "${seeded}"; signing it in as "${fullName}" would rename it for the tests after this one`)
  }
  fullName ??= seeded ?? ''
  const context = page.context()
  if (signedInAs.get(context) === email) {
    await page.goto(from ?? '/')
    if (await signedIn(page, 5_000)) return
  }
  signedInAs.delete(context)
  await context.clearCookies({ name: AUTH_COOKIE })
  const reuse = kept.get(email)
  if (reuse && reuse.expiresAt - Date.now() / 1000 > keepMarginS()) {
    await context.addCookies(reuse.cookies)
    await page.goto(from ?? '/')
    if (await signedIn(page, 5_000)) {
      signedInAs.set(context, email)
      return
    }
    await context.clearCookies({ name: AUTH_COOKIE })
  }
  kept.delete(email)
  await page.goto(from ? `/login?redirectTo=${encodeURIComponent(from)}` : '/login')
  await page.getByRole('button', { name: `Sign in with ${provider}` }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Full name').fill(fullName)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible()
  signedInAs.set(context, email)
  kept.set(email, { cookies: await authCookies(page), expiresAt: (await authSession(page)).expires_at })
}

interface AuthSession {
  access_token: string
  refresh_token: string
  expires_at: number
}

/** The auth cookies of the page's context in chunk order (@supabase/ssr splits a long value into name.0, name.1, …). */
async function authCookies(page: Page) {
  const cookies = (await page.context().cookies()).filter((cookie) => AUTH_COOKIE.test(cookie.name))
  return cookies.sort((a, b) => Number(a.name.split('.').pop()) - Number(b.name.split('.').pop()))
}

/** The Supabase session the browser holds (@supabase/ssr's cookie: "base64-" and the session's JSON in base64url). */
export async function authSession(page: Page): Promise<AuthSession> {
  const value = (await authCookies(page)).map((cookie) => cookie.value).join('')
  return JSON.parse(Buffer.from(value.replace(/^base64-/, ''), 'base64url').toString('utf8')) as AuthSession
}

/** Writes `session` back into the same cookies, chunked as they were. */
export async function writeAuthSession(page: Page, session: AuthSession) {
  const cookies = await authCookies(page)
  let value = `base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`
  const written = cookies.map((cookie, index) => {
    const chunk = index === cookies.length - 1 ? value : value.slice(0, cookie.value.length)
    value = value.slice(chunk.length)
    return { ...cookie, value: chunk }
  })
  await page.context().addCookies(written)
}

/**
 * Another person in their own browser context. Without JavaScript they sign in with it first
 * (the OAuth hop needs it), then browse without it.
 */
export async function as(
  browser: Browser,
  email: string,
  fullName: string,
  { provider = 'GitHub', javaScriptEnabled = true }: { provider?: 'GitHub' | 'Google'; javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await signIn(page, { email, fullName, provider })
  if (javaScriptEnabled) return { page, close: () => context.close() }
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
  await context.close()
  return { page: await noScript.newPage(), close: () => noScript.close() }
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

/** Demo accounts from db/seed/demo-data.ts (the e2e server loads the demo data). */
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

/**
 * What axe finds on the page as it is now, one line per rule, each prefixed with `where` (path, theme, width).
 * Legacy mode runs axe in the page itself: a third of the time of the default mode, which opens a blank page
 * per scan to merge frames (measured 1.2 s against 3.8 s on /marketplace here). It skips cross-origin frames;
 * the app's pages have none but the card form's, which checkout.spec.ts scans in the default mode.
 */
export async function axeViolations(page: Page, where: string, configure: (axe: AxeBuilder) => AxeBuilder = (axe) => axe) {
  const { violations } = await configure(new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] })).analyze()
  return violations.map((v) => {
    const nodes = v.nodes.map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` (${n.any[0].message})` : ''}`)
    return `${where} ${v.id}: ${v.help}\n    ${nodes.slice(0, 5).join('\n    ')}`
  })
}
