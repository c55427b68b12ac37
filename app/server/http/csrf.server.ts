import { data, type MiddlewareFunction } from 'react-router'
import { appUrl } from '../infra/env.server.ts'
import { logSecurityEvent } from '../infra/log.server.ts'
import { hasAuthCookie } from '../infra/supabase.server.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser sent from another site
 * (Origin / Sec-Fetch-Site), on top of SameSite=Lax cookies. A write that
 * signs in with the session cookie must say where it comes from: browsers send
 * Origin (and Sec-Fetch-Site) on every POST, so a cookie-authenticated write
 * with neither is refused too (issue 14.8). Non-browser clients — API clients
 * with a bearer token, Stripe's signed webhook — send no cookie and neither
 * header, and pass.
 */
export const csrfMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url)
  if (SAFE_METHODS.has(request.method)) return next()
  const origin = request.headers.get('Origin')
  const fetchSite = request.headers.get('Sec-Fetch-Site')
  const allowed = new Set([url.origin, new URL(appUrl(request)).origin])
  const foreignOrigin = origin !== null && !allowed.has(origin)
  const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site'
  const cookieAuthenticated = hasAuthCookie(request) && !request.headers.has('Authorization')
  const unattributed = origin === null && fetchSite === null && cookieAuthenticated
  if (foreignOrigin || crossSite || unattributed) {
    logSecurityEvent('csrf_refused', request, {
      origin,
      fetchSite,
      reason: unattributed ? 'cookie session without Origin or Sec-Fetch-Site' : 'cross-site',
    })
    throw data({ error: 'Cross-site request refused' }, { status: 403 })
  }
  return next()
}
