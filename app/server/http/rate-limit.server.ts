import { sql } from 'kysely'
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible'
import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { db, pool } from '../infra/db.server.ts'
import { config } from '../infra/env.server.ts'
import { logEvent, logSecurityEvent } from '../infra/log.server.ts'
import { CLIENT_IP_HEADER } from './client-ip.server.ts'
import { clientError } from './responses.server.ts'

export interface RateLimit {
  /** The bucket: every route that names the same limit shares one count per client address. */
  name: string
  /** Requests allowed per window, before RATE_LIMIT_MULTIPLIER. */
  limit: number
  windowMs: number
  /** 'writes' (default): only non-GET requests count; 'all': page views count too. */
  counts?: 'writes' | 'all'
}

const MINUTE = 60_000

/**
 * The limits routes declare (route-policy.server.ts): the abuse-prone actions —
 * sign-in, listing writes, uploads, payment attempts, money and sale actions,
 * bank details, admin actions — plus every other write.
 */
export const RATE_LIMITS = {
  signIn: { name: 'sign-in', limit: 10, windowMs: MINUTE },
  signOut: { name: 'sign-out', limit: 30, windowMs: MINUTE },
  upload: { name: 'upload', limit: 20, windowMs: MINUTE },
  // Opening /checkout/:id asks the payment provider for a payment attempt, so views count too.
  purchase: { name: 'purchase', limit: 20, windowMs: MINUTE, counts: 'all' },
  listingWrite: { name: 'listing-write', limit: 30, windowMs: MINUTE },
  // Deliver, Confirm Receipt and Report a problem, on the screens and the API.
  saleAction: { name: 'sale-action', limit: 30, windowMs: MINUTE },
  bankDetails: { name: 'bank-details', limit: 10, windowMs: MINUTE },
  admin: { name: 'admin', limit: 60, windowMs: MINUTE },
  notificationRead: { name: 'notification-read', limit: 60, windowMs: MINUTE },
  userSync: { name: 'user-sync', limit: 30, windowMs: MINUTE },
  theme: { name: 'theme', limit: 30, windowMs: MINUTE },
  // The listing page's view report (a browsing visitor opens a few pages a minute).
  listingView: { name: 'listing-view', limit: 60, windowMs: MINUTE },
  // Every request made with one personal API key, reads included, counted per key (issue 29), besides the route's own limit.
  apiKey: { name: 'api-key', limit: 120, windowMs: MINUTE, counts: 'all' },
  // Stripe sends bursts (and retries) from a few addresses; the signature is checked after this.
  webhook: { name: 'webhook', limit: 600, windowMs: MINUTE },
} as const satisfies Record<string, RateLimit>

/**
 * Fixed-window counters per (limit, client address), in PostgreSQL: every app
 * instance counts into the same rows (the `rate_limits` table, migration 0013),
 * so a client gets the limit across all instances, not the limit per instance.
 * rate-limiter-flexible's RateLimiterPostgres runs one upsert per counted
 * request on the app's pool. While the database is unreachable (an error, or
 * no answer within STORE_TIMEOUT_MS) each instance counts in its own memory
 * instead (the insurance limiter), with the same limits: limits still hold per
 * instance, and a request is never refused or delayed because the counter
 * store is down. docs/decisions/022.
 */
const STORE_TIMEOUT_MS = 1_000
const TABLE = 'rate_limits'

/** The in-memory limiter used while the store fails; it says so in the log (at most once a minute). */
class InsuranceLimiter extends RateLimiterMemory {
  private static lastLogged = 0
  override consume(key: string | number, points?: number, options?: { [key: string]: any }) {
    const now = Date.now()
    if (now - InsuranceLimiter.lastLogged > MINUTE) {
      InsuranceLimiter.lastLogged = now
      logEvent('warn', 'rate_limit_store_unavailable', { fallback: 'memory (per instance)' })
    }
    return super.consume(key, points, options)
  }
}

const limiters = new Map<string, RLWrapperTimeouts>()

function limiterFor(limit: RateLimit): RLWrapperTimeouts {
  const points = Math.ceil(limit.limit * config().RATE_LIMIT_MULTIPLIER)
  const id = `${limit.name}:${points}:${limit.windowMs}`
  let limiter = limiters.get(id)
  if (!limiter) {
    const options = { keyPrefix: limit.name, points, duration: limit.windowMs / 1000 }
    const store = new RateLimiterPostgres({
      ...options,
      storeClient: pool,
      storeType: 'pool',
      tableName: TABLE,
      // The migration made the table; the first limiter of the process also deletes rows expired an hour ago, every 5 minutes.
      tableCreated: true,
      clearExpiredByTimeout: limiters.size === 0,
    })
    limiter = new RLWrapperTimeouts({ limiter: store, timeoutMs: STORE_TIMEOUT_MS, insuranceLimiter: new InsuranceLimiter(options) })
    limiters.set(id, limiter)
  }
  return limiter
}

/** Forgets every count (tests): the shared rows and this process's insurance counters. */
export async function resetRateLimits() {
  limiters.clear()
  await sql`DELETE FROM rate_limits`.execute(db)
}

/** Counts a request; returns seconds to wait when it is over its limit, else null. */
export async function consume(limit: RateLimit, client: string): Promise<number | null> {
  try {
    await limiterFor(limit).consume(client)
    return null
  } catch (refused) {
    if (!(refused instanceof RateLimiterRes)) throw refused
    return Math.max(1, Math.ceil(refused.msBeforeNext / 1000))
  }
}

/** Seconds the client must wait, once this request was refused (read by retryAfterMiddleware). */
const retryAfterContext = createContext<number | null>(null)

/** Counts the request against `limit` (a route's declared one); over it: 429 with Retry-After. */
export async function enforceRateLimit(request: Request, context: Readonly<RouterContextProvider>, limit: RateLimit) {
  if ((limit.counts ?? 'writes') === 'writes' && (request.method === 'GET' || request.method === 'HEAD')) return
  const retryAfter = await consume(limit, request.headers.get(CLIENT_IP_HEADER) ?? 'unknown')
  if (retryAfter === null) return
  context.set(retryAfterContext, retryAfter)
  logSecurityEvent('rate_limited', request, { rule: limit.name, retryAfter })
  const api = new URL(request.url).pathname.startsWith('/api/')
  const message = api ? 'Too many requests. Please wait and try again.' : 'Too many requests. Please wait a moment and try again.'
  throw clientError(request, 429, message, { 'Retry-After': String(retryAfter) })
}

/**
 * Root middleware: a screen's 429 is rendered by the error boundary, and React
 * Router keeps none of the thrown response's headers there; this puts the
 * Retry-After back on the page (API answers carry it already).
 */
export const retryAfterMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  const response = await next()
  const retryAfter = context.get(retryAfterContext)
  if (response.status === 429 && retryAfter !== null) response.headers.set('Retry-After', String(retryAfter))
  return response
}
