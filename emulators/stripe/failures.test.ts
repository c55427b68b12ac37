import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startStripeEmulator, type StripeEmulator } from './server.ts'
import { rejection, sdkFor } from './test-support.ts'

/*
 * Injected 409 / 429 / 500 answers, met by the real `stripe` client: with maxNetworkRetries it
 * retries 409s, 5xx and answers saying `Stripe-Should-Retry: true`, with the same Idempotency-Key,
 * so the object is created once.
 */

const WEBHOOK_SECRET = 'whsec_failures_test'

describe('Stripe emulator: failure injection', () => {
  let emulator: StripeEmulator
  let stripe: Stripe
  let once: Stripe

  beforeAll(async () => {
    emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET })
    stripe = sdkFor(emulator, { maxNetworkRetries: 2 })
    once = sdkFor(emulator, { maxNetworkRetries: 0 })
  })
  afterEach(() => emulator.clearFailures())
  afterAll(() => emulator.close())

  const createdWith = (key: string) =>
    emulator.events.filter((event) => event.type === 'payment_intent.created' && event.request.idempotency_key === key)
  const injectedFor = (key: string) => emulator.injectedFailures.filter((f) => f.idempotencyKey === key)

  it('answers each status as Stripe does, with Stripe-Should-Retry where Stripe sends it', async () => {
    const cases = [
      { spec: { status: 409 }, type: 'idempotency_error', code: 'idempotency_key_in_use', shouldRetry: undefined },
      { spec: { status: 429, code: 'lock_timeout' }, type: 'invalid_request_error', code: 'lock_timeout', shouldRetry: 'true' },
      { spec: { status: 429 }, type: 'invalid_request_error', code: 'rate_limit', shouldRetry: undefined },
      { spec: { status: 429, shouldRetry: true }, type: 'invalid_request_error', code: 'rate_limit', shouldRetry: 'true' },
      { spec: { status: 500 }, type: 'api_error', code: undefined, shouldRetry: undefined },
    ] as const
    for (const { spec, type, code, shouldRetry } of cases) {
      emulator.failNext({ ...spec, operationId: 'PostPaymentIntents' })
      const error = await rejection(once.paymentIntents.create({ amount: 100, currency: 'usd' }))
      const name = JSON.stringify(spec)
      expect(error, name).toMatchObject({ statusCode: spec.status, rawType: type })
      expect(error.code, name).toBe(code)
      expect(error.headers?.['stripe-should-retry'], name).toBe(shouldRetry)
    }
  })

  it('the client retries 409, lock_timeout 429 and 500 with the same key: one PaymentIntent', async () => {
    emulator.failNext({ operationId: 'PostPaymentIntents', status: 409 })
    emulator.failNext({ operationId: 'PostPaymentIntents', status: 429, code: 'lock_timeout' })
    const first = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd' }, { idempotencyKey: 'flaky-create' })
    expect(first.amount).toBe(2500)
    emulator.failNext({ operationId: 'PostPaymentIntents', status: 500, times: 2 })
    const second = await stripe.paymentIntents.create({ amount: 2600, currency: 'usd' }, { idempotencyKey: 'flaky-create-2' })

    expect(injectedFor('flaky-create').map((f) => f.status)).toEqual([409, 429])
    expect(injectedFor('flaky-create-2').map((f) => f.status)).toEqual([500, 500])
    expect(createdWith('flaky-create')).toHaveLength(1)
    expect(createdWith('flaky-create-2')).toHaveLength(1)
    expect(second.lastResponse.idempotencyKey).toBe('flaky-create-2')
  })

  it('keys the client generates itself hold across its retries too (a refund without a key of ours)', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 700, currency: 'usd', confirm: true, payment_method: 'pm_card_visa' })
    emulator.failNext({ path: '/v1/refunds', method: 'POST', status: 500 })
    const refund = await stripe.refunds.create({ payment_intent: intent.id })
    const [failure] = emulator.injectedFailures.slice(-1)
    expect(failure).toMatchObject({ operationId: 'PostRefunds', status: 500 })
    expect(failure?.idempotencyKey).toBe(refund.lastResponse.idempotencyKey)
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data.map((r) => r.id)).toEqual([refund.id])
  })

  it('a plain 429 is not retried by the client, and a failure lasting past its retries reaches the caller', async () => {
    emulator.failNext({ operationId: 'PostPaymentIntents', status: 429 })
    const limited = await rejection(stripe.paymentIntents.create({ amount: 300, currency: 'usd' }, { idempotencyKey: 'limited' }))
    expect(limited).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
    expect(injectedFor('limited')).toHaveLength(1)

    emulator.failNext({ operationId: 'PostPaymentIntents', status: 500, times: 3 })
    const down = await rejection(stripe.paymentIntents.create({ amount: 300, currency: 'usd' }, { idempotencyKey: 'down' }))
    expect(down).toBeInstanceOf(Stripe.errors.StripeAPIError)
    expect(injectedFor('down')).toHaveLength(3)
    expect(createdWith('down')).toHaveLength(0)
    // Nothing was saved under the key: once the failures are over, the same request creates it.
    const recovered = await stripe.paymentIntents.create({ amount: 300, currency: 'usd' }, { idempotencyKey: 'down' })
    expect(recovered.lastResponse.headers['idempotent-replayed']).toBeUndefined()
    expect(createdWith('down')).toHaveLength(1)
  })

  it('applies only to the operation or path named', async () => {
    emulator.failNext({ operationId: 'PostRefunds', status: 500 })
    await once.paymentIntents.create({ amount: 100, currency: 'usd' })
    emulator.failNext({ path: '/v1/payment_intents/{intent}', method: 'GET', status: 500 })
    const intent = await once.paymentIntents.create({ amount: 100, currency: 'usd' })
    await expect(once.paymentIntents.retrieve(intent.id)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError)
    await expect(once.paymentIntents.retrieve(intent.id)).resolves.toMatchObject({ id: intent.id })
    // The refund failure is still waiting.
    expect((await fetch(`${emulator.url}/_emulator/failures`).then((r) => r.json())).pending).toMatchObject([
      { operationId: 'PostRefunds', status: 500, times: 1 },
    ])
  })

  it('is driven over HTTP: POST /_emulator/failures, GET lists, DELETE clears, a bad spec is refused', async () => {
    const post = (body: unknown) =>
      fetch(`${emulator.url}/_emulator/failures`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await post({ status: 418 })).status).toBe(400)
    expect((await post({ operationId: 'PostNothing', status: 500 })).status).toBe(400)
    expect((await post({ operationId: 'PostPaymentIntents' })).status).toBe(400)

    const added = await post([{ operationId: 'PostPaymentIntents', status: 500, times: 2 }])
    expect(added.status).toBe(200)
    expect((await added.json()).pending).toEqual([expect.objectContaining({ operationId: 'PostPaymentIntents', status: 500, times: 2 })])
    await expect(once.paymentIntents.create({ amount: 100, currency: 'usd' })).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError)

    const cleared = await fetch(`${emulator.url}/_emulator/failures`, { method: 'DELETE' })
    expect(await cleared.json()).toEqual({ pending: [] })
    await expect(once.paymentIntents.create({ amount: 100, currency: 'usd' })).resolves.toMatchObject({ amount: 100 })
  })
})
