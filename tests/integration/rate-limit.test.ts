import express from 'express'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import * as login from '../../app/routes/login.tsx'
import { clientIpMiddleware, CLIENT_IP_HEADER, trustProxySetting } from '../../app/server/client-ip.server.ts'
import { resetRateLimits } from '../../app/server/rate-limit.server.ts'
import { callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'

function signInFrom(ip: string) {
  return new Request('http://localhost:3000/login', {
    method: 'POST',
    body: new URLSearchParams({ provider: 'github' }),
    headers: { Origin: 'http://localhost:3000', [CLIENT_IP_HEADER]: ip },
  })
}

describe('rate limits', () => {
  afterEach(() => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1000' })
    resetRateLimits()
  })

  it('answers 429 with Retry-After once a client exceeds the sign-in limit, per client', async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1' })
    resetRateLimits()
    for (let i = 0; i < 10; i++) expect((await callRoute(login, signInFrom('203.0.113.7'))).status).toBe(302)
    const limited = await callRoute(login, signInFrom('203.0.113.7'))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await callRoute(login, signInFrom('198.51.100.1'))).status).toBe(302)
  })
})

describe('client address behind a proxy', () => {
  async function seenAddress(trustProxy: string | undefined, headers: Record<string, string>) {
    const app = express()
    app.set('trust proxy', trustProxySetting(trustProxy))
    app.use(clientIpMiddleware)
    app.get('/', (req, res) => {
      res.send(req.headers[CLIENT_IP_HEADER])
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    try {
      const { port } = server.address() as AddressInfo
      return await (await fetch(`http://127.0.0.1:${port}/`, { headers })).text()
    } finally {
      server.close()
    }
  }

  it('ignores a spoofed X-Forwarded-For and a spoofed client header without a configured proxy', async () => {
    expect(await seenAddress(undefined, { 'X-Forwarded-For': '6.6.6.6', [CLIENT_IP_HEADER]: '7.7.7.7' })).toMatch(/127\.0\.0\.1$/)
  })

  it('uses the address the configured proxy appended, not what the client prepended', async () => {
    expect(await seenAddress('1', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9' })).toBe('203.0.113.9')
  })
})
