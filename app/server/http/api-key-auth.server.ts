import type { ApiKeyScope } from '~/lib/api-keys'
import { authenticateApiKey } from '../domain/api-keys.server.ts'
import { AppError } from '../domain/errors.server.ts'
import { getUserById, type PublicUser } from '../domain/users.server.ts'
import { logSecurityEvent } from '../infra/log.server.ts'
import { consume, RATE_LIMITS } from './rate-limit.server.ts'

/**
 * The caller of an /api/* request made with a personal API key (issue 29,
 * docs/decisions/029), given the scope the route declares for the request's
 * method (`policy.apiKeys`), checked in this order:
 * - a malformed, unknown, revoked or expired key: 401 with `WWW-Authenticate`;
 * - more than RATE_LIMITS.apiKey requests a minute with this key: 429;
 * - a method the route declares no scope for (admin actions, bank details,
 *   payments, messages…): 403, whatever the key's scopes;
 * - a key without the declared scope: 403 naming the scope.
 * The user a key acts as is never an admin, so no handler grants a key an
 * admin's reach.
 */
export async function apiKeyCaller(request: Request, secret: string, scope: ApiKeyScope | undefined): Promise<PublicUser> {
  const check = await authenticateApiKey(secret)
  const user = check.ok ? await getUserById(check.key.userId) : undefined
  if (!check.ok || !user) {
    logSecurityEvent('api_key_refused', request, { reason: check.ok ? 'no user' : check.reason })
    throw new AppError(401, 'Invalid API key: it is unknown, revoked or expired', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    })
  }
  const retryAfter = await consume(RATE_LIMITS.apiKey, check.key.id)
  if (retryAfter !== null) {
    logSecurityEvent('rate_limited', request, { rule: RATE_LIMITS.apiKey.name, keyId: check.key.id, retryAfter })
    throw new AppError(429, 'Too many requests with this API key. Please wait and try again.', { retryAfter })
  }
  if (!scope) {
    logSecurityEvent('api_key_refused', request, { reason: 'endpoint takes no API keys', keyId: check.key.id, userId: user.id })
    throw new AppError(403, 'API keys cannot be used on this endpoint; it needs a signed-in session')
  }
  if (!check.key.scopes.includes(scope)) {
    logSecurityEvent('api_key_refused', request, { reason: 'missing scope', scope, keyId: check.key.id, userId: user.id })
    throw new AppError(403, `This API key lacks the ${scope} scope`, {
      extra: { scope },
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    })
  }
  return { ...user, isAdmin: false }
}
