/**
 * Failure injection: the next N matching API requests answer as Stripe does when it is busy or
 * broken, so the client's retries (stripe-node retries 409s, 5xx and answers with
 * `Stripe-Should-Retry: true`, with the request's Idempotency-Key) and the app's handling of a
 * failure that persists are exercised. Set with `emulator.failNext(spec)` or
 * `POST /_emulator/failures` (JSON spec); `DELETE /_emulator/failures` clears them.
 *
 * An injected error happens before the endpoint begins executing: nothing is created and nothing
 * is saved under the request's Idempotency-Key, so a retry with the key runs the request.
 */

import { StripeApiError, type StripeErrorBody } from './errors.ts'
import { OPERATIONS, type OperationId } from './operations.ts'

export type InjectedStatus = 409 | 429 | 500

export interface FailureSpec {
  /**
   * 409: another request with the same Idempotency-Key is in flight (`idempotency_key_in_use`);
   * 429: `rate_limit` (too many requests) or, with `code: 'lock_timeout'`, an object locked by
   * another request; 500: `api_error`. Omitted: no error, only `delayMs`.
   */
  status?: InjectedStatus
  /** For 429: 'rate_limit' (default) or 'lock_timeout'. */
  code?: 'rate_limit' | 'lock_timeout'
  /**
   * The `Stripe-Should-Retry` header to send. Default as Stripe sends it: `true` on a lock timeout,
   * none otherwise (stripe-node then retries 409s and 5xx, and not a plain 429).
   */
  shouldRetry?: boolean
  /** How many matching requests it applies to; default 1. */
  times?: number
  /** Only this operation (e.g. 'PostPaymentIntents'); or match with `method`/`path`. */
  operationId?: OperationId
  method?: 'GET' | 'POST'
  /** The request's path ('/v1/refunds') or the operation's template ('/v1/payment_intents/{intent}'). */
  path?: string
  /**
   * Holds the request this long before answering. Without `status` it then runs normally, holding
   * its Idempotency-Key meanwhile (a slow request: a concurrent one with the key answers 409).
   */
  delayMs?: number
}

/** One request an injected failure or delay answered. */
export interface InjectedFailure {
  operationId: OperationId
  method: string
  path: string
  status: InjectedStatus | null
  idempotencyKey: string | null
}

interface Pending extends FailureSpec {
  remaining: number
}

export class FailureInjector {
  private readonly pending: Pending[] = []
  /** Every request an injected failure applied to, in order. */
  readonly log: InjectedFailure[] = []

  add(spec: FailureSpec): void {
    this.pending.push({ ...validate(spec), remaining: Math.max(1, Math.floor(spec.times ?? 1)) })
  }

  clear(): void {
    this.pending.length = 0
  }

  list(): FailureSpec[] {
    return this.pending.map(({ remaining, ...spec }) => ({ ...spec, times: remaining }))
  }

  /** Takes the first spec matching this request (counting it down), if any. */
  take(operationId: OperationId, method: string, path: string, idempotencyKey: string | null): FailureSpec | undefined {
    const template = OPERATIONS.find((op) => op.operationId === operationId)?.path
    const index = this.pending.findIndex(
      (spec) =>
        (!spec.operationId || spec.operationId === operationId) &&
        (!spec.method || spec.method === method) &&
        (!spec.path || spec.path === path || spec.path === template),
    )
    const spec = this.pending[index]
    if (!spec) return undefined
    spec.remaining -= 1
    if (spec.remaining <= 0) this.pending.splice(index, 1)
    this.log.push({ operationId, method, path, status: spec.status ?? null, idempotencyKey })
    return spec
  }
}

/** The error an injected status answers with, and its `Stripe-Should-Retry` header (or none). */
export function injectedError(spec: FailureSpec & { status: InjectedStatus }): { error: StripeApiError; shouldRetry: boolean | null } {
  const body = errorBody(spec)
  const shouldRetry = spec.shouldRetry ?? (spec.status === 429 && spec.code === 'lock_timeout' ? true : null)
  return { error: new StripeApiError(spec.status, body), shouldRetry }
}

function errorBody(spec: FailureSpec & { status: InjectedStatus }): StripeErrorBody {
  if (spec.status === 409) {
    return {
      type: 'idempotency_error',
      code: 'idempotency_key_in_use',
      message:
        'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, ' +
        'and the other request is still going through). Please try again later. (Injected by the Stripe emulator.)',
    }
  }
  if (spec.status === 429 && spec.code === 'lock_timeout') {
    return {
      type: 'invalid_request_error',
      code: 'lock_timeout',
      message:
        'This object cannot be accessed right now because another API request or Stripe process is currently accessing it. ' +
        'Please try again. (Injected by the Stripe emulator.)',
    }
  }
  if (spec.status === 429) {
    return {
      type: 'invalid_request_error',
      code: 'rate_limit',
      message: 'Request rate limit exceeded. Please retry with an exponential backoff. (Injected by the Stripe emulator.)',
    }
  }
  return {
    type: 'api_error',
    message: 'An unknown error occurred. (Injected by the Stripe emulator: nothing was created.)',
  }
}

const STATUSES = new Set([409, 429, 500])
const OPERATION_IDS = new Set<string>(OPERATIONS.map((op) => op.operationId))

/** Refuses a spec that could never apply, so a typo in a test fails loudly. */
function validate(spec: FailureSpec): FailureSpec {
  const problem = (message: string) => new StripeApiError(400, { type: 'invalid_request_error', message })
  if (spec.status !== undefined && !STATUSES.has(spec.status)) throw problem('status must be 409, 429 or 500')
  if (spec.code !== undefined && (spec.status !== 429 || !['rate_limit', 'lock_timeout'].includes(spec.code))) {
    throw problem("code is 'rate_limit' or 'lock_timeout', with status 429")
  }
  if (spec.operationId !== undefined && !OPERATION_IDS.has(spec.operationId)) throw problem(`unknown operationId ${spec.operationId}`)
  if (spec.method !== undefined && spec.method !== 'GET' && spec.method !== 'POST') throw problem('method is GET or POST')
  if (spec.path !== undefined && typeof spec.path !== 'string') throw problem('path must be a string')
  if (spec.times !== undefined && !(Number.isFinite(spec.times) && spec.times >= 1)) throw problem('times must be a number ≥ 1')
  if (spec.delayMs !== undefined && !(Number.isFinite(spec.delayMs) && spec.delayMs >= 0)) throw problem('delayMs must be ≥ 0')
  if (spec.status === undefined && !spec.delayMs) throw problem('give a status (409, 429, 500) or a delayMs')
  const { status, code, shouldRetry, times, operationId, method, path, delayMs } = spec
  return { status, code, shouldRetry, times, operationId, method, path, delayMs }
}
