import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Request, RequestHandler, Response } from 'express'

/** Smaller bodies gain less than the header costs. */
const THRESHOLD_BYTES = 1024

/**
 * Compress HTML documents (and React Router's manifest): assets are
 * precompressed; /api JSON and images are not compressed here. A page whose
 * route declares `compress: false` (route-policy.server.ts) — it shows secrets
 * next to text the visitor controls, so response sizes must reveal nothing
 * about them (BREACH): the admin desk, the profile — arrives marked
 * `Cache-Control: no-transform` and is sent as it is.
 */
export function shouldCompress(req: Pick<Request, 'path'>, res: Pick<Response, 'getHeader'>): boolean {
  if (/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))) return false
  const type = String(res.getHeader('Content-Type') ?? '')
  // HTML documents, and the route manifest the browser fetches for the links on a page.
  return /^text\/html\b/.test(type) || (req.path === '/__manifest' && /^application\/json\b/.test(type))
}

/** 'br' when the client takes brotli, else 'gzip' when it takes gzip, else null (RFC 9110 q-values). */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim())
    const q = params.find((param) => /^q=/i.test(param))
    weights.set(name.toLowerCase(), q ? Number(q.slice(2)) || 0 : 1)
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
  if (weight('br') > 0) return 'br'
  if (weight('gzip') > 0) return 'gzip'
  return null
}

function compress(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 2,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(body, { level: 1 })
}

type Chunk = string | Buffer | Uint8Array
const toBuffer = (chunk: Chunk, encoding?: BufferEncoding) =>
  typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/**
 * Compresses the app's HTML pages (docs/decisions/008-public-page-weight.md):
 * a 90 KB marketplace page goes out as ~13 KB.
 *
 * The page is collected and compressed in one synchronous call when it ends,
 * not streamed through a zlib stream: React Router writes a page as dozens of
 * small chunks, and a compression stream costs a thread-pool round trip per
 * chunk — it took an empty page from 500 to 210 requests per second. Our
 * loaders finish before rendering, so nothing is gained by sending early.
 * Brotli quality 2 costs ~0.4 ms for the marketplace page and comes within 7 %
 * of quality 4's size at half its time; gzip level 1 for clients without brotli.
 */
export function htmlCompression(): RequestHandler {
  return (req, res, next) => {
    const encoding = req.method === 'HEAD' ? null : preferredEncoding(req.headers['accept-encoding'])
    const write = res.write.bind(res) as (...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    const chunks: Buffer[] = []
    let collecting: boolean | undefined

    // Decided at the first write, when status and headers are known.
    const collect = () => {
      if (collecting === undefined) {
        const eligible = !res.headersSent && shouldCompress(req, res) && !res.getHeader('Content-Encoding')
        if (eligible) res.vary('Accept-Encoding')
        collecting = eligible && encoding !== null && res.statusCode !== 204 && res.statusCode !== 304
      }
      return collecting
    }

    res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
      if (!collect()) return write(chunk, ...rest)
      chunks.push(toBuffer(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined))
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
      callback?.()
      return true
    } as Response['write']

    res.end = function (this: Response, ...args: unknown[]) {
      const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined
      const chunk = typeof args[0] === 'function' ? undefined : (args[0] as Chunk | undefined | null)
      if (chunk == null && collecting === undefined && chunks.length === 0) return end(...args) // no body
      if (!collect()) return end(...args)
      if (chunk != null) chunks.push(toBuffer(chunk, typeof args[1] === 'string' ? (args[1] as BufferEncoding) : undefined))
      const body = Buffer.concat(chunks)
      if (body.length < THRESHOLD_BYTES || !encoding) {
        res.setHeader('Content-Length', body.length)
        return end(body, callback)
      }
      const compressed = compress(body, encoding)
      res.setHeader('Content-Encoding', encoding)
      res.setHeader('Content-Length', compressed.length)
      return end(compressed, callback)
    } as Response['end']

    next()
  }
}
