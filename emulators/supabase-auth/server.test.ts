import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createServerClient } from '@supabase/ssr'
import { createClient, type Session, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js'
import { decodeJwt, generateKeyPair, SignJWT } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { startAuthEmulator, type AuthEmulator, type AuthEmulatorOptions } from './server.ts'

const CALLBACK = 'http://localhost:3000/auth/callback?next=%2Fsell'

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>
// Node 20 has no global WebSocket and realtime-js refuses to construct without one; `ws`'s
// overloaded constructor type doesn't line up with realtime-js's structural type, hence the cast.
const realtime = { transport: WebSocket as unknown as RealtimeTransport }

const running: AuthEmulator[] = []
const tempDirs: string[] = []

afterEach(async () => {
  vi.unstubAllEnvs()
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function start(options: AuthEmulatorOptions = {}): Promise<AuthEmulator> {
  const emulator = await startAuthEmulator({ port: 0, ...options })
  running.push(emulator)
  return emulator
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'auth-emulator-'))
  tempDirs.push(dir)
  return dir
}

/** A hand-moved clock: the emulator's idea of "now", starting at real time. */
function manualClock() {
  let ms = Date.now()
  return {
    now: () => ms,
    advanceSeconds(seconds: number) {
      ms += seconds * 1000
    },
  }
}

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

/** Every request the client sends, by path, so tests can tell local verification from a round trip. */
function recordingFetch(paths: string[]): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    paths.push(new URL(url).pathname)
    return fetch(input, init)
  }
}

function browserClient(emulator: AuthEmulator, options: { paths?: string[]; storage?: ReturnType<typeof memoryStorage> } = {}) {
  return createClient(emulator.url, emulator.anonKey, {
    auth: {
      flowType: 'pkce',
      storage: options.storage ?? memoryStorage(),
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    },
    realtime,
    global: { fetch: recordingFetch(options.paths ?? []) },
  })
}

interface Person {
  email: string
  fullName?: string
  provider?: 'github' | 'google'
  redirectTo?: string
}

/** Plays the user on the stand-in provider page: loads it, fills in the form, submits it. */
async function submitConsent(authorizeUrl: string, person: Person): Promise<Response> {
  const page = await fetch(authorizeUrl)
  expect(page.status).toBe(200)
  const html = await page.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  if (!action) throw new Error('no consent form on the page')
  const fields = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name, unescapeHtml(value)]),
  )
  fields.set('email', person.email)
  fields.set('full_name', person.fullName ?? '')
  return fetch(new URL(action, authorizeUrl), { method: 'POST', body: fields, redirect: 'manual' })
}

const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }

function unescapeHtml(value: string): string {
  return value.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity)
}

async function authorizeCode(client: SupabaseClient, person: Person): Promise<string> {
  const { data, error } = await client.auth.signInWithOAuth({
    provider: person.provider ?? 'github',
    options: { redirectTo: person.redirectTo ?? CALLBACK, skipBrowserRedirect: true },
  })
  expect(error).toBeNull()
  const response = await submitConsent(data.url ?? '', person)
  expect(response.status).toBe(302)
  const code = new URL(response.headers.get('location') ?? '').searchParams.get('code')
  if (!code) throw new Error('no code in the redirect')
  return code
}

async function signIn(client: SupabaseClient, person: Person): Promise<Session> {
  const { data, error } = await client.auth.exchangeCodeForSession(await authorizeCode(client, person))
  expect(error).toBeNull()
  if (!data.session) throw new Error('no session')
  return data.session
}

/** A raw call, as a server without supabase-js would make it. */
function api(emulator: AuthEmulator, path: string, init: RequestInit & { bearer?: string } = {}) {
  const headers = new Headers(init.headers)
  headers.set('apikey', emulator.anonKey)
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`)
  if (init.body) headers.set('content-type', 'application/json')
  return fetch(`${emulator.issuer}${path}`, { ...init, headers })
}

function tokenGrant(emulator: AuthEmulator, grantType: string, body: Record<string, string>) {
  return api(emulator, `/token?grant_type=${grantType}`, { method: 'POST', body: JSON.stringify(body) })
}

function codeVerifierIn(storage: ReturnType<typeof memoryStorage>): [key: string, verifier: string] {
  const entry = [...storage.items].find(([key]) => key.endsWith('-code-verifier'))
  if (!entry) throw new Error('no code verifier stored')
  return [entry[0], JSON.parse(entry[1]) as string]
}

describe('the stand-in provider page', () => {
  it('renders an accessible form naming the provider and the emulator', async () => {
    const emulator = await start()
    const { data } = await browserClient(emulator).auth.signInWithOAuth({
      provider: 'github',
      options: { redirectTo: CALLBACK, skipBrowserRedirect: true },
    })
    const html = await (await fetch(data.url ?? '')).text()
    expect(html).toContain('<title>Sign in with GitHub — Forkmarket local emulator</title>')
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" required/)
    expect(html).toMatch(/<label for="full_name">Full name<\/label>\s*<input id="full_name"/)
    expect(html).toContain('<button type="submit">Continue</button>')
    expect(html).not.toContain('<script')
  })

  it('names Google for the google provider', async () => {
    const emulator = await start()
    const response = await fetch(`${emulator.issuer}/authorize?provider=google&redirect_to=${encodeURIComponent(CALLBACK)}`)
    expect(await response.text()).toContain('<h1>Sign in with Google</h1>')
  })

  it('answers an unknown provider with a GoTrue-shaped 400', async () => {
    const emulator = await start()
    const response = await fetch(`${emulator.issuer}/authorize?provider=myspace`)
    expect(response.status).toBe(400)
    // Asked without X-Supabase-Api-Version, GoTrue answers its initial error shape and no version.
    expect(response.headers.get('x-supabase-api-version')).toBeNull()
    expect(response.headers.get('x-sb-error-code')).toBe('validation_failed')
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'Unsupported provider: Provider myspace could not be found',
    })
  })

  it('re-renders the form with an alert when the e-mail is missing', async () => {
    const emulator = await start()
    const response = await submitConsent(`${emulator.issuer}/authorize?provider=github`, { email: '' })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('role="alert"')
  })

  it('falls back to the site URL without a redirect_to', async () => {
    const emulator = await start({ siteUrl: 'http://localhost:4000/' })
    const challenge = 'x'.repeat(43)
    const response = await submitConsent(
      `${emulator.issuer}/authorize?provider=github&code_challenge=${challenge}&code_challenge_method=plain`,
      { email: 'nobody@example.com' },
    )
    expect(response.headers.get('location')).toMatch(/^http:\/\/localhost:4000\/\?code=[0-9a-f-]{36}$/)
  })

  it('hands out the session in the fragment for the implicit flow', async () => {
    const emulator = await start()
    const response = await submitConsent(`${emulator.issuer}/authorize?provider=github&redirect_to=${encodeURIComponent(CALLBACK)}`, {
      email: 'implicit@example.com',
    })
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.searchParams.get('next')).toBe('/sell')
    const fragment = new URLSearchParams(location.hash.slice(1))
    expect(fragment.get('token_type')).toBe('bearer')
    const user = await api(emulator, '/user', { bearer: fragment.get('access_token') ?? '' })
    expect(user.status).toBe(200)
  })
})

describe('PKCE sign-in', () => {
  it('exchanges the code for a GoTrue-shaped session and keeps the callback query', async () => {
    const emulator = await start()
    const client = browserClient(emulator)
    const { data } = await client.auth.signInWithOAuth({
      provider: 'github',
      options: { redirectTo: CALLBACK, skipBrowserRedirect: true },
    })
    const authorizeUrl = new URL(data.url ?? '')
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${emulator.issuer}/authorize`)
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('s256')

    const consent = await submitConsent(data.url ?? '', { email: 'Jane.Doe@Example.com', fullName: 'Jane Doe' })
    const location = new URL(consent.headers.get('location') ?? '')
    expect(location.origin + location.pathname).toBe('http://localhost:3000/auth/callback')
    expect(location.searchParams.get('next')).toBe('/sell')

    const { data: exchanged, error } = await client.auth.exchangeCodeForSession(location.searchParams.get('code') ?? '')
    expect(error).toBeNull()
    const session = exchanged.session
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(session?.refresh_token).toEqual(expect.any(String))
    expect(session?.user).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email: 'jane.doe@example.com',
      phone: '',
      is_anonymous: false,
      app_metadata: { provider: 'github', providers: ['github'] },
      user_metadata: {
        full_name: 'Jane Doe',
        name: 'Jane Doe',
        email: 'jane.doe@example.com',
        user_name: 'Jane-Doe',
        preferred_username: 'Jane-Doe',
        avatar_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/avatars\/.+\.svg$/),
      },
      identities: [expect.objectContaining({ provider: 'github', email: 'jane.doe@example.com' })],
    })
    expect(session?.user.email_confirmed_at).toEqual(expect.any(String))

    const avatar = await fetch(session?.user.user_metadata.avatar_url as string)
    expect(avatar.headers.get('content-type')).toContain('image/svg+xml')
    expect(await avatar.text()).toContain('>JD</text>')
  })

  it('keeps one stable user per e-mail across sign-ins and providers, omitting a blank full name', async () => {
    const emulator = await start()
    const first = await signIn(browserClient(emulator), { email: 'sam@example.com' })
    const again = await signIn(browserClient(emulator), { email: 'SAM@example.com', provider: 'google' })
    expect(again.user.id).toBe(first.user.id)
    expect(first.user.user_metadata).not.toHaveProperty('full_name')
    expect(again.user.app_metadata).toEqual({ provider: 'github', providers: ['github', 'google'] })
  })

  it('rejects a wrong code verifier, then lets the right one through exactly once', async () => {
    const emulator = await start()
    const storage = memoryStorage()
    const client = browserClient(emulator, { storage })
    const code = await authorizeCode(client, { email: 'pkce@example.com' })
    const [key, verifier] = codeVerifierIn(storage)
    storage.setItem(key, JSON.stringify('f'.repeat(112)))

    const { error } = await client.auth.exchangeCodeForSession(code)
    expect(error).toMatchObject({ status: 400, code: 'bad_code_verifier' })

    const right = await tokenGrant(emulator, 'pkce', { auth_code: code, code_verifier: verifier })
    expect(right.status).toBe(200)
    const replay = await tokenGrant(emulator, 'pkce', { auth_code: code, code_verifier: verifier })
    expect(replay.status).toBe(404)
    expect(await replay.json()).toMatchObject({ error_code: 'flow_state_not_found' })
  })

  it('expires an unused code after five minutes', async () => {
    const clock = manualClock()
    const emulator = await start({ now: clock.now })
    const storage = memoryStorage()
    const code = await authorizeCode(browserClient(emulator, { storage }), { email: 'slow@example.com' })
    clock.advanceSeconds(301)
    const late = await tokenGrant(emulator, 'pkce', { auth_code: code, code_verifier: codeVerifierIn(storage)[1] })
    expect(late.status).toBe(422)
    expect(await late.json()).toMatchObject({ error_code: 'flow_state_expired' })
  })
})

describe('access tokens', () => {
  it('getClaims() verifies locally against the JWKS without calling /user', async () => {
    const emulator = await start()
    const paths: string[] = []
    const client = browserClient(emulator, { paths })
    const session = await signIn(client, { email: 'claims@example.com', fullName: 'Claire Ames' })
    paths.length = 0

    const { data, error } = await client.auth.getClaims()
    expect(error).toBeNull()
    const jwks = (await (await fetch(`${emulator.issuer}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })])
    expect(data?.header).toMatchObject({ alg: 'ES256', kid: jwks.keys[0]?.kid })
    expect(data?.claims).toMatchObject({
      iss: emulator.issuer,
      sub: session.user.id,
      aud: 'authenticated',
      email: 'claims@example.com',
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'oauth', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
      app_metadata: { provider: 'github', providers: ['github'] },
      user_metadata: expect.objectContaining({ full_name: 'Claire Ames', user_name: 'claims' }),
    })
    expect(paths.filter((path) => path.endsWith('/.well-known/jwks.json'))).toHaveLength(1)
    expect(paths.some((path) => path.endsWith('/user'))).toBe(false)

    await client.auth.getClaims()
    expect(paths.filter((path) => path.endsWith('/.well-known/jwks.json'))).toHaveLength(1)
  })

  it('rejects tampered, expired and foreign-signed tokens on /user', async () => {
    const clock = manualClock()
    const emulator = await start({ now: clock.now })
    const client = browserClient(emulator)
    const session = await emulator.createSession({ email: 'victim@example.com' })
    expect((await client.auth.getUser(session.access_token)).data.user?.email).toBe('victim@example.com')

    const [header, , signature] = session.access_token.split('.')
    const forgedClaims = { ...decodeJwt(session.access_token), email: 'attacker@example.com' }
    const tampered = `${header}.${Buffer.from(JSON.stringify(forgedClaims)).toString('base64url')}.${signature}`
    const { privateKey } = await generateKeyPair('ES256')
    const foreign = await new SignJWT(decodeJwt(session.access_token))
      .setProtectedHeader({ alg: 'ES256', kid: JSON.parse(Buffer.from(header ?? '', 'base64url').toString()).kid })
      .sign(privateKey)

    for (const token of [tampered, foreign]) {
      const { error } = await client.auth.getUser(token)
      expect(error).toMatchObject({ status: 403, code: 'bad_jwt' })
    }
    expect((await client.auth.getClaims(tampered)).error?.message).toBe('Invalid JWT signature')

    clock.advanceSeconds(3601)
    const { error: expired } = await client.auth.getUser(session.access_token)
    expect(expired).toMatchObject({ status: 403, code: 'bad_jwt' })
    expect(expired?.message).toContain('expired')

    const anonymous = await api(emulator, '/user')
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error_code: 'no_authorization' })
  })

  it('refreshes silently with a short access-token lifetime', async () => {
    const clock = manualClock()
    const emulator = await start({ now: clock.now, accessTokenTtlSeconds: 20 })
    const client = browserClient(emulator)
    const first = await signIn(client, { email: 'short@example.com' })
    expect(first.expires_in).toBe(20)

    clock.advanceSeconds(21)
    const { error: expired } = await client.auth.getUser(first.access_token)
    expect(expired).toMatchObject({ status: 403, code: 'bad_jwt' })

    // getSession() refreshes on its own because the token is inside the client's expiry margin.
    const { data } = await client.auth.getSession()
    expect(data.session?.access_token).not.toBe(first.access_token)
    expect(data.session?.refresh_token).not.toBe(first.refresh_token)
    const { data: fresh, error } = await client.auth.getUser(data.session?.access_token)
    expect(error).toBeNull()
    expect(fresh.user?.id).toBe(first.user.id)
  })
})

describe('refresh tokens', () => {
  it('rotate, tolerate reuse inside the 10 s interval, and fail after it', async () => {
    const clock = manualClock()
    const emulator = await start({ now: clock.now })
    const client = browserClient(emulator)
    const first = await signIn(client, { email: 'rotate@example.com' })

    const { data, error } = await client.auth.refreshSession()
    expect(error).toBeNull()
    const child = data.session
    expect(child?.refresh_token).not.toBe(first.refresh_token)
    expect(child?.access_token).not.toBe(first.access_token)

    // A parallel server render still holding the old cookie gets the current child session.
    clock.advanceSeconds(5)
    const parallel = await tokenGrant(emulator, 'refresh_token', { refresh_token: first.refresh_token })
    expect(parallel.status).toBe(200)
    expect(await parallel.json()).toMatchObject({ refresh_token: child?.refresh_token, user: { id: first.user.id } })

    clock.advanceSeconds(6)
    const { error: reused } = await client.auth.refreshSession({ refresh_token: first.refresh_token })
    expect(reused).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    })

    // Reuse after the interval looks like theft: the whole family is revoked.
    const { error: family } = await client.auth.refreshSession({ refresh_token: child?.refresh_token ?? '' })
    expect(family).toMatchObject({ code: 'refresh_token_already_used' })
  })

  it('answers an unknown token with refresh_token_not_found', async () => {
    const emulator = await start()
    const response = await tokenGrant(emulator, 'refresh_token', { refresh_token: 'nope' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'refresh_token_not_found',
      msg: 'Invalid Refresh Token: Refresh Token Not Found',
    })
  })
})

describe('sign-out', () => {
  async function twoDevices(emulator: AuthEmulator) {
    const laptop = browserClient(emulator)
    const phone = browserClient(emulator)
    const laptopSession = await signIn(laptop, { email: 'devices@example.com' })
    const phoneSession = await signIn(phone, { email: 'devices@example.com' })
    return { laptop, phone, laptopSession, phoneSession }
  }

  it('global revokes every session of the user', async () => {
    const emulator = await start()
    const { laptop, phone, laptopSession, phoneSession } = await twoDevices(emulator)
    expect((await laptop.auth.signOut({ scope: 'global' })).error).toBeNull()
    expect((await laptop.auth.getSession()).data.session).toBeNull()

    const { error: refresh } = await phone.auth.refreshSession()
    expect(refresh).toMatchObject({ code: 'refresh_token_not_found' })
    const laptopRefresh = await tokenGrant(emulator, 'refresh_token', { refresh_token: laptopSession.refresh_token })
    expect(laptopRefresh.status).toBe(400)

    const { error: user } = await browserClient(emulator).auth.getUser(phoneSession.access_token)
    expect(user?.name).toBe('AuthSessionMissingError')
  })

  it('others keeps the current session and revokes the rest', async () => {
    const emulator = await start()
    const { laptop, phone } = await twoDevices(emulator)
    expect((await laptop.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await laptop.auth.refreshSession()).error).toBeNull()
    expect((await laptop.auth.getUser()).error).toBeNull()
    expect((await phone.auth.refreshSession()).error).toMatchObject({ code: 'refresh_token_not_found' })
  })

  it('local revokes only the current session', async () => {
    const emulator = await start()
    const { laptop, phone, laptopSession } = await twoDevices(emulator)
    expect((await laptop.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect((await phone.auth.refreshSession()).error).toBeNull()
    const laptopRefresh = await tokenGrant(emulator, 'refresh_token', { refresh_token: laptopSession.refresh_token })
    expect(laptopRefresh.status).toBe(400)
  })

  it('rejects an unknown scope', async () => {
    const emulator = await start()
    const session = await emulator.createSession({ email: 'scope@example.com' })
    const response = await api(emulator, '/logout?scope=everywhere', { method: 'POST', bearer: session.access_token })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error_code: 'validation_failed' })
  })
})

describe('HTTP surface', () => {
  it('allows cross-origin browser calls and exposes the API version header', async () => {
    const emulator = await start()
    const response = await fetch(`${emulator.issuer}/token?grant_type=pkce`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,authorization,content-type,x-client-info,x-supabase-api-version',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-supabase-api-version')
    expect(response.headers.get('access-control-expose-headers')).toContain('x-supabase-api-version')
  })

  it('rejects a clearly wrong apikey', async () => {
    const emulator = await start()
    const response = await fetch(`${emulator.issuer}/settings`, { headers: { apikey: 'not-a-key' } })
    expect(response.status).toBe(401)
    // The API gateway answers before GoTrue does, in its own shape.
    expect(await response.json()).toEqual({
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    })
    expect((await api(emulator, '/settings')).status).toBe(200)
    expect((await api(emulator, '/health')).status).toBe(200)
  })

  it('signs the anon key as an anon-role JWT', async () => {
    const emulator = await start()
    expect(decodeJwt(emulator.anonKey)).toMatchObject({ role: 'anon' })
  })
})

describe('persistence and safety', () => {
  it('keeps users, keys and sessions across a restart with the same data file', async () => {
    const dataFile = join(tempDir(), 'nested', 'auth.json')
    const first = await start({ dataFile })
    const session = await first.createSession({ email: 'persist@example.com', fullName: 'Pat Sist' })
    const keysBefore = await (await fetch(`${first.issuer}/.well-known/jwks.json`)).json()
    await first.close()

    const second = await start({ dataFile, port: Number(new URL(first.url).port) })
    expect(second.anonKey).toBe(first.anonKey)
    expect(await (await fetch(`${second.issuer}/.well-known/jwks.json`)).json()).toEqual(keysBefore)
    const user = await api(second, '/user', { bearer: session.access_token })
    expect(user.status).toBe(200)
    expect(await user.json()).toMatchObject({ id: session.user.id, user_metadata: { full_name: 'Pat Sist' } })
    expect((await second.createSession({ email: 'persist@example.com' })).user.id).toBe(session.user.id)
    expect((await tokenGrant(second, 'refresh_token', { refresh_token: session.refresh_token })).status).toBe(200)
  })

  it('refuses to start with NODE_ENV=production', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    await expect(startAuthEmulator({ port: 0 })).rejects.toThrow(/NODE_ENV=production/)
  })

  it('runs as a CLI that prints its URL and stops on SIGTERM', async () => {
    const dataDir = tempDir()
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'main.ts')], {
      env: { ...process.env, SUPABASE_EMULATOR_PORT: '0', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
      expect(line).toMatch(/^Supabase Auth emulator listening on http:\/\/127\.0\.0\.1:\d+$/)
      const url = line.split(' ').at(-1) ?? ''
      expect((await fetch(`${url}/auth/v1/health`)).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(existsSync(join(dataDir, 'auth-emulator.json'))).toBe(true)
  }, 20_000)
})

describe('@supabase/ssr server client', () => {
  it('completes the PKCE exchange over cookies and verifies claims on the next request', async () => {
    const emulator = await start()
    const jar = new Map<string, string>()
    const serverClient = () =>
      createServerClient(emulator.url, emulator.anonKey, {
        cookies: {
          getAll: () => [...jar].map(([name, value]) => ({ name, value })),
          setAll: (cookies) => {
            for (const { name, value, options } of cookies) {
              if (!value || options?.maxAge === 0) jar.delete(name)
              else jar.set(name, value)
            }
          },
        },
        realtime,
      })

    // Request 1: the sign-in action stores the verifier in a cookie.
    const { data } = await serverClient().auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: 'http://localhost:3000/auth/callback' },
    })
    expect(jar.has('sb-127-auth-token-code-verifier')).toBe(true)
    const consent = await submitConsent(data.url ?? '', { email: 'ssr@example.com', fullName: 'Server Side' })
    const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? ''

    // Request 2: the callback route exchanges the code; the session lands in cookies.
    const { data: exchanged, error } = await serverClient().auth.exchangeCodeForSession(code)
    expect(error).toBeNull()
    expect(exchanged.user?.app_metadata.provider).toBe('google')
    expect([...jar.keys()].some((name) => name.startsWith('sb-127-auth-token') && !name.endsWith('code-verifier'))).toBe(true)
    expect(jar.has('sb-127-auth-token-code-verifier')).toBe(false)

    // Request 3: a loader reads the cookies and verifies the token locally.
    const { data: claims, error: claimsError } = await serverClient().auth.getClaims()
    expect(claimsError).toBeNull()
    expect(claims?.claims).toMatchObject({ sub: exchanged.user?.id, email: 'ssr@example.com' })
    expect((await serverClient().auth.getUser()).data.user?.user_metadata.full_name).toBe('Server Side')
  })
})
