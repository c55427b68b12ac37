import { isAuthSessionMissingError } from '@supabase/supabase-js'
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import { isUuid } from '~/lib/ids'
import { db } from '../infra/db.server.ts'
import { config } from '../infra/env.server.ts'
import type { JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { createSupabaseTokenClient } from '../infra/supabase.server.ts'

/**
 * Verifying an access token of the identity provider (docs/decisions/009):
 * signature against the provider's JWKS with an algorithm allow-list (so
 * `alg: none` or an HMAC token carrying a real `kid` is refused, not a 500),
 * `iss`, `aud`, `exp` and `nbf`; then the session must not be revoked: signed
 * out here (a row in `revoked_sessions`, seen by every instance at once) or
 * at the provider (asked at most every SESSION_RECHECK_SECONDS per session).
 */

export interface VerifiedClaims extends JWTPayload {
  sub: string
  email?: string
  session_id?: string
  user_metadata?: Record<string, unknown>
}

const ALGORITHMS = ['ES256', 'RS256']
const CLOCK_TOLERANCE_SECONDS = 30
/** How long a session the provider confirmed is trusted before asking again. */
export const SESSION_RECHECK_MS = 60_000
let jwks: { url: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined
function keySet() {
  const url = `${config().SUPABASE_URL}/auth/v1/.well-known/jwks.json`
  if (jwks?.url !== url) jwks = { url, set: createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000 }) }
  return jwks.set
}

/** A cache, not a source of truth: losing it (or another instance not having it) only costs one more question. */
const confirmedAt = new Map<string, number>()

export type TokenCheck = { ok: true; claims: VerifiedClaims } | { ok: false; reason: string }

export interface TokenCheckOptions {
  now?: number
  /**
   * Whether the token's session was revoked here; by default its own read (isRevoked). The request's
   * middleware answers it with the read of the caller, which asks it in the same statement (auth.server.ts).
   */
  isRevoked?: (claims: VerifiedClaims & { session_id: string }) => Promise<boolean>
}

export async function verifyAccessToken(token: string, options: TokenCheckOptions = {}): Promise<TokenCheck> {
  const now = options.now ?? Date.now()
  let claims: VerifiedClaims
  try {
    const result = await jwtVerify<VerifiedClaims>(token, keySet(), {
      algorithms: ALGORITHMS,
      issuer: `${config().SUPABASE_URL}/auth/v1`,
      audience: 'authenticated',
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    })
    claims = result.payload
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return { ok: false, reason: error.code }
    // A malformed header or payload that jose could not even classify is still the caller's bad token.
    return { ok: false, reason: 'malformed token' }
  }
  if (typeof claims.sub !== 'string' || !claims.sub) return { ok: false, reason: 'no subject' }

  const sessionId = claims.session_id
  if (typeof sessionId !== 'string' || !isUuid(sessionId)) return { ok: false, reason: 'no session' }
  const revoked = options.isRevoked ? await options.isRevoked({ ...claims, session_id: sessionId }) : await isRevoked(sessionId)
  if (revoked) return { ok: false, reason: 'session revoked' }
  if (!(await stillLiveAtProvider(token, claims, now))) return { ok: false, reason: 'session ended at the provider' }
  return { ok: true, claims }
}

export async function isRevoked(sessionId: string): Promise<boolean> {
  return Boolean(await revokedSessionQuery(sessionId).executeTakeFirst())
}

/** The one rule of "was this session signed out here": a row in revoked_sessions (seen by every instance). */
export function revokedSessionQuery(sessionId: string) {
  return db.selectFrom('revokedSessions').select('sessionId').where('sessionId', '=', sessionId)
}

/**
 * A global sign-out at the provider (another device, an admin) ends the
 * session there without telling us; asking the provider once a minute per
 * session bounds how long such a token keeps working. A provider that cannot
 * be reached is not a sign-out (logged; the token's own expiry still holds).
 */
async function stillLiveAtProvider(token: string, claims: VerifiedClaims, now: number): Promise<boolean> {
  const sessionId = claims.session_id!
  const last = confirmedAt.get(sessionId)
  if (last !== undefined && now - last < SESSION_RECHECK_MS) return true
  const { error } = await createSupabaseTokenClient().auth.getUser(token)
  if (!error) {
    if (confirmedAt.size > 50_000) confirmedAt.clear()
    confirmedAt.set(sessionId, now)
    return true
  }
  // supabase-js reports GoTrue's 403 session_not_found as AuthSessionMissingError.
  if (isAuthSessionMissingError(error) || error.status === 401 || error.status === 403 || error.status === 404) {
    await revokeSession(claims, 'provider')
    return false
  }
  logEvent('warn', 'identity_provider_unreachable', { category: 'security', status: error.status ?? null, message: error.message })
  return true
}

/** Refuses every token of this session from now on, on every instance, until the token could have expired. */
export async function revokeSession(claims: Pick<VerifiedClaims, 'session_id' | 'sub' | 'exp'>, reason: 'logout' | 'provider') {
  const sessionId = claims.session_id
  if (typeof sessionId !== 'string' || !isUuid(sessionId)) return
  confirmedAt.delete(sessionId)
  // A refreshed token of the same session can outlive this one: keep the row a day past this token's expiry.
  const expiresAt = new Date(((claims.exp ?? Math.floor(Date.now() / 1000)) + 86_400) * 1000)
  await db
    .insertInto('revokedSessions')
    .values({ sessionId, userId: isUuid(claims.sub ?? '') ? claims.sub! : null, reason, expiresAt })
    .onConflict((oc) => oc.column('sessionId').doNothing())
    .execute()
}

/** Housekeeping (the jobs runner): rows whose tokens have all expired. */
export async function purgeExpiredRevocations(now = new Date()): Promise<number> {
  const result = await db.deleteFrom('revokedSessions').where('expiresAt', '<', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The housekeeping job for the worker: hourly, any instance, idempotent. */
export const SESSION_JOBS: readonly JobDefinition[] = [
  {
    name: 'purge_revoked_sessions',
    task: async () => {
      const purged = await purgeExpiredRevocations()
      if (purged) logEvent('info', 'revoked_sessions_purged', { purged })
    },
    sweep: '17 * * * *',
  },
]
