/**
 * A local stand-in for the Stripe API (PaymentIntents, charges,
 * refunds, signed webhooks) and for the browser's stripe.js, for development
 * and tests. The unchanged `stripe` SDK talks to it via
 * `new Stripe(key, { host, port, protocol: 'http' })`. In memory, or kept in `dataFile`
 * across restarts (state-file.ts) as `npm start` does.
 */

import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import Stripe from 'stripe'
import { escapeHtml, htmlPage } from '../support/html.ts'
import { listen, urlHost } from '../support/http.ts'
import { StripeApi, type KeyKind, type RequestContext, type RouteMatch } from './api.ts'
import { invalidRequest, StripeApiError } from './errors.ts'
import { FailureInjector, injectedError, type FailureSpec, type InjectedFailure } from './failures.ts'
import { parseForm, type Params } from './form.ts'
import { IdempotencyStore, isSaved, requestFingerprint, type ExecutedResponse, type StoredResponse } from './idempotency.ts'
import { newId } from './objects.ts'
import type { OperationId } from './operations.ts'
import { readStripeState, stateFileWriter } from './state-file.ts'
import { WebhookDispatcher, type Delivery, type StripeEvent, type WebhookDelay } from './webhooks.ts'

export type { Delivery, StripeEvent, WebhookDelay } from './webhooks.ts'
export type { FailureSpec, InjectedFailure } from './failures.ts'
export { STRIPE_RETRY_SCHEDULE_MS } from './webhooks.ts'
export { OPERATIONS, WEBHOOK_EVENTS } from './operations.ts'

export interface StripeEmulatorOptions {
  /** Default 12111; 0 picks a free port. */
  port?: number
  /** Default '127.0.0.1'. */
  host?: string
  /** Where events are POSTed; can also be set later with `setWebhookUrl`. */
  webhookUrl?: string
  /** The `whsec_…` secret events are signed with. */
  webhookSecret: string
  /** Millisecond clock for `created` timestamps and signatures. */
  now?: () => number
  /** Hold back each webhook delivery this long (a late webhook, as happens with Stripe); default 0. */
  webhookDelayMs?: number
  /**
   * Waits before each webhook retry after a non-2xx answer or a network error; default Stripe's
   * live-mode schedule, exponential over 3 days (STRIPE_RETRY_SCHEDULE_MS in webhooks.ts).
   */
  webhookRetryDelaysMs?: readonly number[]
  /** Multiplies the waits between webhook retries: 1 (default) is real time, 1e-5 runs 3 days in ~3 s. */
  timeScale?: number
  /**
   * JSON file the account (intents, charges, refunds, events, idempotency keys) is loaded from
   * and kept in; omitted: in memory only. Webhook deliveries still pending at a stop are not kept.
   */
  dataFile?: string
}

export interface StripeEmulator {
  url: string
  host: string
  port: number
  /** Any `sk_test_…` key is accepted; this is the conventional one. */
  secretKey: string
  /** Any `pk_test_…` key is accepted; this is the conventional one. */
  publishableKey: string
  /** The stand-in for https://js.stripe.com/v3 that pages load instead. */
  scriptUrl: string
  setWebhookUrl(url: string): void
  /** Delays later webhook deliveries (all, or those whose object's metadata matches); `{ ms: 0 }` ends it. */
  setWebhookDelay(delay: WebhookDelay): void
  /** Every event created, in order. */
  events: StripeEvent[]
  deliveries: Delivery[]
  /** Every API response given for an implemented operation (the latest 5000), for the contract test. */
  exchanges: Exchange[]
  /** The next `times` (default 1) matching API requests fail with 409, 429 or 500, or are held `delayMs` (failures.ts). */
  failNext(spec: FailureSpec): void
  /** Drops the failures not yet used. */
  clearFailures(): void
  /** Every request an injected failure or delay applied to, in order. */
  injectedFailures: InjectedFailure[]
  /** Delivers an event once more (a duplicate, as Stripe may send); resolves to the HTTP status. */
  resend(eventId: string): Promise<number>
  /** Resolves once no webhook delivery (or retry) is pending. */
  idle(): Promise<void>
  /** Forgets every PaymentIntent, charge, refund and event (tests that empty their database). */
  clear(): void
  close(): Promise<void>
}

/** One API request and the response the emulator gave it. */
export interface Exchange {
  operationId: OperationId
  method: string
  path: string
  /** The request's `expand[]` paths. */
  expand: string[]
  status: number
  body: unknown
}

const MAX_EXCHANGES = 5000
export const DEFAULT_PORT = 12111
const SECRET_KEY = 'sk_test_emulator'
const PUBLISHABLE_KEY = 'pk_test_emulator'
const MAX_BODY_BYTES = 1024 * 1024
const SCRIPT_PATHS = new Set(['/v3', '/v3/', '/v3/stripe.js'])
const API_BASE_PLACEHOLDER = "'__STRIPE_EMULATOR_API_BASE__'"

export async function startStripeEmulator(opts: StripeEmulatorOptions): Promise<StripeEmulator> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('The Stripe emulator refuses to run with NODE_ENV=production.')
  }
  if (!opts.webhookSecret) throw new Error('The Stripe emulator needs a webhookSecret (whsec_…).')
  const now = opts.now ?? Date.now
  const webhooks = new WebhookDispatcher(opts.webhookUrl, opts.webhookSecret, now, {
    retryDelaysMs: opts.webhookRetryDelaysMs,
    timeScale: opts.timeScale,
  })
  if (opts.webhookDelayMs) webhooks.setDelay({ ms: opts.webhookDelayMs })
  let url = ''
  const api = new StripeApi({
    now,
    apiVersion: Stripe.API_VERSION,
    onEvent: (event) => webhooks.dispatch(event),
    pendingWebhooks: () => (webhooks.hasEndpoint ? 1 : 0),
    publicUrl: () => url,
  })
  const idempotency = new IdempotencyStore(now)
  const saved = opts.dataFile ? readStripeState(opts.dataFile) : undefined
  if (saved) {
    api.restore(saved.api)
    idempotency.restore(saved.idempotency)
  }
  const stateFile = opts.dataFile
    ? stateFileWriter(opts.dataFile, () => ({ api: api.snapshot(), idempotency: idempotency.snapshot() }))
    : undefined
  const app: App = {
    api,
    webhooks,
    idempotency,
    script: await readFile(new URL('./browser/stripe.js', import.meta.url), 'utf8'),
    changed: () => stateFile?.schedule(),
    exchanges: [],
    failures: new FailureInjector(),
  }

  const host = opts.host ?? '127.0.0.1'
  const server = createServer((req, res) => void handleRequest(app, req, res))
  const port = await listen(server, opts.port ?? DEFAULT_PORT, host, 'Stripe emulator')
  url = `http://${urlHost(host)}:${port}`

  return {
    url,
    host,
    port,
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    scriptUrl: `${url}/v3/stripe.js`,
    setWebhookUrl: (webhookUrl) => webhooks.setUrl(webhookUrl),
    setWebhookDelay: (delay) => webhooks.setDelay(delay),
    events: api.events,
    deliveries: webhooks.deliveries,
    exchanges: app.exchanges,
    failNext: (spec) => app.failures.add(spec),
    clearFailures: () => app.failures.clear(),
    injectedFailures: app.failures.log,
    resend: (eventId) => {
      const event = api.findEvent(eventId)
      if (!event) return Promise.reject(new Error(`Stripe emulator: no event ${eventId}`))
      return webhooks.resend(event)
    },
    idle: () => webhooks.idle(),
    clear: () => {
      api.clear()
      app.changed()
    },
    close: async () => {
      webhooks.close()
      await Promise.all([stopServer(server), webhooks.idle()])
      stateFile?.flush()
    },
  }
}

interface App {
  api: StripeApi
  webhooks: WebhookDispatcher
  idempotency: IdempotencyStore
  script: string
  /** After a request that may have changed the account (every API POST). */
  changed: () => void
  exchanges: Exchange[]
  failures: FailureInjector
}

interface Credential {
  key: string
  kind: KeyKind
}

async function handleRequest(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = newId('req')
  res.setHeader('request-id', requestId)
  setCorsHeaders(res)
  let exchange: Omit<Exchange, 'status' | 'body'> | undefined
  const record = (response: StoredResponse) => {
    if (!exchange) return
    app.exchanges.push({ ...exchange, status: response.status, body: structuredClone(response.body) })
    if (app.exchanges.length > MAX_EXCHANGES) app.exchanges.splice(0, app.exchanges.length - MAX_EXCHANGES)
  }
  try {
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', 'http://emulator.invalid')
    if (method === 'OPTIONS') return void res.writeHead(204).end()
    if (method === 'GET' && SCRIPT_PATHS.has(url.pathname)) return sendScript(app, req, res)
    if (url.pathname.startsWith('/_emulator/')) return await handleControl(app, method, url.pathname, res, req)

    const params: Params = { ...parseForm(url.search.slice(1)), ...parseForm(await readBody(req)) }
    const match = app.api.match(method, url.pathname)
    if (match) {
      const expand = [params.expand ?? []].flat().filter((path) => typeof path === 'string')
      exchange = { operationId: match.route.operationId, method, path: url.pathname, expand }
    }
    const credential = authenticate(req, params)
    if (!match) throw unrecognizedUrl(method, url.pathname)
    if (credential.kind === 'publishable' && !match.route.publishable) throw publishableKeyNotAllowed()

    const idempotencyKey = header(req, 'idempotency-key')
    const apiVersion = header(req, 'stripe-version') ?? Stripe.API_VERSION
    res.setHeader('Stripe-Version', apiVersion)
    const ctx: RequestContext = { requestId, idempotencyKey, keyKind: credential.kind }
    const failure = app.failures.take(match.route.operationId, method, url.pathname, idempotencyKey)
    if (failure?.status) {
      // Before the endpoint begins: nothing is created, nothing saved under the key.
      if (failure.delayMs) await sleep(failure.delayMs)
      const { error, shouldRetry } = injectedError({ ...failure, status: failure.status })
      return sendStored(res, errorResponse(error), record, shouldRetry)
    }
    const execute = async (): Promise<ExecutedResponse> => {
      // A slow request (injected delay) holds its Idempotency-Key meanwhile.
      if (failure?.delayMs) await sleep(failure.delayMs)
      const response = runHandler(match, params, ctx)
      // A declined confirm changes the intent too, so errors count as well.
      if (method === 'POST') app.changed()
      return { ...response, saved: isSaved(response) }
    }
    // Stripe ignores Idempotency-Key on GET (and DELETE) requests.
    if (method !== 'POST' || !idempotencyKey) return sendStored(res, await execute(), record)

    res.setHeader('Idempotency-Key', idempotencyKey)
    const fingerprint = requestFingerprint(method, url.pathname, params)
    const result = await app.idempotency.run(credential.key, idempotencyKey, fingerprint, execute)
    if (result.replayed) res.setHeader('Idempotent-Replayed', 'true')
    sendStored(res, result, record)
  } catch (error) {
    sendStored(res, errorResponse(error), record)
  }
}

function runHandler(match: RouteMatch, params: Params, ctx: RequestContext): StoredResponse {
  try {
    return { status: 200, body: match.route.handle(params, ctx, match.id) }
  } catch (error) {
    return errorResponse(error)
  }
}

function errorResponse(error: unknown): StoredResponse {
  if (error instanceof StripeApiError) return { status: error.status, body: { error: error.body } }
  const message = error instanceof Error ? error.message : String(error)
  return { status: 500, body: { error: { type: 'api_error', message: `Stripe emulator failure: ${message}` } } }
}

/**
 * Writes a response. `Stripe-Should-Retry` as Stripe sends it: `false` on errors a retry would only
 * repeat (a saved result is replayed anyway), none on a 409 conflict (the client retries those), or
 * as an injected failure says (null: no header).
 */
function sendStored(
  res: ServerResponse,
  { status, body }: StoredResponse,
  record?: (response: StoredResponse) => void,
  shouldRetry: boolean | null = status >= 400 && status !== 409 ? false : null,
): void {
  record?.({ status, body })
  if (shouldRetry !== null) res.setHeader('Stripe-Should-Retry', String(shouldRetry))
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body, null, 2))
}

/** Serves the browser stand-in, pointed back at whatever origin the page used to fetch it. */
function sendScript(app: App, req: IncomingMessage, res: ServerResponse): void {
  const apiBase = `http://${req.headers.host ?? 'localhost'}`
  res
    .writeHead(200, {
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    })
    .end(app.script.replace(API_BASE_PLACEHOLDER, JSON.stringify(apiBase)))
}

/** Test hooks for when the emulator runs in another process (see main.ts). */
async function handleControl(app: App, method: string, path: string, res: ServerResponse, req: IncomingMessage): Promise<void> {
  const resend = /^\/_emulator\/events\/(evt_\w+)\/resend$/.exec(path)
  const challenge = /^\/_emulator\/3ds\/(pi_\w+)$/.exec(path)
  if (challenge?.[1] && (method === 'GET' || method === 'POST')) return threeDSecure(app, method, challenge[1], req, res)
  if (method === 'POST' && path === '/_emulator/webhook-delay') {
    // JSON { ms, metadata? }: delay later deliveries (of events whose object's metadata matches).
    let body: { ms?: unknown; metadata?: unknown }
    try {
      body = JSON.parse((await readBody(req)) || '{}') as typeof body
    } catch {
      throw invalidRequest('The body must be JSON: { "ms": 3000, "metadata": { … } }', { status: 400 })
    }
    const ms = Number(body.ms)
    if (!Number.isFinite(ms) || ms < 0) throw invalidRequest('ms must be a number of milliseconds ≥ 0', { status: 400 })
    const metadata = body.metadata && typeof body.metadata === 'object' ? (body.metadata as Record<string, string>) : undefined
    app.webhooks.setDelay({ ms, metadata })
    return sendStored(res, { status: 200, body: { ms, metadata: metadata ?? null } })
  }
  if (path === '/_emulator/failures') return failuresControl(app, method, req, res)
  if (method === 'GET' && path === '/_emulator/events') {
    return sendStored(res, { status: 200, body: { object: 'list', data: app.api.events } })
  }
  if (method === 'GET' && path === '/_emulator/deliveries') {
    return sendStored(res, { status: 200, body: { object: 'list', data: app.webhooks.deliveries } })
  }
  if (method === 'POST' && resend?.[1]) {
    const event = app.api.findEvent(resend[1])
    if (!event) throw invalidRequest(`No such event: '${resend[1]}'`, { code: 'resource_missing', status: 404 })
    return sendStored(res, { status: 200, body: { status: await app.webhooks.resend(event) } })
  }
  throw unrecognizedUrl(method, path)
}

/**
 * `POST /_emulator/failures` with a JSON FailureSpec (or a list of them), e.g.
 * `{ "status": 500, "times": 2, "operationId": "PostRefunds" }`; `GET` lists those waiting and the
 * requests they answered; `DELETE` drops those waiting.
 */
async function failuresControl(app: App, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (method === 'DELETE') {
    app.failures.clear()
    return sendStored(res, { status: 200, body: { pending: [] } })
  }
  if (method === 'POST') {
    let body: unknown
    try {
      body = JSON.parse((await readBody(req)) || 'null')
    } catch {
      throw invalidRequest('The body must be JSON: { "status": 500, "times": 2, "operationId": "PostRefunds" }', { status: 400 })
    }
    const specs = (Array.isArray(body) ? body : [body]) as FailureSpec[]
    if (specs.some((spec) => !spec || typeof spec !== 'object'))
      throw invalidRequest('Each failure must be a JSON object.', { status: 400 })
    for (const spec of specs) app.failures.add(spec)
  } else if (method !== 'GET') {
    throw unrecognizedUrl(method, '/_emulator/failures')
  }
  return sendStored(res, { status: 200, body: { pending: app.failures.list(), injected: app.failures.log } })
}

/**
 * The 3-D Secure challenge, as the card's bank would show it. GET: the page (by hand, or where a
 * redirect took the cardholder), with `client_secret` and an optional `return_url`. POST (the page's
 * buttons, or the stand-in Stripe.js's dialog): `client_secret` and `outcome` (complete | fail);
 * answers the PaymentIntent, or 303 to `return_url` with `redirect_status` as Stripe's redirect does.
 */
async function threeDSecure(app: App, method: string, intentId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid')
  const params: Params = { ...parseForm(url.search.slice(1)), ...(method === 'POST' ? parseForm(await readBody(req)) : {}) }
  const clientSecret = typeof params.client_secret === 'string' ? params.client_secret : ''
  const returnUrl = typeof params.return_url === 'string' && /^https?:\/\//.test(params.return_url) ? params.return_url : undefined
  if (method === 'GET') {
    const intent = app.api.findPaymentIntent(intentId, clientSecret)
    if (!intent) throw invalidRequest(`No such payment_intent: '${intentId}'`, { code: 'resource_missing', status: 404 })
    return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(challengePage(intent, clientSecret, returnUrl))
  }
  const outcome = params.outcome === 'complete' || params.outcome === 'fail' ? params.outcome : undefined
  if (!outcome) throw invalidRequest('outcome must be complete or fail', { param: 'outcome', status: 400 })
  const intent = app.api.authenticate(intentId, clientSecret, outcome)
  app.changed()
  if (!returnUrl) return sendStored(res, { status: 200, body: intent })
  const back = new URL(returnUrl)
  back.searchParams.set('payment_intent', intent.id)
  back.searchParams.set('payment_intent_client_secret', intent.client_secret)
  back.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed')
  res.writeHead(303, { Location: back.href }).end()
}

function challengePage(
  intent: { id: string; amount: number; currency: string; status: string },
  clientSecret: string,
  returnUrl?: string,
): string {
  const amount = `${(intent.amount / 100).toFixed(2)} ${intent.currency.toUpperCase()}`
  const hidden = [`<input type="hidden" name="client_secret" value="${escapeHtml(clientSecret)}">`]
  if (returnUrl) hidden.push(`<input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}">`)
  const form = (outcome: string, label: string) =>
    `<form method="post"><input type="hidden" name="outcome" value="${outcome}">${hidden.join('')}<button type="submit">${label}</button></form>`
  const body =
    intent.status === 'requires_action'
      ? `<p>Authenticate a test payment of ${escapeHtml(amount)} (${escapeHtml(intent.id)}).</p>${form('complete', 'Complete authentication')}${form('fail', 'Fail authentication')}`
      : `<p>This payment is ${escapeHtml(intent.status)}: there is nothing to authenticate.</p>`
  return htmlPage({ title: '3D Secure test page — Stripe emulator', main: `<h1>3D Secure test page</h1>${body}` })
}

function authenticate(req: IncomingMessage, params: Params): Credential {
  const bodyKey = typeof params.key === 'string' ? params.key : undefined
  delete params.key
  const key = keyFromAuthorization(req.headers.authorization) ?? bodyKey
  if (!key) {
    throw invalidRequest(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      { status: 401 },
    )
  }
  if (key.startsWith('sk_test_') || key.startsWith('rk_test_')) return { key, kind: 'secret' }
  if (key.startsWith('pk_test_')) return { key, kind: 'publishable' }
  throw invalidRequest(`Invalid API Key provided: ${redact(key)}`, { status: 401 })
}

function keyFromAuthorization(authorization: string | undefined): string | undefined {
  const [scheme, credentials] = authorization?.trim().split(/\s+/, 2) ?? []
  if (!credentials) return undefined
  if (scheme?.toLowerCase() === 'bearer') return credentials
  if (scheme?.toLowerCase() === 'basic') {
    return Buffer.from(credentials, 'base64').toString('utf8').split(':')[0] || undefined
  }
  return undefined
}

function redact(key: string): string {
  if (key.length <= 12) return '*'.repeat(key.length)
  return `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`
}

function publishableKeyNotAllowed(): StripeApiError {
  return invalidRequest('This API call cannot be made with a publishable API key. Please use a secret API key.', { status: 401 })
}

function unrecognizedUrl(method: string, path: string): StripeApiError {
  return invalidRequest(
    `Unrecognized request URL (${method}: ${path}). The Stripe emulator implements PaymentIntents, charges, refunds and events.`,
    { status: 404 },
  )
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? null
}

function setCorsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*')
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS')
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Stripe-Account, Stripe-Version')
  res.setHeader('Access-Control-Expose-Headers', 'request-id, Idempotent-Replayed, Stripe-Should-Retry')
  res.setHeader('Access-Control-Max-Age', '600')
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw invalidRequest('Request body too large.', { status: 413 })
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function stopServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
