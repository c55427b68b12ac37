import { expect, test, type Browser, type Page } from '@playwright/test'
import sharp from 'sharp'
import { signIn, uniqueEmail, untilAnonymousPageIsFresh } from './support'

// Listings (issue 4): the full form with images, the listing page, edit,
// main image, hide and delete — with JavaScript, and a create without it.

async function png(name: string, color: { r: number; g: number; b: number }) {
  const buffer = await sharp({ create: { width: 800, height: 500, channels: 3, background: color } })
    .png()
    .toBuffer()
  return { name, mimeType: 'image/png', buffer }
}

/**
 * Signs in through a JavaScript-enabled context and hands its session cookies
 * to `page` (the sign-in redirect to the identity provider needs JavaScript
 * today, see the report on CSP form-action).
 */
async function signInWithoutJs(browser: Browser, page: Page, email: string, fullName = '') {
  const context = await browser.newContext({ javaScriptEnabled: true })
  await signIn(await context.newPage(), { email, fullName })
  await page.context().addCookies((await context.storageState()).cookies)
  await context.close()
}

async function pick(page: Page, group: string, search: string, option: string) {
  const fieldset = page.getByRole('group', { name: group })
  await fieldset.getByRole('searchbox').fill(search)
  await fieldset.getByRole('checkbox', { name: option, exact: true }).check()
  await fieldset.getByRole('searchbox').fill('')
}

test('create a listing with images and every section, see it, edit it, change the main image, hide it, delete it', async ({
  page,
  browser,
}) => {
  const title = `Zen Habit Tracker ${Date.now().toString(36)}`
  await signIn(page, { email: uniqueEmail('seller'), fullName: 'Sam Seller' })
  await page.goto('/seller/create')
  await expect(page.getByRole('heading', { level: 1, name: 'Create New Listing' })).toBeVisible()
  await expect(page).toHaveTitle('Create New Listing · Forkmarket')
  // No bank details yet: the seller is told before creating that buyers won't be able to buy (issue 14.11).
  const setupNotice = page.getByRole('alert').filter({ hasText: 'Add bank details to receive payouts' })
  await expect(setupNotice).toContainText('Your listing won’t be purchasable until you add your bank details')
  await expect(setupNotice.getByRole('link', { name: 'Add Bank Details' })).toHaveAttribute('href', '/profile')
  for (const section of [
    'Basic Information',
    'Pricing & License',
    'Technical Details',
    'Media & Links',
    'Support & Delivery',
    'Visibility',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible()
  }

  // Basic Information
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByLabel('Short description', { exact: true }).fill('Build habits that stick, with streaks and reminders.')
  await page
    .getByLabel('Long description', { exact: true })
    .fill('A calm habit tracker.\n\nShips with push reminders and a streak calendar.')
  await page.getByLabel('Type', { exact: true }).selectOption('full_site')
  await page.getByLabel('Tags', { exact: true }).fill('habits, productivity')

  // Pricing & License: the spec message first, then a valid price
  await page.getByLabel('Price (USD)', { exact: true }).fill('0')
  await page.getByLabel('Price (USD)', { exact: true }).blur()
  await expect(page.getByText('Price must be at least $0.01')).toBeVisible()
  await page.getByLabel('Price (USD)', { exact: true }).fill('49.99')
  await page.getByLabel('Licence', { exact: true }).selectOption('commercial')

  // Technical Details: search, pick, and a custom value (trimmed, no duplicates)
  await pick(page, 'Languages', 'type', 'TypeScript')
  const languages = page.getByRole('group', { name: 'Languages' })
  await languages.getByRole('button', { name: 'Add custom language' }).click()
  await languages.getByRole('textbox', { name: 'Custom language' }).fill('  typescript ')
  await languages.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(languages.getByText('typescript is already selected')).toBeVisible()
  await languages.getByRole('textbox', { name: 'Custom language' }).fill('  Zig ')
  await languages.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(languages.getByRole('list', { name: 'Selected languages' }).getByText('Zig')).toBeVisible()
  await languages.getByRole('button', { name: 'Add custom language' }).click()
  await languages.getByRole('button', { name: 'Cancel' }).click()
  await expect(languages.getByRole('textbox', { name: 'Custom language' })).toHaveCount(0)
  await pick(page, 'Frameworks', 'react', 'React Router')
  await pick(page, 'Dependencies & services', 'post', 'PostgreSQL')

  // Media & Links: two images
  await expect(page.getByText('5MB each, JPG, PNG or WebP')).toBeVisible()
  await page
    .getByLabel('Upload images', { exact: true })
    .setInputFiles([await png('one.png', { r: 200, g: 40, b: 40 }), await png('two.png', { r: 40, g: 40, b: 200 })])
  // Success toasts are announced politely (role=status) in the notifications region.
  const notifications = page.getByRole('region', { name: 'Notifications (F8)' })
  await expect(notifications.getByRole('status').getByText('2 images uploaded successfully', { exact: true })).toBeVisible()
  await notifications.getByRole('button', { name: 'Dismiss notification' }).click()
  await expect(notifications.getByText('2 images uploaded successfully')).toHaveCount(0)
  const gallery = page.getByRole('list', { name: 'Listing images' })
  await expect(gallery.getByRole('listitem')).toHaveCount(2)
  await expect(gallery.getByRole('listitem').first().getByText('Main')).toBeVisible()
  await page.getByLabel('Demo URL', { exact: true }).fill('https://demo.example.com/zen')

  // Support & Delivery: conditional fields appear with their switch
  await expect(page.getByLabel('Setup call details', { exact: true })).toBeHidden()
  await page.getByRole('switch', { name: 'Setup call available' }).check()
  await page.getByLabel('Setup call details', { exact: true }).fill('A 30-minute onboarding call')
  await page.getByRole('switch', { name: 'Email support available' }).check()
  await page.getByLabel('Email support duration', { exact: true }).selectOption('30-days')
  await expect(page.getByLabel('Private delivery link', { exact: true })).toBeHidden()
  await page.getByLabel('Delivery timeframe', { exact: true }).selectOption('instant')
  await page.getByLabel('Private delivery link', { exact: true }).fill('https://github.com/sam/zen-private')
  await page.getByRole('switch', { name: 'Bespoke development available' }).check()
  await page.getByLabel('Hourly rate (USD)', { exact: true }).fill('90')
  await page.getByLabel('Additional notes', { exact: true }).fill('Happy to help with deployment.')
  await expect(page.getByRole('switch', { name: 'Visible in the marketplace' })).toBeChecked()

  await page.getByRole('button', { name: 'Create Listing' }).click()
  await expect(page).toHaveURL(/\/listing\/zen-habit-tracker-/)
  const listingUrl = page.url()
  // Not "now live": the toast and the owner's page say buyers can't purchase it yet, with the way to fix it.
  await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toContainText(
    'Your listing is saved, but it is not in the marketplace and buyers can’t purchase it until you add your bank details on your profile.',
  )
  const ownerNotice = page.getByRole('alert').filter({ hasText: 'Buyers can’t purchase this listing until you add your bank details' })
  await expect(ownerNotice.getByRole('link', { name: 'Add Bank Details' })).toHaveAttribute('href', '/profile')

  // The page shows exactly what was entered
  await expect(page).toHaveTitle(`${title} · Forkmarket`)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.getByText('Build habits that stick, with streaks and reminders.')).toBeVisible()
  const aside = page.getByRole('complementary', { name: 'Purchase' })
  await expect(aside.getByText('$49.99')).toBeVisible()
  await expect(aside.getByText('Commercial')).toBeVisible()
  await expect(aside.getByText('Full Site')).toBeVisible()
  await expect(aside.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', 'https://demo.example.com/zen')
  await expect(aside.getByText('Sam Seller')).toBeVisible()
  await expect(aside.getByRole('list', { name: 'Tags' })).toHaveText(/habits\s*productivity/)
  await expect(page.getByRole('button', { name: 'Buy Now' })).toHaveCount(0)
  await expect(aside.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
  const highlights = page.getByRole('list', { name: 'Tech stack highlights' })
  for (const name of ['TypeScript', 'Zig', 'React Router', 'PostgreSQL'])
    await expect(highlights.getByText(name, { exact: true })).toBeVisible()
  await expect(highlights.locator('img[src="/tech-icons/typescript.svg"]')).toHaveCount(1)
  await expect(page.getByText('A calm habit tracker.')).toBeVisible()
  // Tabs follow the ARIA pattern: arrow keys move and select, only the active tab is in the tab order.
  await page.getByRole('tab', { name: 'Description' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('tab', { name: 'Tech Stack' })).toBeFocused()
  await expect(page.getByRole('tab', { name: 'Tech Stack' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name: 'Tech Stack' })).toBeVisible()
  await expect(page.getByRole('tabpanel', { name: 'Description' })).toBeHidden()
  await expect(page.getByRole('tab', { name: 'Description' })).toHaveAttribute('tabindex', '-1')
  await page.keyboard.press('End')
  await expect(page.getByRole('tab', { name: 'Support' })).toBeFocused()
  await page.getByRole('tab', { name: 'Support' }).click()
  const support = page.getByRole('tabpanel', { name: 'Support' })
  for (const text of ['A 30-minute onboarding call', '30 days', 'Instant', '$90.00/hour', 'Happy to help with deployment.']) {
    await expect(support.getByText(text)).toBeVisible()
  }
  await expect(page.locator('body')).not.toContainText('zen-private')
  const mainImage = page.getByRole('img', { name: `${title} — main image` })
  const firstImage = await mainImage.getAttribute('src')
  expect(firstImage).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
  await expect(page.getByRole('list', { name: 'Screenshots' }).getByRole('listitem')).toHaveCount(1)

  // A visitor who is not the owner: no dead-end Buy Now while the seller cannot take payments…
  const visitor = await browser.newContext()
  const visitorPage = await visitor.newPage()
  await visitorPage.goto(listingUrl)
  const visitorAside = visitorPage.getByRole('complementary', { name: 'Purchase' })
  await expect(visitorAside.getByText('Not yet available to buy')).toBeVisible()
  await expect(visitorPage.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
  // …and Buy Now once the seller's bank details are on file.
  // A cookie-authenticated write names its Origin, as a browser does (issue 14.8).
  const bank = await page.request.post('/api/profile/bank-details', {
    data: { country: 'GB', accountHolder: 'Sam Seller', bankName: 'Monzo', sortCode: '040004', accountNumber: '31415926' },
    headers: { Origin: new URL(page.url()).origin },
  })
  expect(bank.status(), await bank.text()).toBe(200)
  const buy = visitorPage.getByRole('link', { name: 'Buy Now' })
  await untilAnonymousPageIsFresh(async () => {
    await visitorPage.reload()
    await expect(buy).toHaveAttribute('href', /^\/checkout\/[0-9a-f-]{36}$/, { timeout: 1_000 })
  })
  await expect(visitorAside.getByText('Not yet available to buy')).toHaveCount(0)
  await expect(visitorPage.getByRole('link', { name: 'Edit Listing' })).toHaveCount(0)
  await page.reload()
  await expect(ownerNotice).toHaveCount(0)

  // Edit: new title, same slug
  await page.getByRole('link', { name: 'Edit Listing' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Listing' })).toBeVisible()
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)
  await expect(page.getByLabel('Price (USD)', { exact: true })).toHaveValue('49.99')
  await expect(page.getByLabel('Private delivery link', { exact: true })).toHaveValue('https://github.com/sam/zen-private')
  await page.getByLabel('Title', { exact: true }).fill(`${title} Pro`)
  // Set the other image as main
  await page.getByRole('button', { name: 'Set image 2 as Main' }).click()
  await expect(page.getByText('This image will be used as the listing thumbnail', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Update Listing' }).click()
  await expect(page).toHaveURL(listingUrl)
  await expect(page.getByRole('heading', { level: 1, name: `${title} Pro` })).toBeVisible()
  const newMain = await page.getByRole('img', { name: `${title} Pro — main image` }).getAttribute('src')
  expect(newMain).not.toBe(firstImage)
  expect(newMain).toMatch(/full\.webp$/)

  // Hide: gone for others, still visible (and marked) for the owner
  await page.getByRole('link', { name: 'Edit Listing' }).click()
  await page.getByRole('switch', { name: 'Visible in the marketplace' }).uncheck()
  await page.getByRole('button', { name: 'Update Listing' }).click()
  await expect(page).toHaveURL(listingUrl)
  await expect(page.getByText('Hidden', { exact: true })).toBeVisible()
  await untilAnonymousPageIsFresh(async () => {
    const hiddenResponse = await visitorPage.goto(listingUrl)
    expect(hiddenResponse?.status()).toBe(404)
  })
  await expect(visitorPage.getByRole('heading', { name: 'Listing not found' })).toBeVisible()
  await expect(visitorPage.getByText("The listing you're looking for doesn't exist")).toBeVisible()
  await expect(visitorPage.getByRole('link', { name: 'Back to Marketplace' })).toHaveAttribute('href', '/')
  await visitor.close()

  // Delete with the confirmation dialog
  await page.getByRole('button', { name: 'Delete Listing' }).click()
  const dialog = page.getByRole('alertdialog')
  await expect(dialog).toContainText(`Are you sure you want to delete "${title} Pro"? This action cannot be undone.`)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Delete Listing' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page).toHaveURL(/\/seller\/dashboard$/)
  await expect(page.getByText('Listing Deleted', { exact: true })).toBeVisible()
  await expect(page.getByText('Your listing has been deleted successfully.', { exact: true })).toBeVisible()
  expect((await page.goto(listingUrl))?.status()).toBe(404)
})

test('another signed-in user cannot open the edit page', async ({ page, browser }) => {
  await signIn(page, { email: uniqueEmail('seller') })
  await page.goto('/create-listing')
  await page.getByLabel('Title', { exact: true }).fill('Owner Only Kit')
  await page.getByLabel('Short description', { exact: true }).fill('Mine.')
  await page.getByLabel('Price (USD)', { exact: true }).fill('5')
  await page.getByRole('button', { name: 'Create Listing' }).click()
  await page.getByRole('link', { name: 'Edit Listing' }).click()
  await expect(page).toHaveURL(/\/seller\/edit\/[0-9a-f-]{36}$/)
  const editUrl = page.url()
  await expect(page.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/seller/dashboard')

  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signIn(otherPage, { email: uniqueEmail('intruder') })
  // Someone else's visible listing: 403 with why (one ownership rule on every surface, issue 15.3).
  expect((await otherPage.goto(editUrl))?.status()).toBe(403)
  await expect(otherPage.getByRole('heading', { level: 1, name: 'Not your listing' })).toBeVisible()
  await expect(otherPage.getByText('You can only edit your own listings.')).toBeVisible()
  await expect(otherPage.getByLabel('Title', { exact: true })).toHaveCount(0)
  await other.close()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('create a listing with an image, then delete it through the confirm step', async ({ page, browser }) => {
    await signInWithoutJs(browser, page, uniqueEmail('nojs'), 'No Script')
    await page.goto('/seller/create')
    await expect(page.getByRole('heading', { level: 1, name: 'Create New Listing' })).toBeVisible()
    await page.getByLabel('Title', { exact: true }).fill('Plain HTML Starter')
    await page.getByLabel('Short description', { exact: true }).fill('Works without scripts.')
    await page.getByLabel('Price (USD)', { exact: true }).fill('19.5')
    await page.getByRole('group', { name: 'Languages' }).getByRole('checkbox', { name: 'HTML', exact: true }).check()
    await page.getByLabel('Other language (not in the list)', { exact: true }).fill('Zig')
    // Every conditional field is visible without JavaScript; switched off, they are ignored.
    await page.getByLabel('Hourly rate (USD)', { exact: true }).fill('-5')
    await page.getByLabel('Add images', { exact: true }).setInputFiles([await png('nojs.png', { r: 20, g: 160, b: 90 })])
    await page.getByRole('button', { name: 'Create Listing' }).click()

    await expect(page).toHaveURL(/\/listing\/plain-html-starter/)
    await expect(page.getByRole('heading', { level: 1, name: 'Plain HTML Starter' })).toBeVisible()
    await expect(page.getByText('$19.50')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Tech stack highlights' })).toContainText('Zig')
    const main = page.getByRole('img', { name: 'Plain HTML Starter — main image' })
    await expect(main).toHaveAttribute('src', /^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
    const image = await page.request.get((await main.getAttribute('src'))!)
    expect(image.headers()['content-type']).toBe('image/webp')

    await page.getByRole('link', { name: 'Delete Listing' }).click()
    await expect(page.getByRole('alertdialog')).toContainText(
      'Are you sure you want to delete "Plain HTML Starter"? This action cannot be undone.',
    )
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(page).toHaveURL(/\/seller\/dashboard$/)
  })

  test('a validation error keeps what was entered', async ({ page, browser }) => {
    await signInWithoutJs(browser, page, uniqueEmail('nojs-err'))
    await page.goto('/seller/create')
    await page.getByLabel('Title', { exact: true }).fill('Half Done')
    await page.getByLabel('Price (USD)', { exact: true }).fill('0')
    await page.getByRole('button', { name: 'Create Listing' }).click()
    await expect(page.getByText('Price must be at least $0.01')).toBeVisible()
    await expect(page.getByText('Required').first()).toBeVisible()
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Half Done')
  })
})

// Issue 14.15: form details a new seller runs into.
test('a long title is shown whole with a counter and a message, and a bad image does not cost the good ones', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('details') })
  await page.goto('/seller/create')
  const title = page.getByLabel('Title', { exact: true })
  await expect(title).toHaveAccessibleDescription('0/120 characters')
  await title.fill('x'.repeat(5000))
  // Not cut at 120: the seller sees how much is too much, and why it can't be saved.
  expect((await title.inputValue()).length).toBe(5000)
  await expect(title).toHaveAccessibleDescription(/5,000\/120 characters: 4,880 too many/)
  await title.blur()
  await expect(page.getByText('Title must be at most 120 characters')).toBeVisible()
  await expect(title).toHaveAttribute('aria-invalid', 'true')
  await title.fill('Zen Timer')
  await expect(page.getByText('Title must be at most 120 characters')).toHaveCount(0)
  await expect(title).toHaveAccessibleDescription(/9\/120 characters/)
  await expect(page.getByText('0/300 characters')).toBeVisible()

  await page
    .getByLabel('Upload images', { exact: true })
    .setInputFiles([
      await png('good.png', { r: 30, g: 120, b: 200 }),
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just text, not an image') },
    ])
  const notifications = page.getByRole('region', { name: 'Notifications (F8)' })
  await expect(notifications.getByText('1 image uploaded successfully', { exact: true })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Listing images' }).getByRole('listitem')).toHaveCount(1)
  const refused = page.getByRole('alert').filter({ hasText: '1 file was not uploaded' })
  await expect(refused).toContainText('“notes.png” is not a JPG, PNG or WebP image')
})

test.describe('without JavaScript: custom tech values', () => {
  test.use({ javaScriptEnabled: false })

  test('"Add" adds custom values one after another, and Enter in a field still saves (issue 14.15)', async ({ page, browser }) => {
    await signInWithoutJs(browser, page, uniqueEmail('nojs-custom'))
    await page.goto('/seller/create')
    const titleText = `Custom Stack Kit ${Date.now().toString(36)}`
    await page.getByLabel('Title', { exact: true }).fill(titleText)
    await page.getByLabel('Price (USD)', { exact: true }).fill('12')
    const languages = page.getByRole('group', { name: 'Languages' })
    await languages.getByLabel('Other language (not in the list)', { exact: true }).fill('  Zig ')
    await languages.getByRole('button', { name: 'Add custom language' }).click()
    await expect(languages.getByRole('checkbox', { name: 'Zig', exact: true })).toBeChecked()
    await expect(languages.getByLabel('Other language (not in the list)', { exact: true })).toHaveValue('')
    // A step of filling in the form, not a failed save: no errors on the fields not yet filled in.
    await expect(page.getByText('Required')).toHaveCount(0)
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(titleText)
    await languages.getByLabel('Other language (not in the list)', { exact: true }).fill('Elm')
    await languages.getByRole('button', { name: 'Add custom language' }).click()
    await expect(languages.getByRole('checkbox', { name: 'Zig', exact: true })).toBeChecked()
    await expect(languages.getByRole('checkbox', { name: 'Elm', exact: true })).toBeChecked()

    await page.getByLabel('Short description', { exact: true }).fill('Two custom languages.')
    await page.getByLabel('Short description', { exact: true }).press('Enter')
    await expect(page).toHaveURL(/\/listing\/custom-stack-kit-/)
    const highlights = page.getByRole('list', { name: 'Tech stack highlights' })
    await expect(highlights.getByText('Zig', { exact: true })).toBeVisible()
    await expect(highlights.getByText('Elm', { exact: true })).toBeVisible()
  })
})
