import { createHash } from 'node:crypto'
import type { MiddlewareFunction } from 'react-router'
import { hasAuthCookie } from '../infra/supabase.server.ts'
import { routePolicyContext, type RoutePolicy } from './route-policy.server.ts'

/*
 * Who may keep an answer (docs/decisions/023-cacheable-public-pages.md).
 *
 * An anonymous GET of a route that declares `cache: 'public'` (the home page,
 * the marketplace, a listing, the legal pages) may be kept by a shared cache
 * (nginx, a CDN) for PUBLIC_PAGE_TTL_SECONDS and served stale for
 * STALE_WHILE_REVALIDATE_SECONDS more while the cache asks again, so a price
 * or visibility change reaches anonymous visitors within
 * PUBLIC_PAGE_MAX_STALENESS_SECONDS. Browsers keep nothing (max-age=0) and
 * revalidate with the ETag. Everything else — a signed-in visitor, a route
 * without the declaration, an answer that sets a cookie, an error — is
 * `private, no-store`, unless the route chose for itself (uploads are
 * immutable, the health check is no-store).
 */

/** How long a shared cache serves an anonymous public page without asking the app (seconds). */
export const PUBLIC_PAGE_TTL_SECONDS = 10
/** How long after that it may still serve the old page while it fetches the new one in the background. */
export const STALE_WHILE_REVALIDATE_SECONDS = 20
/** The longest a change (a price, a listing hidden) takes to reach an anonymous visitor: issue 20 asks ≤ 30 s. */
export const PUBLIC_PAGE_MAX_STALENESS_SECONDS = PUBLIC_PAGE_TTL_SECONDS + STALE_WHILE_REVALIDATE_SECONDS

export const PUBLIC_CACHE_CONTROL = `public, max-age=0, s-maxage=${PUBLIC_PAGE_TTL_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`
export const PRIVATE_CACHE_CONTROL = 'private, no-store'

/**
 * What the page's bytes depend on besides the URL: the cookies (theme, sidebar,
 * a flashed toast; a session makes it private anyway), a bearer token, and the
 * compression the client takes (server.ts compresses after the app).
 */
export const PUBLIC_VARY = ['Cookie', 'Authorization', 'Accept-Encoding']

/**
 * A request whose answer may be shared: a read, by nobody signed in, of a route
 * that declared itself public. entry.server renders such pages with CSP hashes
 * instead of a nonce, since every reader of a cached page gets the same bytes.
 */
export function isCacheCandidate(request: Request, policy: Readonly<RoutePolicy>): boolean {
  if (policy.cache !== 'public') return false
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  return !request.headers.has('Authorization') && !hasAuthCookie(request)
}

/** A weak validator: the bytes before compression, so the br, gzip and plain copies share it. */
export function weakEtag(body: Uint8Array): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
}

/**
 * Pages whose validator was computed where their bytes were made (entry.server
 * renders a shareable page whole): the middleware takes it from here instead of
 * reading the body back out of the Response to hash it again.
 */
const validatorsOfRenderedPages = new WeakMap<Response, string>()

/** A whole rendered page as a Response, with its weak ETag already known. */
export function renderedPageResponse(body: Uint8Array<ArrayBuffer>, init: { status: number; headers: Headers }): Response {
  const response = new Response(body, init)
  validatorsOfRenderedPages.set(response, weakEtag(body))
  return response
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored on both sides. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}

function addVary(headers: Headers, names: string[]) {
  const present = (headers.get('Vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const lower = new Set(present.map((name) => name.toLowerCase()))
  headers.set('Vary', [...present, ...names.filter((name) => !lower.has(name.toLowerCase()))].join(', '))
}

/** The headers a 304 repeats from the 200 it stands for (RFC 9110 §15.4.5). */
const NOT_MODIFIED_HEADERS = ['Cache-Control', 'ETag', 'Vary', 'Content-Location', 'Expires']

async function publicResponse(request: Request, response: Response): Promise<Response> {
  const headers = new Headers(response.headers)
  headers.set('Cache-Control', PUBLIC_CACHE_CONTROL)
  addVary(headers, PUBLIC_VARY)
  if (!response.body) return new Response(null, { status: response.status, statusText: response.statusText, headers })
  const known = validatorsOfRenderedPages.get(response)
  let body: BodyInit = response.body
  let etag = known
  if (!etag) {
    const bytes = new Uint8Array(await response.arrayBuffer())
    etag = weakEtag(bytes)
    body = bytes
  }
  headers.set('ETag', etag)
  if (etagMatches(request.headers.get('If-None-Match'), etag)) {
    const kept = new Headers()
    for (const name of NOT_MODIFIED_HEADERS) if (headers.has(name)) kept.set(name, headers.get(name)!)
    if (known) await response.body.cancel()
    return new Response(null, { status: 304, headers: kept })
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}

/**
 * Root middleware, outside the session middleware (so it sees the cookies a
 * silent refresh sets): decides `Cache-Control` for every answer of the app.
 * A route's own choice of who may store its answer (public, private,
 * no-store) stands; other directives it set (no-transform) are kept.
 */
export const httpCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next()
  const own = response.headers.get('Cache-Control')
  if (/\b(public|private|no-store)\b/i.test(own ?? '')) return response
  const shareable =
    isCacheCandidate(request, context.get(routePolicyContext)) &&
    response.status === 200 &&
    // A cookie set for one visitor (a toast consumed, a session refreshed) must never be handed to the next.
    !response.headers.has('Set-Cookie')
  if (shareable && !own) return publicResponse(request, response)
  response.headers.set('Cache-Control', own ? `${PRIVATE_CACHE_CONTROL}, ${own}` : PRIVATE_CACHE_CONTROL)
  return response
}
