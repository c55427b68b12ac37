import { setTimeout as sleep } from 'node:timers/promises'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.ts'
import { startStripeEmulator, type StripeEmulator } from './server.ts'
import { rejection, sdkFor } from './test-support.ts'

/*
 * Idempotency as Stripe documents it for API v1 (docs.stripe.com/api/idempotent_requests,
 * docs.stripe.com/error-low-level#idempotency), each rule through the real `stripe` client.
 */

const WEBHOOK_SECRET = 'whsec_idempotency_test'
const MINUTE = 60_000

describe('Stripe emulator: idempotent requests', () => {
  let emulator: StripeEmulator
  let stripe: Stripe
  /** The emulator's clock: real time plus what a test skipped ahead. */
  let skipped = 0

  beforeAll(async () => {
    emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, now: () => Date.now() + skipped })
    // No client retries here, so each answer is the emulator's own.
    stripe = sdkFor(emulator, { maxNetworkRetries: 0 })
  })
  afterAll(() => emulator.close())

  const createdWith = (key: string) =>
    emulator.events.filter((event) => event.type === 'payment_intent.created' && event.request.idempotency_key === key)

  it('saves nothing for a request that fails validation: the corrected retry with the key runs', async () => {
    const invalid = await rejection(
      stripe.paymentIntents.create({ amount: 500 } as Stripe.PaymentIntentCreateParams, { idempotencyKey: 'validation-key' }),
    )
    expect(invalid).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'currency' })

    const created = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' }, { idempotencyKey: 'validation-key' })
    expect(created.lastResponse.headers['idempotent-replayed']).toBeUndefined()
    const again = await stripe.paymentIntents.create({ amount: 500, currency: 'usd' }, { idempotencyKey: 'validation-key' })
    expect(again.id).toBe(created.id)
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(createdWith('validation-key')).toHaveLength(1)
  })

  it('replays a failure the endpoint gave (a refund of a refunded charge) with its status and body', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 800, currency: 'usd', confirm: true, payment_method: 'pm_card_visa' })
    await stripe.refunds.create({ payment_intent: intent.id })
    const refundAgain = () => stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: `again-${intent.id}` })
    const first = await rejection(refundAgain())
    const second = await rejection(refundAgain())
    expect(first).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' })
    expect(second.headers?.['idempotent-replayed']).toBe('true')
    expect(second).toMatchObject({ statusCode: first.statusCode, rawType: first.rawType, code: first.code, message: first.message })
    expect(second.headers?.['stripe-should-retry']).toBe('false')
  })

  it('answers 400 idempotency_error to the key reused on another endpoint', async () => {
    await stripe.paymentIntents.create({ amount: 600, currency: 'usd' }, { idempotencyKey: 'endpoint-key' })
    const intent = await stripe.paymentIntents.create({ amount: 600, currency: 'usd', confirm: true, payment_method: 'pm_card_visa' })
    const error = await rejection(stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: 'endpoint-key' }))
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
    expect(error.statusCode).toBe(400)
    expect(error.message).toMatch(/^Keys for idempotent requests can only be used with the same parameters they were first used with/)
  })

  it('answers 409 idempotency_key_in_use to a request with the key of one still in flight, saving nothing for it', async () => {
    emulator.failNext({ operationId: 'PostPaymentIntents', delayMs: 400 })
    const slow = stripe.paymentIntents.create({ amount: 900, currency: 'usd' }, { idempotencyKey: 'in-flight-key' })
    await expect.poll(() => emulator.injectedFailures.some((f) => f.idempotencyKey === 'in-flight-key')).toBe(true)

    const conflict = await rejection(stripe.paymentIntents.create({ amount: 900, currency: 'usd' }, { idempotencyKey: 'in-flight-key' }))
    expect(conflict).toMatchObject({ statusCode: 409, rawType: 'idempotency_error', code: 'idempotency_key_in_use' })
    // A 409 carries no "do not retry": the client's retry (below, by hand) gets the first result.
    expect(conflict.headers?.['stripe-should-retry']).toBeUndefined()

    const first = await slow
    const retried = await stripe.paymentIntents.create({ amount: 900, currency: 'usd' }, { idempotencyKey: 'in-flight-key' })
    expect(retried.id).toBe(first.id)
    expect(retried.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(createdWith('in-flight-key')).toHaveLength(1)
  })

  it("with the client's own retries (maxNetworkRetries 2) a concurrent duplicate gets the first result", async () => {
    const retrying = sdkFor(emulator, { maxNetworkRetries: 2 })
    emulator.failNext({ operationId: 'PostPaymentIntents', delayMs: 300 })
    const slow = retrying.paymentIntents.create({ amount: 901, currency: 'usd' }, { idempotencyKey: 'retried-key' })
    await expect.poll(() => emulator.injectedFailures.some((f) => f.idempotencyKey === 'retried-key')).toBe(true)
    const duplicate = await retrying.paymentIntents.create({ amount: 901, currency: 'usd' }, { idempotencyKey: 'retried-key' })
    expect(duplicate.id).toBe((await slow).id)
    expect(createdWith('retried-key')).toHaveLength(1)
  })

  it('forgets a key 24 hours after its result was saved: a reuse then is a new request', async () => {
    const first = await stripe.paymentIntents.create({ amount: 1100, currency: 'usd' }, { idempotencyKey: 'day-key' })
    skipped += IDEMPOTENCY_KEY_TTL_MS - MINUTE
    const sameDay = await stripe.paymentIntents.create({ amount: 1100, currency: 'usd' }, { idempotencyKey: 'day-key' })
    expect(sameDay.id).toBe(first.id)
    expect(sameDay.lastResponse.headers['idempotent-replayed']).toBe('true')

    skipped += MINUTE
    const nextDay = await stripe.paymentIntents.create({ amount: 1100, currency: 'usd' }, { idempotencyKey: 'day-key' })
    expect(nextDay.id).not.toBe(first.id)
    expect(nextDay.lastResponse.headers['idempotent-replayed']).toBeUndefined()
    // Once pruned, the key may carry other parameters.
    skipped += IDEMPOTENCY_KEY_TTL_MS
    const other = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd' }, { idempotencyKey: 'day-key' })
    expect(other.amount).toBe(1200)
  })

  it('refuses a key longer than 255 characters (creating nothing) and takes one of 255', async () => {
    const before = emulator.events.length
    const error = await rejection(stripe.paymentIntents.create({ amount: 300, currency: 'usd' }, { idempotencyKey: 'k'.repeat(256) }))
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error.statusCode).toBe(400)
    expect(error.message).toMatch(/at most 255 characters/)
    expect(emulator.events).toHaveLength(before)

    const longest = await stripe.paymentIntents.create({ amount: 300, currency: 'usd' }, { idempotencyKey: 'k'.repeat(255) })
    expect(longest.status).toBe('requires_payment_method')
  })

  it('ignores the key on GET: a later retrieve with it shows the current object', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 400, currency: 'usd' })
    const before = await stripe.paymentIntents.retrieve(intent.id, {}, { idempotencyKey: 'get-key' })
    await stripe.paymentIntents.update(intent.id, { metadata: { step: 'two' } })
    await sleep(5)
    const after = await stripe.paymentIntents.retrieve(intent.id, {}, { idempotencyKey: 'get-key' })
    expect(before.metadata).toEqual({})
    expect(after.metadata).toEqual({ step: 'two' })
    expect(after.lastResponse.headers['idempotent-replayed']).toBeUndefined()
    // Nor does a GET's key count against a POST with the same key.
    const created = await stripe.paymentIntents.create({ amount: 401, currency: 'usd' }, { idempotencyKey: 'get-key' })
    expect(created.lastResponse.headers['idempotent-replayed']).toBeUndefined()
  })
})
