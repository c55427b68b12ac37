import { expect, test, type Page } from '@playwright/test'
import { as, axeViolations, DEMO, signIn, uniqueEmail, waitForHydration } from './support'

// Issue 30: a report leads to a takedown, a counter-notice and a restore, every step a plain form
// post without JavaScript; then axe on the new screens, light and dark, 1280 and 390 px.

async function newListing(page: Page, title: string) {
  const response = await page.request.post('/api/listings', {
    data: { title, shortDescription: 'A moderation e2e listing.', type: 'template', priceCents: 2500, licence: 'personal' },
    headers: { Origin: new URL(page.url()).origin },
  })
  expect(response.status(), await response.text()).toBe(201)
  return (await response.json()) as { id: string; slug: string }
}

test('without JavaScript: a report, a takedown, a counter-notice and a restore', async ({ browser }) => {
  test.setTimeout(120_000)
  const title = `Zq Moderated Kit ${Date.now().toString(36)}`
  const seller = await as(browser, uniqueEmail('moderated'), 'Mo Seller')
  const listing = await newListing(seller.page, title)

  // A signed-in visitor reports it from the listing page.
  const reporter = await as(browser, uniqueEmail('reporter'), 'Rae Reporter', { javaScriptEnabled: false })
  await reporter.page.goto(`/listing/${listing.slug}`)
  await reporter.page.getByRole('link', { name: 'Report this listing' }).click()
  await expect(reporter.page.getByRole('heading', { name: 'Report this listing' })).toBeVisible()
  await reporter.page.getByRole('button', { name: 'Send report' }).click()
  await expect(reporter.page.getByText('Choose a reason')).toBeVisible()
  await reporter.page.getByRole('radio', { name: 'Copyright, or code the seller does not own' }).check()
  await reporter.page.getByLabel('Details').fill('This is my open-source project with the licence removed.')
  await reporter.page.getByRole('button', { name: 'Send report' }).click()
  await expect(reporter.page).toHaveURL(new RegExp(`/listing/${listing.slug}$`))
  // A second report of the same item while the first is open is refused.
  await reporter.page.goto(`/report?targetType=listing&targetId=${listing.id}`)
  await reporter.page.getByRole('radio', { name: 'Spam' }).check()
  await reporter.page.getByLabel('Details').fill('Again')
  await reporter.page.getByRole('button', { name: 'Send report' }).click()
  await expect(reporter.page.getByText('You have already reported this.')).toBeVisible()

  // The admin takes it down from the queue, with a reason the seller sees.
  const admin = await as(browser, DEMO.admin, 'Forkmarket Admin', { javaScriptEnabled: false })
  await admin.page.goto('/admin')
  await admin.page.getByRole('link', { name: 'Moderation' }).click()
  const item = admin.page.getByRole('article', { name: title })
  await expect(item).toContainText('This is my open-source project with the licence removed.')
  await expect(item.getByRole('definition').filter({ hasText: '@' })).toBeVisible()
  await item.getByLabel('Reason the seller sees').fill('The code belongs to another author; the licence was removed.')
  await item.getByRole('button', { name: 'Take down' }).click()
  // It leaves what is to decide, and is listed under what moderation hid, where it can be restored.
  await expect(admin.page.getByRole('region', { name: 'To decide' }).getByRole('article', { name: title })).toHaveCount(0)
  await expect(
    admin.page
      .getByRole('region', { name: 'Hidden by moderation' })
      .getByRole('article', { name: title })
      .getByRole('button', { name: 'Restore listing' }),
  ).toBeVisible()

  // Others no longer see it; the seller sees why and answers once.
  await reporter.page.goto(`/listing/${listing.slug}`)
  await expect(reporter.page.getByRole('heading', { name: 'Listing not found' })).toBeVisible()
  const sellerNoJs = await browser.newContext({ javaScriptEnabled: false, storageState: await seller.page.context().storageState() })
  const plain = await sellerNoJs.newPage()
  await plain.goto(`/listing/${listing.slug}`)
  await expect(plain.getByRole('alert').filter({ hasText: 'Taken down by Forkmarket' })).toContainText(
    'The code belongs to another author; the licence was removed.',
  )
  // The dashboard offers the takedown, not a switch that cannot show it (issue 30); the bell says why.
  await plain.goto('/seller/dashboard')
  const row = plain.getByRole('row', { name: new RegExp(title) })
  await expect(row.getByText('Taken down', { exact: true })).toBeVisible()
  await expect(row.getByRole('switch')).toHaveCount(0)
  await expect(row.getByRole('link', { name: `See why and answer of ${title}` })).toBeVisible()
  await plain.goto('/notifications')
  await expect(plain.getByText(`${title} left the marketplace: Copyright, or code the seller does not own.`)).toBeVisible()
  await plain.goto('/seller/dashboard')
  await plain.getByRole('link', { name: `See why and answer of ${title}` }).click()
  await plain.getByLabel('Your counter-notice').fill('I wrote this code: the repository history shows every commit since 2024.')
  await plain.getByRole('button', { name: 'Send counter-notice' }).click()
  await expect(plain.getByText('You answered; an admin will decide again.')).toBeVisible()
  await expect(plain.getByRole('button', { name: 'Send counter-notice' })).toHaveCount(0)

  // The admins are told of the answer.
  await admin.page.goto('/notifications')
  await expect(admin.page.getByText(`Mo Seller answered the takedown of ${title}: decide again.`)).toBeVisible()

  // The admin decides again: restore.
  await admin.page.goto('/admin/moderation')
  const contested = admin.page.getByRole('article', { name: title })
  await expect(contested).toContainText('I wrote this code')
  await contested.getByRole('form', { name: 'Restore listing' }).getByLabel('Note for the record').fill('The history shows it.')
  await contested.getByRole('button', { name: 'Restore listing' }).click()
  await expect(admin.page.getByRole('article', { name: title })).toHaveCount(0)
  await reporter.page.goto(`/listing/${listing.slug}`)
  await expect(reporter.page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
  await plain.goto(`/seller/takedowns/${new URL(plain.url()).pathname.split('/').pop()}`)
  await expect(plain.getByText('Restored: the listing is back as it was.')).toBeVisible()
  await plain.goto('/notifications')
  await expect(plain.getByText(`Forkmarket restored ${title}: it is as visible as it was before the takedown.`)).toBeVisible()
  await plain.goto('/seller/dashboard')
  await expect(
    plain.getByRole('row', { name: new RegExp(title) }).getByRole('switch', { name: `Show ${title} in the marketplace` }),
  ).toBeVisible()

  await sellerNoJs.close()
  await Promise.all([seller.close(), reporter.close(), admin.close()])
})

test('axe finds no violations on the report form, the moderation queue and the takedown page', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const title = `Zq Axe Moderated ${Date.now().toString(36)}`
  const seller = await as(browser, uniqueEmail('axe-moderated'), 'Axe Seller')
  const listing = await newListing(seller.page, title)
  await signIn(page, { email: DEMO.admin, fullName: 'Forkmarket Admin' })
  const origin = { Origin: new URL(page.url()).origin }
  // The admin reports it too (an admin is a signed-in user), so the queue has an item with a report.
  const reported = await page.request.post('/report', {
    form: { targetType: 'listing', targetId: listing.id, reason: 'malware', details: 'A postinstall script sends the environment away.' },
    headers: origin,
    maxRedirects: 0,
  })
  expect(reported.status()).toBe(302)
  const violations: string[] = []
  const scan = async (who: Page, path: string, theme: 'light' | 'dark') => {
    await who.setViewportSize({ width: 1280, height: 900 })
    await who.goto(path)
    await waitForHydration(who)
    for (const width of [1280, 390]) {
      await who.setViewportSize({ width, height: 900 })
      await who.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
      violations.push(...(await axeViolations(who, `${path} [${theme}, ${width}px]`)))
      if (width === 390) expect(await who.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
    }
  }
  for (const theme of ['light', 'dark'] as const) {
    for (const who of [page, seller.page]) {
      const response = await who.request.post('/action/set-theme', { data: { theme }, headers: { Origin: new URL(who.url()).origin } })
      expect(response.ok()).toBe(true)
    }
    await scan(page, `/report?targetType=listing&targetId=${listing.id}`, theme)
    await scan(page, '/admin/moderation', theme)
  }
  // Taken down: the seller's listing page and takedown page.
  await page.goto('/admin/moderation')
  const item = page.getByRole('article', { name: title })
  await item.getByLabel('Reason the seller sees').fill('Malware in the install script.')
  await item.getByRole('button', { name: 'Take down' }).click()
  await expect(page.getByRole('region', { name: 'To decide' }).getByRole('article', { name: title })).toHaveCount(0)
  for (const theme of ['light', 'dark'] as const) {
    const response = await seller.page.request.post('/action/set-theme', {
      data: { theme },
      headers: { Origin: new URL(seller.page.url()).origin },
    })
    expect(response.ok()).toBe(true)
    await scan(seller.page, `/listing/${listing.slug}`, theme)
    const link = seller.page.getByRole('link', { name: 'See the takedown and answer it' })
    await scan(seller.page, (await link.getAttribute('href'))!, theme)
    await scan(seller.page, '/seller/dashboard', theme)
  }
  expect(violations, violations.join('\n')).toEqual([])
  await seller.close()
})

test('a suspension needs a second admin; it signs the user out and hides their listings until lifted', async ({ browser }) => {
  test.setTimeout(150_000)
  const title = `Zq Suspended Kit ${Date.now().toString(36)}`
  const seller = await as(browser, uniqueEmail('suspended'), 'Sue Spended')
  const listing = await newListing(seller.page, title)
  const reporter = await as(browser, uniqueEmail('reporter'), 'Rae Reporter', { javaScriptEnabled: false })
  await reporter.page.goto(`/report?targetType=listing&targetId=${listing.id}`)
  await reporter.page.getByRole('radio', { name: 'Spam' }).check()
  await reporter.page.getByLabel('Details').fill('The same listing posted under many names.')
  await reporter.page.getByRole('button', { name: 'Send report' }).click()
  await expect(reporter.page).toHaveURL(new RegExp(`/listing/${listing.slug}$`))

  // The first admin requests it; they cannot approve their own request.
  const first = await as(browser, DEMO.admin, 'Forkmarket Admin', { javaScriptEnabled: false })
  await first.page.goto('/admin/moderation')
  const item = first.page.getByRole('article', { name: title })
  await item.getByLabel('Why suspend').fill('Spams the marketplace with copies.')
  await item.getByRole('button', { name: 'Request suspension' }).click()
  const pending = first.page.getByRole('region', { name: 'Suspensions' }).getByRole('article', { name: /Sue Spended/ })
  await expect(pending).toContainText('Waiting for a second admin to approve it.')
  await expect(pending.getByRole('button', { name: 'Approve suspension' })).toHaveCount(0)
  // Still signed in, still listed.
  await seller.page.goto('/purchases')
  await expect(seller.page).toHaveURL(/\/purchases$/)

  // The second admin approves: the seller is signed out and their listing is gone.
  const second = await as(browser, DEMO.secondAdmin, 'Forkmarket Finance', { javaScriptEnabled: false })
  await second.page.goto('/admin/moderation')
  await second.page.getByRole('region', { name: 'Suspensions' }).getByRole('button', { name: 'Approve suspension' }).click()
  await expect(second.page.getByRole('region', { name: 'Suspensions' })).toContainText('Suspended by @')
  await seller.page.goto('/purchases')
  await expect(seller.page).toHaveURL(/\/login\?redirectTo=%2Fpurchases$/)
  await reporter.page.goto(`/listing/${listing.slug}`)
  await expect(reporter.page.getByRole('heading', { name: 'Listing not found' })).toBeVisible()

  // Axe on the queue with the Suspensions section (axe runs in the page: a context with JavaScript),
  // light and dark, 1280 and 390 px.
  const look = await as(browser, DEMO.secondAdmin, 'Forkmarket Finance')
  const violations: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    const origin = { Origin: new URL(look.page.url()).origin }
    expect((await look.page.request.post('/action/set-theme', { data: { theme }, headers: origin })).ok()).toBe(true)
    await look.page.setViewportSize({ width: 1280, height: 900 })
    await look.page.goto('/admin/moderation')
    await waitForHydration(look.page)
    for (const width of [1280, 390]) {
      await look.page.setViewportSize({ width, height: 900 })
      await look.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
      violations.push(...(await axeViolations(look.page, `/admin/moderation suspensions [${theme}, ${width}px]`)))
      if (width === 390) expect(await look.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    }
  }
  await look.close()
  expect(violations, violations.join('\n')).toEqual([])

  // Lifted (one admin is enough): the listing is back.
  const active = second.page.getByRole('region', { name: 'Suspensions' }).getByRole('article', { name: /Sue Spended/ })
  await active.getByLabel('Note for the record').fill('Appeal accepted.')
  await active.getByRole('button', { name: 'Lift suspension' }).click()
  await expect(second.page.getByRole('region', { name: 'Suspensions' })).toHaveCount(0)
  await reporter.page.goto(`/listing/${listing.slug}`)
  await expect(reporter.page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
  await Promise.all([seller.close(), reporter.close(), first.close(), second.close()])
})
