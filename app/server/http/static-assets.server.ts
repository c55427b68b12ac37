import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { RequestHandler } from 'express'

const COMPRESSIBLE = /\.(js|css|svg|json|map)$/
const ENCODINGS = [
  { name: 'br', ext: '.br' },
  { name: 'gzip', ext: '.gz' },
] as const

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/**
 * Compresses the build's hashed assets once (brotli 11 and gzip 9, next to
 * each file), so every visit gets small JavaScript and CSS without spending
 * CPU per request. Idempotent: files already compressed are skipped.
 */
export function precompressAssets(dir: string): void {
  if (!existsSync(dir)) return
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || existsSync(`${file}.br`)) continue
    const body = readFileSync(file)
    writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
  }
}

/**
 * Serves the precompressed copy of an immutable asset when the client accepts
 * it; anything else falls through to express.static. The set of files is read
 * once, so no request touches the file system to find out.
 */
export function precompressedAssets(dir: string): RequestHandler {
  const available = new Set(existsSync(dir) ? filesUnder(dir).map((file) => path.relative(dir, file)) : [])
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const relative = path.normalize(decodeURIComponent(req.path)).replace(/^[/\\]+/, '')
    if (relative.startsWith('..') || !available.has(relative)) return next()
    const accepted = String(req.headers['accept-encoding'] ?? '')
    const encoding = ENCODINGS.find((e) => accepted.includes(e.name) && available.has(`${relative}${e.ext}`))
    res.setHeader('Vary', 'Accept-Encoding')
    if (!encoding) return next()
    res.setHeader('Content-Encoding', encoding.name)
    res.type(path.extname(relative))
    res.sendFile(path.join(dir, `${relative}${encoding.ext}`), { immutable: true, maxAge: '1y' })
  }
}
