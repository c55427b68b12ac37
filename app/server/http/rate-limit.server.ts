import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { config } from '../infra/env.server.ts'
import { logSecurityEvent } from '../infra/log.server.ts'
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
  userSync: { name: 'user-sync', limit: 30, windowMs: MINUTE },
  theme: { name: 'theme', limit: 30, windowMs: MINUTE },
  // Stripe sends bursts (and retries) from a few addresses; the signature is checked after this.
  webhook: { name: 'webhook', limit: 600, windowMs: MINUTE },
} as const satisfies Record<string, RateLimit>

/**
 * Fixed-window counters per (limit, client address), in process memory. With
 * several app instances each enforces its own share; put a shared limiter at
 * the load balancer if a global cap is needed (README, Scaling).
 */
const windows = new Map<string, { startedAt: number; count: number }>()

export function resetRateLimits() {
  windows.clear()
}

/** Returns seconds to wait when the request is over its limit, else null. */
export function consume(limit: RateLimit, client: string, now = Date.now()): number | null {
  const key = `${limit.name}:${client}`
  const current = windows.get(key)
  if (!current || now - current.startedAt >= limit.windowMs) {
    windows.set(key, { startedAt: now, count: 1 })
    if (windows.size > 50_000) pruneExpired(now)
    return null
  }
  current.count += 1
  if (current.count <= Math.ceil(limit.limit * config().RATE_LIMIT_MULTIPLIER)) return null
  return Math.max(1, Math.ceil((current.startedAt + limit.windowMs - now) / 1000))
}

function pruneExpired(now: number) {
  for (const [key, value] of windows) if (now - value.startedAt >= MINUTE) windows.delete(key)
}

/** Seconds the client must wait, once this request was refused (read by retryAfterMiddleware). */
const retryAfterContext = createContext<number | null>(null)

/** Counts the request against `limit` (a route's declared one); over it: 429 with Retry-After. */
export function enforceRateLimit(request: Request, context: Readonly<RouterContextProvider>, limit: RateLimit) {
  if ((limit.counts ?? 'writes') === 'writes' && (request.method === 'GET' || request.method === 'HEAD')) return
  const retryAfter = consume(limit, request.headers.get(CLIENT_IP_HEADER) ?? 'unknown')
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
