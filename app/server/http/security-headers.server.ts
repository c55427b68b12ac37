import { createHash } from 'node:crypto'
import { config, isProduction } from '../infra/env.server.ts'
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
 * How a document's inline scripts are trusted: a fresh nonce per response, or
 * — for a page a shared cache hands to many readers, where a nonce would be
 * the same for all of them — the SHA-256 of each inline script it carries
 * (inlineScriptHashes), docs/decisions/023-cacheable-public-pages.md.
 */
export type ScriptTrust = string | { hashes: readonly string[] }

/** Inline `<script>` elements of a rendered page (not those with a `src`), with their exact text. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi

/**
 * The CSP hash source of every inline script in `html` — React Router's
 * context, route-module and stream scripts, ScrollRestoration's — as the
 * browser computes it: over the UTF-8 text after the HTML parser has turned
 * CR LF and CR into LF. React escapes `<` in text and attributes, so markup
 * from a listing cannot open a script element here.
 *
 * The page comes as its UTF-8 bytes and is read as Latin-1, one character per
 * byte: every byte of a multi-byte character is ≥ 0x80, so the ASCII markup
 * the pattern looks for is found where it is, and each script's characters
 * turn back into exactly its UTF-8 bytes for the digest. Decoding the whole
 * page as UTF-8 only to find its scripts cost a fifth of a millisecond a page.
 */
export function inlineScriptHashes(html: Uint8Array): string[] {
  const latin1 = Buffer.from(html.buffer, html.byteOffset, html.byteLength).toString('latin1')
  const hashes = new Set<string>()
  for (const [, attributes = '', text = ''] of latin1.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(attributes)) continue
    const digest = createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'latin1').digest('base64')
    hashes.add(`'sha256-${digest}'`)
  }
  return [...hashes]
}

/**
 * Headers for every HTML document: the CSP trusts the page's inline scripts by
 * nonce or by hash (ScriptTrust) and adds the sources of the variant its route
 * declares (route-policy.server.ts).
 *
 * By hash, 'strict-dynamic' is left out: it would make the browser ignore
 * 'self', and React Router's `<link rel="modulepreload">` elements can carry a
 * nonce but no hash. Scripts then come only from the hashed inline ones and
 * this origin, which serves no script a visitor can write (uploads are images
 * sent with nosniff and their own sandboxing CSP; /api answers JSON).
 */
export function securityHeaders(variant: CspVariant | undefined, trust: ScriptTrust): Record<string, string> {
  const stripe = variant === 'checkout' ? stripeSources() : { script: [], connect: [], frame: [] }
  const list = (base: string[], extra: string[]) => [...base, ...extra].join(' ')
  const scriptTrust = typeof trust === 'string' ? [`'nonce-${trust}'`, "'strict-dynamic'"] : [...trust.hashes]
  const csp = [
    `default-src 'self'`,
    `script-src ${list(["'self'", ...scriptTrust], stripe.script)}`,
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
