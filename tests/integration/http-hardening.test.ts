import { request as httpRequest } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import * as authCallback from '../../app/routes/auth-callback.tsx'
import * as checkoutPage from '../../app/routes/checkout.tsx'
import * as login from '../../app/routes/login.tsx'
import * as marketplace from '../../app/routes/marketplace.tsx'
import * as purchasesPage from '../../app/routes/purchases.tsx'
import { safeRedirectPath } from '../../app/server/http/auth.server.ts'
import { PUBLIC_CACHE_CONTROL } from '../../app/server/http/http-cache.server.ts'
import { createHttpServer, HTTP_TIMEOUTS, lingeringClose } from '../../app/server/http/http-server.server.ts'
import { APP, callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { authEmulator } from '../support/services.ts'
import { buildRequest, buildWorld } from './hardening-fixtures.ts'

/* Issue 14.8: the smaller HTTP defects, each with the behaviour a client sees. */

/** The cookie @supabase/ssr keeps the session in (`sb-<first host label>-auth-token`, base64url JSON). */
function sessionCookie(session: Awaited<ReturnType<typeof authEmulator.createSession>>) {
  const name = `sb-${new URL(authEmulator.url).hostname.split('.')[0]}-auth-token`
  return `${name}=base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`
}

describe('signed-in pages are never cached', () => {
  it('/purchases and /checkout/:id answer Cache-Control: private, no-store to a signed-in visitor (cookie or token)', async () => {
    const w = await buildWorld()
    const session = await authEmulator.createSession({ email: w.users.buyer.email })
    const ways: Record<string, string>[] = [{ Authorization: `Bearer ${w.users.buyer.token}` }, { Cookie: sessionCookie(session) }]
    for (const headers of ways) {
      const purchases = await callRoute(purchasesPage, new Request(`${APP}/purchases`, { headers }))
      expect(purchases.status).toBe(200)
      expect(purchases.headers.get('Cache-Control')).toBe('private, no-store')
      const checkout = await callRoute(checkoutPage, new Request(`${APP}/checkout/${w.listing.id}`, { headers }), { id: w.listing.id })
      expect(checkout.status).toBe(200)
      expect(checkout.headers.get('Cache-Control')).toBe('private, no-store')
    }
    // A public page seen anonymously is cacheable by a shared cache (docs/decisions/023; tests/integration/http-caching.test.ts).
    const anonymous = await callRoute(marketplace, new Request(`${APP}/marketplace`))
    expect(anonymous.headers.get('Cache-Control')).toBe(PUBLIC_CACHE_CONTROL)
    expect(anonymous.headers.get('Cache-Control')).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/)
  })
})

describe('the sign-in return path', () => {
  it('is normalised before it is checked: /.//evil.example is not a way off the site', () => {
    for (const evil of [
      '/.//evil.example',
      '/./\\evil.example',
      '/a/..//evil.example',
      '/\t/evil.example',
      '/%09/evil.example/..//evil.example',
    ]) {
      expect(safeRedirectPath(evil), JSON.stringify(evil)).not.toMatch(/^\/\//)
    }
    expect(safeRedirectPath('/.//evil.example')).toBe('/')
    expect(safeRedirectPath('/./seller/dashboard')).toBe('/seller/dashboard')
  })

  it('the login page and the OAuth callback send /.//evil.example home instead', async () => {
    const page = await callRoute(login, new Request(`${APP}/login?redirectTo=${encodeURIComponent('/.//evil.example')}`))
    expect(await page.json()).toMatchObject({ redirectTo: '/' })
    const callback = await callRoute(authCallback, new Request(`${APP}/auth/callback?next=${encodeURIComponent('/.//evil.example')}`))
    expect(callback.status).toBe(302)
    expect(new URL(callback.headers.get('Location')!, APP).searchParams.get('redirectTo')).toBe('/')
  })
})

describe('the OAuth return address without APP_URL', () => {
  afterEach(() => setEnv({ APP_URL: 'http://localhost:3000' }))

  async function callbackOf(origin: string) {
    const response = await callRoute(
      login,
      new Request(`${origin}/login`, { method: 'POST', body: new URLSearchParams({ provider: 'github' }), headers: { Origin: origin } }),
    )
    expect(response.status).toBe(302)
    return new URL(new URL(response.headers.get('Location')!).searchParams.get('redirect_to')!).origin
  }

  it('follows the Host header only when it is this machine', async () => {
    setEnv({ APP_URL: undefined, PORT: '3000' })
    expect(await callbackOf('http://evil.example')).toBe('http://localhost:3000')
    expect(await callbackOf('http://localhost:3000')).toBe('http://localhost:3000')
    expect(await callbackOf('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
    setEnv({ APP_URL: 'https://forkmarket.example' })
    expect(await callbackOf('http://evil.example')).toBe('https://forkmarket.example')
  })
})

describe('cookie-authenticated writes must say where they come from', () => {
  it('refuses a cookie-session POST with neither Origin nor Sec-Fetch-Site; accepts it with either, and token clients without', async () => {
    const w = await buildWorld()
    const session = await authEmulator.createSession({ email: w.users.buyer.email })
    const post = (headers: Record<string, string>) =>
      callRoute(
        purchasesPage,
        new Request(`${APP}/purchases`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({ intent: 'confirm-receipt', transactionId: w.saleDelivered.id }),
        }),
      )
    const bare = await post({ Cookie: sessionCookie(session) })
    expect(bare.status).toBe(403)
    expect(await bare.json()).toEqual({ error: 'Cross-site request refused' })
    expect((await post({ Cookie: sessionCookie(session), 'Sec-Fetch-Site': 'same-origin' })).status).toBe(302)
    // A token client sends neither header and no cookie: not refused as cross-site.
    const token = await callRoute(
      purchasesPage,
      buildRequest('POST', '/purchases', w.users.buyer.token, { form: { intent: 'confirm-receipt', transactionId: w.saleDelivered.id } }),
    )
    expect(token.status).not.toBe(403)
  })
})

describe('slow clients are cut', () => {
  async function serve(timeouts = { headersMs: 300, requestMs: 800, keepAliveMs: 5_000, checkIntervalMs: 50 }) {
    const app = express()
    app.post('/', (req, res) => {
      req.resume()
      req.on('end', () => res.send('done'))
    })
    app.get('/', (_req, res) => res.send('ok'))
    const server = createHttpServer(app, timeouts)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { server, port: (server.address() as AddressInfo).port }
  }

  /** Sends `head`, then `trickle` one byte at a time; resolves with what the server said and when it hung up. */
  function slowClient(port: number, head: string, trickle = '') {
    return new Promise<{ answer: string; closedAfterMs: number }>((resolve) => {
      const started = Date.now()
      const socket = connect(port, '127.0.0.1', () => socket.write(head))
      let answer = ''
      let sent = 0
      const drip = setInterval(() => {
        if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!)
      }, 100)
      socket.on('data', (chunk) => (answer += chunk.toString()))
      socket.on('error', () => {})
      socket.on('close', () => {
        clearInterval(drip)
        resolve({ answer, closedAfterMs: Date.now() - started })
      })
    })
  }

  it('the app server waits 15 s for request headers and 120 s for a whole request, checked every second', () => {
    const server = createHttpServer(() => {})
    expect(HTTP_TIMEOUTS).toMatchObject({ headersMs: 15_000, requestMs: 120_000, checkIntervalMs: 1_000 })
    expect(server.headersTimeout).toBe(15_000)
    expect(server.requestTimeout).toBe(120_000)
    expect(server.keepAliveTimeout).toBe(65_000)
  })

  it('a client that never finishes its headers gets 408 and the connection closes at the header timeout', async () => {
    const { server, port } = await serve()
    try {
      const { answer, closedAfterMs } = await slowClient(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ')
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      expect(closedAfterMs).toBeLessThan(1_500)
    } finally {
      server.close()
    }
  })

  it('a client that trickles its body gets 408 and the connection closes at the request timeout', async () => {
    const { server, port } = await serve()
    try {
      const head = 'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n'
      const { answer, closedAfterMs } = await slowClient(port, head, 'x'.repeat(100))
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      expect(closedAfterMs).toBeGreaterThanOrEqual(700)
      expect(closedAfterMs).toBeLessThan(2_500)
    } finally {
      server.close()
    }
  })
})

describe('an early answer to a body still on its way', () => {
  it('reaches the client: the server discards the rest for a moment (lingering close) instead of resetting the connection', async () => {
    const app = express()
    app.use(lingeringClose({ lingerMs: 2_000 }))
    // What the app does at a body limit: reads up to it, stops reading, answers 413 with Connection: close.
    app.post('/', (req, res) => {
      let received = 0
      const onData = (chunk: Buffer) => {
        received += chunk.length
        if (received <= 1024 * 1024) return
        req.pause()
        req.off('data', onData)
        res.status(413).set('Connection', 'close').json({ error: 'The request body is too large' })
      }
      req.on('data', onData)
    })
    const server = createHttpServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const outcome = await new Promise<{ status: number; body: string; sentMB: number }>((resolve, reject) => {
        let sent = 0
        let answered = false
        const req = httpRequest(
          { host: '127.0.0.1', port, path: '/', method: 'POST', headers: { 'Content-Type': 'application/json' } },
          (res) => {
            answered = true
            let body = ''
            res.on('data', (chunk: Buffer) => (body += chunk.toString()))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentMB: sent / 1024 / 1024 }))
          },
        )
        req.on('error', (error) => (answered ? undefined : reject(error)))
        const chunk = Buffer.alloc(256 * 1024, 0x7b)
        const pump = () => {
          while (!answered && sent < 256 * 1024 * 1024) {
            sent += chunk.length
            if (!req.write(chunk)) return req.once('drain', pump)
          }
          if (!answered) req.end()
        }
        pump()
      })
      expect(outcome.status).toBe(413)
      expect(JSON.parse(outcome.body)).toEqual({ error: 'The request body is too large' })
      expect(outcome.sentMB).toBeLessThan(64)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
