import { RouterContextProvider } from 'react-router'
import { authMiddleware } from '../../app/server/auth.server.ts'
import { csrfMiddleware } from '../../app/server/csrf.server.ts'
import { rateLimitMiddleware } from '../../app/server/rate-limit.server.ts'

// Route modules type their args precisely (Route.LoaderArgs); any handler shape is accepted here.
type Handler = (args: any) => unknown
interface RouteModule {
  loader?: Handler
  action?: Handler
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === 'object' && value !== null && (value as { type?: string }).type === 'DataWithResponseInit'
}

function toResponse(result: unknown): Response {
  if (result instanceof Response) return result
  if (isDataWithInit(result)) return Response.json(result.data, result.init ?? undefined)
  return Response.json(result ?? null)
}

/**
 * Calls a route module's loader (GET/HEAD) or action (other methods) with a
 * real Request, through the same root middleware the app runs, and returns
 * the Response a client would get (thrown responses included).
 */
export async function callRoute(mod: RouteModule, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const context = new RouterContextProvider()
  const handler = request.method === 'GET' || request.method === 'HEAD' ? mod.loader : mod.action
  if (!handler) return new Response(null, { status: 405 })
  const args = { request, context, params, unstable_pattern: '' } as never
  const run = async () => {
    try {
      return toResponse(await handler({ request, context, params }))
    } catch (thrown) {
      if (thrown instanceof Response || isDataWithInit(thrown)) return toResponse(thrown)
      throw thrown
    }
  }
  // The same chain as app/root.tsx: CSRF check, rate limit, then auth.
  try {
    return (await csrfMiddleware(args, () =>
      rateLimitMiddleware(args, () => authMiddleware(args, run) as Promise<Response>) as Promise<Response>,
    )) as Response
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) return toResponse(thrown)
    throw thrown
  }
}

export const APP = 'http://localhost:3000'

export function apiRequest(path: string, init: RequestInit & { token?: string; json?: unknown } = {}): Request {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`)
  let body = init.body
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json')
    body = JSON.stringify(init.json)
  }
  if (init.method && init.method !== 'GET') headers.set('Origin', APP)
  return new Request(`${APP}${path}`, { ...init, headers, body })
}
