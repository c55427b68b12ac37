import { data, type MiddlewareFunction } from 'react-router'
import { appUrl } from './env.server.ts'
import { logSecurityEvent } from './log.server.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
// Stripe signs its webhook; it sends no Origin and is verified by signature instead.
const EXEMPT_PATHS = new Set(['/api/stripe/webhook'])

/**
 * Refuses state-changing requests that a browser sent from another site
 * (Origin / Sec-Fetch-Site), on top of SameSite=Lax cookies. Non-browser API
 * clients send neither header and authenticate with a bearer token.
 */
export const csrfMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url)
  if (SAFE_METHODS.has(request.method) || EXEMPT_PATHS.has(url.pathname)) return next()
  const origin = request.headers.get('Origin')
  const fetchSite = request.headers.get('Sec-Fetch-Site')
  const allowed = new Set([url.origin, new URL(appUrl(request)).origin])
  const foreignOrigin = origin !== null && !allowed.has(origin)
  const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site'
  if (foreignOrigin || crossSite) {
    logSecurityEvent('csrf_refused', request, { origin, fetchSite })
    throw data({ error: 'Cross-site request refused' }, { status: 403 })
  }
  return next()
}
