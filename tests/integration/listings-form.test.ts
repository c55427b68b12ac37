import { beforeEach, describe, expect, it } from 'vitest'
import * as createRoute from '../../app/routes/listing-create.tsx'
import * as editRoute from '../../app/routes/listing-edit.tsx'
import * as listingPage from '../../app/routes/listing.tsx'
import { getDeliveryUrl, getListingById, getListingBySlug } from '../../app/server/domain/listings.server.ts'
import { setAvatar } from '../../app/server/domain/seller-profiles.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { file, formPost, makeImage, recordSale, signUp, storedFiles, useTemporaryUploads } from './listings-support.ts'

let uploads: string

beforeEach(() => {
  uploads = useTemporaryUploads() // a fresh, empty bucket
})

/** The form as a browser without JavaScript posts it (every field visible). */
function formFields(overrides: Record<string, string | string[] | null> = {}) {
  const fields: Record<string, string | string[] | null> = {
    title: 'Invoice Tracker',
    shortDescription: 'Invoices and payments for freelancers.',
    longDescription: 'First paragraph.\n\nSecond paragraph.',
    type: 'full_site',
    tags: 'invoicing, freelance',
    price: '79.99',
    licence: 'commercial',
    languages: ['TypeScript', ''],
    frameworks: ['SvelteKit', 'My Own Framework'],
    dependencies: ['Supabase'],
    demoUrl: 'https://demo.example.com',
    setupCallAvailable: 'on',
    setupCallDetails: 'A 30-minute call',
    emailSupportAvailable: 'on',
    emailSupportDuration: '90-days',
    deliveryTimeframe: 'instant',
    deliveryUrl: 'https://github.com/me/invoice-tracker',
    bespokeDevelopmentAvailable: 'on',
    bespokeDevelopmentRate: '95',
    additionalNotes: 'Ask me anything.',
    visible: 'on',
    ...overrides,
  }
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    if (value === null) continue
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v)
  }
  return form
}

async function postCreate(form: FormData, token?: string) {
  return callRoute(createRoute, formPost('/seller/create', form, token))
}

function postEdit(id: string, form: FormData, token?: string) {
  return callRoute(editRoute, formPost(`/seller/edit/${id}`, form, token), { id })
}

async function errorsOf(response: Response): Promise<Record<string, string[]>> {
  expect(response.status).toBe(400)
  const body = await response.json()
  return body.result.error
}

async function createViaForm(token: string, overrides: Record<string, string | string[] | null> = {}, files: File[] = []) {
  const form = formFields(overrides)
  for (const f of files) form.append('images', f)
  const response = await postCreate(form, token)
  expect(response.status, await response.clone().text()).toBe(302)
  const slug = response.headers.get('Location')!.replace('/listing/', '')
  return (await getListingBySlug(slug))!
}

describe('create screen (multipart form, works without JavaScript)', () => {
  it('creates the listing with its images, price in dollars → cents, and redirects to its page', async () => {
    const seller = await signUp('form-seller@example.com')
    const listing = await createViaForm(seller.token, {}, [
      file(await makeImage('png'), 'one.png'),
      file(await makeImage('jpeg'), 'two.jpg', 'image/jpeg'),
    ])
    expect(listing).toMatchObject({
      title: 'Invoice Tracker',
      slug: 'invoice-tracker',
      type: 'full_site',
      priceCents: 7999,
      licence: 'commercial',
      tags: ['invoicing', 'freelance'],
      languages: ['TypeScript'],
      frameworks: ['SvelteKit', 'My Own Framework'],
      dependencies: ['Supabase'],
      setupCallDetails: 'A 30-minute call',
      emailSupportDuration: '90-days',
      bespokeDevelopmentRateCents: 9500,
      visible: true,
      sellerId: seller.id,
    })
    expect(listing.screenshots).toHaveLength(2)
    expect(listing.thumbnailUrl).toBe(listing.screenshots[0])
    expect(storedFiles(uploads)).toHaveLength(4)
    expect(await getDeliveryUrl(listing.id)).toBe('https://github.com/me/invoice-tracker')
  })

  it('sends the toast cookie with the redirect', async () => {
    const seller = await signUp('toast@example.com')
    const response = await postCreate(formFields(), seller.token)
    expect(response.headers.get('Set-Cookie')).toMatch(/fm_toast=/)
  })

  it('rounds the price to cents and shows the spec messages', async () => {
    const seller = await signUp('price@example.com')
    expect((await createViaForm(seller.token, { price: '12.345' })).priceCents).toBe(1235)
    expect((await errorsOf(await postCreate(formFields({ price: '0' }), seller.token))).price).toEqual(['Price must be at least $0.01'])
    expect((await errorsOf(await postCreate(formFields({ price: '0.004' }), seller.token))).price).toEqual(['Price must be at least $0.01'])
    expect((await errorsOf(await postCreate(formFields({ price: '' }), seller.token))).price).toEqual(['Required'])
    expect((await errorsOf(await postCreate(formFields({ price: 'abc' }), seller.token))).price).toEqual(['Price must be a number'])
  })

  it('refuses what is not a plain dollar amount, and prices no card can be charged (issue 14.8)', async () => {
    const seller = await signUp('price-limits@example.com')
    const priceError = async (price: string) => (await errorsOf(await postCreate(formFields({ price }), seller.token))).price
    for (const notANumber of ['0x10', '1e3', 'Infinity', '1,000', '$5', '12.3.4']) {
      expect(await priceError(notANumber), notANumber).toEqual(['Price must be a number'])
    }
    expect(await priceError('-5')).toEqual(['Price must be at least $0.01'])
    for (const belowCardMinimum of ['0.01', '0.005', '0.49', '0.494']) {
      expect(await priceError(belowCardMinimum), belowCardMinimum).toEqual([
        'Card payments start at $0.50: the price must be at least $0.50',
      ])
    }
    for (const tooHigh of ['1000000', '999999.995', '99999999999999999999']) {
      expect(await priceError(tooHigh), tooHigh).toEqual(['Price must be at most $999,999.99, the largest card payment'])
    }
    expect((await createViaForm(seller.token, { price: '0.495', title: 'Fifty cents' })).priceCents).toBe(50)
    expect((await createViaForm(seller.token, { price: '999999.99', title: 'Top price' })).priceCents).toBe(99_999_999)
  })

  it('refuses a title over 120 characters with a message instead of cutting it (issue 14.15)', async () => {
    const seller = await signUp('long-title@example.com')
    const response = await postCreate(formFields({ title: 'x'.repeat(5000) }), seller.token)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.result.error.title).toEqual(['Title must be at most 120 characters'])
    // The whole text comes back to the form, so the seller sees what to shorten.
    expect(body.result.initialValue.title).toHaveLength(5000)
    expect(await db.selectFrom('listings').select('id').execute()).toEqual([])
  })

  it('without JavaScript, "Add" of a custom tech value posts the form back with it selected and saves nothing (issue 14.15)', async () => {
    const seller = await signUp('add-custom@example.com')
    const form = formFields({ title: '', languages: ['TypeScript', ' Zig '] })
    form.append('__intent__', JSON.stringify({ type: 'validate', payload: { name: 'languages' } }))
    const response = await postCreate(form, seller.token)
    expect(response.status).toBe(200)
    const { result } = await response.json()
    expect(result.intent).toEqual({ type: 'validate', payload: { name: 'languages' } })
    expect(result.initialValue.languages).toEqual(['TypeScript', ' Zig '])
    expect(result.initialValue.price).toBe('79.99')
    expect(await db.selectFrom('listings').select('id').execute()).toEqual([])
  })

  it('reports every invalid field at once', async () => {
    const seller = await signUp('many@example.com')
    const errors = await errorsOf(
      await postCreate(
        formFields({
          title: '',
          shortDescription: ' ',
          demoUrl: 'nope',
          emailSupportDuration: '',
          deliveryUrl: '',
          bespokeDevelopmentRate: '-5',
        }),
        seller.token,
      ),
    )
    expect(errors).toMatchObject({
      title: ['Required'],
      shortDescription: ['Required'],
      demoUrl: ['Enter a valid URL (http:// or https://)'],
      emailSupportDuration: ['Required'],
      deliveryUrl: ['Instant delivery needs a private delivery link'],
      bespokeDevelopmentRate: ['Hourly rate must be at least $0'],
    })
    expect(await db.selectFrom('listings').select('id').execute()).toEqual([])
  })

  it('ignores conditional fields whose switch is off (all fields post without JavaScript)', async () => {
    const seller = await signUp('off@example.com')
    const listing = await createViaForm(seller.token, {
      setupCallAvailable: null,
      emailSupportAvailable: null,
      bespokeDevelopmentAvailable: null,
      deliveryTimeframe: '24-hours',
      // These would be invalid if they counted:
      emailSupportDuration: '',
      bespokeDevelopmentRate: '-3',
    })
    expect(listing).toMatchObject({
      setupCallAvailable: false,
      setupCallDetails: null,
      emailSupportAvailable: false,
      emailSupportDuration: null,
      bespokeDevelopmentAvailable: false,
      bespokeDevelopmentRateCents: null,
    })
    expect(await getDeliveryUrl(listing.id)).toBeNull()
  })

  it('an empty bespoke rate is unset; visible off hides the listing', async () => {
    const seller = await signUp('rate-form@example.com')
    const listing = await createViaForm(seller.token, { bespokeDevelopmentRate: '', visible: null })
    expect(listing.bespokeDevelopmentRateCents).toBeNull()
    expect(listing.visible).toBe(false)
  })

  it('ignores forbidden fields posted with the form', async () => {
    const seller = await signUp('forged@example.com')
    const victim = await signUp('forged-victim@example.com')
    const listing = await createViaForm(seller.token, {
      sellerId: victim.id,
      slug: 'mine',
      id: crypto.randomUUID(),
      createdAt: '2000-01-01',
    })
    expect(listing.sellerId).toBe(seller.id)
    expect(listing.slug).toBe('invoice-tracker')
    expect(listing.createdAt.getFullYear()).toBeGreaterThan(2020)
  })

  it('stores the valid images of a batch and names the refused ones; saves nothing until they are dealt with (issue 14.15)', async () => {
    const seller = await signUp('badimg@example.com')
    const form = formFields()
    form.append('images', file(await makeImage('png'), 'ok.png'))
    form.append('images', file('plain text', 'fake.png'))
    const response = await postCreate(form, seller.token)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.result.error.images).toEqual(['Not uploaded: “fake.png” is not a JPG, PNG or WebP image'])
    expect(body.uploadedImages).toHaveLength(1)
    expect(storedFiles(uploads)).toHaveLength(2)
    expect(await db.selectFrom('listings').select('id').execute()).toEqual([])
    // The retry carries the stored image (as the re-rendered form does) and saves.
    const retried = await createViaForm(seller.token, { screenshots: body.uploadedImages })
    expect(retried.screenshots).toEqual(body.uploadedImages)
  })

  it('keeps good images stored when another field is wrong, for the retry', async () => {
    const seller = await signUp('retry@example.com')
    const form = formFields({ title: '' })
    form.append('images', file(await makeImage('png'), 'ok.png'))
    const response = await postCreate(form, seller.token)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.uploadedImages).toHaveLength(1)
    const retried = await createViaForm(seller.token, { screenshots: body.uploadedImages })
    expect(retried.thumbnailUrl).toBe(body.uploadedImages[0])
  })

  it('refuses more than 10 images in total', async () => {
    const seller = await signUp('eleven@example.com')
    const png = await makeImage('png', { width: 16, height: 10 })
    const form = formFields()
    for (let i = 0; i < 11; i++) form.append('images', file(png, `${i}.png`))
    const errors = await errorsOf(await postCreate(form, seller.token))
    expect(errors.images).toEqual(['Too many images: You can upload a maximum of 10 images'])
    expect(storedFiles(uploads)).toEqual([])
  })

  it('sends an anonymous visitor to sign in', async () => {
    const response = await postCreate(formFields())
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
  })
})

describe('edit screen', () => {
  it('403 for anyone but the owner on a visible listing, 404 on a hidden or missing one, on the page and on the post', async () => {
    const seller = await signUp('edit-owner@example.com')
    const other = await signUp('edit-other@example.com')
    const listing = await createViaForm(seller.token)
    const page = (token: string, id = listing.id) => callRoute(editRoute, apiRequest(`/seller/edit/${id}`, { token }), { id })
    expect((await page(seller.token)).status).toBe(200)
    expect((await page(other.token)).status).toBe(403)
    expect((await callRoute(editRoute, apiRequest('/seller/edit/nope', { token: seller.token }), { id: 'nope' })).status).toBe(404)
    expect((await postEdit(listing.id, formFields({ title: 'Hijacked' }), other.token)).status).toBe(403)
    expect((await getListingById(listing.id))?.title).toBe('Invoice Tracker')
    // Someone else's hidden listing: no hint that it exists.
    const hidden = await createViaForm(seller.token, { visible: null })
    expect((await page(other.token, hidden.id)).status).toBe(404)
    expect((await postEdit(hidden.id, formFields({ title: 'Hijacked' }), other.token)).status).toBe(404)
  })

  it('loads the private delivery link for the owner only in the form defaults', async () => {
    const seller = await signUp('edit-defaults@example.com')
    const listing = await createViaForm(seller.token)
    const response = await callRoute(editRoute, apiRequest(`/seller/edit/${listing.id}`, { token: seller.token }), { id: listing.id })
    const body = await response.json()
    expect(body.defaults).toMatchObject({
      price: '79.99',
      deliveryUrl: 'https://github.com/me/invoice-tracker',
      tags: 'invoicing, freelance',
      bespokeDevelopmentRate: '95',
    })
  })

  it('updates the listing, keeps the slug, removes the main image (the next one becomes main) and adds new ones', async () => {
    const seller = await signUp('edit@example.com')
    const listing = await createViaForm(seller.token, {}, [file(await makeImage('png'), 'a.png'), file(await makeImage('png'), 'b.png')])
    const [first, second] = listing.screenshots
    const form = formFields({
      title: 'Invoice Tracker Pro',
      price: '99',
      screenshots: [first!, second!],
      thumbnailUrl: first!,
      removeImages: [first!],
    })
    form.append('images', file(await makeImage('webp'), 'c.webp', 'image/webp'))
    const response = await postEdit(listing.id, form, seller.token)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/listing/invoice-tracker')
    const updated = (await getListingById(listing.id))!
    expect(updated).toMatchObject({ title: 'Invoice Tracker Pro', slug: 'invoice-tracker', priceCents: 9900 })
    expect(updated.screenshots).toHaveLength(2)
    expect(updated.screenshots[0]).toBe(second)
    expect(updated.thumbnailUrl).toBe(second)
    // The removed image's files are gone.
    const firstKey = first!.split('/')[2]!
    expect(storedFiles(uploads).some((f) => f.startsWith(firstKey))).toBe(false)
  })

  it('sets another image as main and clears the thumbnail when no image is left', async () => {
    const seller = await signUp('main@example.com')
    const listing = await createViaForm(seller.token, {}, [file(await makeImage('png'), 'a.png'), file(await makeImage('png'), 'b.png')])
    const [first, second] = listing.screenshots
    expect((await postEdit(listing.id, formFields({ screenshots: [first!, second!], thumbnailUrl: second! }), seller.token)).status).toBe(
      302,
    )
    expect((await getListingById(listing.id))?.thumbnailUrl).toBe(second)
    expect(
      (
        await postEdit(
          listing.id,
          formFields({ screenshots: [first!, second!], thumbnailUrl: second!, removeImages: [first!, second!] }),
          seller.token,
        )
      ).status,
    ).toBe(302)
    expect(await getListingById(listing.id)).toMatchObject({ thumbnailUrl: null, screenshots: [] })
  })
})

describe('listing page', () => {
  it('shows a hidden listing only to its owner; missing → 404', async () => {
    const seller = await signUp('page-owner@example.com')
    const other = await signUp('page-other@example.com')
    const listing = await createViaForm(seller.token, { visible: null })
    const view = (token?: string) => callRoute(listingPage, apiRequest(`/listing/${listing.slug}`, { token }), { slug: listing.slug })
    expect((await view()).status).toBe(404)
    expect((await view(other.token)).status).toBe(404)
    const own = await view(seller.token)
    expect(own.status).toBe(200)
    const body = await own.json()
    expect(body).toMatchObject({ isOwner: true, listing: { title: 'Invoice Tracker', seller: { username: 'page-owner' } } })
    expect(JSON.stringify(body)).not.toContain('github.com/me/invoice-tracker')
    expect((await callRoute(listingPage, apiRequest('/listing/nope'), { slug: 'nope' })).status).toBe(404)
  })

  function deletePost(slug: string, token?: string, intent = 'delete') {
    return callRoute(
      listingPage,
      new Request(`${APP}/listing/${slug}`, {
        method: 'POST',
        headers: { Origin: APP, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: new URLSearchParams({ intent }),
      }),
      { slug },
    )
  }

  it('delete: owner only; redirects to the dashboard with the toast', async () => {
    const seller = await signUp('page-del@example.com')
    const other = await signUp('page-del-other@example.com')
    const listing = await createViaForm(seller.token)
    const forbidden = await deletePost(listing.slug, other.token)
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual({ error: 'You can only delete your own listings' })
    expect((await deletePost(listing.slug, seller.token, 'explode')).status).toBe(400)
    expect(await getListingById(listing.id)).toBeDefined()

    const response = await deletePost(listing.slug, seller.token)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/seller/dashboard')
    expect(response.headers.get('Set-Cookie')).toMatch(/fm_toast=/)
    expect(await getListingById(listing.id)).toBeUndefined()
  })

  it('delete of a listing with sales archives it', async () => {
    const seller = await signUp('page-sold@example.com')
    const buyer = await signUp('page-buyer@example.com')
    const listing = await createViaForm(seller.token)
    await recordSale(listing.id, seller.id, buyer.id)
    expect((await deletePost(listing.slug, seller.token)).status).toBe(302)
    const row = await getListingById(listing.id)
    expect(row?.archivedAt).toBeInstanceOf(Date)
    const view = await callRoute(listingPage, apiRequest(`/listing/${listing.slug}`, { token: seller.token }), { slug: listing.slug })
    expect(view.status).toBe(404)
  })

  it('a cross-site post is refused', async () => {
    const seller = await signUp('csrf@example.com')
    const listing = await createViaForm(seller.token)
    const response = await callRoute(
      listingPage,
      new Request(`${APP}/listing/${listing.slug}`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', Authorization: `Bearer ${seller.token}` },
        body: new URLSearchParams({ intent: 'delete' }),
      }),
      { slug: listing.slug },
    )
    expect(response.status).toBe(403)
    expect(await getListingById(listing.id)).toBeDefined()
  })
})

describe("another user's image (issue 26.1)", () => {
  it('the create and edit screens refuse it with a field error (not a 500), and save nothing', async () => {
    const victim = await signUp('form-img-victim@example.com')
    const seller = await signUp('form-img-seller@example.com')
    const avatar = await setAvatar(victim.id, file(await makeImage('png'), 'me.png'))
    const refused = await postCreate(formFields({ title: 'Borrowed', screenshots: [avatar] }), seller.token)
    expect(await errorsOf(refused)).toMatchObject({ screenshots: ['Only images you uploaded can be added to your listing'] })
    expect(await db.selectFrom('listings').select('id').where('title', '=', 'Borrowed').execute()).toEqual([])

    const listing = await createViaForm(seller.token, {}, [file(await makeImage('png'), 'own.png')])
    const edit = await postEdit(listing.id, formFields({ screenshots: [...listing.screenshots, avatar] }), seller.token)
    expect(await errorsOf(edit)).toMatchObject({ screenshots: ['Only images you uploaded can be added to your listing'] })
    expect((await getListingById(listing.id))!.screenshots).toEqual(listing.screenshots)
  })
})
