import { createHash } from 'node:crypto'
import type { RequestHandler } from 'express'
import { AppError } from '../domain/errors.server.ts'
import type { IdempotentCreate } from '../domain/idempotency.server.ts'

/**
 * The `Idempotency-Key` request header of a create on /api/* (decision 026): a client that lost the
 * answer (a timeout, an instance that died mid-request) sends the same request with the same key,
 * and gets what the first one made instead of a second one. As in the IETF draft
 * (draft-ietf-httpapi-idempotency-key-header) the value may be a quoted string; like Stripe's, a
 * bare token is accepted too. The hash of the method, path and body (keys in a fixed order) tells a
 * retry from a different request that reuses the key.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
export const INVALID_IDEMPOTENCY_KEY = 'Idempotency-Key must be 1 to 255 visible ASCII characters'
/** Set on an answer that is the earlier request's result rather than a new one. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'

const KEY = /^[\x21-\x7e]{1,255}$/

export function idempotentCreate(request: Request, body: unknown): IdempotentCreate | undefined {
  const header = request.headers.get(IDEMPOTENCY_KEY_HEADER)
  if (header === null) return undefined
  const quoted = /^"(.*)"$/.exec(header)
  const key = quoted ? quoted[1]! : header
  if (!KEY.test(key) || (quoted && /["\\]/.test(key))) throw new AppError(400, INVALID_IDEMPOTENCY_KEY)
  const hash = createHash('sha256')
    .update(`${request.method} ${new URL(request.url).pathname}\n${canonicalJson(body)}`)
    .digest('base64url')
  return { key, hash }
}

/** JSON with every object's keys sorted: the same request sent twice hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * React Router's Express adapter drops every header whose value is empty, so an empty
 * `Idempotency-Key` would reach idempotentCreate as no key and the create would go unprotected.
 * Node keeps it (as ''): it is passed on as an empty quoted string, which the rule above refuses as
 * it refuses any empty key (issue 26.5).
 */
export const keepEmptyIdempotencyKey: RequestHandler = (req, _res, next) => {
  if (req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] === '') req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] = '""'
  next()
}
