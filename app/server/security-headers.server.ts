import { config, isProduction } from './env.server.ts'

/**
 * Where Stripe.js may load from and talk to, added to the CSP of /checkout/*
 * only (design.md §7: Stripe.js is loaded only on checkout). With the local
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
function signInFormTargets(pathname: string): string[] {
  if (pathname !== '/login') return []
  return [new URL(config().SUPABASE_URL).origin, 'https://accounts.google.com', 'https://github.com']
}

/** Avatars come from the identity provider's users (GitHub, Google; the local emulator serves its own). */
function avatarSources(): string[] {
  const sources = ['https://avatars.githubusercontent.com', 'https://*.googleusercontent.com']
  return [...sources, new URL(config().SUPABASE_URL).origin]
}

export function isCheckoutPath(pathname: string): boolean {
  return pathname.startsWith('/checkout/')
}

/** Headers for every HTML document (the CSP gets its per-request nonce). */
export function securityHeaders(pathname: string, nonce: string): Record<string, string> {
  const stripe = isCheckoutPath(pathname) ? stripeSources() : { script: [], connect: [], frame: [] }
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
    `form-action ${list(["'self'"], signInFormTargets(pathname))}`,
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
