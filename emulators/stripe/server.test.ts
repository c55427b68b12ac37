import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startStripeEmulator, type StripeEmulator, type StripeEvent } from './server.ts'
import { WRITE_DELAY_MS } from './state-file.ts'
import { closeServer, rejection, sdkFor, startReceiver, type Received } from './test-support.ts'

const WEBHOOK_SECRET = 'whsec_emulator_test_secret'

describe('Stripe emulator API with the stripe SDK', () => {
  let emulator: StripeEmulator
  let stripe: Stripe

  beforeAll(async () => {
    emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET })
    stripe = sdkFor(emulator)
  })
  afterAll(() => emulator.close())

  const createIntent = (params: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
    stripe.paymentIntents.create({ amount: 1000, currency: 'usd', ...params })

  describe('PaymentIntents', () => {
    it('creates and retrieves an intent shaped like Stripe', async () => {
      const intent = await createIntent({
        amount: 1,
        currency: 'USD',
        metadata: { orderId: 'ord_1', buyer: 'b1' },
        description: 'Forkmarket order',
        automatic_payment_methods: { enabled: true },
      })
      expect(intent).toMatchObject({
        object: 'payment_intent',
        amount: 1,
        amount_received: 0,
        currency: 'usd',
        status: 'requires_payment_method',
        metadata: { orderId: 'ord_1', buyer: 'b1' },
        description: 'Forkmarket order',
        livemode: false,
        latest_charge: null,
        last_payment_error: null,
        payment_method: null,
        automatic_payment_methods: { enabled: true },
      })
      expect(intent.id).toMatch(/^pi_\w{24}$/)
      expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`))
      expect(intent.created).toBeCloseTo(Date.now() / 1000, -1)
      expect(intent.lastResponse.requestId).toMatch(/^req_/)

      expect(await stripe.paymentIntents.retrieve(intent.id)).toEqual(intent)
    })

    it('updates the amount and merges metadata, an empty value unsetting a key', async () => {
      const intent = await createIntent({ metadata: { keep: '1', drop: '2' } })
      const updated = await stripe.paymentIntents.update(intent.id, {
        amount: 2500,
        metadata: { drop: '', added: '3' },
      })
      expect(updated.amount).toBe(2500)
      expect(updated.metadata).toEqual({ keep: '1', added: '3' })
    })

    it('validates parameters like the API', async () => {
      const tooSmall = await rejection(createIntent({ amount: 0 }))
      expect(tooSmall).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
      expect(tooSmall).toMatchObject({ statusCode: 400, code: 'amount_too_small', param: 'amount' })
      expect(tooSmall.headers?.['stripe-should-retry']).toBe('false')

      const fractional = await rejection(createIntent({ amount: 10.5 }))
      expect(fractional).toMatchObject({ code: 'parameter_invalid_integer', param: 'amount' })

      const missing = await rejection(stripe.paymentIntents.create({ amount: 100 } as Stripe.PaymentIntentCreateParams))
      expect(missing).toMatchObject({ code: 'parameter_missing', param: 'currency' })

      const unknown = await rejection(createIntent({ colour: 'red' } as Partial<Stripe.PaymentIntentCreateParams>))
      expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' })
    })

    it('answers 404 resource_missing for an unknown id', async () => {
      const error = await rejection(stripe.paymentIntents.retrieve('pi_doesnotexist'))
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' })
      expect(error.message).toBe("No such payment_intent: 'pi_doesnotexist'")
      expect(error.requestId).toMatch(/^req_/)
    })

    it('rejects keys that are not test secret keys', async () => {
      for (const key of ['sk_live_123456789012345', 'nonsense']) {
        const client = new Stripe(key, { host: emulator.host, port: emulator.port, protocol: 'http' })
        const error = await rejection(client.paymentIntents.create({ amount: 100, currency: 'usd' }))
        expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
        expect(error).toMatchObject({ statusCode: 401, type: 'StripeAuthenticationError' })
        expect(error.message).toMatch(/^Invalid API Key provided/)
        expect(error.message).not.toContain(key)
      }
    })

    it('confirms with a test card: succeeded, with a charge', async () => {
      const intent = await createIntent({ metadata: { orderId: 'ord_2' } })
      const confirmed = await stripe.paymentIntents.confirm(intent.id, {
        payment_method: 'pm_card_visa',
        return_url: 'http://localhost/return',
      })
      expect(confirmed).toMatchObject({ status: 'succeeded', amount_received: 1000, last_payment_error: null })
      expect(confirmed.payment_method).toMatch(/^pm_/)
      expect(confirmed.latest_charge).toMatch(/^ch_/)

      const charge = await stripe.charges.retrieve(confirmed.latest_charge as string)
      expect(charge).toMatchObject({
        object: 'charge',
        amount: 1000,
        amount_captured: 1000,
        amount_refunded: 0,
        paid: true,
        refunded: false,
        status: 'succeeded',
        payment_intent: intent.id,
        metadata: { orderId: 'ord_2' },
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      })

      const expanded = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] })
      expect(expanded.latest_charge).toMatchObject({ id: charge.id, object: 'charge' })

      const again = await rejection(stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' }))
      expect(again).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' })
      const update = await rejection(stripe.paymentIntents.update(intent.id, { amount: 5 }))
      expect(update).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' })
      expect((await stripe.paymentIntents.update(intent.id, { metadata: { note: 'ok' } })).metadata).toEqual({
        orderId: 'ord_2',
        note: 'ok',
      })
    })

    it('asks for 3-D Secure on an authentication card: requires_action, nothing charged until the challenge is answered', async () => {
      const intent = await createIntent()
      const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_authenticationRequired' })
      expect(confirmed).toMatchObject({
        status: 'requires_action',
        latest_charge: null,
        next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
      })
      const challengeUrl = (confirmed.next_action as unknown as { use_stripe_sdk: { stripe_js: string } }).use_stripe_sdk.stripe_js
      expect(challengeUrl).toBe(`${emulator.url}/_emulator/3ds/${intent.id}`)
      // The challenge page, for a person: only with the client secret.
      expect((await fetch(challengeUrl)).status).toBe(404)
      const page = await fetch(`${challengeUrl}?client_secret=${intent.client_secret}`)
      expect(await page.text()).toContain('Complete authentication')

      const answer = (outcome: string, extra: Record<string, string> = {}) =>
        fetch(challengeUrl, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_secret: intent.client_secret!, outcome, ...extra }),
        })
      expect((await answer('maybe')).status).toBe(400)
      const completed = await answer('complete', { return_url: 'http://localhost:3000/purchase-success' })
      expect(completed.status).toBe(303)
      const back = new URL(completed.headers.get('location')!)
      expect(Object.fromEntries(back.searchParams)).toMatchObject({ payment_intent: intent.id, redirect_status: 'succeeded' })
      const paid = await stripe.paymentIntents.retrieve(intent.id)
      expect(paid).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 1000 })
      expect(paid.latest_charge).toMatch(/^ch_/)
      expect((await answer('complete')).status).toBe(400)
    })

    it('a failed 3-D Secure challenge is payment_intent_authentication_failure; the intent takes another card', async () => {
      const intent = await createIntent()
      await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_authenticationRequiredOnSetup' })
      const failed = await fetch(`${emulator.url}/_emulator/3ds/${intent.id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_secret: intent.client_secret!, outcome: 'fail' }),
      })
      expect(await failed.json()).toMatchObject({
        status: 'requires_payment_method',
        payment_method: null,
        next_action: null,
        last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure' },
      })
      const events = emulator.events.filter((e) => (e.data.object as { id: string }).id === intent.id).map((e) => e.type)
      expect(events).toEqual(['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.payment_failed'])
      expect(await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })).toMatchObject({ status: 'succeeded' })
    })

    it('creates and confirms in one call with confirm=true', async () => {
      const intent = await createIntent({ confirm: true, payment_method: 'pm_card_mastercard', allowed_payment_method_types: ['card'] })
      expect(intent.status).toBe('succeeded')
    })

    const declines = [
      {
        card: '4000000000000002',
        paymentMethod: 'pm_card_chargeDeclined',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
      {
        card: '4000000000009995',
        paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    ]

    it.each(declines)('declines $paymentMethod with $decline_code, then accepts another card', async (decline) => {
      const intent = await createIntent()
      const error = await rejection(stripe.paymentIntents.confirm(intent.id, { payment_method: decline.paymentMethod }))
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError)
      expect(error).toMatchObject({
        statusCode: 402,
        type: 'StripeCardError',
        code: decline.code,
        decline_code: decline.decline_code,
        message: decline.message,
      })
      expect(error.payment_intent).toMatchObject({ id: intent.id, status: 'requires_payment_method' })

      const failed = await stripe.paymentIntents.retrieve(intent.id)
      expect(failed.status).toBe('requires_payment_method')
      expect(failed.last_payment_error).toMatchObject({
        type: 'card_error',
        code: decline.code,
        decline_code: decline.decline_code,
      })
      expect(failed.last_payment_error?.payment_method?.card?.last4).toBe(decline.card.slice(-4))

      const retried = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })
      expect(retried).toMatchObject({ status: 'succeeded', last_payment_error: null })
    })

    it.each([
      { number: '4242 4242 4242 4242', outcome: 'succeeded' },
      { number: '4000000000000002', outcome: 'generic_decline' },
      { number: '4000000000009995', outcome: 'insufficient_funds' },
      { number: '4242424242424241', outcome: 'incorrect_number' },
      { number: '4111111111111111', outcome: 'test_mode_live_card' },
    ])('charges raw card number $number: $outcome', async ({ number, outcome }) => {
      const intent = await createIntent()
      const card = { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' }
      const confirm = stripe.paymentIntents.confirm(intent.id, {
        payment_method_data: { type: 'card', card } as unknown as Stripe.PaymentIntentConfirmParams.PaymentMethodData,
      })
      if (outcome === 'succeeded') {
        expect((await confirm).status).toBe('succeeded')
        return
      }
      const error = await rejection(confirm)
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError)
      if (outcome === 'incorrect_number') {
        expect(error).toMatchObject({ code: 'incorrect_number', message: 'Your card number is incorrect.' })
      } else {
        expect(error).toMatchObject({ code: 'card_declined', decline_code: outcome })
      }
    })

    it('cancels, and refuses to cancel or confirm in the wrong state', async () => {
      const intent = await createIntent()
      const canceled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' })
      expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' })
      expect(canceled.canceled_at).toEqual(expect.any(Number))

      const confirm = await rejection(stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' }))
      expect(confirm).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' })

      const paid = await createIntent({ confirm: true, payment_method: 'pm_card_visa' })
      const cancel = await rejection(stripe.paymentIntents.cancel(paid.id))
      expect(cancel).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
      expect(cancel).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' })
      expect(cancel.message).toContain('status of succeeded')
    })
  })

  describe('idempotency', () => {
    it('replays the stored response for the same key and parameters', async () => {
      const first = await stripe.paymentIntents.create({ amount: 700, currency: 'usd' }, { idempotencyKey: 'replay-key' })
      const second = await stripe.paymentIntents.create({ amount: 700, currency: 'usd' }, { idempotencyKey: 'replay-key' })
      expect(second.id).toBe(first.id)
      expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined()
      expect(second.lastResponse.headers['idempotent-replayed']).toBe('true')
      expect(second.lastResponse.idempotencyKey).toBe('replay-key')
    })

    it('rejects the same key with different parameters', async () => {
      await stripe.paymentIntents.create({ amount: 700, currency: 'usd' }, { idempotencyKey: 'mismatch-key' })
      const error = await rejection(stripe.paymentIntents.create({ amount: 701, currency: 'usd' }, { idempotencyKey: 'mismatch-key' }))
      expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
      expect(error).toMatchObject({ statusCode: 400, rawType: 'idempotency_error' })
    })

    it('creates one intent for 20 concurrent requests with one key', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          stripe.paymentIntents.create({ amount: 900, currency: 'usd' }, { idempotencyKey: 'concurrent-key' }),
        ),
      )
      expect(new Set(results.map((intent) => intent.id)).size).toBe(1)
      const created = emulator.events.filter(
        (event) => event.type === 'payment_intent.created' && event.request.idempotency_key === 'concurrent-key',
      )
      expect(created).toHaveLength(1)
    })

    it('replays a decline without charging twice', async () => {
      const intent = await createIntent()
      const confirm = () =>
        stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' }, { idempotencyKey: `decline-${intent.id}` })
      const first = await rejection(confirm())
      const second = await rejection(confirm())
      expect(second).toBeInstanceOf(Stripe.errors.StripeCardError)
      expect(second.requestId).not.toBe(first.requestId)
      expect(second.headers?.['idempotent-replayed']).toBe('true')
      const failures = emulator.events.filter(
        (event) => event.type === 'payment_intent.payment_failed' && (event.data.object as Stripe.PaymentIntent).id === intent.id,
      )
      expect(failures).toHaveLength(1)
    })
  })

  describe('refunds', () => {
    const paidIntent = () => createIntent({ confirm: true, payment_method: 'pm_card_visa' })

    it('refunds a payment in full', async () => {
      const intent = await paidIntent()
      const refund = await stripe.refunds.create({ payment_intent: intent.id, metadata: { reason: 'buyer' } })
      expect(refund).toMatchObject({
        object: 'refund',
        amount: 1000,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        currency: 'usd',
        status: 'succeeded',
        metadata: { reason: 'buyer' },
      })
      expect(refund.id).toMatch(/^re_/)
      expect(await stripe.refunds.retrieve(refund.id)).toEqual(refund)

      const charge = await stripe.charges.retrieve(intent.latest_charge as string)
      expect(charge).toMatchObject({ amount_refunded: 1000, refunded: true })
      // API version 2022-11-15 on: a charge's refunds only when expanded (and on a list, as data.refunds).
      expect(charge).not.toHaveProperty('refunds')
      const expanded = await stripe.charges.retrieve(charge.id, { expand: ['refunds'] })
      // A plain list: `total_count` is only on search results.
      expect(expanded.refunds).toEqual({ object: 'list', data: [refund], has_more: false, url: `/v1/charges/${charge.id}/refunds` })
      const listed = await stripe.charges.list({ payment_intent: intent.id })
      expect(listed.data[0]).not.toHaveProperty('refunds')
      const listedExpanded = await stripe.charges.list({ payment_intent: intent.id, expand: ['data.refunds'] })
      expect(listedExpanded.data[0]?.refunds?.data.map((r) => r.id)).toEqual([refund.id])
      const viaIntent = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] })
      expect(viaIntent.latest_charge).not.toHaveProperty('refunds')
      // The charge's refunds, newest first, by charge or by payment intent.
      expect((await stripe.refunds.list({ charge: charge.id })).data).toEqual([refund])
      expect((await stripe.refunds.list({ payment_intent: intent.id, limit: 1 })).data).toEqual([refund])
      expect((await stripe.refunds.list({ charge: 'ch_none' })).data).toEqual([])

      const again = await rejection(stripe.refunds.create({ payment_intent: intent.id }))
      expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' })
    })

    it('refunds partially, and refuses more than remains', async () => {
      const intent = await paidIntent()
      const charge = intent.latest_charge as string
      await stripe.refunds.create({ charge, amount: 300 })
      expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 300, refunded: false })

      const tooMuch = await rejection(stripe.refunds.create({ charge, amount: 800 }))
      expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
      expect(tooMuch).toMatchObject({ statusCode: 400, code: 'amount_too_large', param: 'amount' })
      expect(tooMuch.message).toBe('Refund amount ($8.00) is greater than unrefunded amount on charge ($7.00)')

      await stripe.refunds.create({ payment_intent: intent.id, amount: 700 })
      expect(await stripe.charges.retrieve(charge)).toMatchObject({ amount_refunded: 1000, refunded: true })
    })

    it('refuses to refund an intent that has not succeeded', async () => {
      const intent = await createIntent()
      const error = await rejection(stripe.refunds.create({ payment_intent: intent.id }))
      expect(error).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' })
      const missing = await rejection(stripe.refunds.create({}))
      expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing' })
    })
  })

  describe('browser access with the publishable key', () => {
    const browserPost = (path: string, form: Record<string, string>) =>
      fetch(`${emulator.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://shop.localhost' },
        body: new URLSearchParams(form),
      })

    it('confirms with the client secret, from another origin', async () => {
      const intent = await createIntent()
      const response = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, {
        key: emulator.publishableKey,
        client_secret: intent.client_secret as string,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '40',
        'payment_method_data[card][cvc]': '123',
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toMatchObject({ id: intent.id, status: 'succeeded' })
    })

    it('lets the browser retrieve an intent with its client secret', async () => {
      const intent = await createIntent()
      const query = new URLSearchParams({ key: emulator.publishableKey, client_secret: intent.client_secret as string })
      const response = await fetch(`${emulator.url}/v1/payment_intents/${intent.id}?${query}`)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ id: intent.id, status: 'requires_payment_method' })
    })

    it('hides intents from a wrong client secret and refuses server-only calls', async () => {
      const intent = await createIntent()
      const wrongSecret = await browserPost(`/v1/payment_intents/${intent.id}/confirm`, {
        key: emulator.publishableKey,
        client_secret: `${intent.id}_secret_wrong`,
      })
      expect(wrongSecret.status).toBe(404)

      const create = await browserPost('/v1/payment_intents', { key: emulator.publishableKey, amount: '100', currency: 'usd' })
      expect(create.status).toBe(401)
    })

    it('answers CORS preflight requests', async () => {
      const response = await fetch(`${emulator.url}/v1/payment_intents/pi_x/confirm`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://shop.localhost', 'Access-Control-Request-Method': 'POST' },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-methods')).toContain('POST')
    })

    it('serves the stand-in stripe.js pointing back at the emulator', async () => {
      const response = await fetch(emulator.scriptUrl)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/javascript/)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      const script = await response.text()
      expect(script).toContain(JSON.stringify(emulator.url))
      expect(script).not.toMatch(/js\.stripe\.com|\beval\(|new Function/)
    })
  })
})

describe('Stripe emulator webhooks', () => {
  let emulator: StripeEmulator
  let stripe: Stripe
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let respond: (delivery: Received) => number | Promise<number> = () => 200

  beforeAll(async () => {
    receiver = await startReceiver((delivery) => respond(delivery))
    emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, webhookUrl: receiver.url, timeScale: 1e-5 })
    stripe = sdkFor(emulator)
  })
  afterEach(() => {
    respond = () => 200
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  const verified = (delivery: Received) =>
    stripe.webhooks.constructEvent(delivery.raw, delivery.headers['stripe-signature'] as string, WEBHOOK_SECRET)

  it('delivers payment_intent.succeeded signed so constructEvent verifies it', async () => {
    const intent = await stripe.paymentIntents.create(
      { amount: 4200, currency: 'usd', metadata: { orderId: 'ord_9' } },
      { idempotencyKey: 'webhook-create' },
    )
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })
    await emulator.idle()

    const delivery = receiver.received.find((d) => d.raw.includes('"payment_intent.succeeded"'))
    expect(delivery?.headers['content-type']).toMatch(/^application\/json/)
    expect(delivery?.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    const event = verified(delivery as Received)
    expect(event).toMatchObject({
      object: 'event',
      type: 'payment_intent.succeeded',
      api_version: Stripe.API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      data: { object: { id: intent.id, status: 'succeeded', amount_received: 4200, metadata: { orderId: 'ord_9' } } },
    })
    expect(event.id).toMatch(/^evt_/)
    expect(event.request?.id).toMatch(/^req_/)

    const created = receiver.eventsOf('payment_intent.created').find((e) => e.request.idempotency_key === 'webhook-create')
    expect(created).toBeDefined()
    expect(emulator.deliveries).toContainEqual({ eventId: event.id, status: 200, attempt: 1 })
  })

  it('does not hold the API response for the delivery', async () => {
    let release = () => {}
    const held = new Promise<number>((resolve) => (release = () => resolve(200)))
    respond = (delivery) => (delivery.raw.includes('"payment_intent.canceled"') ? held : 200)

    const intent = await stripe.paymentIntents.create({ amount: 100, currency: 'usd' })
    const canceled = await stripe.paymentIntents.cancel(intent.id)
    expect(canceled.status).toBe('canceled')
    await expect
      .poll(() => receiver.eventsOf('payment_intent.canceled').some((e) => (e.data.object as { id: string }).id === intent.id))
      .toBe(true)
    release()
    await emulator.idle()
  })

  it('sends payment_failed with the error, and charge.refunded + refund.created', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    await rejection(stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' }))
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })
    const refund = await stripe.refunds.create({ payment_intent: intent.id })
    await emulator.idle()

    const failed = receiver.eventsOf('payment_intent.payment_failed').find((e) => (e.data.object as Stripe.PaymentIntent).id === intent.id)
    expect(failed?.data.object).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    })

    const refunded = receiver.eventsOf('charge.refunded').find((e) => (e.data.object as Stripe.Charge).payment_intent === intent.id)
    expect(refunded?.data).toMatchObject({
      object: { object: 'charge', amount: 1500, amount_refunded: 1500, refunded: true },
      previous_attributes: { amount_refunded: 0, refunded: false },
    })
    // Webhook payloads are never expanded: the refund's id is in refund.created, or asked of the API.
    expect(refunded?.data.object).not.toHaveProperty('refunds')
    const refundCreated = receiver.eventsOf('refund.created').find((e) => (e.data.object as Stripe.Refund).id === refund.id)
    expect(refundCreated?.data.object).toMatchObject({ amount: 1500, payment_intent: intent.id })
  })

  it('produces signatures that fail verification for a tampered body or another secret', async () => {
    await stripe.paymentIntents.create({ amount: 300, currency: 'usd' })
    await emulator.idle()
    const delivery = receiver.received.at(-1) as Received
    const header = delivery.headers['stripe-signature'] as string
    expect(() => stripe.webhooks.constructEvent(delivery.raw, header, WEBHOOK_SECRET)).not.toThrow()
    expect(() => stripe.webhooks.constructEvent(delivery.raw.replace('300', '1'), header, WEBHOOK_SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    )
    expect(() => stripe.webhooks.constructEvent(delivery.raw, header, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    )
  })

  it('retries after a 500 answer', async () => {
    const failedOnce = new Set<string>()
    respond = (delivery) => {
      const { id } = JSON.parse(delivery.raw) as StripeEvent
      if (failedOnce.has(id)) return 200
      failedOnce.add(id)
      return 500
    }
    const intent = await stripe.paymentIntents.create({ amount: 800, currency: 'usd' })
    await emulator.idle()
    const event = emulator.events.find((e) => (e.data.object as { id: string }).id === intent.id) as StripeEvent
    expect(emulator.deliveries.filter((d) => d.eventId === event.id)).toEqual([
      { eventId: event.id, status: 500, attempt: 1 },
      { eventId: event.id, status: 200, attempt: 2 },
    ])
  })

  it('resends an event on demand, as a duplicate delivery', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 900, currency: 'usd' })
    await emulator.idle()
    const event = emulator.events.find((e) => (e.data.object as { id: string }).id === intent.id) as StripeEvent
    expect(await emulator.resend(event.id)).toBe(200)
    const copies = receiver.received.filter((d) => (JSON.parse(d.raw) as StripeEvent).id === event.id)
    expect(copies).toHaveLength(2)
    expect(emulator.deliveries.filter((d) => d.eventId === event.id).map((d) => d.attempt)).toEqual([1, 2])
  })
})

describe('Stripe emulator: late webhooks', () => {
  const idOf = (d: Received) => ((JSON.parse(d.raw) as StripeEvent).data.object as { id: string }).id

  it('holds back deliveries by webhookDelayMs; the API answers at once', async () => {
    const receiver = await startReceiver()
    const emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, webhookUrl: receiver.url, webhookDelayMs: 400 })
    try {
      const started = Date.now()
      const intent = await sdkFor(emulator).paymentIntents.create({ amount: 100, currency: 'usd' })
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(receiver.received).toHaveLength(0)
      await emulator.idle()
      expect(receiver.received.map(idOf)).toEqual([intent.id])
      expect(Date.now() - started).toBeGreaterThanOrEqual(400)
    } finally {
      await emulator.close()
      await receiver.close()
    }
  })

  it('POST /_emulator/webhook-delay delays only the events whose metadata matches, until set back to 0', async () => {
    const receiver = await startReceiver()
    const emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, webhookUrl: receiver.url })
    try {
      const control = (body: string) => fetch(`${emulator.url}/_emulator/webhook-delay`, { method: 'POST', body })
      expect((await control('{"ms": 10000, "metadata": {"listingId": "slow"}}')).status).toBe(200)
      expect((await control('not json')).status).toBe(400)
      expect((await control('{"ms": -1}')).status).toBe(400)
      const stripe = sdkFor(emulator)
      const slow = await stripe.paymentIntents.create({ amount: 100, currency: 'usd', metadata: { listingId: 'slow' } })
      const fast = await stripe.paymentIntents.create({ amount: 100, currency: 'usd', metadata: { listingId: 'fast' } })
      await expect.poll(() => receiver.received.map(idOf)).toEqual([fast.id])
      expect((await control('{"ms": 0}')).status).toBe(200)
      await stripe.paymentIntents.cancel(slow.id)
      await expect.poll(() => receiver.received.map(idOf)).toEqual([fast.id, slow.id])
    } finally {
      await emulator.close()
      await receiver.close()
    }
  })
})

describe('Stripe emulator lifecycle', () => {
  it("gives up after Stripe's 3 days of retries (13 attempts) when the endpoint is unreachable", async () => {
    const unreachable = await startReceiver()
    await unreachable.close()
    const emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, webhookUrl: unreachable.url, timeScale: 1e-5 })
    try {
      const intent = await sdkFor(emulator).paymentIntents.create({ amount: 100, currency: 'usd' })
      await emulator.idle()
      const [event] = emulator.events
      expect((event?.data.object as { id: string }).id).toBe(intent.id)
      expect(emulator.deliveries.map((d) => [d.status, d.attempt])).toEqual(Array.from({ length: 13 }, (_, i) => ['error', i + 1]))
    } finally {
      await emulator.close()
    }
  })

  it('records events without delivering until a webhook URL is set', async () => {
    const receiver = await startReceiver()
    const emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET })
    try {
      const stripe = sdkFor(emulator)
      await stripe.paymentIntents.create({ amount: 100, currency: 'usd' })
      await emulator.idle()
      expect(emulator.events[0]?.pending_webhooks).toBe(0)
      emulator.setWebhookUrl(receiver.url)
      await stripe.paymentIntents.create({ amount: 200, currency: 'usd' })
      await emulator.idle()
      expect(receiver.received).toHaveLength(1)
      expect(emulator.events).toHaveLength(2)
    } finally {
      await emulator.close()
      await receiver.close()
    }
  })

  it('refuses to start with NODE_ENV=production', async () => {
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      await expect(startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET })).rejects.toThrow(/production/)
    } finally {
      process.env.NODE_ENV = previous
    }
  })
})

describe.runIf(existsSync('/usr/bin/chromium'))('stand-in stripe.js in Chromium', () => {
  let emulator: StripeEmulator
  let stripe: Stripe
  let shop: Server
  let shopUrl: string
  let browser: import('playwright-core').Browser

  beforeAll(async () => {
    emulator = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET })
    stripe = sdkFor(emulator)
    const reactBundle = await bundleReactCheckout()
    const csp = `default-src 'self'; script-src 'nonce-n0nce' ${emulator.url}; connect-src ${emulator.url}`
    shop = createServer((req, res) => {
      const url = new URL(req.url ?? '/', shopUrl)
      const secret = url.searchParams.get('secret') ?? ''
      const send = (type: string, body: string) =>
        void res.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': csp }).end(body)
      if (url.pathname === '/done') return send('text/html', '<p>done</p>')
      if (url.pathname === '/react-checkout.js') return send('text/javascript', reactBundle)
      if (url.pathname === '/react') return send('text/html', reactPage(emulator))
      send('text/html', checkoutPage(emulator, secret))
    })
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve))
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await closeServer(shop)
    await emulator.close()
  })

  async function openPage(path: '/checkout' | '/react') {
    const intent = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const page = await browser.newPage()
    const outside: string[] = []
    const problems: string[] = []
    page.on('request', (request) => {
      const origin = new URL(request.url()).origin
      if (origin !== shopUrl && origin !== emulator.url) outside.push(request.url())
    })
    page.on('console', (message) => {
      // A declined confirm is an HTTP 402, which Chromium logs as a failed resource.
      const expected = message.text().startsWith('Failed to load resource')
      if (!expected && (message.type() === 'error' || message.type() === 'warning')) problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))
    const query = new URLSearchParams({ pk: emulator.publishableKey, secret: intent.client_secret as string })
    await page.goto(`${shopUrl}${path}?${query}`)
    await page.getByText(/^ready/).waitFor()
    return { intent, page, outside, problems }
  }
  const openCheckout = () => openPage('/checkout')

  it('pays with 4242… and lands on return_url with redirect_status=succeeded', async () => {
    const { intent, page, outside } = await openCheckout()
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.waitForURL(/\/done\?/)
    const landed = new URL(page.url())
    expect(landed.searchParams.get('redirect_status')).toBe('succeeded')
    expect(landed.searchParams.get('payment_intent')).toBe(intent.id)
    expect(landed.searchParams.get('payment_intent_client_secret')).toBe(intent.client_secret)
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded')
    expect(outside).toEqual([])
    await page.close()
  }, 30_000)

  it('shows the decline message and stays on the page', async () => {
    const { page } = await openCheckout()
    await page.getByLabel('Card number').fill('4000 0000 0000 0002')
    await page.getByRole('button', { name: 'Pay' }).click()
    await expect.poll(() => page.locator('#message').textContent()).toBe('Your card was declined.')
    expect(new URL(page.url()).pathname).toBe('/checkout')
    await page.close()
  }, 30_000)

  it('works with loadStripe (pure) + <Elements> + <PaymentElement> + confirmPayment in StrictMode', async () => {
    const { intent, page, outside, problems } = await openPage('/react')
    await page.getByLabel('Card number').fill('4242424242424242')
    await page.getByText('ready complete').waitFor()
    await page.getByRole('button', { name: 'Pay' }).click()
    await page.waitForURL(/\/done\?/)
    expect(new URL(page.url()).searchParams.get('payment_intent')).toBe(intent.id)
    expect(new URL(page.url()).searchParams.get('redirect_status')).toBe('succeeded')
    expect(outside).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  }, 30_000)

  it('surfaces declines and validation errors through the React integration', async () => {
    const { page, problems } = await openPage('/react')
    await page.getByRole('button', { name: 'Pay' }).click()
    await expect.poll(() => page.locator('#message').textContent()).toBe('Your card number is incomplete.')
    await page.getByLabel('Card number').fill('4000000000009995')
    await page.getByRole('button', { name: 'Pay' }).click()
    await expect.poll(() => page.locator('#message').textContent()).toBe('Your card has insufficient funds.')
    expect(problems).toEqual([])
    await page.close()
  }, 30_000)
})

/** Bundles fixtures/react-checkout.ts (React in development mode, so StrictMode double-mounts). */
async function bundleReactCheckout(): Promise<string> {
  const { build } = await import('vite')
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'development',
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
    build: {
      write: false,
      minify: false,
      rollupOptions: { input: fileURLToPath(new URL('./fixtures/react-checkout.ts', import.meta.url)) },
    },
  })
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) => ('output' in item ? item.output : []))
  const entry = outputs.find((item) => item.type === 'chunk' && item.isEntry)
  if (!entry || entry.type !== 'chunk') throw new Error('Vite produced no entry chunk')
  return entry.code
}

function reactPage(emulator: StripeEmulator): string {
  return `<!doctype html>
<html><head>
  <script src="${emulator.scriptUrl}"></script>
  <script type="module" src="/react-checkout.js" nonce="n0nce"></script>
</head><body><div id="root"></div></body></html>`
}

function checkoutPage(emulator: StripeEmulator, clientSecret: string): string {
  return `<!doctype html>
<html><head><script src="${emulator.scriptUrl}"></script></head>
<body>
  <form id="checkout"><div id="payment"></div><button type="submit">Pay</button></form>
  <p id="status"></p><p id="message"></p>
  <script nonce="n0nce">
    const stripe = Stripe(${JSON.stringify(emulator.publishableKey)})
    const elements = stripe.elements({ clientSecret: ${JSON.stringify(clientSecret)} })
    const payment = elements.create('payment')
    payment.on('ready', () => { document.getElementById('status').textContent = 'ready' })
    payment.mount('#payment')
    document.getElementById('checkout').addEventListener('submit', async (event) => {
      event.preventDefault()
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: location.origin + '/done' },
      })
      if (error) document.getElementById('message').textContent = error.message
    })
  </script>
</body></html>`
}

describe('Stripe emulator data file (npm start keeps its payments across restarts)', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stripe-emulator-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const card = (number: string): Stripe.PaymentIntentConfirmParams.PaymentMethodData => ({
    type: 'card',
    // @ts-expect-error raw card numbers are accepted by test mode / the emulator, not typed by the SDK
    card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
  })

  it('lists an intent, its charge, refund and events after a restart on the same file; new ids are new', async () => {
    const dataFile = join(dir, 'restart.json')
    const first = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })
    const before = sdkFor(first)
    const intent = await before.paymentIntents.create(
      { amount: 4900, currency: 'eur', application_fee_amount: 490, metadata: { transactionId: 'sale-1' } },
      { idempotencyKey: 'checkout:sale-1' },
    )
    const paid = await before.paymentIntents.confirm(intent.id, { payment_method_data: card('4242424242424242') })
    const refund = await before.refunds.create({ payment_intent: intent.id, amount: 900 })
    const declined = await before.paymentIntents.create({ amount: 1200, currency: 'eur' })
    await rejection(before.paymentIntents.confirm(declined.id, { payment_method_data: card('4000000000000002') }))
    const eventIds = first.events.map((event) => event.id)
    await first.close()

    const second = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })
    try {
      const after = sdkFor(second)
      const again = await after.paymentIntents.retrieve(intent.id)
      expect(again).toMatchObject({ status: 'succeeded', amount: 4900, application_fee_amount: 490, latest_charge: paid.latest_charge })
      expect(again.metadata).toEqual({ transactionId: 'sale-1' })
      const charges = await after.charges.list({ limit: 10 })
      expect(charges.data.map((charge) => [charge.payment_intent, charge.status])).toEqual([
        [declined.id, 'failed'],
        [intent.id, 'succeeded'],
      ])
      const charge = await after.charges.retrieve(paid.latest_charge as string, { expand: ['refunds'] })
      expect(charge).toMatchObject({ amount_captured: 4900, amount_refunded: 900, refunded: false })
      expect(charge.refunds?.data.map((r) => r.id)).toEqual([refund.id])
      expect(await after.refunds.retrieve(refund.id)).toMatchObject({ amount: 900, charge: charge.id })
      expect(second.events.map((event) => event.id)).toEqual(eventIds)
      expect((await after.events.retrieve(eventIds[0]!)).type).toBe('payment_intent.created')
      // The rest of the refund, and a declined intent paid with another card, work on the restored objects.
      await after.refunds.create({ charge: charge.id })
      expect((await after.charges.retrieve(charge.id)).refunded).toBe(true)
      expect((await after.paymentIntents.confirm(declined.id, { payment_method_data: card('4242424242424242') })).status).toBe('succeeded')
      // A retry with the same idempotency key replays the first answer, as Stripe keeps keys.
      const replayed = await after.paymentIntents.create(
        { amount: 4900, currency: 'eur', application_fee_amount: 490, metadata: { transactionId: 'sale-1' } },
        { idempotencyKey: 'checkout:sale-1' },
      )
      expect(replayed.id).toBe(intent.id)
      const fresh = await after.paymentIntents.create({ amount: 100, currency: 'eur' })
      expect([intent.id, declined.id]).not.toContain(fresh.id)
      expect(new Set(second.events.map((event) => event.id)).size).toBe(second.events.length)
    } finally {
      await second.close()
    }
  })

  it('writes shortly after a change, without waiting for close (a killed process keeps its payments)', async () => {
    const dataFile = join(dir, 'debounced.json')
    const running = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })
    try {
      const intent = await sdkFor(running).paymentIntents.create({
        amount: 2500,
        currency: 'usd',
        confirm: true,
        payment_method: 'pm_card_visa',
      })
      await sleep(WRITE_DELAY_MS + 500)
      const reader = await startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })
      try {
        const charges = await sdkFor(reader).charges.list({ payment_intent: intent.id })
        expect(charges.data.map((charge) => [charge.id, charge.amount_captured])).toEqual([[intent.latest_charge, 2500]])
      } finally {
        await reader.close()
      }
    } finally {
      await running.close()
    }
  })

  it('refuses a data file it cannot read, naming it, rather than starting empty', async () => {
    const dataFile = join(dir, 'broken.json')
    writeFileSync(dataFile, '{"version":1,"messages":[]}')
    await expect(startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })).rejects.toThrow(
      /broken\.json has an unknown format/,
    )
    writeFileSync(dataFile, '{not json')
    await expect(startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, dataFile })).rejects.toThrow(/is not valid JSON/)
  })
})
