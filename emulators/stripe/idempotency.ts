import { invalidRequest, StripeApiError } from './errors.ts'

export interface StoredResponse {
  status: number
  body: unknown
}

export interface IdempotencyEntry {
  fingerprint: string
  response: StoredResponse
  /** Millisecond time the result was saved (absent in data files written before keys expired: taken as the load time). */
  savedAt?: number
}

/** The outcome of one request: `saved: false` when Stripe keeps no result for it (see `isSaved`). */
export type ExecutedResponse = StoredResponse & { saved: boolean }

/** Stripe prunes keys once they are at least 24 hours old; a reuse after that is a new request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000
/** "Idempotency keys are up to 255 characters long." */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/**
 * Stripe's `Idempotency-Key` semantics for API v1 POSTs (docs.stripe.com/api/idempotent_requests and
 * /error-low-level#idempotency):
 * - the status and body of the first request with a key are saved once the endpoint begins executing,
 *   whether it succeeds or fails (a 402 decline, a 500 from the endpoint), and replayed to later requests
 *   with the same key and parameters (`Idempotent-Replayed: true`);
 * - a request that fails parameter validation, or that conflicts with a request with the same key still
 *   in flight (409 `idempotency_key_in_use`), saves nothing: it may be retried as is;
 * - the same key with other parameters is a 400 `idempotency_error`;
 * - keys expire 24 hours after their result was saved; keys over 255 characters are refused.
 * Keys are scoped to the API key, as Stripe scopes them to an account.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, IdempotencyEntry>()
  private readonly inFlight = new Set<string>()

  constructor(private readonly now: () => number = Date.now) {}

  /** The stored first results, for the emulator's data file (a retry after a restart still replays). */
  snapshot(): Array<[string, IdempotencyEntry]> {
    this.prune()
    return structuredClone([...this.entries.entries()])
  }

  restore(entries: Array<[string, IdempotencyEntry]>): void {
    this.entries.clear()
    const loadedAt = this.now()
    for (const [key, entry] of entries) this.entries.set(key, { ...entry, savedAt: entry.savedAt ?? loadedAt })
  }

  /**
   * Runs `execute` under the key, or replays the saved result. Throws a StripeApiError for a key
   * that is too long, reused with other parameters, or in use by a request still executing.
   */
  async run(
    scope: string,
    idempotencyKey: string,
    fingerprint: string,
    execute: () => Promise<ExecutedResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw tooLong(idempotencyKey)
    const key = `${scope}\n${idempotencyKey}`
    const stored = this.current(key)
    if (stored && stored.fingerprint !== fingerprint) throw mismatch(idempotencyKey)
    if (stored) return { ...stored.response, replayed: true }
    if (this.inFlight.has(key)) throw inUse(idempotencyKey)
    this.inFlight.add(key)
    try {
      const { saved, ...response } = await execute()
      if (saved) this.entries.set(key, { fingerprint, response, savedAt: this.now() })
      return { ...response, replayed: false }
    } finally {
      this.inFlight.delete(key)
    }
  }

  /** The saved result of a key, unless it has expired (then it is forgotten). */
  private current(key: string): IdempotencyEntry | undefined {
    const entry = this.entries.get(key)
    if (entry && this.expired(entry)) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  private expired(entry: IdempotencyEntry): boolean {
    return this.now() - (entry.savedAt ?? 0) >= IDEMPOTENCY_KEY_TTL_MS
  }

  private prune(): void {
    for (const [key, entry] of this.entries) if (this.expired(entry)) this.entries.delete(key)
  }
}

/**
 * Whether Stripe saves this result under the request's key: not when the parameters failed
 * validation (the endpoint never began executing), so a corrected retry with the key runs.
 */
export function isSaved(response: StoredResponse): boolean {
  const code = (response.body as { error?: { code?: unknown } } | null)?.error?.code
  return !(response.status === 400 && typeof code === 'string' && code.startsWith('parameter_'))
}

function mismatch(idempotencyKey: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'idempotency_error',
    message:
      `Keys for idempotent requests can only be used with the same parameters they were first used with. ` +
      `Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
  })
}

function inUse(idempotencyKey: string): StripeApiError {
  return new StripeApiError(409, {
    type: 'idempotency_error',
    code: 'idempotency_key_in_use',
    message:
      `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, ` +
      `and the other request is still going through): ${idempotencyKey}. Please try again later.`,
  })
}

function tooLong(idempotencyKey: string): StripeApiError {
  return invalidRequest(
    `Invalid Idempotency-Key: keys can be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters long (this one has ${idempotencyKey.length}).`,
    { status: 400 },
  )
}

/** Order-insensitive identity of a request, for comparing replays. */
export function requestFingerprint(method: string, path: string, params: unknown): string {
  return `${method} ${path} ${stableJson(params)}`
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}
