import { isRouteErrorResponse, RouterContextProvider } from 'react-router'
import { middleware as rootMiddleware } from '../../app/root.tsx'
import { checkApiAnswer } from './api-conformance.ts'

// Route modules type their args precisely (Route.LoaderArgs); any handler shape is accepted here.
type Handler = (args: any) => unknown
type Middleware = (args: any, next: () => Promise<Response>) => unknown
interface RouteModule {
  loader?: Handler
  action?: Handler
  middleware?: unknown
  headers?: unknown
  default?: unknown
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === 'object' && value !== null && (value as { type?: string }).type === 'DataWithResponseInit'
}

const isRedirect = (response: Response) => response.status >= 300 && response.status < 400 && response.headers.has('Location')

function body(value: unknown): Response {
  return typeof value === 'string'
    ? new Response(value, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    : Response.json(value ?? null)
}

/** Only Set-Cookie of `from` (what React Router keeps of a page's data or error headers without a `headers` export). */
function cookiesOf(from: HeadersInit | undefined): Headers {
  const headers = new Headers()
  for (const cookie of new Headers(from).getSetCookie()) headers.append('Set-Cookie', cookie)
  return headers
}

/**
 * What React Router answers for a value a loader, action or middleware threw:
 * a resource route (no component) answers a thrown Response or data() as it
 * is; a screen renders its error boundary with the status, keeping only the
 * cookies of the thrown headers (redirects pass as they are); anything else
 * is a 500.
 */
function thrownToResponse(thrown: unknown, isScreen: boolean): Response {
  if (thrown instanceof Response) {
    if (!isScreen || isRedirect(thrown)) return thrown
    return new Response(thrown.body, { status: thrown.status, statusText: thrown.statusText, headers: cookiesOf(thrown.headers) })
  }
  if (isDataWithInit(thrown)) {
    if (!isScreen) return Response.json(thrown.data, thrown.init ?? undefined)
    const response = body(thrown.data)
    return new Response(response.body, {
      status: thrown.init?.status ?? 500,
      headers: mergeHeaders(response.headers, cookiesOf(thrown.init?.headers)),
    })
  }
  if (isRouteErrorResponse(thrown)) return new Response(String(thrown.data), { status: thrown.status })
  return new Response(`Unexpected Server Error\n\n${String(thrown)}`, { status: 500, headers: { 'Content-Type': 'text/plain' } })
}

function mergeHeaders(...sources: Headers[]): Headers {
  const headers = new Headers()
  for (const source of sources) source.forEach((value, name) => (name === 'set-cookie' ? undefined : headers.set(name, value)))
  for (const source of sources) for (const cookie of source.getSetCookie()) headers.append('Set-Cookie', cookie)
  return headers
}

/** A loader's or action's return value as the Response a client gets (a screen's data stands in for its HTML). */
function resultToResponse(result: unknown, mod: RouteModule, isScreen: boolean): Response {
  if (result instanceof Response) return result
  if (!isScreen) return isDataWithInit(result) ? Response.json(result.data, result.init ?? undefined) : body(result)
  if (!isDataWithInit(result)) return resultToResponse({ type: 'DataWithResponseInit', data: result, init: null }, mod, isScreen)
  // A screen's data() headers reach the document only through the route's `headers` export (cookies always do).
  const dataHeaders = new Headers(result.init?.headers ?? undefined)
  const declared =
    typeof mod.headers === 'function'
      ? new Headers(
          mod.headers({ loaderHeaders: dataHeaders, actionHeaders: dataHeaders, parentHeaders: new Headers(), errorHeaders: undefined }),
        )
      : mod.headers
        ? new Headers(mod.headers as HeadersInit)
        : new Headers()
  const response = body(result.data)
  return new Response(response.body, {
    status: result.init?.status ?? 200,
    headers: mergeHeaders(response.headers, declared, cookiesOf(dataHeaders)),
  })
}

/**
 * Calls a route module's loader (GET/HEAD) or action (other methods) with a
 * real Request, through the app's real middleware chain — app/root.tsx's
 * `middleware`, then the route module's own (its declared policy) — and
 * returns the Response a client would get, errors included, the way React
 * Router turns them into responses (tests/integration/call-route.test.ts).
 * An /api/* answer must be one the API's description gives (api-conformance.ts).
 */
export async function callRoute(mod: RouteModule, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const context = new RouterContextProvider()
  const isScreen = 'default' in mod && mod.default !== undefined
  const isRead = request.method === 'GET' || request.method === 'HEAD'
  const handler = isRead ? mod.loader : mod.action
  const args = { request, context, params, url: new URL(request.url), pattern: '' }

  const handle = async (): Promise<Response> => {
    if (!handler) {
      if (isScreen && isRead) return new Response(null, { status: 200 })
      return thrownToResponse(Response.json({ error: 'Method not allowed' }, { status: isRead ? 400 : 405 }), isScreen)
    }
    try {
      return resultToResponse(await handler(args), mod, isScreen)
    } catch (thrown) {
      return thrownToResponse(thrown, isScreen)
    }
  }

  const chain: Middleware[] = [...(rootMiddleware as Middleware[]), ...((mod.middleware as Middleware[] | undefined) ?? [])]
  const run = async (index: number): Promise<Response> => {
    if (index === chain.length) return handle()
    let downstream: Response | undefined
    const next = async () => (downstream = await run(index + 1))
    try {
      const value = await chain[index]!(args, next)
      if (value instanceof Response) return value
      return downstream ?? (await next())
    } catch (thrown) {
      return thrownToResponse(thrown, isScreen)
    }
  }
  const response = await run(0)
  if (new URL(request.url).pathname.startsWith('/api/')) await checkApiAnswer(mod, request, response)
  return response
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
