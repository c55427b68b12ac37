/**
 * A local stand-in for hosted Supabase Auth (GoTrue) with Google/GitHub
 * sign-in, speaking the HTTP API that the unchanged `@supabase/supabase-js` and
 * `@supabase/ssr` clients use. For local development and tests only.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { listen, urlHost } from '../support/http.ts'
import {
  avatarImage,
  currentUser,
  health,
  isFlowExpired,
  jwks,
  logout,
  settings,
  signIn,
  startSession,
  tokenGrant,
  type EmulatorContext,
  type Exchange,
  type Pkce,
  type SessionResponse,
} from './api.ts'
import {
  ApiError,
  errorReply,
  headerValue,
  html,
  invalidApiKey,
  methodNotAllowed,
  notFound,
  redirect,
  toApiRequest,
  type ApiRequest,
  type Reply,
} from './http.ts'
import { operationKey } from './operations.ts'
import { AuthStore, isProvider, type Provider } from './store.ts'
import { generateSigningKey, TokenSigner, unverifiedRole } from './tokens.ts'
import { renderConsentPage } from './views.ts'

export type { Exchange, SessionResponse } from './api.ts'
export type { Provider } from './store.ts'
export type { AuthIdentity, AuthUser } from './users.ts'

export interface AuthEmulatorOptions {
  /** Default 12121; 0 picks a free port. */
  port?: number
  /** Default '127.0.0.1'. */
  host?: string
  /** JSON file persisting users, the signing key and sessions across restarts; omit to stay in memory. */
  dataFile?: string
  /** Default 3600. */
  accessTokenTtlSeconds?: number
  /** Millisecond clock, default Date.now (injectable for tests). */
  now?: () => number
  /** Where sign-in lands when the client sends no usable redirect_to. Default 'http://localhost:3000'. */
  siteUrl?: string
  /** How a new user's id is chosen; default random. The app's launcher derives it from the
   * e-mail so the seeded demo accounts can be signed into. */
  userIdForEmail?: (email: string) => string
  /** The GitHub account behind a GitHub sign-in (its numeric id and login); default: a random id
   * and a login from the e-mail. The launcher asks the GitHub emulator, so the identity is an
   * account there that can be invited to repositories (issue 16). */
  githubAccount?: (profile: { email: string; login: string; fullName: string }) => { id: number; login: string }
}

export interface AuthEmulator {
  /** e.g. 'http://127.0.0.1:12121': the app's SUPABASE_URL. */
  url: string
  /** A JWT-shaped anon key: the app's SUPABASE_ANON_KEY. */
  anonKey: string
  /** `${url}/auth/v1` */
  issuer: string
  close(): Promise<void>
  /** Where sign-in lands without a usable redirect_to, when the app's address is known only after the start. */
  setSiteUrl(url: string): void
  /** Test helper: finds or creates the user and mints a full session without a browser. */
  createSession(input: { email: string; fullName?: string; provider?: Provider }): Promise<SessionResponse>
  /** The last answers to the operations GoTrue's OpenAPI description covers (for the contract test). */
  exchanges: Exchange[]
  /** Test helper: signs any claims with the emulator's real key (to test how the app judges iss, aud, nbf…). */
  signClaims(claims: Record<string, unknown>): Promise<string>
}

export const DEFAULT_PORT = 12121
const DEFAULT_SITE_URL = 'http://localhost:3000'
const ANON_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60

export async function startAuthEmulator(opts: AuthEmulatorOptions = {}): Promise<AuthEmulator> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      'Refusing to start the Supabase Auth emulator with NODE_ENV=production: it signs anyone in without a password. ' +
        'Point SUPABASE_URL at hosted Supabase Auth instead.',
    )
  }
  const now = opts.now ?? Date.now
  const store = await AuthStore.open(opts.dataFile, createKeys, opts.userIdForEmail)
  const signer = await TokenSigner.fromMaterial(store.signingKey)

  const server = createServer()
  const host = opts.host ?? '127.0.0.1'
  const port = await listen(server, opts.port ?? DEFAULT_PORT, host, 'Supabase Auth emulator')
  const url = `http://${urlHost(host)}:${port}`
  const ctx: EmulatorContext = {
    store,
    signer,
    exchanges: [],
    flows: new Map(),
    issuer: `${url}/auth/v1`,
    siteUrl: opts.siteUrl ?? DEFAULT_SITE_URL,
    ttlSeconds: opts.accessTokenTtlSeconds ?? 3600,
    now,
    githubAccount: opts.githubAccount,
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => void handleHttp(ctx, req, res))

  let closing: Promise<void> | undefined
  return {
    url,
    anonKey: store.anonKey,
    issuer: ctx.issuer,
    exchanges: ctx.exchanges,
    setSiteUrl(url) {
      ctx.siteUrl = url
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      })
      return closing
    },
    async createSession({ email, fullName, provider = 'github' }) {
      if (!isEmailAddress(email.trim())) throw new Error(`createSession: "${email}" is not an e-mail address`)
      const user = signIn(ctx, { email: email.trim(), fullName: fullName?.trim() ?? '', provider })
      return startSession(ctx, user, provider)
    },
    signClaims(claims) {
      return signer.sign(claims)
    },
  }
}

async function createKeys() {
  const signingKey = await generateSigningKey()
  const signer = await TokenSigner.fromMaterial(signingKey)
  const iat = Math.floor(Date.now() / 1000)
  const anonKey = await signer.sign({
    iss: 'supabase',
    ref: 'forkmarket-local',
    role: 'anon',
    iat,
    exp: iat + ANON_KEY_LIFETIME_SECONDS,
  })
  return { signingKey, anonKey }
}

// ---------------------------------------------------------------------------
// HTTP plumbing

type Handler = (ctx: EmulatorContext, req: ApiRequest) => Promise<Reply>

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  '/authorize': { GET: authorize },
  '/authorize/consent': { GET: showConsentPage, POST: submitConsent },
  '/token': { POST: tokenGrant },
  '/user': { GET: currentUser },
  '/logout': { POST: logout },
  '/.well-known/jwks.json': { GET: jwks },
  '/settings': { GET: settings },
  '/health': { GET: health },
}

/** Routes the hosted API gateway serves without an apikey (browser navigations, key discovery). */
const OPEN_ROUTES = new Set(['/authorize', '/authorize/consent', '/.well-known/jwks.json', '/health'])
const AVATAR_ROUTE = /^\/avatars\/([0-9a-f-]{36})\.svg$/
const API_PREFIX = '/auth/v1'
const MAX_EXCHANGES = 1000

async function handleHttp(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let reply: Reply
  const request = toApiRequest(req)
  try {
    reply = await dispatch(ctx, request)
  } catch (error) {
    reply = errorReply(error, req.headers)
  }
  const headers = { ...commonHeaders(req), ...reply.headers }
  record(ctx, request, reply, headers)
  res.writeHead(reply.status, headers)
  res.end(reply.body)
}

/** Keeps the last answers of the operations GoTrue's description covers, for the contract test. */
function record(ctx: EmulatorContext, req: ApiRequest, reply: Reply, headers: Record<string, string>): void {
  const path = req.url.pathname.startsWith(`${API_PREFIX}/`) ? req.url.pathname.slice(API_PREFIX.length) : req.url.pathname
  const operation = operationKey(req.method, path)
  if (!operation) return
  const isJson = headers['content-type']?.startsWith('application/json') ?? false
  ctx.exchanges.push({
    operation,
    status: reply.status,
    requestApiVersion: headerValue(req.headers['x-supabase-api-version']),
    headers,
    body: isJson && reply.body !== undefined ? (JSON.parse(reply.body) as unknown) : reply.body,
  })
  if (ctx.exchanges.length > MAX_EXCHANGES) ctx.exchanges.splice(0, ctx.exchanges.length - MAX_EXCHANGES)
}

async function dispatch(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  if (req.method === 'OPTIONS') return { status: 204 }
  const path = req.url.pathname.startsWith(`${API_PREFIX}/`) ? req.url.pathname.slice(API_PREFIX.length) : undefined
  if (path === undefined) throw notFound()

  const avatar = AVATAR_ROUTE.exec(path)
  if (avatar && req.method === 'GET') return avatarImage(ctx, avatar[1])

  const route = ROUTES[path]
  if (!route) throw notFound()
  const handler = route[req.method]
  if (!handler) throw methodNotAllowed()
  if (!OPEN_ROUTES.has(path)) assertPlausibleApiKey(ctx, req)
  return handler(ctx, req)
}

/** Mirrors the API gateway loosely: a missing key is tolerated, an obviously foreign one is not. */
function assertPlausibleApiKey(ctx: EmulatorContext, req: ApiRequest): void {
  const key = headerValue(req.headers.apikey) ?? req.url.searchParams.get('apikey')
  if (key === null || key === undefined || key === ctx.store.anonKey) return
  if (/^sb_(publishable|secret)_/.test(key)) return
  const role = unverifiedRole(key)
  if (role === 'anon' || role === 'service_role') return
  throw invalidApiKey()
}

function commonHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': headerValue(req.headers.origin) ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers':
      headerValue(req.headers['access-control-request-headers']) ??
      'authorization, apikey, content-type, x-client-info, x-supabase-api-version',
    'access-control-expose-headers': 'x-supabase-api-version',
    'access-control-max-age': '600',
    vary: 'Origin',
  }
}

// ---------------------------------------------------------------------------
// OAuth sign-in: /authorize redirects to the stand-in provider page, its form posts back here

interface AuthorizeRequest {
  provider: Provider
  redirectTo: string
  pkce: Pkce | undefined
}

/**
 * GoTrue answers /authorize with a 302 to the provider's own sign-in page; here that page is the
 * emulator's stand-in at /authorize/consent, carrying the same query.
 */
async function authorize(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  parseAuthorizeRequest(ctx, req.url.searchParams)
  return redirect(`${ctx.issuer}/authorize/consent${req.url.search}`)
}

async function showConsentPage(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const authorize = parseAuthorizeRequest(ctx, req.url.searchParams)
  return html(200, consentPage(authorize, {}))
}

async function submitConsent(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const form = await req.params()
  const authorize = parseAuthorizeRequest(ctx, form)
  const email = (form.get('email') ?? '').trim()
  const fullName = (form.get('full_name') ?? '').trim()
  if (!isEmailAddress(email)) {
    return html(400, consentPage(authorize, { email, fullName, error: 'Enter a valid email address.' }))
  }

  const user = signIn(ctx, { email, fullName, provider: authorize.provider })
  if (authorize.pkce) {
    const code = randomUUID()
    forgetExpiredFlows(ctx)
    ctx.flows.set(code, { userId: user.id, provider: authorize.provider, pkce: authorize.pkce, createdAtMs: ctx.now() })
    return redirect(withQuery(authorize.redirectTo, { code }))
  }
  // Implicit flow: GoTrue hands the session over in the URL fragment.
  const session = await startSession(ctx, user, authorize.provider)
  return redirect(withFragment(authorize.redirectTo, implicitFragment(session)))
}

function consentPage(authorize: AuthorizeRequest, form: { email?: string; fullName?: string; error?: string }): string {
  const hidden: Record<string, string> = { provider: authorize.provider, redirect_to: authorize.redirectTo }
  if (authorize.pkce) {
    hidden.code_challenge = authorize.pkce.challenge
    hidden.code_challenge_method = authorize.pkce.method
  }
  return renderConsentPage({
    provider: authorize.provider,
    action: `${API_PREFIX}/authorize/consent`,
    hidden,
    cancelUrl: withQuery(authorize.redirectTo, {
      error: 'access_denied',
      error_description: 'The user denied the sign-in request',
    }),
    ...form,
  })
}

function parseAuthorizeRequest(ctx: EmulatorContext, params: URLSearchParams): AuthorizeRequest {
  const provider = params.get('provider')
  if (!provider) throw new ApiError(400, 'validation_failed', 'Unsupported provider: missing provider')
  if (!isProvider(provider)) {
    throw new ApiError(400, 'validation_failed', `Unsupported provider: Provider ${provider} could not be found`)
  }
  return { provider, redirectTo: resolveRedirect(ctx, params.get('redirect_to')), pkce: parsePkce(params) }
}

function parsePkce(params: URLSearchParams): Pkce | undefined {
  const challenge = params.get('code_challenge') ?? ''
  const method = (params.get('code_challenge_method') ?? '').toLowerCase()
  if (!challenge && !method) return undefined
  if (!challenge || !method) {
    throw new ApiError(400, 'validation_failed', 'PKCE flow requires code_challenge_method and code_challenge')
  }
  if (method !== 's256' && method !== 'plain') {
    throw new ApiError(400, 'validation_failed', `code challenge method ${method} not supported`)
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw new ApiError(400, 'validation_failed', 'code challenge has to be between 43 and 128 characters')
  }
  return { challenge, method }
}

/** Like GoTrue with a permissive allow-list: any http(s) URL, else the site URL. */
function resolveRedirect(ctx: EmulatorContext, redirectTo: string | null): string {
  if (redirectTo) {
    try {
      const url = new URL(redirectTo)
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href
    } catch {
      // not an absolute URL: fall back below
    }
  }
  return ctx.siteUrl
}

function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

function withFragment(target: string, fragment: URLSearchParams): string {
  const url = new URL(target)
  url.hash = fragment.toString()
  return url.href
}

function implicitFragment(session: SessionResponse): URLSearchParams {
  return new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    token_type: session.token_type,
  })
}

function isEmailAddress(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254
}

function forgetExpiredFlows(ctx: EmulatorContext): void {
  for (const [code, flow] of ctx.flows) {
    if (isFlowExpired(ctx, flow)) ctx.flows.delete(code)
  }
}
