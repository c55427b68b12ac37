import { createContext, type MiddlewareFunction } from 'react-router'
import type { ApiKeyScope } from '~/lib/api-keys'
import { MAX_IMAGE_BYTES, MAX_IMAGES } from '~/lib/listing-schema'
import { enforceRateLimit, type RateLimit } from './rate-limit.server.ts'
import { clientError } from './responses.server.ts'

/**
 * The HTTP policy of one route, declared in the route module it governs
 * (issue 15.6) as its middleware:
 *
 *   export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.admin })]
 *
 * so a route carries its limits with it and no table of path strings has to
 * follow app/routes.ts. tests/integration/route-policy.test.ts fails when a
 * route that takes writes declares no body limit or no rate limit.
 */
export interface RoutePolicy {
  /** The largest request body the route reads, in bytes (BODY_LIMITS): 413 above it, before it is buffered. */
  bodyLimit?: number
  /** Requests per client address and window (RATE_LIMITS); counts writes unless the limit says otherwise. */
  rateLimit?: RateLimit
  /** Extra sources the route's documents need in their Content-Security-Policy. */
  csp?: CspVariant
  /**
   * false: the route's HTML shows secrets next to text a visitor controls, so it
   * is never compressed (BREACH); marked `Cache-Control: no-transform` for the
   * compression layer (server.ts), which runs outside React Router.
   */
  compress?: boolean
  /**
   * 'public': the route's page shows the same thing to every anonymous visitor
   * (no form that posts, nothing personal), so an anonymous read may be kept by a
   * shared cache for a few seconds and carries CSP hashes instead of a nonce
   * (http-cache.server.ts). Signed-in visitors still get `private, no-store`.
   */
  cache?: 'public'
  /**
   * /api/* only: the scope a personal API key needs, per method (issue 29). A
   * method not listed refuses keys (403), whatever their scopes: admin actions,
   * bank details, payments and messages list none. Read by auth.server.ts.
   */
  apiKeys?: Partial<Record<'GET' | 'POST' | 'PATCH' | 'DELETE', ApiKeyScope>>
}

/** 'checkout': Stripe.js may load, connect and frame (design.md §7); 'sign-in': the form posts on to the identity provider. */
export type CspVariant = 'default' | 'checkout' | 'sign-in'

export { RATE_LIMITS } from './rate-limit.server.ts'

/** The body sizes routes choose from (bytes). */
export const BODY_LIMITS = {
  /** One small JSON value, e.g. `{ theme }`. */
  tiny: 1024,
  /** The API's small JSON bodies: a reason, a payment reference, bank details. */
  json: 32 * 1024,
  /** A screen's form without files. */
  form: 64 * 1024,
  /** A listing as JSON (descriptions, tags, image URLs). */
  listing: 256 * 1024,
  /** A Stripe event. */
  webhook: 512 * 1024,
  /** A listing form or an upload: MAX_IMAGES images of MAX_IMAGE_BYTES each, plus the text fields. */
  upload: MAX_IMAGES * MAX_IMAGE_BYTES + 1024 * 1024,
} as const

/** What a body reader allows on a route that declares no limit. */
export const DEFAULT_BODY_LIMIT = BODY_LIMITS.form

/**
 * 413 for a body over the route's limit. `Connection: close`: the rest of the
 * body is never read, so the connection cannot carry another request.
 */
export function bodyTooLarge(request: Request, limit: number) {
  const message =
    limit >= BODY_LIMITS.upload
      ? `The upload is too large (${MAX_IMAGE_BYTES / 1024 / 1024}MB each, at most ${MAX_IMAGES} images)`
      : 'The request body is too large'
  return clientError(request, 413, message, { Connection: 'close' })
}

/** A declared Content-Length over the limit is refused before a byte of the body is read. */
export function refuseDeclaredOversize(request: Request, limit: number) {
  const declared = Number(request.headers.get('Content-Length'))
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge(request, limit)
}

/** What a route without a declaration gets: the smallest form body, no rate limit, the default CSP. */
export const DEFAULT_POLICY: Readonly<RoutePolicy> = Object.freeze({})

/** The policy of the route serving this request (set by its routePolicy middleware). */
export const routePolicyContext = createContext<Readonly<RoutePolicy>>(DEFAULT_POLICY)

export type PolicyMiddleware = MiddlewareFunction<Response> & { readonly policy: Readonly<RoutePolicy> }

export function routePolicy(policy: RoutePolicy): PolicyMiddleware {
  const declared = Object.freeze({ ...policy })
  const middleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
    context.set(routePolicyContext, declared)
    if (declared.bodyLimit !== undefined) refuseDeclaredOversize(request, declared.bodyLimit)
    if (declared.rateLimit) await enforceRateLimit(request, context, declared.rateLimit)
    const response = await next()
    if (declared.compress === false) {
      const cacheControl = response.headers.get('Cache-Control')
      if (!/\bno-transform\b/.test(cacheControl ?? '')) {
        response.headers.set('Cache-Control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform')
      }
    }
    return response
  }
  return Object.assign(middleware, { policy: declared })
}

/** The policy a route module declares (tests and tools read it; the app reads routePolicyContext). */
export function declaredPolicy(module: { middleware?: unknown }): Readonly<RoutePolicy> | undefined {
  if (!Array.isArray(module.middleware)) return undefined
  const found = module.middleware.find((fn): fn is PolicyMiddleware => typeof fn === 'function' && 'policy' in fn)
  return found?.policy
}

/**
 * Root middleware: a screen's 413 is rendered by the error boundary, which
 * keeps none of the thrown response's headers; the connection still has to
 * close (the rest of the body was never read).
 */
export const bodyLimitMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next()
  if (response.status === 413) response.headers.set('Connection', 'close')
  return response
}
