import { setTimeout as sleep } from 'node:timers/promises'
import { BackgroundWork } from '../support/background.ts'
import { signatureHeader } from './signature.ts'

export interface StripeEvent {
  id: string
  object: 'event'
  api_version: string
  created: number
  type: string
  livemode: false
  pending_webhooks: number
  request: { id: string | null; idempotency_key: string | null }
  data: { object: unknown; previous_attributes?: Record<string, unknown> }
}

export interface Delivery {
  eventId: string
  status: number | 'error'
  attempt: number
}

const ATTEMPT_TIMEOUT_MS = 10_000

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * Stripe, live mode: "attempts to deliver a given event to your webhook endpoint for up to 3 days
 * with an exponential back off" (the intervals are not published). Modelled as waits that double
 * from 5 minutes, capped at 12 hours, for as long as the next attempt is within 3 days of the first:
 * 5, 10, 20, 40, 80, 160, 320 and 640 minutes, then 12 hours four times (13 attempts, the last
 * about 69 h after the first).
 */
export function stripeRetrySchedule(first = 5 * MINUTE, cap = 12 * HOUR, window = 72 * HOUR): number[] {
  const delays: number[] = []
  let elapsed = 0
  for (let next = first; elapsed + Math.min(next, cap) <= window; next *= 2) {
    delays.push(Math.min(next, cap))
    elapsed += Math.min(next, cap)
  }
  return delays
}

export const STRIPE_RETRY_SCHEDULE_MS: readonly number[] = stripeRetrySchedule()

export interface RetryOptions {
  /** Waits before the 2nd, 3rd… attempt (its length + 1 is the attempt count); default Stripe's schedule. */
  retryDelaysMs?: readonly number[]
  /**
   * Multiplies the waits between retries: 1 is real time; 1e-5 runs the 3 days of retries in about
   * 3 s, for tests. (`setDelay`'s hold-back is wall-clock milliseconds, unscaled.)
   */
  timeScale?: number
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Which events a delay applies to: all, or those whose object's metadata has these values. */
export interface WebhookDelay {
  ms: number
  metadata?: Record<string, string>
}

/**
 * POSTs events to the webhook endpoint the way Stripe does: asynchronously,
 * signed, and retried with backoff on a non-2xx answer or a network error.
 */
export class WebhookDispatcher {
  readonly deliveries: Delivery[] = []
  private readonly background = new BackgroundWork()
  private delay: WebhookDelay = { ms: 0 }

  constructor(
    private url: string | undefined,
    private readonly secret: string,
    private readonly now: () => number,
    private readonly retry: RetryOptions = {},
  ) {
    const scale = retry.timeScale ?? 1
    if (!(Number.isFinite(scale) && scale > 0)) throw new Error(`Stripe emulator: timeScale must be a number > 0, not ${scale}`)
  }

  /** The waits before each retry, in real milliseconds (after the time scale). */
  get retryDelaysMs(): number[] {
    return (this.retry.retryDelaysMs ?? STRIPE_RETRY_SCHEDULE_MS).map((ms) => this.scaled(ms))
  }

  private scaled(ms: number): number {
    return ms * (this.retry.timeScale ?? 1)
  }

  get hasEndpoint(): boolean {
    return this.url !== undefined
  }

  setUrl(url: string): void {
    this.url = url
  }

  /**
   * Holds back the first delivery of later events by `ms` (Stripe delivers
   * asynchronously and late webhooks happen: the browser may come back first).
   * `{ ms: 0 }` turns it off.
   */
  setDelay(delay: WebhookDelay): void {
    this.delay = { ms: Math.max(0, delay.ms), metadata: delay.metadata }
  }

  private delayFor(event: StripeEvent): number {
    const { ms, metadata } = this.delay
    if (ms === 0 || !metadata) return ms
    const actual = (event.data.object as { metadata?: Record<string, string> | null }).metadata ?? {}
    return Object.entries(metadata).every(([key, value]) => actual[key] === value) ? ms : 0
  }

  /**
   * Delivers in the background, starting after the current API response is
   * written (as Stripe answers first); `idle()` already counts it as in flight.
   */
  dispatch(event: StripeEvent): void {
    const url = this.url
    if (!url || this.background.signal.aborted) return
    const delay = this.delayFor(event)
    this.background.track(
      nextTurn()
        .then(() => (delay > 0 ? this.wait(delay) : true))
        .then((open) => (open ? this.deliverWithRetries(url, event) : undefined)),
    )
  }

  async resend(event: StripeEvent): Promise<number> {
    if (!this.url) throw new Error('Stripe emulator: no webhook URL configured')
    const status = await this.background.track(this.attempt(this.url, event, this.nextAttemptNumber(event.id)))
    if (status === 'error') throw new Error(`Stripe emulator: could not deliver ${event.id} to ${this.url}`)
    return status
  }

  idle(): Promise<void> {
    return this.background.idle()
  }

  close(): void {
    this.background.close()
  }

  private async deliverWithRetries(url: string, event: StripeEvent): Promise<void> {
    const delays = [0, ...this.retryDelaysMs]
    for (const delay of delays) {
      if (delay > 0 && !(await this.wait(delay))) return
      const status = await this.attempt(url, event, this.nextAttemptNumber(event.id))
      if (status !== 'error' && status >= 200 && status < 300) return
    }
  }

  /** false when the emulator shut down while waiting. */
  private async wait(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.background.signal })
      return true
    } catch {
      return false
    }
  }

  private async attempt(url: string, event: StripeEvent, attempt: number): Promise<number | 'error'> {
    const payload = JSON.stringify(event, null, 2)
    const timestamp = Math.floor(this.now() / 1000)
    let status: number | 'error'
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signatureHeader(payload, this.secret, timestamp),
        },
        body: payload,
        signal: AbortSignal.any([this.background.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      })
      await response.arrayBuffer()
      status = response.status
    } catch {
      status = 'error'
    }
    this.deliveries.push({ eventId: event.id, status, attempt })
    return status
  }

  private nextAttemptNumber(eventId: string): number {
    return this.deliveries.filter((d) => d.eventId === eventId).length + 1
  }
}
