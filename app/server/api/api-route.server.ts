import type { MiddlewareFunction, Params, RouterContextProvider } from 'react-router'
import { z } from '~/lib/zod'
import { isAppError } from '../domain/errors.server.ts'
import type { PublicUser } from '../domain/users.server.ts'
import { readApiBody, type ApiBodyFormat } from '../http/api-body.server.ts'
import { getOptionalUser, requireAdmin, requireUser } from '../http/auth.server.ts'
import { apiError } from '../http/responses.server.ts'
import { routePolicy, type RoutePolicy } from '../http/route-policy.server.ts'

export { BODY_LIMITS, RATE_LIMITS } from '../http/route-policy.server.ts'

/**
 * One helper for every resource route under /api/* (issue 15.2): each method
 * the route serves declares who may call it, the schema of its body and its
 * handler. The helper answers
 * - 405 `{ error }` with `Allow` for any other method, before anything else;
 * - 401/403 from `access` ('user', 'admin') before the body is read;
 * - 400 `{ error, field }` when the body does not match the schema (read with
 *   the route's declared body limit: 413 above it);
 * - an AppError's status with `{ error, fields?, …extra }`;
 * and never a 500 for client input. Anything else thrown propagates (a 500,
 * or the database-outage middleware's 503). `policy` is the route's HTTP
 * policy (route-policy.server.ts): a route that takes writes declares its body
 * limit and rate limit there.
 *
 *   const api = apiRoute({ policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin }, POST: { … } })
 *   export const middleware = api.middleware
 *   export const loader = api.loader
 *   export const action = api.action
 */

export type Access = 'public' | 'user' | 'admin'
type Schema = z.ZodType | undefined
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export interface EndpointArgs<A extends Access, S extends Schema> {
  request: Request
  context: Readonly<RouterContextProvider>
  /** The route's path parameters (React Router always provides the ones in its path). */
  params: Readonly<Record<string, string>>
  /** The caller: always a user for 'user' and 'admin' endpoints; null when anonymous on 'public' ones. */
  user: A extends 'public' ? PublicUser | null : PublicUser
  /** The parsed body (undefined when the endpoint declares no schema: the body is then not read). */
  body: S extends z.ZodType ? z.output<S> : undefined
}

/** A download's answer: its media type (text/csv, application/xml) or the types it is one of, described as a file. */
export interface FileAnswer {
  mediaType: string | readonly string[]
  description: string
}

/**
 * What an endpoint answers (issue 29): per success status, the schema of its JSON
 * body or a file's media type, for the API's description (openapi.server.ts).
 */
export type Answers = Partial<Record<200 | 201 | 202, z.ZodType | FileAnswer>>

/** The refusals an endpoint's handler gives (AppErrors), beyond those its declaration implies (400, 401/403, 405, 413, 429, 503). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 422 | 500 | 502

export interface Endpoint<A extends Access, S extends Schema> {
  /** One line for the API's description and /developers. */
  summary: string
  /** Longer prose for the description (rules, limits, decisions). */
  description?: string
  /** The endpoint's group in the description (Listings, Admin, …). */
  tags?: string[]
  answers: Answers
  errors?: readonly ErrorStatus[]
  /** Query parameters (described only: the handler parses them itself). */
  query?: z.ZodObject
  /** Path parameters with a narrower schema than a string (an enum). */
  params?: z.ZodObject
  access: A
  /** Schema of the body; without one the body is ignored (never read). */
  body?: S
  /** 'json' refuses anything but application/json (415); default: JSON or a form post. */
  accepts?: ApiBodyFormat
  handler: (args: EndpointArgs<A, S>) => unknown
}

type Spec<
  GA extends Access,
  GS extends Schema,
  PA extends Access,
  PS extends Schema,
  UA extends Access,
  US extends Schema,
  DA extends Access,
  DS extends Schema,
> = {
  policy?: RoutePolicy
  GET?: Endpoint<GA, GS>
  POST?: Endpoint<PA, PS>
  PATCH?: Endpoint<UA, US>
  DELETE?: Endpoint<DA, DS>
}

interface HandlerArgs {
  request: Request
  context: Readonly<RouterContextProvider>
  params: Params
}

export interface ApiRoute {
  loader: (args: HandlerArgs) => Promise<unknown>
  action: (args: HandlerArgs) => Promise<unknown>
  /** The route's policy middleware (export it as the module's `middleware`). */
  middleware: MiddlewareFunction<Response>[]
  /** The methods the route serves (HEAD goes with GET). */
  methods: readonly Method[]
}

/** What openapi.server.ts reads of a route: its policy and each method's declaration. */
export type RouteDescription = { policy?: RoutePolicy } & Partial<Record<Method, Endpoint<Access, Schema>>>

const DESCRIPTIONS = new WeakMap<object, RouteDescription>()

/** The declarations of the apiRoute() a route module exports as its loader; undefined for any other module. */
export function routeDescription(module: { loader?: unknown }): RouteDescription | undefined {
  return typeof module.loader === 'function' ? DESCRIPTIONS.get(module.loader) : undefined
}

/**
 * The body of an endpoint whose handler parses it itself with `schema` (the listing API: its field
 * errors, and the Idempotency-Key's hash of the body as sent; bank details: digits sent as numbers):
 * read as any JSON object here, and
 * described by `schema`'s fields, so the description and the typed client name the fields the
 * handler accepts. A field is required when `schema`'s field refuses a missing value (`partial`:
 * none is, as PATCH). What a field's preprocessing also accepts (a number as text) is not described.
 */
export function bodyParsedBy(schema: z.ZodType, { partial = false }: { partial?: boolean } = {}) {
  const fields = schema instanceof z.ZodPipe && schema.out instanceof z.ZodObject ? schema.out : schema
  if (!(fields instanceof z.ZodObject)) throw new Error('bodyParsedBy: the schema must be an object (or a preprocessed one)')
  return z.record(z.string(), z.unknown()).meta({
    // Worked out only when the description is generated, not when the route module loads.
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      const described = z.toJSONSchema(fields, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>
      const required = partial
        ? []
        : Object.entries(fields.shape as Record<string, z.ZodType>)
            .filter(([, field]) => !field.safeParse(undefined).success)
            .map(([name]) => name)
      delete jsonSchema.propertyNames
      delete jsonSchema.additionalProperties
      jsonSchema.properties = described.properties
      if (required.length) jsonSchema.required = required
    },
  })
}

/** 400 for a body that does not match the schema: the first problem, and the field it is about. */
function invalidBody(error: z.ZodError) {
  const issue = error.issues[0]
  const field = issue?.path.length ? String(issue.path[0]) : undefined
  return apiError(400, issue?.message ?? 'Invalid request', field ? { field } : {})
}

/** The API answer for a domain error; anything that is not one is rethrown. */
export function apiErrorFrom(error: unknown) {
  if (isAppError(error)) {
    return apiError(
      error.status,
      error.message,
      { ...error.extra, ...(error.fieldErrors ? { fields: error.fieldErrors } : {}) },
      { headers: error.headers },
    )
  }
  throw error
}

async function caller(access: Access, request: Request, context: Readonly<RouterContextProvider>) {
  if (access === 'admin') return requireAdmin(request, context)
  if (access === 'user') return requireUser(request, context)
  return getOptionalUser(context)
}

export function apiRoute<
  GA extends Access = 'public',
  GS extends Schema = undefined,
  PA extends Access = 'public',
  PS extends Schema = undefined,
  UA extends Access = 'public',
  US extends Schema = undefined,
  DA extends Access = 'public',
  DS extends Schema = undefined,
>(spec: Spec<GA, GS, PA, PS, UA, US, DA, DS>): ApiRoute {
  const endpoints = spec as Partial<Record<Method, Endpoint<Access, Schema>>>
  const middleware = spec.policy ? [routePolicy(spec.policy)] : []
  const methods = (['GET', 'POST', 'PATCH', 'DELETE'] as const).filter((method) => endpoints[method])
  const allow = methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join(', ')

  async function handle({ request, context, params }: HandlerArgs) {
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const endpoint = endpoints[method as Method]
    if (!endpoint) return apiError(405, 'Method not allowed', {}, { headers: { Allow: allow } })
    try {
      const user = await caller(endpoint.access, request, context)
      let body: unknown
      if (endpoint.body) {
        const parsed = endpoint.body.safeParse(await readApiBody(request, context, endpoint.accepts))
        if (!parsed.success) return invalidBody(parsed.error)
        body = parsed.data
      }
      return await endpoint.handler({
        request,
        context,
        params: params as Record<string, string>,
        user: user as PublicUser,
        body,
      } as EndpointArgs<Access, Schema>)
    } catch (error) {
      return apiErrorFrom(error)
    }
  }

  DESCRIPTIONS.set(handle, spec as RouteDescription)
  return { loader: handle, action: handle, middleware, methods }
}

/** `{ field: [messages] }` of a failed parse, for answers that name every field (bank details). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {}
  for (const issue of error.issues) (fields[String(issue.path[0])] ??= []).push(issue.message)
  return fields
}
