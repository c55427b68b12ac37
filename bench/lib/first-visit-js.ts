import { gzipSync } from 'node:zlib'

export interface FirstVisitJs {
  url: string
  files: Array<{ path: string; bytes: number; gzipBytes: number }>
  bytes: number
  gzipBytes: number
  /** Files among them that mention Stripe (Stripe.js or checkout code must load only on /checkout). */
  stripeFiles: string[]
}

const MODULEPRELOAD = /<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>/gi
const SCRIPT_SRC = /<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*>/gi
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi
const HREF = /\bhref=["']([^"']+)["']/i
// Static imports and re-exports of an ES module (minified or not): the browser fetches these before running it.
const STATIC_IMPORT = /(?:\bimport|\bexport)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+\.m?js)["']/g
// import("…") in the page's inline module script runs at once (React Router's hydration entry).
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+\.m?js)["']\s*\)/g
const STRIPE = /js\.stripe\.com|@stripe\/|loadStripe|stripe\.js/i

function matches(re: RegExp, text: string, group = 1): string[] {
  return [...text.matchAll(new RegExp(re.source, re.flags))].map((m) => m[group]!).filter(Boolean)
}

/**
 * The JavaScript a first visit to `url` downloads: every script and
 * modulepreload of the server-rendered HTML, the modules its inline module
 * scripts import, and, recursively, their static imports; each file fetched
 * from the server and gzipped (zlib default level, what a compressing server
 * or CDN sends). Lazy import()s inside the bundles (other routes) don't count.
 */
export async function measureFirstVisitJs(url: string, headers: Record<string, string> = {}): Promise<FirstVisitJs> {
  const response = await fetch(url, { headers: { Accept: 'text/html', ...headers } })
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`)
  const html = await response.text()

  const queue: string[] = []
  for (const tag of matches(MODULEPRELOAD, html, 0)) {
    const href = HREF.exec(tag)?.[1]
    if (href) queue.push(href)
  }
  queue.push(...matches(SCRIPT_SRC, html))
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/.test(attributes!) || !/type=["']?module/.test(attributes!)) continue
    queue.push(...matches(STATIC_IMPORT, body!), ...matches(DYNAMIC_IMPORT, body!))
  }

  const seen = new Map<string, { bytes: number; gzipBytes: number; text: string }>()
  while (queue.length) {
    const absolute = new URL(queue.shift()!, url).href
    if (seen.has(absolute)) continue
    const file = await fetch(absolute)
    if (!file.ok) throw new Error(`GET ${absolute} (JavaScript of ${url}) answered ${file.status}`)
    const buffer = Buffer.from(await file.arrayBuffer())
    const text = buffer.toString('utf8')
    seen.set(absolute, { bytes: buffer.length, gzipBytes: gzipSync(buffer).length, text })
    for (const specifier of matches(STATIC_IMPORT, text)) queue.push(new URL(specifier, absolute).href)
  }

  const files = [...seen].map(([href, f]) => ({ path: new URL(href).pathname, bytes: f.bytes, gzipBytes: f.gzipBytes }))
  files.sort((a, b) => b.gzipBytes - a.gzipBytes)
  return {
    url,
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
    stripeFiles: [...seen].filter(([, f]) => STRIPE.test(f.text)).map(([href]) => new URL(href).pathname),
  }
}
