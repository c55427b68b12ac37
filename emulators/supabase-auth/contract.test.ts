/**
 * The Supabase Auth emulator held to GoTrue's published OpenAPI description (openapi-subset.json,
 * extracted by extract-openapi.ts from supabase/auth at the commit it records): the emulator is
 * driven through the real `@supabase/supabase-js` client — and by plain requests for the API-version
 * cases the client never makes — and every answer it gave to an operation of the description is then
 * validated with ajv: success bodies against the operation's schema, redirects' headers against the
 * declared ones, and every error body against GoTrue's error shape for the API version the request
 * asked for (supabase-js sends `X-Supabase-Api-Version: 2024-01-01`).
 */
import { readFileSync } from 'node:fs'
import { AuthApiError, AuthSessionMissingError, createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js'
import Ajv, { type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { OPERATIONS } from './operations.ts'
import { startAuthEmulator, type AuthEmulator, type Exchange } from './server.ts'

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>
const realtime = { transport: WebSocket as unknown as RealtimeTransport }
const CALLBACK = 'http://localhost:3000/auth/callback'
const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }

interface Subset {
  source: { repository: string; commit: string }
  operations: Record<string, { responses: Record<string, { schema?: unknown; headers?: Record<string, unknown> }> }>
  errors: { codes: string[]; apiVersion: string }
}

const subset = JSON.parse(readFileSync(new URL('./openapi-subset.json', import.meta.url), 'utf8')) as Subset

let clockMs = Date.now()
let emulator: AuthEmulator

beforeAll(async () => {
  emulator = await startAuthEmulator({ port: 0, now: () => clockMs })
})

afterAll(async () => {
  await emulator.close()
})

function clientWithStorage() {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
  const client = createClient(emulator.url, emulator.anonKey, {
    auth: { flowType: 'pkce', storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    realtime,
  })
  return { client, items }
}

/** Starts a sign-in and plays the user on the stand-in provider page; returns the auth code. */
async function authCode(client: SupabaseClient, email: string): Promise<string> {
  const { data, error } = await client.auth.signInWithOAuth({
    provider: 'github',
    options: { redirectTo: CALLBACK, skipBrowserRedirect: true },
  })
  expect(error).toBeNull()
  const redirect = await fetch(data.url ?? '', { redirect: 'manual' })
  expect(redirect.status).toBe(302)
  const pageUrl = redirect.headers.get('location') ?? ''
  const html = await (await fetch(pageUrl)).text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? ''
  const fields = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [
      name,
      value.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity),
    ]),
  )
  fields.set('email', email)
  fields.set('full_name', 'Contract Tester')
  const consent = await fetch(new URL(action, pageUrl), { method: 'POST', body: fields, redirect: 'manual' })
  return new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? ''
}

function raw(path: string, init: RequestInit & { version?: string; bearer?: string } = {}) {
  const headers = new Headers(init.headers)
  headers.set('apikey', emulator.anonKey)
  if (init.version) headers.set('x-supabase-api-version', init.version)
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`)
  return fetch(`${emulator.issuer}${path}`, { ...init, headers })
}

/** GoTrue's DetermineClosestAPIVersion, restated: a valid date on or after 2024-01-01 selects it. */
function selectsVersion20240101(header: string | undefined): boolean {
  if (!header || !/^\d{4}-\d{2}-\d{2}$/.test(header)) return false
  const date = new Date(`${header}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(header) && header >= '2024-01-01'
}

describe(`Supabase Auth emulator contract (${subset.source.repository} openapi.yaml @ ${subset.source.commit.slice(0, 12)})`, () => {
  it('lists exactly the operations the emulator implements', () => {
    expect(Object.keys(subset.operations).sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path}`).sort())
  })

  it('signs in, reads the user, refreshes and signs out through supabase-js', async () => {
    const { client } = clientWithStorage()
    const { data, error } = await client.auth.exchangeCodeForSession(await authCode(client, 'contract@example.com'))
    expect(error).toBeNull()
    expect((await client.auth.getUser()).error).toBeNull()
    expect((await client.auth.refreshSession()).error).toBeNull()
    const stale = data.session?.access_token ?? ''
    expect((await client.auth.signOut({ scope: 'global' })).error).toBeNull()
    // The signed-out session's token: GoTrue's session_not_found, which supabase-js maps to its own class.
    const { error: missing } = await client.auth.getUser(stale)
    expect(missing).toBeInstanceOf(AuthSessionMissingError)
  })

  it('answers failed grants with the error codes supabase-js exposes', async () => {
    const { client, items } = clientWithStorage()
    const verifierKey = () => [...items.keys()].find((key) => key.endsWith('-code-verifier')) ?? ''
    const expectApiError = (error: unknown, status: number, code: string) => {
      expect(error).toBeInstanceOf(AuthApiError)
      expect(error).toMatchObject({ status, code })
      expect((error as AuthApiError).message).not.toMatch(/^\{/) // the message was found, not the JSON dumped
    }

    const code = await authCode(client, 'grants@example.com')
    const key = verifierKey()
    const saved = items.get(key) ?? ''
    items.set(key, JSON.stringify('x'.repeat(64)))
    expectApiError((await client.auth.exchangeCodeForSession(code)).error, 400, 'bad_code_verifier')
    // GoTrue keeps the flow state after a wrong verifier: the right one still works.
    items.set(key, saved)
    expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull()

    await authCode(client, 'grants@example.com')
    expectApiError((await client.auth.exchangeCodeForSession(crypto.randomUUID())).error, 404, 'flow_state_not_found')

    const late = await authCode(client, 'grants@example.com')
    clockMs += 6 * 60_000
    expectApiError((await client.auth.exchangeCodeForSession(late)).error, 422, 'flow_state_expired')

    expectApiError((await client.auth.refreshSession({ refresh_token: 'nope' })).error, 400, 'refresh_token_not_found')
    expectApiError((await client.auth.getUser('not.a.jwt')).error, 403, 'bad_jwt')
  })

  it('answers plain requests in the error shape of the API version they ask for', async () => {
    for (const version of [undefined, '2024-01-01', '2025-06-30', '2023-12-31', 'yesterday']) {
      const unsupported = await raw('/token?grant_type=password', { method: 'POST', body: '{}', version })
      expect(unsupported.status).toBe(400)
      expect(unsupported.headers.get('x-sb-error-code')).toBe('invalid_credentials')
      expect((await raw('/user', { version })).status).toBe(401)
      const badJson = await raw('/token?grant_type=refresh_token', { method: 'POST', body: '{', version })
      expect(badJson.status).toBe(400)
      // OAuth-style error: the same for every version.
      const noToken = await raw('/token?grant_type=refresh_token', { method: 'POST', body: '{}', version })
      expect(await noToken.json()).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' })
      const scope = await raw('/logout?scope=everywhere', {
        method: 'POST',
        version,
        bearer: (await emulator.createSession({ email: 'scope@example.com' })).access_token,
      })
      expect(scope.status).toBe(400)
    }
    expect((await raw('/settings')).status).toBe(200)
    expect((await raw('/health')).status).toBe(200)
    const unknownProvider = await fetch(`${emulator.issuer}/authorize?provider=myspace`, { redirect: 'manual' })
    expect(unknownProvider.status).toBe(400)
  })

  it('gave only answers that GoTrue describes (validated with ajv)', () => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats(ajv)
    // GoTrue sends "" for a user without a phone, else digits without a "+".
    ajv.addFormat('phone', /^[0-9]*$/)
    ajv.addSchema({ $id: 'gotrue', ...(subset as object) })
    const compiled = new Map<string, ValidateFunction>()
    const validate = (pointer: string, value: unknown): string | undefined => {
      let check = compiled.get(pointer)
      if (!check) compiled.set(pointer, (check = ajv.compile({ $ref: `gotrue#${pointer}` })))
      return check(value) ? undefined : ajv.errorsText(check.errors, { separator: '; ' }).slice(0, 500)
    }
    const oneOf = (pointers: string[], value: unknown) => {
      const failures = pointers.map((pointer) => validate(pointer, value))
      return failures.includes(undefined) ? undefined : failures.join(' | or | ')
    }

    const problems: string[] = []
    const seen = new Set<string>()
    for (const exchange of emulator.exchanges) {
      const where = `${exchange.operation} → ${exchange.status} (version ${exchange.requestApiVersion ?? 'none'})`
      const problem = check(exchange)
      if (problem) problems.push(`${where}: ${problem}`)
      seen.add(exchange.status >= 400 ? `error ${selectsVersion20240101(exchange.requestApiVersion)}` : exchange.operation)
    }
    expect(problems).toEqual([])
    // Every operation answered with success, and errors were seen in both versions' shapes.
    expect([...seen].sort()).toEqual([...OPERATIONS.map((op) => `${op.method} ${op.path}`), 'error false', 'error true'].sort())

    function check(exchange: Exchange): string | undefined {
      const escaped = exchange.operation.replaceAll('~', '~0').replaceAll('/', '~1')
      const declared = subset.operations[exchange.operation].responses[String(exchange.status)]
      if (exchange.status < 400) {
        if (!declared) return 'a status GoTrue does not declare'
        for (const name of Object.keys(declared.headers ?? {})) {
          const problem = validate(`/operations/${escaped}/responses/${exchange.status}/headers/${name}`, exchange.headers[name])
          if (problem) return `header ${name}: ${problem}`
        }
        if (!declared.schema) return exchange.body ? 'a body where GoTrue sends none' : undefined
        if (exchange.headers['x-supabase-api-version']) return 'a version header on a success (GoTrue sets it on errors only)'
        return validate(`/operations/${escaped}/responses/${exchange.status}/schema`, exchange.body)
      }
      const modern = selectsVersion20240101(exchange.requestApiVersion)
      const echoed = exchange.headers['x-supabase-api-version']
      if (modern && echoed !== subset.errors.apiVersion) return `version header ${echoed}, GoTrue echoes ${subset.errors.apiVersion}`
      if (!modern && echoed) return `version header ${echoed} on a request that asked for none`
      const body = exchange.body as Record<string, unknown>
      const problem = oneOf(['/errors/oauth', modern ? '/errors/apiVersion20240101' : '/errors/initial'], body)
      if (problem) return problem
      if (!modern && 'msg' in body && body.code !== exchange.status) return `code ${String(body.code)} is not the status`
      if ('error' in body && exchange.status !== 400) return 'an OAuth error is always a 400'
      // The description's ErrorSchema (declared per status) describes the initial version only.
      if (!modern && declared?.schema) return validate(`/operations/${escaped}/responses/${exchange.status}/schema`, body)
      return undefined
    }
  })
})
