import { data, type MiddlewareFunction } from 'react-router'
import { isApiRequest } from './auth.server.ts'
import { CLIENT_IP_HEADER } from './client-ip.server.ts'
import { config } from './env.server.ts'
import { logSecurityEvent } from './log.server.ts'

interface Rule {
  name: string
  /** Requests allowed per window, before RATE_LIMIT_MULTIPLIER. */
  limit: number
  windowMs: number
  matches: (method: string, path: string) => boolean
}

const write = (method: string) => method !== 'GET' && method !== 'HEAD'

// The abuse-prone actions of the issue: sign-in, listing writes, uploads, purchase attempts, admin actions.
export const RATE_LIMIT_RULES: Rule[] = [
  { name: 'sign-in', limit: 10, windowMs: 60_000, matches: (m, p) => write(m) && p === '/login' },
  { name: 'upload', limit: 20, windowMs: 60_000, matches: (m, p) => write(m) && p === '/api/listings/upload-images' },
  {
    name: 'purchase',
    limit: 20,
    windowMs: 60_000,
    matches: (m, p) => (write(m) && /^\/api\/listings\/[^/]+\/purchase$/.test(p)) || p.startsWith('/checkout/'),
  },
  {
    name: 'listing-write',
    limit: 30,
    windowMs: 60_000,
    matches: (m, p) =>
      write(m) && (p.startsWith('/api/listings') || p === '/seller/create' || p === '/create-listing' || p.startsWith('/seller/edit/') || p.startsWith('/listing/')),
  },
  { name: 'admin', limit: 60, windowMs: 60_000, matches: (m, p) => write(m) && (p === '/admin' || p.startsWith('/api/admin/')) },
]

/**
 * Fixed-window counters per (rule, client address), in process memory. With
 * several app instances each enforces its own share; put a shared limiter at
 * the load balancer if a global cap is needed (README, Scaling).
 */
const windows = new Map<string, { startedAt: number; count: number }>()

export function resetRateLimits() {
  windows.clear()
}

function multiplier(): number {
  return config().RATE_LIMIT_MULTIPLIER
}

/** Returns seconds to wait when the request is over its limit, else null. */
export function consume(rule: Rule, client: string, now = Date.now()): number | null {
  const key = `${rule.name}:${client}`
  const current = windows.get(key)
  if (!current || now - current.startedAt >= rule.windowMs) {
    windows.set(key, { startedAt: now, count: 1 })
    if (windows.size > 50_000) pruneExpired(now)
    return null
  }
  current.count += 1
  if (current.count <= Math.ceil(rule.limit * multiplier())) return null
  return Math.max(1, Math.ceil((current.startedAt + rule.windowMs - now) / 1000))
}

function pruneExpired(now: number) {
  for (const [key, value] of windows) if (now - value.startedAt >= 60_000) windows.delete(key)
}

export const rateLimitMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const path = new URL(request.url).pathname
  const rule = RATE_LIMIT_RULES.find((r) => r.matches(request.method, path))
  if (!rule) return next()
  const client = request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'
  const retryAfter = consume(rule, client)
  if (retryAfter === null) return next()
  logSecurityEvent('rate_limited', request, { rule: rule.name, retryAfter })
  const headers = { 'Retry-After': String(retryAfter) }
  if (isApiRequest(request)) throw data({ error: 'Too many requests. Please wait and try again.' }, { status: 429, headers })
  throw data('Too many requests. Please wait a moment and try again.', { status: 429, statusText: 'Too Many Requests', headers })
}
