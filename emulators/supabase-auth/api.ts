/**
 * The Supabase Auth emulator's state (EmulatorContext), its users and sessions, and the GoTrue API
 * endpoints the app's clients call: /token (pkce and refresh_token grants), /user, /logout,
 * /.well-known/jwks.json, /settings, /health, and the stand-in avatars.
 */
import { createHash } from 'node:crypto'
import type { JWTPayload } from 'jose'
import { ApiError, headerValue, json, notFound, OAuthError, type ApiRequest, type Reply } from './http.ts'
import type { OperationKey } from './operations.ts'
import type { AuthEmulatorOptions } from './server.ts'
import type { AuthStore, Provider, SessionRecord, UserRecord } from './store.ts'
import { describeJwtFailure, type TokenSigner } from './tokens.ts'
import { accessTokenClaims, AUTHENTICATED, githubLogin, providerIdentityData, toAuthUser, type AuthUser } from './users.ts'
import { renderAvatarSvg } from './views.ts'

const REFRESH_TOKEN_REUSE_INTERVAL_MS = 10_000
const FLOW_STATE_TTL_MS = 5 * 60_000

export interface SessionResponse {
  access_token: string
  refresh_token: string
  expires_in: number
  expires_at: number
  token_type: 'bearer'
  user: AuthUser
}

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

export interface EmulatorContext {
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

export interface FlowState {
  userId: string
  provider: Provider
  pkce: Pkce
  createdAtMs: number
}

export interface Pkce {
  challenge: string
  method: 's256' | 'plain'
}

export function isFlowExpired(ctx: EmulatorContext, flow: FlowState): boolean {
  return ctx.now() - flow.createdAtMs > FLOW_STATE_TTL_MS
}

// ---------------------------------------------------------------------------
// Users and sessions

export function signIn(ctx: EmulatorContext, input: { email: string; fullName: string; provider: Provider }): UserRecord {
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

export async function startSession(ctx: EmulatorContext, user: UserRecord, provider: Provider): Promise<SessionResponse> {
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

export async function tokenGrant(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
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

export async function currentUser(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
  const { user } = await authenticate(ctx, req)
  return json(200, toAuthUser(user))
}

export async function logout(ctx: EmulatorContext, req: ApiRequest): Promise<Reply> {
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

export async function jwks(ctx: EmulatorContext): Promise<Reply> {
  return json(200, ctx.signer.jwks(), { 'cache-control': 'public, max-age=600' })
}

export async function settings(): Promise<Reply> {
  return json(200, {
    external: { anonymous_users: false, email: false, phone: false, github: true, google: true },
    disable_signup: false,
    mailer_autoconfirm: false,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  })
}

export async function health(): Promise<Reply> {
  return json(200, {
    version: 'forkmarket-emulator',
    name: 'GoTrue',
    description: 'Local Supabase Auth emulator (not for production)',
  })
}

export async function avatarImage(ctx: EmulatorContext, userId: string): Promise<Reply> {
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
