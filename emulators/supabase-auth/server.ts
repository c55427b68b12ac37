/**
 * A local stand-in for hosted Supabase Auth (GoTrue) with Google/GitHub
 * sign-in, speaking the HTTP API that the unchanged `@supabase/supabase-js` and
 * `@supabase/ssr` clients use. For local development and tests only.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { JWTPayload } from 'jose'
import {
  ApiError,
  errorReply,
  headerValue,
  html,
  invalidApiKey,
  json,
  methodNotAllowed,
  notFound,
  OAuthError,
  redirect,
  toApiRequest,
  type ApiRequest,
  type Reply,
} from './http.ts'
import { operationKey, type OperationKey } from './operations.ts'
import { AuthStore, isProvider, type Provider, type SessionRecord, type UserRecord } from './store.ts'
import { describeJwtFailure, generateSigningKey, TokenSigner, unverifiedRole } from './tokens.ts'
import { accessTokenClaims, AUTHENTICATED, githubLogin, providerIdentityData, toAuthUser, type AuthUser } from './users.ts'
import { renderAvatarSvg, renderConsentPage } from './views.ts'

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

export interface SessionResponse {
  access_token: string
  refresh_token: string
  expires_in: number
  expires_at: number
  token_type: 'bearer'
  user: AuthUser
}

export interface AuthEmulator {
  /** e.g. 'http://127.0.0.1:12121': the app's SUPABASE_URL. */
  url: string
  /** A JWT-shaped anon key: the app's SUPABASE_ANON_KEY. */
  anonKey: string
  /** `${url}/auth/v1` */
  issuer: string
  close(): Promise<void>
  /** Test helper: finds or creates the user and mints a full session without a browser. */
  createSession(input: { email: string; fullName?: string; provider?: Provider }): Promise<SessionResponse>
  /** The last answers to the operations GoTrue's OpenAPI description covers (for the contract test). */
  exchanges: Exchange[]
  /** Test helper: signs any claims with the emulator's real key (to test how the app judges iss, aud, nbf…). */
  signClaims(claims: Record<string, unknown>): Promise<string>
}

const DEFAULT_PORT = 12121
const DEFAULT_SITE_URL = 'http://localhost:3000'
const REFRESH_TOKEN_REUSE_INTERVAL_MS = 10_000
const FLOW_STATE_TTL_MS = 5 * 60_000
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
  const port = await listen(server, opts.port ?? DEFAULT_PORT, host)
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

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new Error(`Supabase Auth emulator cannot listen on ${host}:${port}: ${error.message}`))
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

// ---------------------------------------------------------------------------
// HTTP plumbing

/** One answer to an operation of GoTrue's description (see operations.ts), as the client received it. */
export interface Exchange {
  operation: OperationKey
  status: number
  /** The `X-Supabase-Api-Version` the request sent, if any. */
  requestApiVersion: string | undefined
  headers: Record<string, string>
  /** Parsed when the reply is JSON. */
  body: unknown
}

interface EmulatorContext {
  exchanges: Exchange[]
  store: AuthStore
  signer: TokenSigner
  /** PKCE flow states by auth code; short-lived, so deliberately not persisted. */
  flows: Map<string, FlowState>
  issuer: string
  siteUrl: string
  ttlSeconds: number
  now: () => number
  githubAccount?: AuthEmulatorOptions['githubAccount']
}

interface FlowState {
  userId: string
  provider: Provider
  pkce: Pkce
  createdAtMs: number
}

interface Pkce {
  challenge: string
  method: 's256' | 'plain'
}

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

function isFlowExpired(ctx: EmulatorContext, flow: FlowState): boolean {
  return ctx.now() - flow.createdAtMs > FLOW_STATE_TTL_MS
}

// ---------------------------------------------------------------------------
// Users and sessions

function signIn(ctx: EmulatorContext, input: { email: string; fullName: string; provider: Provider }): UserRecord {
  const github =
    input.provider === 'github' && ctx.githubAccount
      ? ctx.githubAccount({ email: input.email, login: githubLogin(input.email), fullName: input.fullName })
      : undefined
  return ctx.store.recordOAuthSignIn({
    email: input.email,
    provider: input.provider,
    now: new Date(ctx.now()),
    providerId: github ? String(github.id) : undefined,
    identityData: (userId, providerId) =>
      providerIdentityData({ ...input, providerId, login: github?.login, avatarUrl: `${ctx.issuer}/avatars/${userId}.svg` }),
  })
}

async function startSession(ctx: EmulatorContext, user: UserRecord, provider: Provider): Promise<SessionResponse> {
  const session = ctx.store.createSession(user.id, provider, ctx.now())
  const refreshToken = ctx.store.issueRefreshToken(session.id, null, ctx.now())
  return issueTokens(ctx, user, session, refreshToken.token)
}

async function issueTokens(ctx: EmulatorContext, user: UserRecord, session: SessionRecord, refreshToken: string): Promise<SessionResponse> {
  const issuedAt = Math.floor(ctx.now() / 1000)
  const expiresAt = issuedAt + ctx.ttlSeconds
  const accessToken = await ctx.signer.sign(accessTokenClaims(ctx.issuer, user, session, { issuedAt, expiresAt }))
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ctx.ttlSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: toAuthUser(user),
  }
}

/** Resolves the bearer access token to its user and live session, with GoTrue's errors. */
async function authenticate(ctx: EmulatorContext, req: ApiRequest): Promise<{ user: UserRecord; session: SessionRecord }> {
  const bearer = /^bearer (\S+)$/i.exec(headerValue(req.headers.authorization) ?? '')?.[1]
  if (!bearer) throw new ApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  let claims: JWTPayload
  try {
    claims = await ctx.signer.verify(bearer, { issuer: ctx.issuer, audience: AUTHENTICATED, now: new Date(ctx.now()) })
  } catch (error) {
    throw new ApiError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${describeJwtFailure(error)}`)
  }
  const user = claims.sub ? ctx.store.findUserById(claims.sub) : undefined
  if (!user) throw new ApiError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  const session = ctx.store.findSession(claims.session_id)
  if (!session || session.userId !== user.id) {
    throw new ApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  }
  return { user, session }
}

// ---------------------------------------------------------------------------
// API endpoints

async function tokenGrant(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const params = await req.params()
  const grantType = req.url.searchParams.get('grant_type')
  switch (grantType) {
    case 'pkce':
      return json(200, await pkceGrant(ctx, params.get('auth_code') ?? '', params.get('code_verifier') ?? ''))
    case 'refresh_token':
      return json(200, await refreshTokenGrant(ctx, params.get('refresh_token') ?? ''))
    default:
      // GoTrue's own wording; it also knows password, id_token and web3, which the emulator does not.
      throw new ApiError(400, 'invalid_credentials', 'unsupported_grant_type')
  }
}

async function pkceGrant(ctx: EmulatorContext, authCode: string, codeVerifier: string): Promise<SessionResponse> {
  if (!authCode || !codeVerifier) {
    throw new ApiError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
  }
  const flow = ctx.flows.get(authCode)
  const user = flow && ctx.store.findUserById(flow.userId)
  if (!flow || !user) throw new ApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
  if (isFlowExpired(ctx, flow)) {
    ctx.flows.delete(authCode)
    throw new ApiError(422, 'flow_state_expired', 'invalid flow state, flow state has expired')
  }
  // Like GoTrue, a wrong verifier leaves the flow state usable by the right one.
  if (!pkceMatches(flow.pkce, codeVerifier)) {
    throw new ApiError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier')
  }
  ctx.flows.delete(authCode)
  return startSession(ctx, user, flow.provider)
}

function pkceMatches(pkce: Pkce, verifier: string): boolean {
  const derived = pkce.method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  return derived === pkce.challenge
}

/**
 * Rotates the refresh token. A token rotated less than the reuse interval ago
 * answers with the session's current token instead of failing, so parallel
 * server renders holding the same cookie all succeed; later reuse is treated
 * as theft and revokes the whole token family, as GoTrue does.
 */
async function refreshTokenGrant(ctx: EmulatorContext, token: string): Promise<SessionResponse> {
  if (!token) throw new OAuthError('invalid_request', 'refresh_token required')
  const record = ctx.store.findRefreshToken(token)
  if (!record) throw new ApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
  const session = ctx.store.findSession(record.sessionId)
  const user = session && ctx.store.findUserById(session.userId)
  if (!session || !user) throw new ApiError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found')

  const nowMs = ctx.now()
  let issued: string
  if (record.revokedAtMs === null) {
    issued = ctx.store.rotateRefreshToken(record, nowMs).token
  } else {
    const active = ctx.store.activeRefreshToken(session.id)
    if (!active || nowMs - record.revokedAtMs > REFRESH_TOKEN_REUSE_INTERVAL_MS) {
      ctx.store.revokeTokenFamily(session.id, nowMs)
      throw new ApiError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
    }
    issued = active.token
  }
  return issueTokens(ctx, user, session, issued)
}

async function currentUser(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const { user } = await authenticate(ctx, req)
  return json(200, toAuthUser(user))
}

async function logout(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const { user, session } = await authenticate(ctx, req)
  const scope = req.url.searchParams.get('scope') ?? 'global'
  switch (scope) {
    case '':
    case 'global':
      ctx.store.deleteUserSessions(user.id)
      break
    case 'local':
      ctx.store.deleteSession(session.id)
      break
    case 'others':
      ctx.store.deleteUserSessions(user.id, session.id)
      break
    default:
      throw new ApiError(400, 'validation_failed', `Unsupported logout scope "${scope}"`)
  }
  return { status: 204 }
}

async function jwks(ctx: EmulatorContext): Promise<Reply> {
  return json(200, ctx.signer.jwks(), { 'cache-control': 'public, max-age=600' })
}

async function settings(): Promise<Reply> {
  return json(200, {
    external: { anonymous_users: false, email: false, phone: false, github: true, google: true },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  })
}

async function health(): Promise<Reply> {
  return json(200, {
    version: 'forkmarket-emulator',
    name: 'GoTrue',
    description: 'Local Supabase Auth emulator (not for production)',
  })
}

async function avatarImage(ctx: EmulatorContext, userId: string): Promise<Reply> {
  const user = ctx.store.findUserById(userId)
  if (!user) throw notFound()
  const fullName = user.userMetadata.full_name
  const label = typeof fullName === 'string' && fullName ? fullName : user.email
  return {
    status: 200,
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
    body: renderAvatarSvg(label, user.id),
  }
}
