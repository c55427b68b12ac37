import { expect, test, type Page } from '@playwright/test'
import { E2E_ENV } from '../../playwright.config'
import { axeViolations, DEMO, signIn } from './support'

// Updates after the sale (issue 30), without JavaScript, as people would do it: a seller publishes a
// release on the GitHub emulator's releases page of a demo repository the demo buyer bought (completed);
// the buyer sees the notification and the listing's Changelog; a seller without GitHub delivery
// publishes a version note by hand, the form's errors first. Each page is scanned by axe in both themes
// at 1280 and 390 px.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
test.use({ javaScriptEnabled: false })

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`
const GITHUB = `http://127.0.0.1:${E2E_ENV.GITHUB_EMULATOR_PORT}`
/** The demo: buyer@forkmarket.dev completed a purchase of this listing, delivered from this repository (db/seed/demo-github.ts). */
const GITHUB_LISTING = 'Documentation Site Starter'
const REPOSITORY = 'linstudio-templates/docs-starter'
/** The demo's LaunchKit listing is delivered by its seller (no repository). */
const MANUAL_LISTING = 'LaunchKit SaaS Starter'
const TAG = `v1.${run}`

/**
 * axe finds nothing on the page the journey is on, in both themes at 1280 and 390 px, and nothing scrolls
 * sideways. axe runs in the page, so it is scanned in a second context with JavaScript on and the same session.
 */
async function expectAccessible(page: Page) {
  const url = page.url()
  const origin = new URL(url).origin
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: true, storageState: await page.context().storageState() })
  const scan = await context.newPage()
  const found: string[] = []
  try {
    for (const theme of ['light', 'dark'] as const) {
      const set = await scan.request.post(`${origin}/action/set-theme`, { data: { theme }, headers: { Origin: origin } })
      expect(set.ok()).toBe(true)
      for (const width of [1280, 390]) {
        await scan.setViewportSize({ width, height: 900 })
        await scan.goto(url)
        found.push(...(await axeViolations(scan, `${url} [${theme}, ${width}px]`)))
        const overflow = await scan.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        if (overflow > 0) found.push(`${url} [${theme}, ${width}px] scrolls sideways by ${overflow}px`)
      }
    }
    await scan.request.post(`${origin}/action/set-theme`, { data: { theme: 'light' }, headers: { Origin: origin } })
  } finally {
    await context.close()
  }
  expect(found, found.join('\n')).toEqual([])
}

async function listingPath(page: Page, title: string): Promise<string> {
  await page.goto(`/marketplace?search=${encodeURIComponent(title)}`)
  const href = await page.getByRole('link', { name: title, exact: true }).first().getAttribute('href')
  expect(href).toMatch(/^\/listing\//)
  return href!
}

test('a seller publishes a release on GitHub; the buyer who owns the listing is told and sees the changelog', async ({ page }) => {
  // The seller, on GitHub's "Draft a new release" page of the repository.
  await page.goto(`${GITHUB}/${REPOSITORY}/releases`)
  await page.getByLabel('Tag').fill(TAG)
  await page.getByLabel('Release title (optional)').fill('Search built in')
  await page.getByLabel('Release notes (optional)').fill('Full-text search across every page.\nFaster builds.')
  await page.getByLabel('Publish as').selectOption('lin')
  await page.getByRole('button', { name: 'Publish release' }).click()
  await expect(page.getByText(`Release ${TAG} published.`)).toBeVisible()

  await signIn(page, { email: DEMO.buyer, fullName: 'Demo Buyer', from: '/notifications' })
  // The webhook lands a moment after the click.
  await expect(async () => {
    await page.goto('/notifications')
    await expect(page.getByText(`${GITHUB_LISTING} has a new version`).first()).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] })
  await expect(
    page.getByText(new RegExp(`${GITHUB_LISTING} ${TAG.replace('.', '\\.')} \\(Search built in\\) was published`)).first(),
  ).toBeVisible()
  await expectAccessible(page)

  await page.goto(await listingPath(page, GITHUB_LISTING))
  await expect(page.getByRole('heading', { name: new RegExp(`Latest version: ${TAG.replace('.', '\\.')}`) })).toBeVisible()
  const changelog = page.locator('#changelog')
  await expect(changelog.getByRole('heading', { name: 'Changelog' })).toBeVisible()
  await expect(changelog.getByText(TAG, { exact: true })).toBeVisible()
  await expect(changelog.getByText('Full-text search across every page.', { exact: false })).toBeVisible()
  // The rule of what a buyer keeps is stated beside the purchase.
  await expect(page.getByText('What you keep after buying')).toBeVisible()
  await expectAccessible(page)

  // Cards say when the listing was last updated; the marketplace sorts by it. Listings other workers create
  // meanwhile are newer still, so the cards before this one are those updated in the last minutes.
  await page.goto('/marketplace?sortBy=recently-updated')
  const recent = /^Updated (just now|\d+ minutes? ago)$/
  const cards = await page.locator('article.listing-card').all()
  const index = await (async () => {
    for (const [i, card] of cards.entries()) if (await card.getByRole('link', { name: GITHUB_LISTING }).count()) return i
    return -1
  })()
  expect(index, `${GITHUB_LISTING} is on the first page of Recently updated`).toBeGreaterThanOrEqual(0)
  for (const card of cards.slice(0, index + 1)) await expect(card.getByText(recent)).toBeVisible()
})

test('a seller without GitHub delivery publishes a version note by hand, with clear errors first', async ({ page }) => {
  await signIn(page, { email: DEMO.sellerWithBank, fullName: 'Ada Okafor', from: '/' })
  await page.goto(await listingPath(page, MANUAL_LISTING))
  await page.getByRole('link', { name: 'Versions' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Versions of “${MANUAL_LISTING}”` })).toBeVisible()

  await page.getByRole('button', { name: 'Publish version' }).click()
  await expect(page.getByText('Enter the version, e.g. 1.2.0')).toBeVisible()
  await expect(page.getByText('Say what changed in this version')).toBeVisible()
  await expectAccessible(page)

  await page.getByLabel('Version').fill(`2.${run}`)
  await page.getByLabel('What changed').fill('Stripe Checkout replaces the old billing page.')
  await page.getByRole('button', { name: 'Publish version' }).click()
  // Back on the versions page (the toast needs JavaScript), the note is in the changelog.
  await expect(page.getByRole('heading', { level: 1, name: `Versions of “${MANUAL_LISTING}”` })).toBeVisible()
  const changelog = page.locator('#changelog')
  await expect(changelog.getByText(`2.${run}`, { exact: true })).toBeVisible()
  await expect(changelog.getByText('Version note', { exact: false })).toBeVisible()

  // The same version again: refused, said beside the field.
  await page.getByLabel('Version').fill(`2.${run}`)
  await page.getByLabel('What changed').fill('Again')
  await page.getByRole('button', { name: 'Publish version' }).click()
  await expect(page.getByText(`You published version 2.${run} already: use a new version number`)).toBeVisible()
})
