import { generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import * as usersSync from '../../app/routes/api/users-sync.ts'
import * as login from '../../app/routes/login.tsx'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { safeRedirectPath } from '../../app/server/http/auth.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { authEmulator } from '../support/services.ts'

async function tokenFor(email: string, fullName?: string) {
  const session = await authEmulator.createSession({ email, fullName, provider: 'github' })
  return session.access_token
}

describe('bearer tokens on /api', () => {
  it('a token from the identity provider is accepted and syncs the user', async () => {
    const token = await tokenFor('grace@example.com', 'Grace Hopper')
    const response = await callRoute(usersSync, apiRequest('/api/users/sync', { method: 'POST', token, json: {} }))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ email: 'grace@example.com', displayName: 'Grace Hopper', isAdmin: false })
    expect(body.username).toBe('grace')
  })

  it('ignores a different id or e-mail in the sync body', async () => {
    const token = await tokenFor('mallory@example.com')
    const response = await callRoute(
      usersSync,
      apiRequest('/api/users/sync', { method: 'POST', token, json: { id: crypto.randomUUID(), email: 'victim@example.com' } }),
    )
    expect(await response.json()).toMatchObject({ email: 'mallory@example.com', displayName: 'mallory' })
  })

  it('no token → 401 JSON, not a redirect', async () => {
    const response = await callRoute(usersSync, apiRequest('/api/users/sync', { method: 'POST', json: {} }))
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'Authentication required' })
  })

  it('tampered, foreign-key and expired tokens → 401', async () => {
    const good = await tokenFor('eve@example.com')
    const [header, payload, signature] = good.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, email: 'admin@forkmarket.dev' })).toString('base64url')}.${signature}`

    const { privateKey } = await generateKeyPair('ES256')
    const kid = JSON.parse(Buffer.from(header!, 'base64url').toString()).kid
    const foreign = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey)
    const otherIssuer = await new SignJWT({ ...claims, iss: 'https://evil.example/auth/v1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'other', typ: 'JWT' })
      .sign(privateKey)
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .sign(privateKey)

    for (const token of [tampered, foreign, otherIssuer, expired, 'not-a-jwt']) {
      const response = await callRoute(usersSync, apiRequest('/api/users/sync', { method: 'POST', token, json: {} }))
      expect(response.status, token.slice(0, 20)).toBe(401)
    }
    expect(await db.selectFrom('users').select('email').execute()).toEqual([])
  })
})

describe('user sync', () => {
  it('makes ADMIN_EMAILS users admins at sign-in', async () => {
    setEnv({ ADMIN_EMAILS: 'boss@example.com, other@example.com' })
    try {
      const token = await tokenFor('Boss@Example.com')
      const response = await callRoute(usersSync, apiRequest('/api/users/sync', { method: 'POST', token, json: {} }))
      expect(await response.json()).toMatchObject({ isAdmin: true })
    } finally {
      setEnv({ ADMIN_EMAILS: undefined })
    }
  })

  it('gives a colliding username a unique variant', async () => {
    const a = await syncUser({ id: crypto.randomUUID(), email: 'sam@one.example', displayName: 'Sam', avatarUrl: null })
    const b = await syncUser({ id: crypto.randomUUID(), email: 'sam@two.example', displayName: 'Sam', avatarUrl: null })
    const c = await syncUser({ id: crypto.randomUUID(), email: 'Sam@three.example', displayName: 'Sam', avatarUrl: null })
    expect([a.username, b.username, c.username]).toEqual(['sam', 'sam-2', 'sam-3'])
  })

  it('updates name and avatar on a later sign-in, keeping the username', async () => {
    const id = crypto.randomUUID()
    await syncUser({ id, email: 'kim@example.com', displayName: 'kim', avatarUrl: null })
    const again = await syncUser({ id, email: 'kim@example.com', displayName: 'Kim Lee', avatarUrl: 'https://img.example/k.png' })
    expect(again).toMatchObject({ username: 'kim', displayName: 'Kim Lee', avatarUrl: 'https://img.example/k.png' })
  })
})

describe('sign-in redirects', () => {
  it('accepts only local paths as redirectTo', () => {
    expect(safeRedirectPath('/seller/dashboard?tab=1')).toBe('/seller/dashboard?tab=1')
    for (const evil of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '', undefined]) {
      expect(safeRedirectPath(evil)).toBe('/')
    }
  })

  it('the sign-in action redirects to the provider with a PKCE challenge and sets the verifier cookie', async () => {
    const body = new URLSearchParams({ provider: 'github', redirectTo: '/purchases' })
    const response = await callRoute(
      login,
      new Request('http://localhost:3000/login', { method: 'POST', body, headers: { Origin: 'http://localhost:3000' } }),
    )
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('Location')!)
    expect(location.origin).toBe(new URL(authEmulator.url).origin)
    expect(location.pathname).toBe('/auth/v1/authorize')
    expect(location.searchParams.get('provider')).toBe('github')
    expect(location.searchParams.get('code_challenge')).toBeTruthy()
    expect(location.searchParams.get('redirect_to')).toBe('http://localhost:3000/auth/callback?next=%2Fpurchases')
    const cookies = response.headers.getSetCookie().join('\n')
    expect(cookies).toMatch(/sb-.*-auth-token-code-verifier=/)
    expect(cookies).toMatch(/HttpOnly/)
    expect(cookies).toMatch(/SameSite=Lax/)
  })
})

describe('CSRF', () => {
  it('refuses a form post from a foreign Origin or a cross-site fetch', async () => {
    const body = new URLSearchParams({ provider: 'github' })
    const attempts: Array<Record<string, string>> = [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }]
    for (const headers of attempts) {
      const response = await callRoute(login, new Request('http://localhost:3000/login', { method: 'POST', body, headers }))
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({ error: 'Cross-site request refused' })
    }
  })

  it('accepts a same-origin post and an API client without browser headers', async () => {
    const token = await tokenFor('api-client@example.com')
    const response = await callRoute(
      usersSync,
      new Request('http://localhost:3000/api/users/sync', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }),
    )
    expect(response.status).toBe(200)
  })
})
