import { expect, test, type Page } from '@playwright/test'
import { waitForHydration } from './support'

/*
 * Issue 26.14: until a visitor picks a theme, the page follows the system's light or dark
 * (`prefers-color-scheme`), from the first frame — with JavaScript (remix-themes' inline script sets
 * the class before <body> is parsed, trusted by the page's nonce or, on a cacheable page, its hash)
 * and without (app.css's media query). A choice made with the toggle wins over the system.
 */

test.use({ colorScheme: 'dark' })

/** The theme the page is painted with: the tokens' `color-scheme` on <html> (app.css). */
const paintedScheme = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)

test('a dark system gets the dark theme from the first frame, and a chosen light theme wins over it', async ({ page }) => {
  const violations: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text())
  })
  // The class <html> has when the parser reaches <body>, i.e. before the first paint of any content.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (!document.body) return
      document.documentElement.dataset.classAtBody = document.documentElement.className || '(none)'
      observer.disconnect()
    })
    observer.observe(document, { childList: true, subtree: true })
  })

  // The server cannot know the system's theme, so it names none (and a shared cache may keep the page).
  const response = await page.goto('/')
  expect(await response!.text()).toMatch(/<html lang="en">/)
  expect(response!.headers()['cache-control']).toMatch(/^public,/)
  await expect(page.locator('html')).toHaveAttribute('data-class-at-body', 'dark')
  expect(await paintedScheme(page)).toBe('dark')
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveClass('dark')
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible()
  // Client-side navigation keeps it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace' }).click()
  await expect(page).toHaveURL(/\/marketplace$/)
  await expect(page.locator('html')).toHaveClass('dark')

  // The visitor picks light: it is kept (cookie) and wins over the dark system on the next visit.
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/action/set-theme' && r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await saved
  await expect(page.locator('html')).toHaveClass('light')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-class-at-body', 'light')
  expect(await paintedScheme(page)).toBe('light')
  expect(violations).toEqual([])
})

test('without JavaScript the page follows the system too', async ({ browser }) => {
  for (const colorScheme of ['dark', 'light'] as const) {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme })
    const page = await context.newPage()
    await page.goto('/marketplace')
    await expect(page.locator('html')).not.toHaveAttribute('class')
    expect(await paintedScheme(page), colorScheme).toBe(colorScheme)
    // The toggle's icon says which theme is on (the `dark:` variant follows the system as well).
    const toggle = page.getByRole('button', { name: /^Switch to (dark|light) theme$/ })
    await expect(toggle.locator('svg').nth(colorScheme === 'dark' ? 0 : 1)).toBeVisible()
    await expect(toggle.locator('svg').nth(colorScheme === 'dark' ? 1 : 0)).toBeHidden()
    await context.close()
  }
})
