import compression from 'compression'
import type { Request, RequestHandler, Response } from 'express'
import { constants, type BrotliOptions } from 'node:zlib'

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

// Zlib's buffer holds a whole page, so a write rarely has to wait for it to drain.
const BUFFER_BYTES = 256 * 1024

/**
 * Response compression for the app's HTML (docs/decisions/008-public-page-weight.md).
 * A 100 KB marketplace page goes out as ~13 KB: brotli at quality 4 costs about
 * 1 ms of CPU for it (≈ 5 % of rendering it), gzip at level 4 for older clients.
 */
export function htmlCompression(): RequestHandler {
  const compress = compression({
    filter: shouldCompress,
    level: 4,
    threshold: 1024,
    highWaterMark: BUFFER_BYTES,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 }, highWaterMark: BUFFER_BYTES } as BrotliOptions,
  })
  return (req, res, next) => {
    compress(req, res, (error?: unknown) => {
      // React Router flushes after every chunk it writes (for streamed Suspense boundaries). Our loaders
      // finish before rendering, so a page is written in one go, and a flush per chunk would compress each
      // chunk on its own: a bigger page for more CPU. Without flush() the page is compressed as a whole.
      ;(res as { flush?: unknown }).flush = undefined
      next(error)
    })
  }
}
