import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlCompression } from '../../app/server/http/compression.server.ts'
import { toastCookie } from '../../app/server/http/cookies.server.ts'
import { PUBLIC_PAGE_MAX_STALENESS_SECONDS } from '../../app/server/http/http-cache.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { createListing, giveBankDetails, signUp } from '../support/payment-fixtures.ts'
import { authEmulator } from '../support/services.ts'

/*
 * Issue 20, cacheable public pages (docs/decisions/023): what a shared cache in
 * front of the app (nginx, a CDN) is told about each answer. The production
 * build of the app is built for this file and served as server.ts serves it
 * (Express, the HTML compression, React Router's handler), on this worker's
 * PostgreSQL and emulators, and asked over HTTP.
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const BUILD_DIR = path.join(ROOT, `build-test-http-caching-${process.pid}`)
const PUBLIC = /^public, max-age=0, s-maxage=(\d+), stale-while-revalidate=(\d+)$/

let server: Server
let base = ''
let build: ServerBuild

beforeAll(async () => {
  const env: Record<string, string | undefined> = { ...process.env, BUILD_DIR, NODE_ENV: 'production' }
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name]
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: ROOT, env, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`the build failed:\n${result.stdout}\n${result.stderr}`)
  build = (await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'index.js')).href)) as ServerBuild
  const app = express()
  app.use(htmlCompression())
  app.use(createRequestHandler({ build, mode: 'production' }))
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 180_000)

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await (build?.entry.module as { closeDatabase?: () => Promise<void> } | undefined)?.closeDatabase?.()
  if (existsSync(BUILD_DIR)) rmSync(BUILD_DIR, { recursive: true, force: true })
})

/** The cookie @supabase/ssr keeps the session in (`sb-<first host label>-auth-token`, base64url JSON). */
async function sessionCookieFor(email: string) {
  const session = await authEmulator.createSession({ email })
  const name = `sb-${new URL(authEmulator.url).hostname.split('.')[0]}-auth-token`
  return `${name}=base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`
}

function get(pathname: string, headers: Record<string, string> = {}) {
  return fetch(`${base}${pathname}`, { headers, redirect: 'manual' })
}

async function world() {
  const seller = await signUp('seller')
  await giveBankDetails(seller.id, 'approved')
  const listing = await createListing(seller.id, { priceCents: 4900 })
  // Characters of two, three and four bytes in UTF-8, so the page's hydration script carries them
  // (entry.server finds and hashes inline scripts in the page's bytes, not in a decoded string).
  await db.updateTable('listings').set({ shortDescription: NON_ASCII }).where('id', '=', listing.id).execute()
  const buyer = await signUp('buyer')
  return { seller, listing, buyer }
}

const NON_ASCII = 'Café «naïve» — 日本語 ✓ 🚀'

const scriptSources = (csp: string) => /script-src ([^;]*)/.exec(csp)![1]!.split(' ')

/** Every inline script of the page, hashed as the browser does for `'sha256-…'` sources. */
function inlineScriptHashes(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\ssrc=/.test(attributes!))
    .map(([, , text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`)
}

function publicPages(slug: string) {
  return [
    '/',
    '/marketplace',
    '/marketplace?search=starter&sortBy=price-low',
    `/listing/${slug}`,
    '/terms',
    '/privacy',
    '/cookies',
    '/disclaimer',
    '/faq',
    '/help',
  ]
}

describe('anonymous reads of public pages are cacheable by a shared cache', () => {
  it('send public Cache-Control with a TTL within 30 s, a weak ETag, Vary, no cookie, and a CSP of hashes instead of a nonce', async () => {
    const { listing } = await world()
    for (const pathname of publicPages(listing.slug)) {
      const response = await get(pathname)
      const html = await response.text()
      expect(response.status, pathname).toBe(200)
      const cacheControl = response.headers.get('Cache-Control') ?? ''
      const [, sMaxAge, staleWhileRevalidate] = PUBLIC.exec(cacheControl) ?? []
      expect(cacheControl, pathname).toMatch(PUBLIC)
      // A change reaches anonymous visitors within 30 s even when the cache serves stale while it revalidates.
      expect(Number(sMaxAge) + Number(staleWhileRevalidate)).toBe(PUBLIC_PAGE_MAX_STALENESS_SECONDS)
      expect(PUBLIC_PAGE_MAX_STALENESS_SECONDS).toBeLessThanOrEqual(30)
      expect(response.headers.get('ETag'), pathname).toMatch(/^W\/"[A-Za-z0-9_-]{20,}"$/)
      const vary = (response.headers.get('Vary') ?? '').toLowerCase()
      for (const name of ['cookie', 'authorization', 'accept-encoding']) expect(vary, pathname).toContain(name)
      expect(response.headers.getSetCookie(), pathname).toEqual([])

      const csp = response.headers.get('Content-Security-Policy') ?? ''
      const sources = scriptSources(csp)
      expect(csp, pathname).not.toContain("'nonce-")
      expect(sources, pathname).not.toContain("'unsafe-inline'")
      expect(sources, pathname).not.toContain("'unsafe-eval'")
      expect(html, pathname).not.toMatch(/\snonce="/)
      // React Router's inline scripts (context, route modules, ScrollRestoration) are each allowed by their hash.
      const hashes = inlineScriptHashes(html)
      expect(hashes.length, pathname).toBeGreaterThanOrEqual(2)
      if (pathname.startsWith('/listing/')) expect(html, 'a hydration script with multi-byte text').toMatch(/<script>[^<]*日本語 ✓ 🚀/)
      for (const hash of hashes) expect(sources, pathname).toContain(hash)
    }
  })

  it('answer If-None-Match with 304 and the same validators; a different tag gets the page', async () => {
    const { listing } = await world()
    for (const pathname of ['/', `/listing/${listing.slug}`, '/marketplace?search=starter']) {
      const first = await get(pathname)
      await first.text()
      const etag = first.headers.get('ETag')!
      // The same data renders the same bytes: the validator is stable.
      const second = await get(pathname)
      expect(await second.text()).toBeTruthy()
      expect(second.headers.get('ETag'), pathname).toBe(etag)

      const revalidated = await get(pathname, { 'If-None-Match': etag })
      expect(revalidated.status, pathname).toBe(304)
      expect(await revalidated.text()).toBe('')
      expect(revalidated.headers.get('ETag')).toBe(etag)
      expect(revalidated.headers.get('Cache-Control')).toMatch(PUBLIC)
      expect((revalidated.headers.get('Vary') ?? '').toLowerCase()).toContain('cookie')
      expect(revalidated.headers.getSetCookie()).toEqual([])
      // The strong form of the same tag matches too (weak comparison), and a list of tags is read.
      const strong = await get(pathname, { 'If-None-Match': `"x", ${etag.replace(/^W\//, '')}` })
      expect(strong.status, pathname).toBe(304)

      const other = await get(pathname, { 'If-None-Match': 'W/"something-else"' })
      expect(other.status, pathname).toBe(200)
      expect((await other.text()).length).toBeGreaterThan(1000)
    }
  })
})

describe('client-side navigations read the same rule', () => {
  it("a public route's data (React Router's .data request) is cacheable anonymously and private when signed in", async () => {
    const { listing, buyer } = await world()
    for (const pathname of [`/listing/${listing.slug}.data`, '/marketplace.data?search=starter', '/terms.data']) {
      const anonymous = await get(pathname)
      await anonymous.text()
      expect(anonymous.status, pathname).toBe(200)
      expect(anonymous.headers.get('Cache-Control'), pathname).toMatch(PUBLIC)
      const etag = anonymous.headers.get('ETag')!
      expect(etag, pathname).toMatch(/^W\//)
      expect((await get(pathname, { 'If-None-Match': etag })).status, pathname).toBe(304)
      const signedIn = await get(pathname, { Authorization: `Bearer ${buyer.token}` })
      await signedIn.text()
      expect(signedIn.headers.get('Cache-Control'), pathname).toMatch(/^private, no-store\b/)
      expect(signedIn.headers.get('ETag'), pathname).toBeNull()
    }
  })
})

describe('everything else is private, no-store', () => {
  it('the same pages for a signed-in visitor (session cookie or bearer token): no-store, a nonce, no validator', async () => {
    const { listing, buyer } = await world()
    const ways: Record<string, string>[] = [{ Cookie: await sessionCookieFor(buyer.email) }, { Authorization: `Bearer ${buyer.token}` }]
    for (const headers of ways) {
      for (const pathname of ['/', '/marketplace', `/listing/${listing.slug}`, '/terms']) {
        const response = await get(pathname, headers)
        const html = await response.text()
        expect(response.status, pathname).toBe(200)
        expect(response.headers.get('Cache-Control') ?? '', pathname).toMatch(/^private, no-store\b/)
        expect(response.headers.get('ETag'), pathname).toBeNull()
        expect(response.headers.get('Content-Security-Policy'), pathname).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/)
        // The page is this user's (their e-mail in the header): what a shared cache must never hand to someone else.
        expect(html, pathname).toContain(buyer.email)
      }
    }
  })

  it('an anonymous page that sets a cookie (a toast being consumed) is not cacheable', async () => {
    const { listing } = await world()
    const flashed = (await toastCookie({ title: 'Listing Deleted' })).split(';')[0]!
    const response = await get(`/listing/${listing.slug}`, { Cookie: flashed })
    await response.text()
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie().join('\n')).toContain('fm_toast=')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(response.headers.get('ETag')).toBeNull()
  })

  it('pages with forms or personal data, errors, redirects and the API are no-store for anonymous visitors too', async () => {
    const { listing } = await world()
    const cases: [string, number][] = [
      ['/login', 200],
      ['/purchases', 302],
      [`/checkout/${listing.id}`, 302],
      ['/listing/no-such-listing', 404],
      ['/marketplace?minPrice=abc', 400],
      ['/no/such/page', 404],
      ['/api/listings', 200],
    ]
    for (const [pathname, status] of cases) {
      const response = await get(pathname)
      await response.text()
      expect(response.status, pathname).toBe(status)
      expect(response.headers.get('Cache-Control'), pathname).toBe('private, no-store')
      expect(response.headers.get('ETag'), pathname).toBeNull()
    }
    // A page with a form keeps its per-response nonce.
    const login = await get('/login')
    await login.text()
    expect(login.headers.get('Content-Security-Policy')).toMatch(/'nonce-[^']+' 'strict-dynamic'/)
  })
})

describe('a listing change reaches anonymous visitors within the TTL', () => {
  it('the app answers the new price at once, so a revalidating cache gets it; hiding the listing makes it a no-store 404', async () => {
    const { listing, buyer } = await world()
    const pathname = `/listing/${listing.slug}`
    const before = await get(pathname)
    expect(await before.text()).toContain('$49.00')
    const etag = before.headers.get('ETag')!

    await db.updateTable('listings').set({ priceCents: 5900 }).where('id', '=', listing.id).execute()
    // What a cache holding the old page asks once its s-maxage has passed (or in the background, stale-while-revalidate).
    const after = await get(pathname, { 'If-None-Match': etag })
    expect(after.status).toBe(200)
    const html = await after.text()
    expect(html).toContain('$59.00')
    expect(html).not.toContain('$49.00')
    expect(after.headers.get('ETag')).not.toBe(etag)

    // Checkout always reads the database: it shows the new price and refuses the old one.
    const checkout = await get(`/checkout/${listing.id}`, { Authorization: `Bearer ${buyer.token}` })
    expect(checkout.status).toBe(200)
    expect(await checkout.text()).toContain('$59.00')
    expect(checkout.headers.get('Cache-Control')).toMatch(/^private, no-store\b/)

    await db.updateTable('listings').set({ visible: false }).where('id', '=', listing.id).execute()
    const hidden = await get(pathname, { 'If-None-Match': after.headers.get('ETag')! })
    await hidden.text()
    expect(hidden.status).toBe(404)
    expect(hidden.headers.get('Cache-Control')).toBe('private, no-store')
  })
})
