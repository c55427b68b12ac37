import type { MiddlewareFunction } from 'react-router'
import { config, isProduction } from '../infra/env.server.ts'
import { hasAuthCookie } from '../infra/supabase.server.ts'
import type { CspVariant } from './route-policy.server.ts'

/**
 * Where Stripe.js may load from and talk to, added to the CSP of the routes
 * that declare the 'checkout' variant only (design.md §7: Stripe.js is loaded
 * only on checkout). With the local
 * emulator its origin (from STRIPE_JS_URL) stands in for Stripe's.
 */
function stripeSources(): { script: string[]; connect: string[]; frame: string[] } {
  const standIn = config().STRIPE_JS_URL
  if (standIn) {
    const origin = new URL(standIn).origin
    return { script: [origin], connect: [origin], frame: [] }
  }
  // Stripe's documented CSP for Stripe.js (docs.stripe.com/security/guide#content-security-policy).
  return {
    script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
    connect: ['https://api.stripe.com'],
    frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  }
}

/**
 * The sign-in form posts to /login, which redirects to the identity provider
 * and on to Google or GitHub; browsers check form-action on every hop.
 */
function signInFormTargets(): string[] {
  return [new URL(config().SUPABASE_URL).origin, 'https://accounts.google.com', 'https://github.com']
}

/** Avatars come from the identity provider's users (GitHub, Google; the local emulator serves its own). */
function avatarSources(): string[] {
  const sources = ['https://avatars.githubusercontent.com', 'https://*.googleusercontent.com']
  return [...sources, new URL(config().SUPABASE_URL).origin]
}

/**
 * Headers for every HTML document: the CSP gets its per-request nonce and the
 * extra sources of the variant its route declares (route-policy.server.ts).
 */
export function securityHeaders(variant: CspVariant | undefined, nonce: string): Record<string, string> {
  const stripe = variant === 'checkout' ? stripeSources() : { script: [], connect: [], frame: [] }
  const list = (base: string[], extra: string[]) => [...base, ...extra].join(' ')
  const csp = [
    `default-src 'self'`,
    `script-src ${list(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"], stripe.script)}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src ${list(["'self'", 'data:', 'blob:'], avatarSources())}`,
    `font-src 'self'`,
    `connect-src ${list(["'self'"], stripe.connect)}`,
    `frame-src ${stripe.frame.length ? stripe.frame.join(' ') : "'none'"}`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action ${list(["'self'"], variant === 'sign-in' ? signInFormTargets() : [])}`,
    `frame-ancestors 'none'`,
  ]
  const headers: Record<string, string> = {
    'Content-Security-Policy': csp.join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  }
  if (isProduction()) headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains'
  return headers
}

/**
 * Root middleware: an answer to a signed-in request (auth cookie or bearer
 * token) is the user's own — their e-mail in the page's header, their
 * purchases, a payment form — so no cache may keep it (issue 14.8) unless the
 * route said otherwise (public, immutable uploads).
 */
export const privateCacheMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next()
  const signedIn = request.headers.has('Authorization') || hasAuthCookie(request)
  const cacheControl = response.headers.get('Cache-Control')
  // A route's own choice of who may store it (public, private, no-store) stands; other directives are kept.
  if (signedIn && !/\b(public|private|no-store)\b/i.test(cacheControl ?? '')) {
    response.headers.set('Cache-Control', cacheControl ? `private, no-store, ${cacheControl}` : 'private, no-store')
  }
  return response
}
