import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi'
import { z } from '~/lib/zod'
import { ApiErrorSchema } from './api-answers.server.ts'
import { routeDescription, type Access, type Endpoint, type Method } from './api-route.server.ts'
import { webhooksSection } from './openapi-webhooks.server.ts'

/**
 * The OpenAPI 3.1 description of /api/* (issue 29), built from the route
 * modules' own declarations (apiRoute(): access, body, query, answers per status,
 * errors, policy) at the paths app/routes.ts gives them. Nothing here lists an
 * endpoint: a route under /api/ whose module is not an apiRoute() is an error.
 * tests/tools/openapi.ts writes the result to openapi.generated.json, which
 * GET /api/openapi.json serves and /developers lists.
 */

export interface ApiRouteEntry {
  /** The route's path as app/routes.ts gives it, e.g. `api/listings/:id/reviews`. */
  path: string
  module: { loader?: unknown }
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'DELETE']

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the change completes when the payment provider confirms it',
  400: 'Bad input: `{ error, field? }` (or `fields` naming every wrong field)',
  401: 'Not signed in, or an API key that is unknown, revoked or expired',
  403: 'Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it)',
  404: 'Not found',
  409: 'Wrong state for this action',
  410: 'Gone',
  413: "The body is over the endpoint's limit",
  415: 'Only application/json is accepted',
  422: 'An Idempotency-Key reused with a different body, or a rule the input breaks',
  429: 'Rate limited, per client or per API key (see Retry-After)',
  500: 'Could not process it (the sender should deliver it again)',
  502: 'An outside service (the payment provider or GitHub) failed; try again',
  503: 'The database is unreachable (see Retry-After)',
}

/** `api/listings/:id/reviews` → `/api/listings/{id}/reviews`. */
export function openApiPath(routePath: string) {
  return `/${routePath}`.replace(/:([A-Za-z]+)/g, '{$1}')
}

function pathParams(path: string, declared: z.ZodObject | undefined) {
  const names = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]!)
  if (names.length === 0) return undefined
  return z.object(Object.fromEntries(names.map((name) => [name, declared?.shape[name] ?? z.string()])))
}

function errorStatuses(
  method: Method,
  endpoint: Endpoint<Access, z.ZodType | undefined>,
  policy: { bodyLimit?: number; rateLimit?: unknown },
) {
  // Any endpoint may be called with a personal API key (decision 029): an unknown key is a 401, a key the
  // method takes no keys for (or without its scope) a 403, a key over its own rate a 429 — public ones too.
  const statuses = new Set<number>([400, 401, 403, 429, 503, ...(endpoint.errors ?? [])])
  if (method !== 'GET' && policy.bodyLimit) statuses.add(413)
  if (endpoint.accepts === 'json') statuses.add(415)
  return [...statuses].sort()
}

function operation(
  method: Method,
  path: string,
  endpoint: Endpoint<Access, z.ZodType | undefined>,
  policy: { bodyLimit?: number; rateLimit?: unknown } = {},
): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {}
  for (const [status, answer] of Object.entries(endpoint.answers)) {
    if (!answer) continue
    responses[status] =
      answer instanceof z.ZodType
        ? { description: STATUS_TEXT[Number(status)] ?? status, content: { 'application/json': { schema: answer } } }
        : {
            description: answer.description,
            content: Object.fromEntries([answer.mediaType].flat().map((type) => [type, { schema: { type: 'string' } }])),
          }
  }
  for (const status of errorStatuses(method, endpoint, policy)) {
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? String(status),
      content: { 'application/json': { schema: ApiErrorSchema } },
    }
  }
  const params = pathParams(path, endpoint.params)
  const mediaTypes = endpoint.accepts === 'json' ? ['application/json'] : ['application/json', 'application/x-www-form-urlencoded']
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: endpoint.tags,
    'x-access': endpoint.access,
    security: endpoint.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
    requestParams: {
      ...(params ? { path: params } : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
    },
    requestBody: endpoint.body
      ? { required: true, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: endpoint.body! }])) }
      : undefined,
    responses,
  }
}

export function buildOpenApiDocument(routes: readonly ApiRouteEntry[]) {
  const paths: ZodOpenApiPathsObject = {}
  for (const route of routes) {
    const description = routeDescription(route.module)
    if (!description) throw new Error(`${route.path} is not an apiRoute(): every /api/* route describes itself (issue 29)`)
    const path = openApiPath(route.path)
    paths[path] = Object.fromEntries(
      METHODS.filter((method) => description[method]).map((method) => [
        method.toLowerCase(),
        operation(method, path, description[method]!, description.policy),
      ]),
    )
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Forkmarket API',
      version: '1',
      description: [
        "Every screen's data as JSON under /api/*. Sign in with the session cookie, or send `Authorization: Bearer <token>`:",
        'a personal API key (`fm_pat_…`, created on /profile, within its scopes) or a Supabase access token.',
        'Refusals are `{ error }` with a 4xx status; 405 (with `Allow`) answers a method a path does not serve.',
        "Access per operation is in `x-access`: 'public', 'user' (signed in) or 'admin'.",
      ].join(' '),
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sb-<project-ref>-auth-token',
          description: "Supabase's session cookie of a signed-in browser",
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API key (`fm_pat_…`, within its scopes) or a Supabase access token',
        },
      },
    },
    paths,
    // Issue 29: the events a seller's endpoint receives (decision 033).
    webhooks: webhooksSection(),
  })
}
