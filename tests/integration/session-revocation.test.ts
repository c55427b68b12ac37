import { afterEach, describe, expect, it, vi } from 'vitest'
import * as purchasesApi from '../../app/routes/api/purchases.ts'
import * as logout from '../../app/routes/logout.tsx'
import * as purchasesPage from '../../app/routes/purchases.tsx'
import { purgeExpiredRevocations } from '../../app/server/http/session-tokens.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { sessionCookieHeader } from '../../emulators/supabase-auth/session-cookie.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { authEmulator } from '../support/services.ts'
import { signUp } from './admin-fixtures.ts'

// Issue 14.3: a signed-out session is refused by every endpoint; tokens are
// judged on signature (allow-listed algorithms), iss, aud, exp and nbf.

const purchases = (token: string) => callRoute(purchasesApi, apiRequest('/api/purchases', { token }))

function sessionCookie(session: Awaited<ReturnType<typeof authEmulator.createSession>>) {
  return sessionCookieHeader(authEmulator.url, session)
}

afterEach(() => {
  vi.useRealTimers()
})

describe('signing out revokes the session everywhere (issue 14.3)', () => {
  it('POST /logout from the browser: the old access token is refused by the API and the pages at once', async () => {
    const user = await signUp('leaving@example.com')
    const session = await authEmulator.createSession({ email: 'leaving@example.com' })
    expect((await purchases(session.access_token)).status).toBe(200)

    const out = await callRoute(
      logout,
      new Request(`${APP}/logout`, { method: 'POST', headers: { Origin: APP, Cookie: sessionCookie(session) } }),
    )
    expect(out.status).toBe(302)
    expect(out.headers.getSetCookie().join('\n')).toMatch(/sb-[^=]+-auth-token(\.0)?=;/)

    const api = await purchases(session.access_token)
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: 'Authentication required' })
    const page = await callRoute(purchasesPage, new Request(`${APP}/purchases`, { headers: { Cookie: sessionCookie(session) } }))
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
    expect(await db.selectFrom('revokedSessions').select(['userId', 'reason']).execute()).toEqual([{ userId: user.id, reason: 'logout' }])
    // Another session of the same user is untouched.
    const other = await authEmulator.createSession({ email: 'leaving@example.com' })
    expect((await purchases(other.access_token)).status).toBe(200)
  })

  it('a bearer client signing out through POST /logout is revoked too', async () => {
    const { token } = await signUp('api-leaver@example.com')
    const out = await callRoute(logout, new Request(`${APP}/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }))
    expect(out.status).toBe(302)
    expect((await purchases(token)).status).toBe(401)
  })

  it('a global sign-out at the identity provider is noticed within a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date() })
    const { token } = await signUp('elsewhere@example.com')
    expect((await purchases(token)).status).toBe(200)
    const ended = await fetch(`${authEmulator.url}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, apikey: authEmulator.anonKey },
    })
    expect(ended.status).toBe(204)
    vi.setSystemTime(Date.now() + 61_000)
    expect((await purchases(token)).status).toBe(401)
    // Recorded, so every instance refuses it without asking the provider again.
    expect(await db.selectFrom('revokedSessions').select('reason').execute()).toEqual([{ reason: 'provider' }])
  })

  it('expired revocations are purged', async () => {
    const { token } = await signUp('purge@example.com')
    await callRoute(logout, new Request(`${APP}/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }))
    expect(await purgeExpiredRevocations(new Date())).toBe(0)
    expect(await purgeExpiredRevocations(new Date(Date.now() + 3 * 86_400_000))).toBe(1)
  })
})

describe('token checks (issue 14.3, 14.7)', () => {
  async function realClaims(email: string) {
    const { token } = await signUp(email)
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>
  }

  it('alg none with a real kid → 401 on the API and signed out on a page, never a 500', async () => {
    const claims = await realClaims('none@example.com')
    const kid = (await (await fetch(`${authEmulator.url}/auth/v1/.well-known/jwks.json`)).json()).keys[0].kid
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const alg of ['none', 'HS256', 'RS256', 'ES512', 'bogus']) {
      const token = `${b64({ alg, kid, typ: 'JWT' })}.${b64(claims)}.${alg === 'none' ? '' : 'c2ln'}`
      const api = await purchases(token)
      expect(api.status, alg).toBe(401)
      const page = await callRoute(purchasesPage, new Request(`${APP}/purchases`, { headers: { Authorization: `Bearer ${token}` } }))
      expect(page.status, alg).toBe(302)
    }
  })

  it('refuses a validly signed token whose nbf is in the future, or whose issuer or audience is not ours', async () => {
    const claims = await realClaims('claims@example.com')
    const now = Math.floor(Date.now() / 1000)
    const variants = {
      nbf: { ...claims, nbf: now + 3600 },
      issuer: { ...claims, iss: 'https://evil.example/auth/v1' },
      audience: { ...claims, aud: 'anon' },
      'no session': { ...claims, session_id: undefined },
    }
    for (const [name, variant] of Object.entries(variants)) {
      const token = await authEmulator.signClaims(variant)
      expect((await purchases(token)).status, name).toBe(401)
    }
    expect((await purchases(await authEmulator.signClaims(claims))).status).toBe(200)
  })
})
