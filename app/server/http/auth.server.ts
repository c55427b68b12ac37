import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import type { ApiKeyScope } from '~/lib/api-keys'
import { isUuid } from '~/lib/ids'
import { isApiKeyToken } from '../domain/api-keys.server.ts'
import { unreadCountQuery } from '../domain/notification-inbox.server.ts'
import { activeSuspensionQuery, isSuspended } from '../domain/suspensions.server.ts'
import { displayNameFor, getUserById, publicUserQuery, syncUser, type PublicUser } from '../domain/users.server.ts'
import { compileOnce } from '../infra/compiled-query.server.ts'
import { logSecurityEvent } from '../infra/log.server.ts'
import { createSupabaseServerClient, hasAuthCookie } from '../infra/supabase.server.ts'
import { apiKeyCaller } from './api-key-auth.server.ts'
import { routePolicyContext } from './route-policy.server.ts'
import { isRevoked, revokedSessionQuery, revokeSession, verifyAccessToken, type VerifiedClaims } from './session-tokens.server.ts'

export interface RequestAuth {
  /** The verified product user of this request (cookie session or bearer token), resolved once. */
  getUser(): Promise<PublicUser | null>
  /**
   * The signed-in user's unread notifications when the read that verified their session answered it
   * too (a page's GET: no action ran before the page's loaders), else null: the caller asks unreadCount.
   */
  unreadNotifications(): Promise<number | null>
  /** The Supabase client bound to this request's cookies (sign-in, callback, sign-out). */
  supabase(): ReturnType<typeof createSupabaseServerClient>
  /**
   * 'api-key': `Authorization: Bearer fm_pat_…` (issue 29). On a page such a
   * request has no user (pages take the session only); on /api/* getUser()
   * answers the key's user only where the route declares a scope for the
   * method (`policy.apiKeys`), else throws the 401/403 (api-key-auth.server.ts).
   */
  via: 'cookie' | 'bearer' | 'api-key' | 'none'
  /** The personal API key the request presents (via 'api-key'), else null. */
  apiKey: string | null
}

export const authContext = createContext<RequestAuth>()

function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '')
  return match?.[1] ?? null
}

export function isApiRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith('/api/')
}

/** The sync payload from verified token claims (spec: user sync payload). */
function payloadFromClaims(claims: VerifiedClaims) {
  const meta = (claims.user_metadata ?? {}) as Record<string, unknown>
  const email = String(claims.email ?? '')
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)
  return {
    id: claims.sub,
    email,
    displayName: displayNameFor(email, str(meta.full_name) ?? str(meta.name)),
    avatarUrl: str(meta.avatar_url),
    preferredUsername: str(meta.user_name) ?? str(meta.preferred_username),
  }
}

/**
 * Finds the product user for verified claims; a user whose sync failed at
 * sign-in is synced now. A failed sync is logged and treated as signed out.
 */
async function userFromClaims(claims: VerifiedClaims | undefined | null, read?: PublicUser): Promise<PublicUser | null> {
  if (!claims?.sub || !claims.email) return null
  const existing = read ?? (await getUserById(claims.sub))
  if (existing) return existing
  try {
    return await syncUser(payloadFromClaims(claims))
  } catch (error) {
    console.error('Failed to sync user:', error instanceof Error ? error.message : error)
    return null
  }
}

const callerQuery = (userId: string, sessionId: string) =>
  publicUserQuery(userId).select((eb) => [
    eb.exists(revokedSessionQuery(sessionId)).as('revoked'),
    eb.exists(activeSuspensionQuery(userId)).as('suspended'),
  ])
// Compiled once per process, as every signed-in request asks (compiled-query.server.ts).
const callerRead = compileOnce(2, callerQuery)
const callerWithUnreadRead = compileOnce(2, (userId: string, sessionId: string) =>
  callerQuery(userId, sessionId).select(() => unreadCountQuery(userId).as('unread')),
)

/**
 * Who a session token's claims name, in one statement (issue 28.3: every signed-in request asks it):
 * the user's public columns, whether the session was revoked here and whether the user is suspended —
 * each rule where it lives (revokedSessionQuery, activeSuspensionQuery) — and, for a page's GET, the
 * header bell's unread count (unreadCountQuery), which the root loader would otherwise ask on its own.
 * No row: the user is not synced yet; the revocation is then asked on its own, the suspension after the
 * sync (`suspended` left unknown), the count by the root loader.
 */
async function readCaller(userId: string, sessionId: string, withUnread: boolean) {
  const [row] = await (withUnread ? callerWithUnreadRead : callerRead)(userId, sessionId)
  if (!row) return { user: undefined, revoked: await isRevoked(sessionId), suspended: undefined, unread: null }
  const { revoked, suspended, unread, ...user } = row as typeof row & { unread?: string | number | null }
  // PostgreSQL answers EXISTS as a boolean (Kysely types it SqlBool for other databases), count(*) as a bigint string.
  return {
    user: user as PublicUser,
    revoked: revoked === true,
    suspended: suspended === true,
    unread: unread === undefined || unread === null ? null : Number(unread),
  }
}

/** A page's read, before which no action can have changed what the bell counts. */
const isRead = (request: Request) => request.method === 'GET' || request.method === 'HEAD'

/**
 * The access token of the cookie session. supabase-js refreshes an expired one
 * here (its Set-Cookie headers are forwarded); the token is then verified by
 * us like a bearer token — the session's `user` object is never trusted.
 */
async function sessionAccessToken(client: ReturnType<typeof createSupabaseServerClient>): Promise<string | null> {
  try {
    const { data: result } = await client.auth.getSession()
    return result.session?.access_token ?? null
  } catch {
    // A cookie that cannot be parsed as a session is a signed-out visitor, not a 500.
    return null
  }
}

/**
 * Root middleware: resolves who is calling once per request (never trusting
 * getSession().user — the access token is verified by verifyAccessToken), and forwards the
 * Supabase client's Set-Cookie headers (silent refresh) on every response.
 */
export const authMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const cookieHeaders = new Headers()
  let client: ReturnType<typeof createSupabaseServerClient> | undefined
  const supabase = () => (client ??= createSupabaseServerClient(request, cookieHeaders))
  const token = bearerToken(request)
  const apiKey = token && isApiKeyToken(token) ? token : null
  const via: RequestAuth['via'] = apiKey ? 'api-key' : token ? 'bearer' : hasAuthCookie(request) ? 'cookie' : 'none'

  let resolved: Promise<PublicUser | null> | undefined
  let unread: number | null = null
  const getUser = () =>
    (resolved ??= (async () => {
      const { user, suspended } = await resolveCaller()
      // Issue 30: a suspended user is signed out everywhere (session, bearer token, API key) until it is lifted.
      if (user && (suspended ?? (await isSuspended(user.id)))) {
        logSecurityEvent('suspended_user_refused', request, { userId: user.id, via })
        return null
      }
      return user
    })())
  /** The caller, and whether they are suspended when the same read answered it (a session token's). */
  const resolveCaller = async (): Promise<{ user: PublicUser | null; suspended?: boolean }> => {
    if (via === 'none') return { user: null }
    if (via === 'api-key') {
      if (!isApiRequest(request)) {
        logSecurityEvent('api_key_refused', request, { reason: 'not an API endpoint' })
        return { user: null }
      }
      // Read now, not when this middleware ran: the route's policy middleware runs after it.
      const method = request.method === 'HEAD' ? 'GET' : request.method
      const scopes: Partial<Record<string, ApiKeyScope>> = context.get(routePolicyContext).apiKeys ?? {}
      return { user: await apiKeyCaller(request, apiKey ?? '', scopes[method]) }
    }
    const accessToken = token ?? (await sessionAccessToken(supabase()))
    if (!accessToken) return { user: null }
    let caller: Awaited<ReturnType<typeof readCaller>> | undefined
    const check = await verifyAccessToken(accessToken, {
      isRevoked: async ({ sub, session_id }) => {
        if (!isUuid(sub)) return isRevoked(session_id)
        caller = await readCaller(sub, session_id, isRead(request) && !isApiRequest(request))
        return caller.revoked
      },
    })
    if (!check.ok) {
      logSecurityEvent('auth_invalid_token', request, { reason: check.reason, via })
      return { user: null }
    }
    unread = caller?.user ? caller.unread : null
    return { user: await userFromClaims(check.claims, caller?.user), suspended: caller?.suspended }
  }
  const unreadNotifications = async () => ((await getUser()) ? unread : null)

  context.set(authContext, { getUser, unreadNotifications, supabase, via, apiKey })
  const response = await next()
  cookieHeaders.forEach((value, name) => {
    if (name.toLowerCase() === 'set-cookie') return
    response.headers.set(name, value)
  })
  for (const cookie of cookieHeaders.getSetCookie()) response.headers.append('Set-Cookie', cookie)
  return response
}

type Ctx = Readonly<RouterContextProvider>

/**
 * Signs the request's session out: first recorded as revoked (so its access
 * token, which stays valid until it expires, is refused at once by every
 * instance), then ended at the identity provider and its cookies cleared.
 */
export async function signOut(request: Request, context: Ctx): Promise<void> {
  const auth = context.get(authContext)
  const token = bearerToken(request) ?? (await sessionAccessToken(auth.supabase()))
  if (token) {
    const check = await verifyAccessToken(token)
    if (check.ok) await revokeSession(check.claims, 'logout')
  }
  // supabase-js clears the local session even when the provider answers 401/403/404.
  await auth.supabase().auth.signOut({ scope: 'local' })
}

export function getOptionalUser(context: Ctx): Promise<PublicUser | null> {
  return context.get(authContext).getUser()
}

/** Only local paths may be a post-sign-in destination (no open redirect). */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback
  }
  try {
    const url = new URL(value, 'http://local.invalid')
    if (url.origin !== 'http://local.invalid') return fallback
    // Checked again once normalised: `/.//evil.example` (or `/\t/evil.example`) becomes `//evil.example`,
    // which a browser reads as another host.
    const path = `${url.pathname}${url.search}${url.hash}`
    return path.startsWith('//') ? fallback : path
  } catch {
    return fallback
  }
}

function loginRedirect(request: Request) {
  const url = new URL(request.url)
  const here = `${url.pathname}${url.search}`
  return redirect(`/login?${new URLSearchParams({ redirectTo: here })}`)
}

/** Signed-in user or: /api → 401 JSON; screens → /login?redirectTo=… */
export async function requireUser(request: Request, context: Ctx): Promise<PublicUser> {
  const user = await getOptionalUser(context)
  if (user) return user
  if (isApiRequest(request)) {
    logSecurityEvent('unauthenticated', request, {})
    throw data({ error: 'Authentication required' }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } })
  }
  throw loginRedirect(request)
}

/** Admin or: anonymous → login (401 on /api); signed-in non-admin → / (403 on /api). */
export async function requireAdmin(request: Request, context: Ctx): Promise<PublicUser> {
  const user = await requireUser(request, context)
  if (user.isAdmin) return user
  logSecurityEvent('forbidden', request, { userId: user.id, reason: 'not an admin' })
  if (isApiRequest(request)) throw data({ error: 'Admin access required' }, { status: 403 })
  throw redirect('/')
}
