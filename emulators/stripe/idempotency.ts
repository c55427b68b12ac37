import { StripeApiError } from './errors.ts'

export interface StoredResponse {
  status: number
  body: unknown
}

export interface IdempotencyEntry {
  fingerprint: string
  response: StoredResponse
}

/**
 * Stripe's `Idempotency-Key` semantics: the first result for a key is kept and
 * replayed for the same request; reusing the key for a different request is an
 * error. Requests sharing a key run one after another, so concurrent retries
 * still create a single object.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, IdempotencyEntry>()
  private readonly tails = new Map<string, Promise<unknown>>()

  /** The stored first results, for the emulator's data file (a retry after a restart still replays). */
  snapshot(): Array<[string, IdempotencyEntry]> {
    return structuredClone([...this.entries.entries()])
  }

  restore(entries: Array<[string, IdempotencyEntry]>): void {
    this.entries.clear()
    for (const [key, entry] of entries) this.entries.set(key, entry)
  }

  /** `scope` separates API keys, as Stripe scopes idempotency keys to an account. */
  run(
    scope: string,
    idempotencyKey: string,
    fingerprint: string,
    execute: () => StoredResponse,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const key = `${scope}\n${idempotencyKey}`
    const previous = this.tails.get(key) ?? Promise.resolve()
    const result = previous.then(() => this.runExclusive(key, idempotencyKey, fingerprint, execute))
    const tail = result.catch(() => undefined)
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }

  private runExclusive(
    key: string,
    idempotencyKey: string,
    fingerprint: string,
    execute: () => StoredResponse,
  ): StoredResponse & { replayed: boolean } {
    const stored = this.entries.get(key)
    if (stored && stored.fingerprint !== fingerprint) throw mismatch(idempotencyKey)
    if (stored) return { ...stored.response, replayed: true }
    const response = execute()
    this.entries.set(key, { fingerprint, response })
    return { ...response, replayed: false }
  }
}

function mismatch(idempotencyKey: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'idempotency_error',
    message:
      `Keys for idempotent requests can only be used with the same parameters they were first used with. ` +
      `Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
  })
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
