import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { ListingApiSchema, listingInputFromApi } from '../../app/lib/listing-schema.ts'
import * as listingById from '../../app/routes/api/listing-by-id.ts'
import * as listingApi from '../../app/routes/api/listing.ts'
import * as uploadImages from '../../app/routes/api/listings-upload-images.ts'
import * as listings from '../../app/routes/api/listings.ts'
import * as sellerListings from '../../app/routes/api/seller-listings.ts'
import {
  createListing,
  getDeliveryUrl,
  getListingById,
  getListingBySlug,
  listSellerListings,
  setListingVisibility,
} from '../../app/server/domain/listings.server.ts'
import { removeAvatar, setAvatar } from '../../app/server/domain/seller-profiles.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { apiListing, file, makeImage, recordSale, signUp, storedFiles, useTemporaryUploads } from './listings-support.ts'

let uploads: string

beforeAll(() => {
  uploads = useTemporaryUploads()
})

async function create(token: string, body: Record<string, unknown>) {
  return callRoute(listings, apiRequest('/api/listings', { method: 'POST', token, json: body }))
}

async function createOk(token: string, body: Record<string, unknown> = apiListing()) {
  const response = await create(token, body)
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201)
  return response.json()
}

function patch(token: string | undefined, id: string, json: unknown) {
  return callRoute(listingApi, apiRequest(`/api/listings/${id}`, { method: 'PATCH', token, json }), { slugOrId: id })
}

function remove(token: string | undefined, id: string) {
  return callRoute(listingApi, apiRequest(`/api/listings/${id}`, { method: 'DELETE', token }), { slugOrId: id })
}

function getBySlug(slug: string, token?: string) {
  return callRoute(listingApi, apiRequest(`/api/listings/${slug}`, { token }), { slugOrId: slug })
}

async function upload(token: string, files: File[]) {
  const body = new FormData()
  for (const f of files) body.append('images', f)
  return callRoute(uploadImages, apiRequest('/api/listings/upload-images', { method: 'POST', token, body }))
}

describe('POST /api/listings', () => {
  it('creates a listing for the signed-in seller with a slug from its title', async () => {
    const seller = await signUp('seller@example.com')
    const body = await createOk(seller.token, apiListing({ tags: ['saas', 'billing'], languages: ['TypeScript'], frameworks: ['Next.js'] }))
    expect(body).toMatchObject({
      title: 'LaunchKit SaaS Starter',
      slug: 'launchkit-saas-starter',
      sellerId: seller.id,
      priceCents: 4900,
      currency: 'USD',
      visible: true,
      tags: ['saas', 'billing'],
      techStack: { languages: ['TypeScript'], frameworks: ['Next.js'], dependencies: [] },
      seller: { id: seller.id, username: 'seller' },
    })
    expect(body).not.toHaveProperty('deliveryUrl')
  })

  it('anonymous → 401 JSON', async () => {
    const response = await create('', apiListing())
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'Authentication required' })
  })

  it('ignores fields the client must not set (mass assignment)', async () => {
    const seller = await signUp('mass@example.com')
    const victim = await signUp('victim@example.com')
    const forgedId = crypto.randomUUID()
    const body = await createOk(
      seller.token,
      apiListing({
        id: forgedId,
        sellerId: victim.id,
        slug: 'chosen-slug',
        createdAt: '2001-01-01T00:00:00Z',
        updatedAt: '2001-01-01T00:00:00Z',
        archivedAt: '2001-01-01T00:00:00Z',
        currency: 'EUR',
        visible: false,
      }),
    )
    expect(body.id).not.toBe(forgedId)
    expect(body.sellerId).toBe(seller.id)
    expect(body.slug).toBe('launchkit-saas-starter')
    expect(new Date(body.createdAt).getFullYear()).toBeGreaterThan(2020)
    expect(body.archivedAt).toBeNull()
    expect(body.currency).toBe('USD')
    // visible is a real form field (the Visibility switch), so it is honoured.
    expect(body.visible).toBe(false)
  })

  it("accepts the spec's nested techStack/support shape and an old single language", async () => {
    const seller = await signUp('nested@example.com')
    const body = await createOk(
      seller.token,
      apiListing({
        language: 'Go',
        support: {
          emailSupportAvailable: true,
          emailSupportDuration: '30-days',
          bespokeDevelopmentAvailable: true,
          bespokeDevelopmentRate: 85,
        },
      }),
    )
    expect(body).toMatchObject({ languages: ['Go'], emailSupportDuration: '30-days', bespokeDevelopmentRateCents: 8500 })
    expect(body.support).toMatchObject({ bespokeDevelopmentRate: 85 })
  })

  it.each([
    ['title missing', { title: undefined }, 'title', 'Required'],
    ['title blank', { title: '   ' }, 'title', 'Required'],
    ['title too long', { title: 'x'.repeat(121) }, 'title', 'Title must be at most 120 characters'],
    ['short description missing', { shortDescription: '' }, 'shortDescription', 'Required'],
    [
      'short description too long',
      { shortDescription: 'x'.repeat(301) },
      'shortDescription',
      'Short description must be at most 300 characters',
    ],
    ['type missing', { type: undefined }, 'type', 'Required'],
    ['type unknown', { type: 'plugin' }, 'type', 'Choose one of the options'],
    ['licence missing', { licence: undefined }, 'licence', 'Required'],
    ['licence unknown', { licence: 'gpl' }, 'licence', 'Choose one of the options'],
    ['price missing', { priceCents: undefined }, 'priceCents', 'Required'],
    ['price zero', { priceCents: 0 }, 'priceCents', 'Price must be at least $0.01'],
    ['price negative', { priceCents: -100 }, 'priceCents', 'Price must be at least $0.01'],
    ['price not a number', { priceCents: 'ten' }, 'priceCents', 'Price must be a number'],
    ['price fractional cents', { priceCents: 10.5 }, 'priceCents', 'Price must be a whole number of cents'],
    // Issue 14.8: no hex or exponent text, and only prices a card can be charged ($0.50 to $999,999.99).
    ['price in hex', { priceCents: '0x10' }, 'priceCents', 'Price must be a number'],
    ['price with an exponent', { priceCents: '1e3' }, 'priceCents', 'Price must be a number'],
    ['price of 1 cent', { priceCents: 1 }, 'priceCents', 'Card payments start at $0.50: the price must be at least $0.50'],
    ['price of 49 cents', { priceCents: 49 }, 'priceCents', 'Card payments start at $0.50: the price must be at least $0.50'],
    [
      'price above the largest card payment',
      { priceCents: 100_000_000 },
      'priceCents',
      'Price must be at most $999,999.99, the largest card payment',
    ],
    ['demo URL not a URL', { demoUrl: 'not a url' }, 'demoUrl', 'Enter a valid URL (http:// or https://)'],
    ['demo URL javascript:', { demoUrl: 'javascript:alert(1)' }, 'demoUrl', 'Enter a valid URL (http:// or https://)'],
    [
      'bespoke rate negative',
      { bespokeDevelopmentAvailable: true, bespokeDevelopmentRate: -1 },
      'bespokeDevelopmentRate',
      'Hourly rate must be at least $0',
    ],
    ['email support without duration', { emailSupportAvailable: true }, 'emailSupportDuration', 'Required'],
    [
      'unknown email support duration',
      { emailSupportAvailable: true, emailSupportDuration: 'forever' },
      'emailSupportDuration',
      'Choose one of the options',
    ],
    ['unknown delivery timeframe', { deliveryTimeframe: 'tomorrow' }, 'deliveryTimeframe', 'Choose one of the options'],
    ['instant delivery without a link', { deliveryTimeframe: 'instant' }, 'deliveryUrl', 'Instant delivery needs a private delivery link'],
    [
      'instant delivery over http',
      { deliveryTimeframe: 'instant', deliveryUrl: 'http://github.com/a/b' },
      'deliveryUrl',
      'Enter a private link that starts with https://',
    ],
    ['foreign image URL', { screenshots: ['https://evil.example/x.png'] }, 'screenshots.0', 'Not an uploaded image'],
    [
      'too many images',
      { screenshots: Array.from({ length: 11 }, (_, i) => `/uploads/${i.toString(16).padStart(32, '0')}/full.webp`) },
      'screenshots',
      'You can upload a maximum of 10 images',
    ],
    ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => `tag${i}`) }, 'tags', 'Choose at most 20 tags'],
    ['a tag too long', { tags: ['x'.repeat(41)] }, 'tags.0', 'Each tag must be at most 40 characters'],
  ])('400 with the field message: %s', async (_name, overrides, field, message) => {
    const seller = await signUp('invalid@example.com')
    const response = await create(seller.token, apiListing(overrides))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error).toBe('Invalid listing')
    expect(body.fields[field]).toContain(message)
    expect(await db.selectFrom('listings').select('id').execute()).toEqual([])
  })

  it('takes prices from 50 cents to $999,999.99, as a number or decimal text (issue 14.8)', async () => {
    const seller = await signUp('price-range@example.com')
    expect((await createOk(seller.token, apiListing({ title: 'Cheapest', priceCents: 50 }))).priceCents).toBe(50)
    expect((await createOk(seller.token, apiListing({ title: 'Dearest', priceCents: 99_999_999 }))).priceCents).toBe(99_999_999)
    expect((await createOk(seller.token, apiListing({ title: 'As text', priceCents: '4900' }))).priceCents).toBe(4900)
    const hex = await (await create(seller.token, apiListing({ priceCents: '0x10' }))).json()
    expect(hex.fields).toEqual({ priceCents: ['Price must be a number'] })
  })

  it('refuses a body that is not a JSON object', async () => {
    const seller = await signUp('json@example.com')
    const notJson = await callRoute(
      listings,
      apiRequest('/api/listings', { method: 'POST', token: seller.token, body: '{nope', headers: { 'Content-Type': 'application/json' } }),
    )
    expect(notJson.status).toBe(400)
    const form = await callRoute(
      listings,
      apiRequest('/api/listings', { method: 'POST', token: seller.token, body: new URLSearchParams({ title: 'x' }) }),
    )
    expect(form.status).toBe(415)
    expect(await form.json()).toHaveProperty('error')
    const huge = await create(seller.token, apiListing({ longDescription: 'x'.repeat(300 * 1024) }))
    expect(huge.status).toBe(413)
    expect(await huge.json()).toEqual({ error: 'The request body is too large' })
  })

  it('drops switched-off details and the delivery link unless delivery is instant', async () => {
    const seller = await signUp('switches@example.com')
    const body = await createOk(
      seller.token,
      apiListing({
        setupCallAvailable: false,
        setupCallDetails: 'should vanish',
        emailSupportAvailable: false,
        emailSupportDuration: '30-days',
        bespokeDevelopmentAvailable: false,
        bespokeDevelopmentRate: 100,
        deliveryTimeframe: '24-hours',
        deliveryUrl: 'https://github.com/me/private',
      }),
    )
    expect(body).toMatchObject({
      setupCallDetails: null,
      emailSupportDuration: null,
      bespokeDevelopmentRateCents: null,
      deliveryTimeframe: '24-hours',
    })
    expect(await getDeliveryUrl(body.id)).toBeNull()
  })

  it('keeps the instant delivery link private', async () => {
    const seller = await signUp('instant@example.com')
    const body = await createOk(
      seller.token,
      apiListing({ deliveryTimeframe: 'instant', deliveryUrl: 'https://github.com/me/private-repo' }),
    )
    expect(await getDeliveryUrl(body.id)).toBe('https://github.com/me/private-repo')
    for (const response of [
      await getBySlug(body.slug),
      await callRoute(listingById, apiRequest(`/api/listings/id/${body.id}`), { id: body.id }),
    ]) {
      expect(JSON.stringify(await response.json())).not.toContain('private-repo')
    }
    expect(JSON.stringify(await getListingById(body.id))).not.toContain('private-repo')
  })

  it('empty bespoke rate means "unset"; a rate is stored in cents', async () => {
    const seller = await signUp('rate@example.com')
    const unset = await createOk(seller.token, apiListing({ bespokeDevelopmentAvailable: true, bespokeDevelopmentRate: '' }))
    expect(unset.bespokeDevelopmentRateCents).toBeNull()
    const zero = await createOk(seller.token, apiListing({ title: 'Zero', bespokeDevelopmentAvailable: true, bespokeDevelopmentRate: 0 }))
    expect(zero.bespokeDevelopmentRateCents).toBe(0)
  })
})

describe('POST /api/listings with an Idempotency-Key (decision 026)', () => {
  function createWithKey(token: string, key: string, body: Record<string, unknown>) {
    return callRoute(listings, apiRequest('/api/listings', { method: 'POST', token, json: body, headers: { 'Idempotency-Key': key } }))
  }
  async function countWithTitle(title: string) {
    const { count } = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('title', '=', title)
      .executeTakeFirstOrThrow()
    return Number(count)
  }

  it('a retry with the same key and body answers the first listing, once; without a key every POST creates one', async () => {
    const seller = await signUp('idempotent@example.com')
    const title = `Retried ${crypto.randomUUID()}`
    const first = await createWithKey(seller.token, 'retry-1', apiListing({ title }))
    expect(first.status).toBe(201)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    const created = await first.json()
    // The same request again, its keys in another order, and the key as the IETF draft's quoted string.
    const reordered = Object.fromEntries(Object.entries(apiListing({ title })).reverse())
    const again = await createWithKey(seller.token, '"retry-1"', reordered)
    expect(again.status).toBe(201)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    const replayed = await again.json()
    expect(replayed).toMatchObject({ id: created.id, slug: created.slug, title })
    expect(await countWithTitle(title)).toBe(1)
    // The key and its hash stay in the database: not in the answers, nor in the public listing.
    const shown = await (await getBySlug(created.slug)).json()
    for (const json of [created, replayed, shown]) {
      expect(json).not.toHaveProperty('idempotencyKey')
      expect(json).not.toHaveProperty('idempotencyHash')
      expect(JSON.stringify(json)).not.toContain('retry-1')
    }

    // Without a key, the same body makes another listing (as before).
    await createOk(seller.token, apiListing({ title }))
    expect(await countWithTitle(title)).toBe(2)
  })

  it('ten concurrent retries make one listing', async () => {
    const seller = await signUp('concurrent-key@example.com')
    const title = `Concurrent ${crypto.randomUUID()}`
    const answers = await Promise.all(Array.from({ length: 10 }, () => createWithKey(seller.token, 'same-key', apiListing({ title }))))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201))
    const ids = new Set(await Promise.all(answers.map(async (a) => (await a.json()).id)))
    expect(ids.size).toBe(1)
    expect(answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(9)
    expect(await countWithTitle(title)).toBe(1)
  })

  it('a reused key with a different body is a 422; keys are per seller; a malformed key is a 400', async () => {
    const seller = await signUp('reused-key@example.com')
    const other = await signUp('other-key@example.com')
    const title = `Keyed ${crypto.randomUUID()}`
    expect((await createWithKey(seller.token, 'k-1', apiListing({ title }))).status).toBe(201)
    const different = await createWithKey(seller.token, 'k-1', apiListing({ title, priceCents: 12345 }))
    expect(different.status).toBe(422)
    expect(await different.json()).toEqual({ error: 'This Idempotency-Key was already used for a different request' })
    // Another seller's same key is theirs.
    const theirs = await createWithKey(other.token, 'k-1', apiListing({ title }))
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull()
    expect(await countWithTitle(title)).toBe(2)

    for (const bad of ['', 'a'.repeat(256), 'has space', 'tab\there', '"quote"inside"']) {
      const response = await createWithKey(seller.token, bad, apiListing({ title: `Bad key ${crypto.randomUUID()}` }))
      expect(response.status, JSON.stringify(bad)).toBe(400)
      expect(await response.json()).toEqual({ error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' })
    }
    // An invalid body with a key creates nothing, and its key stays free for the corrected request.
    const invalid = await createWithKey(seller.token, 'k-2', apiListing({ title: '' }))
    expect(invalid.status).toBe(400)
    expect((await createWithKey(seller.token, 'k-2', apiListing({ title: `${title} fixed` }))).status).toBe(201)
  })
})

describe('slugs', () => {
  it('are unique: -2, -3… on collision, also when created at the same moment', async () => {
    const seller = await signUp('slugs@example.com')
    const first = await createOk(seller.token)
    const second = await createOk(seller.token)
    expect([first.slug, second.slug]).toEqual(['launchkit-saas-starter', 'launchkit-saas-starter-2'])
    const racing = await Promise.all(Array.from({ length: 5 }, () => create(seller.token, apiListing())))
    const slugs = await Promise.all(racing.map(async (r) => (await r.json()).slug))
    expect(new Set(slugs).size).toBe(5)
    expect(slugs.sort()).toEqual(['3', '4', '5', '6', '7'].map((n) => `launchkit-saas-starter-${n}`).sort())
  })

  it('stay the same when the title changes', async () => {
    const seller = await signUp('stable@example.com')
    const created = await createOk(seller.token)
    const response = await patch(seller.token, created.id, { title: 'A Completely New Name' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ title: 'A Completely New Name', slug: 'launchkit-saas-starter' })
  })

  it('fall back to "listing" for titles without Latin letters', async () => {
    const seller = await signUp('emoji@example.com')
    const created = await createOk(seller.token, apiListing({ title: '🚀🚀' }))
    expect(created.slug).toBe('listing')
    const accents = await createOk(seller.token, apiListing({ title: 'Café Crème — Été' }))
    expect(accents.slug).toBe('cafe-creme-ete')
  })
})

describe('GET /api/listings/:slug and /api/listings/id/:id', () => {
  it('hidden listings: 404 for others, visible to the owner; archived: 404 for all', async () => {
    const seller = await signUp('hide@example.com')
    const other = await signUp('other@example.com')
    const created = await createOk(seller.token, apiListing({ visible: false }))
    expect((await getBySlug(created.slug)).status).toBe(404)
    expect((await getBySlug(created.slug, other.token)).status).toBe(404)
    expect((await getBySlug(created.slug, seller.token)).status).toBe(200)
    await db.updateTable('listings').set({ visible: true, archivedAt: new Date() }).where('id', '=', created.id).execute()
    expect((await getBySlug(created.slug, seller.token)).status).toBe(404)
  })

  it('GET /api/listings/:id also answers by id (the path is shared with PATCH/DELETE)', async () => {
    const seller = await signUp('by-id@example.com')
    const created = await createOk(seller.token)
    const response = await getBySlug(created.id)
    expect(response.status).toBe(200)
    expect((await response.json()).slug).toBe(created.slug)
  })

  it('unknown slugs and malformed ids → 404 JSON, never a 500', async () => {
    expect((await getBySlug('no-such-listing')).status).toBe(404)
    for (const id of ['not-a-uuid', "1' OR '1'='1", crypto.randomUUID()]) {
      const response = await callRoute(listingById, apiRequest(`/api/listings/id/${encodeURIComponent(id)}`), { id })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'Listing not found' })
    }
    expect(await getListingById('nope')).toBeUndefined()
    expect(await getListingBySlug('')).toBeUndefined()
  })
})

describe('PATCH /api/listings/:id', () => {
  it('only the owner: 401 anonymous, 403 another seller, 404 missing', async () => {
    const seller = await signUp('owner@example.com')
    const other = await signUp('intruder@example.com')
    const created = await createOk(seller.token)
    expect((await patch(undefined, created.id, { title: 'x' })).status).toBe(401)
    const forbidden = await patch(other.token, created.id, { title: 'Hijacked' })
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual({ error: 'You can only change your own listings' })
    expect((await patch(seller.token, crypto.randomUUID(), { title: 'x' })).status).toBe(404)
    expect((await patch(seller.token, 'garbage', { title: 'x' })).status).toBe(404)
    expect((await getListingById(created.id))?.title).toBe('LaunchKit SaaS Starter')
  })

  it('updates what is sent, keeps the rest, and validates like create', async () => {
    const seller = await signUp('patcher@example.com')
    const created = await createOk(
      seller.token,
      apiListing({ tags: ['one'], deliveryTimeframe: 'instant', deliveryUrl: 'https://github.com/a/b' }),
    )
    const response = await patch(seller.token, created.id, { priceCents: 12345, sellerId: crypto.randomUUID(), slug: 'x' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ priceCents: 12345, tags: ['one'], sellerId: seller.id, slug: created.slug })
    expect(await getDeliveryUrl(created.id)).toBe('https://github.com/a/b')

    const invalid = await patch(seller.token, created.id, { priceCents: 0, title: '' })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual({
      error: 'Invalid listing',
      fields: { title: ['Required'], priceCents: ['Price must be at least $0.01'] },
    })
  })
})

describe('DELETE /api/listings/:id', () => {
  it('only the owner: 401, 403, 404', async () => {
    const seller = await signUp('del-owner@example.com')
    const other = await signUp('del-other@example.com')
    const created = await createOk(seller.token)
    expect((await remove(undefined, created.id)).status).toBe(401)
    expect((await remove(other.token, created.id)).status).toBe(403)
    expect((await remove(seller.token, crypto.randomUUID())).status).toBe(404)
    expect(await getListingById(created.id)).toBeDefined()
  })

  it('deletes a listing without sales, and its stored images', async () => {
    const seller = await signUp('del@example.com')
    const uploaded = await upload(seller.token, [file(await makeImage('png'), 'a.png')])
    const { images } = await uploaded.json()
    const created = await createOk(seller.token, apiListing({ screenshots: images }))
    expect(created.thumbnailUrl).toBe(images[0])
    const key = images[0].split('/')[2]
    expect(storedFiles(uploads)).toContain(`${key}/full.webp`)

    const response = await remove(seller.token, created.id)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ archived: false })
    expect(await getListingById(created.id)).toBeUndefined()
    expect(storedFiles(uploads).filter((f) => f.startsWith(key))).toEqual([])
  })

  it('archives a listing with sales: gone from the marketplace and seller list, the sale stays', async () => {
    const seller = await signUp('sold@example.com')
    const buyer = await signUp('buyer@example.com')
    const created = await createOk(seller.token)
    const sale = await recordSale(created.id, seller.id, buyer.id)

    const response = await remove(seller.token, created.id)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ archived: true })
    const row = await db.selectFrom('listings').select(['archivedAt']).where('id', '=', created.id).executeTakeFirst()
    expect(row?.archivedAt).toBeInstanceOf(Date)
    expect(await db.selectFrom('transactions').select('id').where('id', '=', sale.id).executeTakeFirst()).toBeDefined()
    expect(await listSellerListings(seller.id)).toEqual([])
    expect((await getBySlug(created.slug)).status).toBe(404)
    // Archived listings can no longer be edited or deleted again.
    expect((await patch(seller.token, created.id, { title: 'x' })).status).toBe(404)
    expect((await remove(seller.token, created.id)).status).toBe(404)
  })
})

describe('GET /api/seller/listings and the listings module contracts', () => {
  it("lists only the seller's own, live listings, newest first", async () => {
    const seller = await signUp('list@example.com')
    const other = await signUp('list-other@example.com')
    const a = await createOk(seller.token, apiListing({ title: 'First' }))
    const b = await createOk(seller.token, apiListing({ title: 'Second', visible: false }))
    await createOk(other.token, apiListing({ title: 'Not mine' }))
    await sql`UPDATE listings SET created_at = now() - interval '1 minute' WHERE id = ${a.id}`.execute(db)

    const response = await callRoute(sellerListings, apiRequest('/api/seller/listings', { token: seller.token }))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.map((l: { title: string }) => l.title)).toEqual(['Second', 'First'])

    const summaries = await listSellerListings(seller.id)
    expect(summaries.map((l) => l.id)).toEqual([b.id, a.id])
    expect(Object.keys(summaries[0]!).sort()).toEqual(['createdAt', 'id', 'priceCents', 'slug', 'thumbnailUrl', 'title', 'visible'])
    expect((await callRoute(sellerListings, apiRequest('/api/seller/listings'))).status).toBe(401)
  })

  it("setListingVisibility changes only the seller's own listing", async () => {
    const seller = await signUp('vis@example.com')
    const other = await signUp('vis-other@example.com')
    const created = await createOk(seller.token)
    const hidden = await setListingVisibility({ listingId: created.id, sellerId: seller.id, visible: false })
    expect(hidden.visible).toBe(false)
    await expect(setListingVisibility({ listingId: created.id, sellerId: other.id, visible: true })).rejects.toMatchObject({
      init: { status: 404 },
    })
    await expect(setListingVisibility({ listingId: 'junk', sellerId: seller.id, visible: true })).rejects.toMatchObject({
      init: { status: 404 },
    })
    expect((await getListingById(created.id))?.visible).toBe(false)
  })

  it('createListing and the schema give the same result as the API', async () => {
    const seller = await signUp('direct@example.com')
    const input = listingInputFromApi(ListingApiSchema.parse(apiListing({ tags: 'a, b, a' })))
    const listing = await createListing(seller.id, input)
    expect(listing).toMatchObject({ tags: ['a', 'b'], seller: { id: seller.id, displayName: 'direct', bio: null } })
    expect(listing).not.toHaveProperty('deliveryUrl')
  })
})

describe('images belong to whoever uploaded them (issue 26.1)', () => {
  const keyOf = (url: string) => url.split('/')[2]!
  const stored = (url: string) => storedFiles(uploads).filter((f) => f.startsWith(keyOf(url)))
  const IMAGE_NOT_YOURS = 'Only images you uploaded can be added to your listing'

  it("a listing refuses another user's image (their avatar, their upload) on create and on PATCH", async () => {
    const victim = await signUp('img-victim@example.com')
    const attacker = await signUp('img-attacker@example.com')
    const avatar = await setAvatar(victim.id, file(await makeImage('png'), 'me.png'))
    const [victimUpload] = (await (await upload(victim.token, [file(await makeImage('png'), 'v.png')])).json()).images
    const [own] = (await (await upload(attacker.token, [file(await makeImage('png'), 'a.png')])).json()).images

    for (const body of [{ thumbnailUrl: avatar }, { screenshots: [own, victimUpload] }]) {
      const refused = await create(attacker.token, apiListing(body))
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(await refused.json()).toMatchObject({ error: IMAGE_NOT_YOURS })
    }
    const listing = await createOk(attacker.token, apiListing({ screenshots: [own] }))
    const patched = await patch(attacker.token, listing.id, { thumbnailUrl: avatar })
    expect(patched.status).toBe(400)
    expect(await patched.json()).toMatchObject({ error: IMAGE_NOT_YOURS })
    // Its own images, and the ones already on it, are kept as before.
    expect((await patch(attacker.token, listing.id, { title: 'Renamed' })).status).toBe(200)
    expect(stored(avatar)).toHaveLength(2)
    expect(stored(victimUpload)).toHaveLength(2)
  })

  it('nothing is deleted while a listing or an avatar still refers to it', async () => {
    const victim = await signUp('img-victim2@example.com')
    const attacker = await signUp('img-attacker2@example.com')
    const avatar = await setAvatar(victim.id, file(await makeImage('png'), 'me.png'))
    // A listing that names the avatar (saved before images had owners): deleting it, or dropping the image, keeps the avatar.
    const [own] = (await (await upload(attacker.token, [file(await makeImage('png'), 'a.png')])).json()).images
    const first = await createOk(attacker.token, apiListing({ screenshots: [own] }))
    const second = await createOk(attacker.token, apiListing({ title: 'Second', screenshots: [own] }))
    for (const { id } of [first, second]) {
      await db
        .updateTable('listings')
        .set({ thumbnailUrl: avatar, screenshots: [avatar, own] })
        .where('id', '=', id)
        .execute()
    }
    expect((await patch(attacker.token, first.id, { screenshots: [own], thumbnailUrl: own })).status).toBe(200)
    expect((await remove(attacker.token, second.id)).status).toBe(200)
    expect(stored(avatar)).toHaveLength(2)

    // The owner's own listing shows their avatar image: removing the avatar keeps the file for the listing.
    const mine = await createOk(victim.token, apiListing({ thumbnailUrl: avatar }))
    expect(mine.thumbnailUrl).toBe(avatar)
    await removeAvatar(victim.id)
    expect(stored(avatar)).toHaveLength(2)
    // Once nothing refers to it, it goes.
    expect((await remove(victim.token, mine.id)).status).toBe(200)
    expect(stored(avatar)).toEqual([])
  })
})
