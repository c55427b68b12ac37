/**
 * HTTP plumbing of the Supabase Auth emulator: request bodies, replies, and GoTrue's error bodies,
 * which depend on the API version the client asks for (GoTrue's internal/api/errors.go):
 * - `X-Supabase-Api-Version: 2024-01-01` or later (what supabase-js sends): `{ code: <error code>,
 *   message }`, and the version is echoed in the response's `X-Supabase-Api-Version` header;
 * - no header, an older date or one that does not parse: `{ code: <HTTP status>, error_code, msg }`.
 * OAuth-style errors (`{ error, error_description }`, 400) are the same for every version; errors with
 * a code also carry it in `x-sb-error-code`. Only error replies carry the version header.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'

export const API_VERSION_2024_01_01 = '2024-01-01'
const MAX_BODY_BYTES = 64 * 1024

export interface ApiRequest {
  method: string
  url: URL
  headers: IncomingHttpHeaders
  /** Query-string-like view of a JSON or form-encoded body. */
  params(): Promise<URLSearchParams>
}

export interface Reply {
  status: number
  headers?: Record<string, string>
  body?: string
}

/** GoTrue's HTTPError: a status, one of its error codes and a message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** GoTrue's OAuthError (`{ error, error_description }`, always 400), e.g. a /token call without refresh_token. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description)
  }
}

/**
 * What the hosted API gateway (not GoTrue) answers before a request reaches GoTrue: an unknown key,
 * or an unknown path (GoTrue's router answers those with a plain-text 404).
 */
export class GatewayReply extends Error {
  constructor(readonly reply: Reply) {
    super(`gateway ${reply.status}`)
  }
}

/** GoTrue's DetermineClosestAPIVersion: a `YYYY-MM-DD` date at or after 2024-01-01, else the initial version. */
export function requestedApiVersion(headers: IncomingHttpHeaders): typeof API_VERSION_2024_01_01 | undefined {
  const raw = headerValue(headers['x-supabase-api-version'])?.trim() ?? ''
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined
  const date = new Date(`${raw}T00:00:00Z`)
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) return undefined
  return raw >= API_VERSION_2024_01_01 ? API_VERSION_2024_01_01 : undefined
}

export function errorReply(error: unknown, headers: IncomingHttpHeaders): Reply {
  if (error instanceof GatewayReply) return error.reply
  const version = requestedApiVersion(headers)
  const versionHeader: Record<string, string> = version ? { 'x-supabase-api-version': version } : {}
  if (error instanceof OAuthError) {
    return json(400, { error: error.error, error_description: error.description }, versionHeader)
  }
  let apiError: ApiError
  if (error instanceof ApiError) {
    apiError = error
  } else {
    console.error('Supabase Auth emulator: unexpected failure', error)
    apiError = new ApiError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information')
  }
  const replyHeaders = { ...versionHeader, 'x-sb-error-code': apiError.code }
  const body = version
    ? { code: apiError.code, message: apiError.message }
    : { code: apiError.status, error_code: apiError.code, msg: apiError.message }
  return json(apiError.status, body, replyHeaders)
}

/** The Supabase API gateway's answer to a key it does not know. */
export function invalidApiKey(): GatewayReply {
  return new GatewayReply(json(401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }))
}

/** GoTrue's router (chi) answers an unknown path with a plain-text 404 and a wrong method with an empty 405. */
export function notFound(): GatewayReply {
  return new GatewayReply({ status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' })
}

export function methodNotAllowed(): GatewayReply {
  return new GatewayReply({ status: 405 })
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  }
}

export function html(status: number, body: string): Reply {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body }
}

export function redirect(location: string): Reply {
  return { status: 302, headers: { location, 'cache-control': 'no-store' } }
}

export function toApiRequest(req: IncomingMessage): ApiRequest {
  let params: Promise<URLSearchParams> | undefined
  return {
    method: req.method ?? 'GET',
    url: new URL(req.url ?? '/', 'http://emulator.invalid'),
    headers: req.headers,
    params: () => (params ??= readParams(req)),
  }
}

async function readParams(req: IncomingMessage): Promise<URLSearchParams> {
  const raw = await readBody(req)
  if (raw.trim() === '') return new URLSearchParams()
  if (headerValue(req.headers['content-type'])?.includes('application/x-www-form-urlencoded')) {
    return new URLSearchParams(raw)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw new ApiError(400, 'bad_json', `Could not parse request body as JSON: ${String(error)}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'bad_json', 'Could not parse request body as JSON: expected an object')
  }
  const strings = Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  return new URLSearchParams(strings)
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(413, 'request_entity_too_large', `Request body too large (max ${MAX_BODY_BYTES} bytes)`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
