import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { plainServerError, rejectMalformedHost } from './malformed-request.server'

let port = 0
let close: () => void = () => {}

beforeAll(async () => {
  const app = express()
  app.use(rejectMalformedHost)
  // Stands where React Router's adapter is: it builds a URL from the host, as the adapter does.
  app.get('/api/listings', (req, res) => res.json({ url: new URL(`http://${req.hostname}${req.originalUrl}`).href }))
  app.get('/boom', () => {
    throw new Error('secret detail')
  })
  app.use(plainServerError)
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  port = (server.address() as AddressInfo).port
  close = () => server.close()
})
afterAll(() => close())

/** A raw request, so the Host header can be anything (fetch would not send a broken one). */
function get(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('malformed requests', () => {
  it('refuses a Host that cannot form a URL with 400, before the app sees it', async () => {
    for (const host of ["-7791' IN BOOLEAN MODE) ORDER BY 1-- fRoD", 'a b', 'bad host:99', '[::1']) {
      const response = await get('/api/listings?search=react', host)
      expect(response.status, host).toBe(400)
      expect(response.body).toBe('Bad Request')
    }
  })

  it('lets ordinary hosts through', async () => {
    for (const host of ['localhost:3000', 'forkmarket.example.com', '127.0.0.1', '[::1]:3000']) {
      expect((await get('/api/listings?search=react', host)).status, host).toBe(200)
    }
  })

  it('answers an escaped error with a plain 500 and no stack trace', async () => {
    const response = await get('/boom', 'localhost')
    expect(response.status).toBe(500)
    expect(response.body).toBe('Internal Server Error')
    expect(response.body).not.toContain('secret detail')
  })
})
