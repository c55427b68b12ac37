import compression from 'compression'
import type { Request, Response } from 'express'
import { constants } from 'node:zlib'

/**
 * Pages whose HTML can carry a secret next to text the visitor controls: left
 * uncompressed so response sizes reveal nothing about the secret (BREACH).
 * Admins see decrypted bank details; the profile shows the seller's own.
 */
const UNCOMPRESSED_PREFIXES = ['/admin', '/profile']

/** Compress HTML documents (and React Router's manifest): assets are precompressed; /api JSON and images are not compressed here. */
export function shouldCompress(req: Pick<Request, 'path'>, res: Pick<Response, 'getHeader'>): boolean {
  if (UNCOMPRESSED_PREFIXES.some((prefix) => req.path === prefix || req.path.startsWith(`${prefix}/`))) return false
  const type = String(res.getHeader('Content-Type') ?? '')
  // HTML documents, and the route manifest the browser fetches for the links on a page.
  return /^text\/html\b/.test(type) || (req.path === '/__manifest' && /^application\/json\b/.test(type))
}

/**
 * Response compression for the app's HTML (docs/decisions/008-public-page-weight.md).
 * A 100 KB marketplace page goes out as ~13 KB: brotli at quality 4 costs about
 * 1 ms of CPU for it (≈ 5 % of rendering it), gzip at level 4 for older clients.
 */
export function htmlCompression() {
  return compression({
    filter: shouldCompress,
    level: 4,
    threshold: 1024,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  })
}
