/**
 * The GitHub emulator's HTTP plumbing, shared by the REST API (api.ts), the web pages (web.ts) and
 * the test helpers (helpers.ts): the request context, replies and GitHub-shaped errors, bodies,
 * path templates, authentication (App JWT, installation and user tokens), rate-limit headers and
 * injected failures.
 */
import { randomBytes, verify as verifySignature, type KeyObject } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Checks } from './checks.ts'
import type { Helpers } from './helpers.ts'
import type { OperationId } from './operations.ts'
import type { Releases } from './releases.ts'
import type { GithubEmulatorOptions } from './server.ts'
import type { Shapes } from './shapes.ts'
import type { AccountRecord, GithubStore, InstallationRecord, InstallationTokenRecord, RepoRecord, UserTokenRecord } from './store.ts'
import type { WebhookDispatcher } from './webhooks.ts'
import { GithubError, type World } from './world.ts'

const MAX_BODY_BYTES = 1024 * 1024
export const OAUTH_CODE_TTL_MS = 10 * 60 * 1000
const RATE_LIMIT = { token: 5000, anonymous: 60 }
const DOCS = 'https://docs.github.com/rest'
export const API_VERSION = '2022-11-28'

export interface FailureSpec {
  /** Default 502. */
  status?: number
  headers?: Record<string, string>
  /** Default: GitHub's body for the status (rate limits: the primary or the secondary message). */
  body?: unknown
  /** How many matching requests fail; default 1. */
  times?: number
  method?: string
  /** An OpenAPI operationId ('repos/add-collaborator'). */
  operationId?: OperationId | 'oauth/access-token'
  /** An exact path, an OpenAPI template ('/repos/{owner}/{repo}/collaborators/{username}') or a RegExp. */
  path?: string | RegExp
  /** Answer only after this long (a slow GitHub: exercise timeouts). */
  delayMs?: number
  /** Close the connection without an answer. */
  disconnect?: boolean
}

export interface Exchange {
  operationId: OperationId
  method: string
  path: string
  status: number
  body: unknown
}

export interface Ctx {
  store: GithubStore
  world: World
  checks: Checks
  releases: Releases
  shapes: Shapes
  webhooks: WebhookDispatcher
  publicKey: KeyObject
  url: string
  now: () => number
  options: GithubEmulatorOptions
  /** OAuth codes (short-lived, deliberately not persisted). */
  codes: Map<string, OAuthCode>
  failures: Array<FailureSpec & { remaining: number }>
  rateLimits: Map<string, { windowStartMs: number; used: number }>
  exchanges: Exchange[]
  advanceClock: (ms: number) => void
  helpers: Helpers
}

interface OAuthCode {
  userId: number
  redirectUri: string | null
  codeChallenge: string | null
  createdAtMs: number
}

export type Credential =
  | { kind: 'none' }
  | { kind: 'app' }
  | { kind: 'installation'; installation: InstallationRecord; token: InstallationTokenRecord }
  | { kind: 'user'; user: AccountRecord; token: UserTokenRecord }
  | { kind: 'invalid'; message: string }

export interface Request {
  method: string
  url: URL
  raw: IncomingMessage
  params: Record<string, string>
  credential: Credential
  body(): Promise<Record<string, unknown>>
  form(): Promise<URLSearchParams>
}

export interface Reply {
  status: number
  headers?: Record<string, string>
  body?: unknown
  html?: string
  text?: string
}

export class Redirect extends Error {
  constructor(readonly location: string) {
    super('Moved Permanently')
  }
}

export type ApiHandler = (ctx: Ctx, req: Request) => Promise<Reply> | Reply

export interface ApiRoute {
  operationId: OperationId
  method: string
  pattern: RegExp
  names: string[]
  auth: 'app' | 'installation' | 'user' | 'any'
  handler: ApiHandler
}

export function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = []
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_match, a: string, b: string) => {
    names.push(a ?? b)
    return '([^/]+)'
  })
  return { pattern: new RegExp(`^${source}/?$`, 'i'), names }
}

export function matchTemplate(route: { pattern: RegExp; names: string[] }, path: string): Record<string, string> | undefined {
  const found = route.pattern.exec(path)
  if (!found) return undefined
  const params: Record<string, string> = {}
  route.names.forEach((name, index) => {
    params[name] = decodeURIComponent(found[index + 1])
  })
  return params
}

export function toRequest(ctx: Ctx, req: IncomingMessage, method: string, url: URL, params: Record<string, string>): Request {
  let raw: Promise<string> | undefined
  const text = () => (raw ??= readBody(req))
  return {
    method,
    url,
    raw: req,
    params,
    credential: authenticate(ctx, req),
    async body() {
      const source = await text()
      if (source.trim() === '') return {}
      if ((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
        return Object.fromEntries(new URLSearchParams(source))
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(source)
      } catch {
        throw new GithubError(400, 'Problems parsing JSON')
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GithubError(400, 'Body should be a JSON object')
      return parsed as Record<string, unknown>
    },
    async form() {
      const source = await text()
      if ((req.headers['content-type'] ?? '').includes('application/json') && source.trim()) {
        try {
          const parsed = JSON.parse(source) as Record<string, unknown>
          return new URLSearchParams(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
        } catch {
          throw new GithubError(400, 'Problems parsing JSON')
        }
      }
      return new URLSearchParams(source)
    },
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new GithubError(413, 'Payload too big')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function send(ctx: Ctx, res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = {
    date: new Date(ctx.now()).toUTCString(),
    'x-github-request-id': `${randomBytes(2).toString('hex').toUpperCase()}:${randomBytes(3).toString('hex').toUpperCase()}:${randomBytes(4).toString('hex').toUpperCase()}`,
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, X-GitHub-Api-Version',
    'access-control-expose-headers':
      'ETag, Link, Location, Retry-After, X-GitHub-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Used, X-RateLimit-Resource',
    ...reply.headers,
  }
  if (reply.html !== undefined) {
    headers['content-type'] = 'text/html; charset=utf-8'
    headers['cache-control'] = 'no-store'
    res.writeHead(reply.status, headers).end(reply.html)
  } else if (reply.text !== undefined) {
    headers['content-type'] ??= 'text/plain; charset=utf-8'
    res.writeHead(reply.status, headers).end(reply.text)
  } else if (reply.body === undefined) {
    res.writeHead(reply.status, headers).end()
  } else {
    headers['content-type'] = 'application/json; charset=utf-8'
    res.writeHead(reply.status, headers).end(JSON.stringify(reply.body))
  }
}

export function githubErrorBody(status: number, message: string, errors?: Array<Record<string, unknown>>, documentationUrl = DOCS) {
  return { message, ...(errors ? { errors } : {}), documentation_url: documentationUrl, status: String(status) }
}

export function errorReply(error: unknown, operationId?: OperationId): Reply {
  const docs = operationId ? `${DOCS}#${operationId.replace('/', '-')}` : DOCS
  if (error instanceof Redirect) {
    return {
      status: 301,
      headers: { location: error.location },
      body: { message: 'Moved Permanently', url: error.location, documentation_url: docs, status: '301' } as unknown,
    }
  }
  if (error instanceof GithubError) {
    return { status: error.status, body: githubErrorBody(error.status, error.message, error.errors, docs) }
  }
  console.error('GitHub emulator: unexpected failure', error)
  return { status: 500, body: githubErrorBody(500, 'Server Error') }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers }
}

// ---------------------------------------------------------------------------
// Injected failures

export function takeFailure(ctx: Ctx, method: string, path: string, operationId: string | undefined) {
  if (operationId === undefined) return undefined
  const index = ctx.failures.findIndex((failure) => {
    if (failure.method && failure.method.toUpperCase() !== method) return false
    if (failure.operationId && failure.operationId !== operationId) return false
    if (failure.path instanceof RegExp) return failure.path.test(path)
    if (typeof failure.path === 'string') {
      return failure.path.includes('{') ? matchTemplate(compile(failure.path), path) !== undefined : failure.path === path
    }
    return true
  })
  if (index < 0) return undefined
  const failure = ctx.failures[index]
  failure.remaining -= 1
  if (failure.remaining <= 0) ctx.failures.splice(index, 1)
  return failure
}

export async function injectFailure(ctx: Ctx, failure: FailureSpec, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume()
  if (failure.delayMs) await new Promise((resolve) => setTimeout(resolve, failure.delayMs))
  if (failure.disconnect) {
    res.socket?.destroy()
    return
  }
  const status = failure.status ?? 502
  const headers: Record<string, string> = { ...lowerKeys(failure.headers ?? {}) }
  let body = failure.body
  if ((status === 403 || status === 429) && body === undefined) {
    if (headers['retry-after'] !== undefined) {
      body = githubErrorBody(
        status,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
        undefined,
        'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      )
    } else {
      headers['x-ratelimit-limit'] ??= String(RATE_LIMIT.token)
      headers['x-ratelimit-remaining'] ??= '0'
      headers['x-ratelimit-used'] ??= headers['x-ratelimit-limit']
      headers['x-ratelimit-reset'] ??= String(Math.ceil(ctx.now() / 1000) + 60)
      headers['x-ratelimit-resource'] ??= 'core'
      body = githubErrorBody(
        status,
        'API rate limit exceeded for installation.',
        undefined,
        'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      )
    }
  }
  body ??= githubErrorBody(status, status >= 500 ? 'Server Error' : 'Injected failure')
  send(ctx, res, { status, headers, body })
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]))
}

// ---------------------------------------------------------------------------
// Authentication

function authenticate(ctx: Ctx, req: IncomingMessage): Credential {
  const header = req.headers.authorization?.trim()
  if (!header) return { kind: 'none' }
  const [scheme, value] = header.split(/\s+/, 2)
  if (!value || !/^(token|bearer)$/i.test(scheme)) return { kind: 'invalid', message: 'Bad credentials' }
  if (value.split('.').length === 3) return verifyJwt(ctx, value)
  const nowMs = ctx.now()
  if (value.startsWith('ghs_')) {
    const token = ctx.store.installationToken(value)
    const installation = token && ctx.store.installation(token.installationId)
    if (!token || !installation || token.expiresAtMs <= nowMs) return { kind: 'invalid', message: 'Bad credentials' }
    return { kind: 'installation', installation, token }
  }
  if (value.startsWith('ghu_')) {
    const token = ctx.store.userToken(value)
    const user = token && ctx.store.account(token.userId)
    if (!token || !user || token.expiresAtMs <= nowMs) return { kind: 'invalid', message: 'Bad credentials' }
    return { kind: 'user', user, token }
  }
  return { kind: 'invalid', message: 'Bad credentials' }
}

/** RS256 with the App's key; GitHub's wording, which @octokit/auth-app recognises for its clock-skew retry. */
function verifyJwt(ctx: Ctx, jwt: string): Credential {
  const undecodable: Credential = { kind: 'invalid', message: 'A JSON web token could not be decoded' }
  const [headerPart, payloadPart, signaturePart] = jwt.split('.')
  let header: { alg?: unknown }
  let claims: { iat?: unknown; exp?: unknown; iss?: unknown }
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as typeof header
    claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as typeof claims
  } catch {
    return undecodable
  }
  if (header.alg !== 'RS256') return undecodable
  const valid = verifySignature(
    'RSA-SHA256',
    Buffer.from(`${headerPart}.${payloadPart}`),
    ctx.publicKey,
    Buffer.from(signaturePart, 'base64url'),
  )
  if (!valid) return undecodable
  const nowSeconds = Math.floor(ctx.now() / 1000)
  if (typeof claims.iat !== 'number' || !Number.isInteger(claims.iat) || claims.iat > nowSeconds + 60) {
    return { kind: 'invalid', message: "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued." }
  }
  if (typeof claims.exp !== 'number' || !Number.isInteger(claims.exp) || claims.exp <= nowSeconds) {
    return {
      kind: 'invalid',
      message: "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires.",
    }
  }
  if (claims.exp > nowSeconds + 600 + 60 || claims.exp - claims.iat > 600 + 60) {
    return { kind: 'invalid', message: "'Expiration time' claim ('exp') is too far in the future." }
  }
  const app = ctx.store.app
  if (String(claims.iss) !== String(app.id) && claims.iss !== app.clientId) {
    return { kind: 'invalid', message: "'Issuer' claim ('iss') must be an Integer" }
  }
  return { kind: 'app' }
}

export function rateLimitHeaders(ctx: Ctx, credential: Credential, req: IncomingMessage): Record<string, string> {
  const key =
    credential.kind === 'installation'
      ? `installation:${credential.installation.id}`
      : credential.kind === 'user'
        ? `user:${credential.user.id}`
        : credential.kind === 'app'
          ? 'app'
          : `ip:${req.socket.remoteAddress ?? ''}`
  const limit = credential.kind === 'none' || credential.kind === 'invalid' ? RATE_LIMIT.anonymous : RATE_LIMIT.token
  const nowMs = ctx.now()
  let window = ctx.rateLimits.get(key)
  if (!window || nowMs - window.windowStartMs >= 3_600_000) {
    window = { windowStartMs: nowMs, used: 0 }
    ctx.rateLimits.set(key, window)
  }
  window.used += 1
  const headers = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - window.used)),
    'x-ratelimit-reset': String(Math.ceil((window.windowStartMs + 3_600_000) / 1000)),
    'x-ratelimit-used': String(window.used),
    'x-ratelimit-resource': 'core',
  }
  if (window.used > limit) {
    throw Object.assign(new GithubError(credential.kind === 'none' ? 403 : 429, `API rate limit exceeded for ${key}.`), { headers })
  }
  return headers
}

export function issueCode(ctx: Ctx, user: AccountRecord, redirectUri: string | null, codeChallenge?: string): string {
  for (const [code, entry] of ctx.codes) if (ctx.now() - entry.createdAtMs > OAUTH_CODE_TTL_MS) ctx.codes.delete(code)
  const code = randomBytes(10).toString('hex')
  ctx.codes.set(code, { userId: user.id, redirectUri, codeChallenge: codeChallenge ?? null, createdAtMs: ctx.now() })
  return code
}

export function fullName(ctx: Ctx, repo: RepoRecord): string {
  return `${ctx.store.account(repo.ownerId)?.login ?? '?'}/${repo.name}`
}
