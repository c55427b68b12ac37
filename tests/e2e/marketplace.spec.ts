import { expect, test, type Page } from '@playwright/test'
import { waitForHydration } from './support'

// Runs against the demo data (db/seed/demo-data.ts). Starter listings in TypeScript
// between $10 and $200, cheapest first:
const STARTERS = ['Chrome Extension Starter', 'Documentation Site Starter', 'LaunchKit SaaS Starter']

/** Matches a URL ending in exactly this path and query. */
function endsWith(pathAndQuery: string) {
  return new RegExp(`${pathAndQuery.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
}

function cardTitles(page: Page) {
  return page.getByRole('list', { name: 'Listings' }).getByRole('heading', { level: 3 })
}

async function openGroup(page: Page, name: string) {
  await page.locator('summary', { hasText: name }).click()
}

test.describe('with JavaScript', () => {
  test('search, pick a language and a price range, sort by price, open a card, come back', async ({ page }) => {
    await page.goto('/marketplace')
    await expect(cardTitles(page)).toHaveCount(24)
    await expect(page.getByText('Old Beta Starter (retired)')).toHaveCount(0)
    // The filters search as you type only once React runs.
    await waitForHydration(page)

    await page.getByRole('searchbox', { name: 'Search listings' }).fill('starter')
    await expect(page).toHaveURL(/\/marketplace\?search=starter$/)
    await expect(cardTitles(page).first()).toContainText('Starter')

    await openGroup(page, 'Languages')
    // The list narrows as you type (JavaScript only).
    await page.getByRole('searchbox', { name: 'Search languages' }).fill('type')
    await expect(page.getByRole('checkbox', { name: 'Python' })).toBeHidden()
    await page.getByRole('checkbox', { name: 'TypeScript', exact: true }).click()
    await expect(page).toHaveURL(/languages=TypeScript/)

    await page.getByLabel('Min price').fill('10')
    await page.getByLabel('Max price').fill('200')
    await expect(page).toHaveURL(/minPrice=10&maxPrice=200/)

    await page.getByLabel('Sort by').selectOption('price-low')
    await expect(page).toHaveURL(endsWith('/marketplace?search=starter&minPrice=10&maxPrice=200&languages=TypeScript&sortBy=price-low'))
    await expect(cardTitles(page)).toHaveText(STARTERS)
    await expect(page.getByRole('checkbox', { name: 'TypeScript', exact: true })).toBeChecked()

    await page.getByRole('link', { name: 'Documentation Site Starter' }).click()
    await expect(page).toHaveURL(endsWith('/listing/documentation-site-starter'))

    // Back restores the whole filter state from the URL.
    await page.goBack()
    await expect(cardTitles(page)).toHaveText(STARTERS)
    await expect(page.getByRole('searchbox', { name: 'Search listings' })).toHaveValue('starter')
    await expect(page.getByLabel('Max price')).toHaveValue('200')
    await expect(page.getByLabel('Sort by')).toHaveValue('price-low')
    await page.goBack()
    await expect(page).toHaveURL(/minPrice=10&maxPrice=200&languages=TypeScript$/)
    await expect(page.getByLabel('Sort by')).toHaveValue('newest')
  })

  test('an anonymous visit to a listing is counted by the page itself (a cached copy runs no loader)', async ({ page }) => {
    const reported = page.waitForResponse((response) => /\/api\/listings\/[^/]+\/views$/.test(response.url()))
    await page.goto('/marketplace')
    await cardTitles(page).first().click()
    const response = await reported
    expect(response.request().method()).toBe('POST')
    // The body of a keepalive request is not kept by the browser: the status says it was taken.
    expect(response.status()).toBe(200)
  })

  test('a typo is corrected, and an impossible price range is explained', async ({ page }) => {
    await page.goto('/marketplace')
    await waitForHydration(page)
    await page.getByRole('searchbox', { name: 'Search listings' }).fill('recat')
    await expect(page.getByText('No results for “recat”. Showing results for “react”.')).toBeVisible()
    await expect(cardTitles(page).filter({ hasText: 'React Admin Dashboard Pro' })).toHaveCount(1)

    await page.getByLabel('Min price').fill('50')
    await page.getByLabel('Max price').fill('10')
    await expect(page.getByText('Minimum price must not be greater than maximum price')).toBeVisible()
    await expect(page.getByLabel('Min price')).toHaveAttribute('aria-invalid', 'true')
    await expect(page).not.toHaveURL(/maxPrice=10/)
  })

  test('a bad price range typed while the previous results load stays explained when they arrive', async ({ page }) => {
    await page.goto('/marketplace')
    await waitForHydration(page)
    // The results for "Min price 50" are held until Max price has been typed (a slow network, CI 2026-11-28).
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/marketplace\.data\?.*minPrice=50/, async (route) => {
      await released
      await route.continue()
    })
    const held = page.waitForRequest(/\/marketplace\.data\?.*minPrice=50/)
    await page.getByLabel('Min price').fill('50')
    await held
    await page.getByLabel('Max price').fill('10')
    await expect(page.getByText('Minimum price must not be greater than maximum price')).toBeVisible()
    const landed = page.waitForResponse(/\/marketplace\.data\?.*minPrice=50/)
    release()
    await landed
    await expect(page).toHaveURL(/minPrice=50/)
    // Effects of the render that came with it have run after two frames.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    await expect(page.getByLabel('Max price')).toHaveValue('10')
    await expect(page.getByText('Minimum price must not be greater than maximum price')).toBeVisible()
    await expect(page.getByLabel('Min price')).toHaveAttribute('aria-invalid', 'true')
  })

  test('shows six loading placeholders while results load', async ({ page }) => {
    await page.goto('/marketplace')
    await expect(cardTitles(page)).toHaveCount(24)
    // Before hydration the sort select is a plain form field: changing it loads nothing.
    await waitForHydration(page)
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    // Hold the client-side data request for the next result page.
    await page.route(/\/marketplace\.data/, async (route) => {
      await held
      await route.continue()
    })
    await page.getByLabel('Sort by').selectOption('price-high')
    const loading = page.getByLabel('Loading listings')
    await expect(loading).toHaveAttribute('aria-busy', 'true')
    await expect(loading.locator('[data-slot="skeleton"]').first()).toBeVisible()
    expect(await loading.locator(':scope > div').count()).toBe(6)
    release()
    await expect(loading).toHaveCount(0)
    // The dearest listing a buyer can buy: sara@'s Event Ticketing Platform ($449) is not in the marketplace while
    // her bank details are rejected (issue 26.13), so mateo@'s ($349, bank details pending) leads.
    await expect(cardTitles(page).first()).toHaveText('Machine Learning Model Dashboard')
  })

  test('pages through the results with next and previous links', async ({ page }) => {
    await page.goto('/marketplace?sortBy=oldest')
    const firstPage = await cardTitles(page).allTextContents()
    expect(firstPage).toHaveLength(24)
    await page.getByRole('link', { name: 'Next page' }).click()
    await expect(page).toHaveURL(/sortBy=oldest&cursor=/)
    await expect(cardTitles(page).first()).not.toHaveText(firstPage[0]!)
    const secondPage = await cardTitles(page).allTextContents()
    expect(secondPage.some((title) => firstPage.includes(title))).toBe(false)
    await page.getByRole('link', { name: 'Previous page' }).click()
    await expect(cardTitles(page)).toHaveText(firstPage)
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the filter form is a GET form that works', async ({ page }) => {
    await page.goto('/marketplace')
    await page.getByRole('searchbox', { name: 'Search listings' }).fill('starter')
    await openGroup(page, 'Languages')
    await page.getByRole('checkbox', { name: 'TypeScript', exact: true }).check()
    await page.getByLabel('Min price').fill('10')
    await page.getByLabel('Max price').fill('200')
    await page.getByLabel('Sort by').selectOption('price-low')
    await page.getByRole('button', { name: 'Apply filters' }).click()

    await expect(page).toHaveURL(/search=starter/)
    await expect(page).toHaveURL(/languages=TypeScript/)
    await expect(page).toHaveURL(/sortBy=price-low/)
    await expect(cardTitles(page)).toHaveText(STARTERS)
    await expect(page.getByRole('checkbox', { name: 'TypeScript', exact: true })).toBeChecked()
    await expect(page.getByLabel('Min price')).toHaveValue('10')

    await page.getByRole('link', { name: 'LaunchKit SaaS Starter' }).click()
    await expect(page).toHaveURL(endsWith('/listing/launchkit-saas-starter'))
  })

  test('next and previous pages are plain links', async ({ page }) => {
    // Oldest first: the demo listings, which other tests running beside this one never add or delete.
    await page.goto('/marketplace?sortBy=oldest')
    const firstPage = await cardTitles(page).allTextContents()
    expect(firstPage).toHaveLength(24)
    await page.getByRole('link', { name: 'Next page' }).click()
    const secondPage = await cardTitles(page).allTextContents()
    expect(secondPage.length).toBeGreaterThan(0)
    expect(secondPage.some((title) => firstPage.includes(title))).toBe(false)
    await page.getByRole('link', { name: 'Previous page' }).click()
    await expect(cardTitles(page)).toHaveText(firstPage)
  })

  test('a bad minimum price marks only the minimum price field (issue 14.15)', async ({ page }) => {
    await page.goto('/marketplace?minPrice=abc&maxPrice=20')
    await expect(page.getByText('Minimum price must be an amount in dollars, such as 25 or 9.99').first()).toBeVisible()
    await expect(page.getByLabel('Min price')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Min price')).toHaveAccessibleDescription('Minimum price must be an amount in dollars, such as 25 or 9.99')
    await expect(page.getByLabel('Max price')).not.toHaveAttribute('aria-invalid')
    await expect(page.getByLabel('Max price')).toHaveAccessibleDescription('')
  })

  test('an invalid price range says what is wrong', async ({ page }) => {
    await page.goto('/marketplace?minPrice=50&maxPrice=10')
    await expect(page.getByRole('alert').filter({ hasText: "These filters can't be used" })).toBeVisible()
    await expect(page.getByText('Minimum price must not be greater than maximum price').first()).toBeVisible()
  })
})

test('the rating filter counts its stars in words: "1 star & up", "2 stars & up" (issue 26.16)', async ({ page }) => {
  await page.goto('/marketplace')
  expect(await page.locator('#filter-min-rating option').allTextContents()).toEqual([
    'Any rating',
    '4 stars & up',
    '3 stars & up',
    '2 stars & up',
    '1 star & up',
  ])
})

test('the empty state', async ({ page }) => {
  // A hidden listing's title word finds nothing: hidden listings never appear.
  await page.goto('/marketplace?search=retired')
  await expect(page.getByRole('heading', { name: 'No listings found' })).toBeVisible()
  await expect(page.getByText('Try adjusting your filters or search criteria')).toBeVisible()
  await page.getByRole('link', { name: 'Clear all filters' }).click()
  await expect(page).toHaveURL(endsWith('/marketplace'))
  await expect(cardTitles(page)).toHaveCount(24)
})

test('the theme is also kept in localStorage under "theme", as the spec says (issue 14.17)', async ({ page }) => {
  await page.goto('/marketplace')
  const stored = () => page.evaluate(() => localStorage.getItem('theme'))
  await expect.poll(stored).toBe('light')
  await waitForHydration(page)
  // The page turns dark at once; the reload below must wait for the cookie the server sets.
  const saved = page.waitForResponse(
    (response) => new URL(response.url()).pathname.startsWith('/action/set-theme') && response.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await saved
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expect.poll(stored).toBe('dark')
  // The cookie still decides the first paint; the mirror follows it.
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expect.poll(stored).toBe('dark')
  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await expect.poll(stored).toBe('light')
})

test("the demo storefront shows each listing's own pictures, not a placeholder (issue 14.16)", async ({ page }) => {
  // Oldest first: only demo listings (other tests add new ones, some without images); those of sellers who
  // cannot take payments (no or rejected bank details) are not in the marketplace (issue 26.13).
  await page.goto('/marketplace?sortBy=oldest')
  const grid = page.getByRole('list', { name: 'Listings' })
  await expect(cardTitles(page)).toHaveCount(24)
  await expect(grid.locator('.listing-card-placeholder')).toHaveCount(0)
  const sources = await grid.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('src')))
  expect(sources).toHaveLength(24)
  expect(new Set(sources).size).toBe(24)
  for (const src of sources) {
    expect(src).toMatch(/^\/uploads\/[a-f0-9]{32}\/card\.webp$/)
    const response = await page.request.get(src!)
    expect(response.status(), src!).toBe(200)
    expect(response.headers()['content-type']).toBe('image/webp')
  }
  // The first row is drawn at once.
  await expect
    .poll(() =>
      grid
        .locator('img')
        .first()
        .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
    )
    .toBe(640)

  await page.getByRole('link', { name: 'Remix Marketplace Template' }).click()
  await expect(page.getByRole('img', { name: 'Remix Marketplace Template — main image' })).toHaveAttribute(
    'src',
    /^\/uploads\/[a-f0-9]{32}\/full\.webp$/,
  )
  await expect(page.getByRole('list', { name: 'Screenshots' }).getByRole('listitem')).toHaveCount(2)
})
