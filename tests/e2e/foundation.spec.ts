import { expect, test } from '@playwright/test'
import { waitForHydration } from './support'

test.describe('landing page', () => {
  test('shows the hero, the steps and the calls to action', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Buy and Sell .*Apps$/)
    await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible()
    for (const step of ['Create or Browse', 'List or Purchase', 'Deliver & Earn']) {
      await expect(page.getByRole('heading', { name: step })).toBeVisible()
    }
    await expect(page.getByRole('heading', { name: 'For Sellers' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'For Buyers' })).toBeVisible()
    const main = page.getByRole('main')
    await expect(main.getByRole('link', { name: 'Browse Marketplace' })).toHaveCount(2)
    await expect(main.getByRole('link', { name: 'Start Selling' })).toHaveCount(2)
    for (const link of await main.getByRole('link', { name: 'Browse Marketplace' }).all()) {
      await expect(link).toHaveAttribute('href', '/marketplace')
    }
    for (const link of await main.getByRole('link', { name: 'Start Selling' }).all()) {
      await expect(link).toHaveAttribute('href', '/seller/create')
    }
    await expect(page).toHaveTitle(/Forkmarket/)
  })

  test('has the header, sidebar entries and footer link groups', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login')
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const name of ['Home', 'Marketplace', 'Seller Dashboard', 'My Purchases', 'Profile']) {
      await expect(nav.getByRole('link', { name })).toBeVisible()
    }
    await expect(nav.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0)
    const footer = page.getByRole('contentinfo')
    for (const group of ['Marketplace', 'Support', 'Legal']) {
      await expect(footer.getByRole('heading', { name: group })).toBeVisible()
    }
    await expect(footer.getByRole('link', { name: /terms/i })).toHaveAttribute('href', '/terms')
  })
})

test('every legal and help page renders as a real page', async ({ page }) => {
  const pages: Array<[string, RegExp]> = [
    ['/terms', /Terms of Service/],
    ['/privacy', /Privacy Policy/],
    ['/cookies', /Cookie Policy/],
    ['/disclaimer', /Disclaimer/],
    ['/faq', /Frequently Asked Questions/],
    ['/help', /Help Center/],
  ]
  for (const [path, heading] of pages) {
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(page).toHaveTitle(new RegExp(`${heading.source} · Forkmarket`))
  }
  await page.goto('/faq')
  const faq = page.getByRole('main')
  await expect(faq).toContainText('72 hours')
  await expect(faq).toContainText('Confirm Receipt')
  await expect(faq).toContainText(/automatically/i)
  await expect(faq).toContainText('5 working days')
})

test('an unknown path shows the 404 page with status 404', async ({ page }) => {
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
})

// Issue 26.16: the icon answers at the root, where browsers and crawlers ask for it, and the layout links it.
test('the favicon is served at /favicon.ico and linked from the layout; loading a page meets no 404', async ({ page }) => {
  const missing: string[] = []
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url())
  })
  await page.goto('/marketplace')
  await expect(page.locator('head link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1)
  const icon = await page.request.get('/favicon.ico')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/)
  expect(missing).toEqual([])
})

test('healthz answers 200 with the database up', async ({ request }) => {
  const response = await request.get('/healthz')
  expect(response.status()).toBe(200)
  expect(await response.json()).toMatchObject({ status: 'ok' })
})

test('Ctrl+B collapses the sidebar and the state survives a reload', async ({ page, context }) => {
  await page.goto('/marketplace')
  // Keyboard shortcuts, the sheet and the theme switch need React running (a cached page arrives first).
  await waitForHydration(page)
  const trigger = page.getByRole('button', { name: 'Toggle Sidebar' }).first()
  await expect(trigger).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Control+b')
  await expect(trigger).toHaveAttribute('aria-expanded', 'false')
  const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state')
  expect(cookie?.value).toBe('false')
  expect(cookie && cookie.expires - Date.now() / 1000).toBeGreaterThan(604800 - 60)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Toggle Sidebar' }).first()).toHaveAttribute('aria-expanded', 'false')
  await waitForHydration(page)
  // Collapsed to icons, a menu item shows its name beside it on hover, and keeps it as its accessible name.
  const marketplaceLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace' })
  await marketplaceLink.hover()
  const tooltip = page.locator('[data-slot="sidebar-tooltip"]')
  await expect(tooltip).toHaveText('Marketplace')
  await expect(tooltip).toBeVisible()
  await page.mouse.move(600, 400)
  await expect(tooltip).toHaveCount(0)
  await page.keyboard.press('Control+b')
  await expect(page.getByRole('button', { name: 'Toggle Sidebar' }).first()).toHaveAttribute('aria-expanded', 'true')
})

test('below 768 px the sidebar opens as a side sheet', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto('/')
  await waitForHydration(page)
  const dialog = page.getByRole('dialog')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'Toggle Sidebar' }).first().click()
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Marketplace' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
})

test('the theme persists across reloads without a flash of the wrong theme', async ({ page }) => {
  await page.goto('/')
  await expect(page.locator('html')).toHaveClass(/light/)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await expect(page.locator('html')).toHaveClass(/dark/)
  // Wait for the theme cookie to be written by the server before reloading.
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'fm_theme')).toBe(true)
  const response = await page.request.get('/')
  expect(await response.text()).toMatch(/<html lang="en" class="dark"/)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/dark/)
})

// Issue 26.20: delivery through GitHub (invitation → accept → your fork; access removed on refund) is
// described beside the seller's fork link, on every page that explains delivery.
test('the landing page, FAQ, Help and Disclaimer describe delivery through GitHub beside the fork link', async ({ page }) => {
  await page.goto('/')
  const home = page.getByRole('main')
  await expect(home).toContainText('or GitHub invites the buyer to the repository to fork it')
  await expect(home).toContainText('accept a GitHub invitation to the seller’s repository and fork it')
  await expect(home).toContainText('Access is removed if the sale is refunded.')
  await expect(home).not.toContainText('Fork link sent to buyer')
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /GitHub invitation or fork link/)

  await page.goto('/faq')
  const faq = page.getByRole('main')
  await expect(faq).toContainText('is delivered through GitHub')
  await expect(faq).toContainText('Accept the invitation, then fork the repository')
  await expect(faq).toContainText('your access to the repository is removed')
  await expect(faq).toContainText('Otherwise the seller delivers a fork link')

  await page.goto('/help')
  await expect(page.getByRole('main')).toContainText('you accept the invitation to the repository and fork it')

  await page.goto('/disclaimer')
  const disclaimer = page.getByRole('main')
  await expect(disclaimer).toContainText('once the buyer has accepted the GitHub invitation')
  await expect(disclaimer).toContainText('Access given by a GitHub invitation is removed if the sale is refunded.')
})
