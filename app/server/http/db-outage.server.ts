import { sql } from 'kysely'
import { data, type MiddlewareFunction } from 'react-router'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'

async function databaseReachable(): Promise<boolean> {
  try {
    await Promise.race([sql`SELECT 1`.execute(db), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000))])
    return true
  } catch {
    return false
  }
}

/**
 * A request that failed while PostgreSQL is unreachable is the outage's fault,
 * not a bug: answer 503 with Retry-After (JSON on /api) instead of a 500, so
 * clients and load balancers back off and retry. Failures with the database
 * up stay 500.
 */
export const dbOutageMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next()
  if (response.status < 500 || response.status === 503 || (await databaseReachable())) return response
  logEvent('error', 'database_unavailable', { method: request.method, path: new URL(request.url).pathname })
  const headers = { 'Retry-After': '5', 'Cache-Control': 'no-store' }
  if (new URL(request.url).pathname.startsWith('/api/')) {
    return Response.json({ error: 'Service temporarily unavailable. Please try again shortly.' }, { status: 503, headers })
  }
  throw data('The service is temporarily unavailable. Please try again in a few seconds.', {
    status: 503,
    statusText: 'Service Unavailable',
    headers,
  })
}
