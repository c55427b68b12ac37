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
 * A 90 KB marketplace page goes out as ~13 KB. Cheap settings: brotli at quality
 * 2 takes 0.4 ms for it and comes within 7 % of quality 4's size, which took
 * twice as long (10 % of the server's time on listing pages). Quality 1 is faster
 * still but compresses each written chunk nearly on its own (4× bigger pages as
 * React Router writes them). Gzip at level 1 for clients without brotli.
 */
export function htmlCompression(): RequestHandler {
  const compress = compression({
    filter: shouldCompress,
    level: 1,
    threshold: 1024,
    highWaterMark: BUFFER_BYTES,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 }, highWaterMark: BUFFER_BYTES } as BrotliOptions,
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
