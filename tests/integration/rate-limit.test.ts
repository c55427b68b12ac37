import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import * as sellerListingsApi from '../../app/routes/api/seller-listings.ts'
import * as login from '../../app/routes/login.tsx'
import { createApiKey } from '../../app/server/domain/api-keys.server.ts'
import { CLIENT_IP_HEADER, clientIpMiddleware, trustProxySetting } from '../../app/server/http/client-ip.server.ts'
import { resetRateLimits } from '../../app/server/http/rate-limit.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { signUp } from '../support/payment-fixtures.ts'
import { buildRequest, buildWorld, VALID_BANK_DETAILS } from './hardening-fixtures.ts'

function signInFrom(ip: string) {
  return new Request('http://localhost:3000/login', {
    method: 'POST',
    body: new URLSearchParams({ provider: 'github' }),
    headers: { Origin: 'http://localhost:3000', [CLIENT_IP_HEADER]: ip },
  })
}

describe('rate limits', () => {
  afterEach(async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1000' })
    await resetRateLimits()
  })

  it('answers 429 with Retry-After once a client exceeds the sign-in limit, per client', async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '1' })
    await resetRateLimits()
    for (let i = 0; i < 10; i++) expect((await callRoute(login, signInFrom('203.0.113.7'))).status).toBe(302)
    const limited = await callRoute(login, signInFrom('203.0.113.7'))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await callRoute(login, signInFrom('198.51.100.1'))).status).toBe(302)
  })

  it("a page's 429 carries Retry-After too (the error page keeps it), and says why", async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '0.1' }) // the sign-in limit becomes 1 a minute
    await resetRateLimits()
    expect((await callRoute(login, signInFrom('203.0.113.8'))).status).toBe(302)
    const page = await callRoute(login, signInFrom('203.0.113.8'))
    expect(page.status).toBe(429)
    expect(Number(page.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await page.text()).toContain('Too many requests. Please wait a moment and try again.')
  })

  it('limits bank-details saves, and Deliver, Confirm Receipt and Report a problem, on the API and the screens alike', async () => {
    const w = await buildWorld()
    setEnv({ RATE_LIMIT_MULTIPLIER: '0.1' }) // bank details: 1 a minute; sale actions: 3 a minute
    await resetRateLimits()
    const from = (request: Request, ip: string) => {
      request.headers.set(CLIENT_IP_HEADER, ip)
      return request
    }
    const mod = (file: string) => import(/* @vite-ignore */ `../../app/${file}`) as Promise<object>
    const status = async (file: string, request: Request, ip: string, params: Record<string, string> = {}) =>
      (await callRoute(await mod(file), from(request, ip), params)).status

    // Bank details: the API and the profile form share one limit.
    const owner = w.users.owner.token
    expect(
      await status(
        'routes/api/bank-details.ts',
        buildRequest('POST', '/api/profile/bank-details', owner, { json: VALID_BANK_DETAILS }),
        '192.0.2.1',
      ),
    ).toBe(200)
    expect(await status('routes/profile.tsx', buildRequest('POST', '/profile', owner, { form: VALID_BANK_DETAILS }), '192.0.2.1')).toBe(429)
    expect(
      await status(
        'routes/api/bank-details.ts',
        buildRequest('POST', '/api/profile/bank-details', owner, { json: VALID_BANK_DETAILS }),
        '192.0.2.1',
      ),
    ).toBe(429)

    // Sale actions: deliver, confirm and dispute (API and screens) share one limit.
    const buyer = w.users.buyer.token
    const attempts = [
      () =>
        status(
          'routes/api/seller-transaction-deliver.ts',
          buildRequest('POST', `/api/seller/transactions/${w.salePaid.id}/deliver`, owner, { json: { forkUrl: 'https://github.com/a/b' } }),
          '192.0.2.2',
          { id: w.salePaid.id },
        ),
      () =>
        status(
          'routes/api/purchase-confirm.ts',
          buildRequest('POST', `/api/purchases/${w.saleCompleted.id}/confirm`, buyer, { json: {} }),
          '192.0.2.2',
          { id: w.saleCompleted.id },
        ),
      () =>
        status(
          'routes/api/purchase-dispute.ts',
          buildRequest('POST', `/api/purchases/${w.saleDelivered.id}/dispute`, buyer, { json: { reason: 'Broken' } }),
          '192.0.2.2',
          { id: w.saleDelivered.id },
        ),
      () =>
        status(
          'routes/purchases.tsx',
          buildRequest('POST', '/purchases', buyer, { form: { intent: 'confirm-receipt', transactionId: w.saleDelivered.id } }),
          '192.0.2.2',
        ),
      () =>
        status(
          'routes/seller-dashboard.tsx',
          buildRequest('POST', '/seller/dashboard', owner, {
            form: { intent: 'deliver', transactionId: w.salePaid.id, forkUrl: 'https://github.com/a/b' },
          }),
          '192.0.2.2',
        ),
    ]
    const statuses = []
    for (const attempt of attempts) statuses.push(await attempt())
    expect(
      statuses.slice(0, 3).every((code) => code !== 429),
      JSON.stringify(statuses),
    ).toBe(true)
    expect(statuses.slice(3)).toEqual([429, 429])
  })

  it('counts every request of a personal API key, reads too, per key: another key of the same user or of another user goes on', async () => {
    setEnv({ RATE_LIMIT_MULTIPLIER: '0.025' }) // 120 a minute per key becomes 3
    await resetRateLimits()
    const seller = await signUp('rate-limited-key')
    const other = await signUp('rate-limit-neighbour')
    const scopes = ['listings:read' as const]
    const busy = (await createApiKey(seller.id, { name: 'busy', scopes })).secret
    const sameUser = (await createApiKey(seller.id, { name: 'second', scopes })).secret
    const otherUser = (await createApiKey(other.id, { name: 'neighbour', scopes })).secret
    // One client address for all of them: the limit is the key's, not the address's.
    const list = (token: string) => {
      const request = apiRequest('/api/seller/listings', { token })
      request.headers.set(CLIENT_IP_HEADER, '203.0.113.20')
      return callRoute(sellerListingsApi, request)
    }
    for (let i = 0; i < 3; i++) expect((await list(busy)).status).toBe(200)
    const limited = await list(busy)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await limited.json()).toEqual({ error: 'Too many requests with this API key. Please wait and try again.' })
    expect((await list(sameUser)).status).toBe(200)
    expect((await list(otherUser)).status).toBe(200)
    expect((await list(busy)).status).toBe(429)
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
