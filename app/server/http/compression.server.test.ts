import { get } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlCompression, preferredEncoding } from './compression.server'

const page = `<!DOCTYPE html><html><body>${'<p class="card">A listing card</p>'.repeat(200)}</body></html>`
let base = ''
let close: () => void = () => {}

beforeAll(async () => {
  const app = express()
  app.use(htmlCompression())
  app.get('/marketplace', (_req, res) => res.type('html').send(page))
  // What a route that declares `compress: false` (admin, profile) sends.
  app.get(['/admin', '/admin/payouts', '/profile'], (_req, res) =>
    res.set('Cache-Control', 'private, no-store, no-transform').type('html').send(page),
  )
  app.get('/__manifest', (_req, res) => res.json({ routes: Array.from({ length: 200 }, (_, i) => ({ id: `route-${i}` })) }))
  app.get('/api/listings', (_req, res) => res.json({ listings: Array.from({ length: 200 }, (_, i) => ({ id: i, title: 'A listing' })) }))
  // Written the way React Router writes a rendered page: many chunks, each followed by flush() when there is one.
  app.get('/streamed', (_req, res) => {
    res.type('html')
    for (let i = 0; i < page.length; i += 500) {
      res.write(page.slice(i, i + 500))
      const flushable = res as unknown as { flush?: () => void }
      if (typeof flushable.flush === 'function') flushable.flush()
    }
    res.end()
  })
  app.get('/tiny', (_req, res) => res.type('html').send('<p>hi</p>'))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close())

async function encodingOf(path: string, acceptEncoding: string) {
  const response = await fetch(base + path, { headers: { 'Accept-Encoding': acceptEncoding } })
  const body = await response.text()
  return { encoding: response.headers.get('content-encoding'), body, vary: response.headers.get('vary') }
}

/** The bytes on the wire (not decompressed). */
function wireBytes(path: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(base + path, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => (bytes += chunk.length))
      response.on('end', () => resolve(bytes))
    }).on('error', reject)
  })
}

describe('htmlCompression', () => {
  it('sends HTML pages with brotli, or gzip to clients without it, and the same page comes out', async () => {
    const br = await encodingOf('/marketplace', 'gzip, deflate, br')
    expect(br.encoding).toBe('br')
    expect(br.body).toBe(page)
    expect(br.vary).toMatch(/Accept-Encoding/i)
    expect((await encodingOf('/marketplace', 'gzip')).encoding).toBe('gzip')
    expect((await encodingOf('/marketplace', 'identity')).encoding).toBeNull()
    expect((await encodingOf('/__manifest', 'br')).encoding).toBe('br')
  })

  it('leaves JSON, tiny pages and pages with secrets (marked no-transform by their route: admin, profile) uncompressed', async () => {
    for (const path of ['/api/listings', '/tiny', '/admin', '/admin/payouts', '/profile']) {
      expect((await encodingOf(path, 'gzip, deflate, br')).encoding, path).toBeNull()
    }
  })

  it('compresses a page written in many chunks as a whole, not chunk by chunk', async () => {
    const streamed = await encodingOf('/streamed', 'br')
    expect(streamed.encoding).toBe('br')
    expect(streamed.body).toBe(page)
    const whole = await wireBytes('/marketplace', 'br')
    // Flushing after every 500-byte chunk would make it several times bigger.
    expect(await wireBytes('/streamed', 'br')).toBeLessThan(whole * 1.2)
  })

  it('answers HEAD and empty bodies without compressing', async () => {
    const head = await fetch(`${base}/marketplace`, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-encoding')).toBeNull()
  })
})

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br')
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(preferredEncoding('deflate')).toBeNull()
    expect(preferredEncoding('*')).toBe('br')
    expect(preferredEncoding('*;q=0, gzip')).toBe('gzip')
    expect(preferredEncoding(undefined)).toBeNull()
    expect(preferredEncoding('identity')).toBeNull()
  })
})
