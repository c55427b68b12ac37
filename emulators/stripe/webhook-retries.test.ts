import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { startStripeEmulator, STRIPE_RETRY_SCHEDULE_MS, type StripeEvent } from './server.ts'
import { sdkFor, startReceiver, type Received } from './test-support.ts'

/*
 * Webhook retries on Stripe's schedule (live mode: "up to 3 days with an exponential back off"),
 * run in milliseconds with `timeScale`. Each retry is the same event, signed afresh.
 */

const WEBHOOK_SECRET = 'whsec_retries_test'
const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** The signature's timestamp, in seconds. */
const signedAt = (delivery: Received) => Number(/t=(\d+)/.exec(delivery.headers['stripe-signature'] as string)?.[1])

describe('Stripe emulator: webhook retries', () => {
  it('waits exponentially longer between attempts, for up to 3 days', () => {
    expect(STRIPE_RETRY_SCHEDULE_MS.map((ms) => ms / MINUTE)).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 720, 720, 720, 720])
    const total = STRIPE_RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0)
    expect(total).toBeLessThanOrEqual(72 * HOUR)
    expect(total).toBeGreaterThan(60 * HOUR)
  })

  it('an endpoint failing twice then answering 200 gets the same event three times, each signed when sent', async () => {
    let skipped = 0
    let failures = 0
    const receiver = await startReceiver(() => {
      if (failures === 2) return 200
      failures += 1
      skipped += 5 * HOUR // the app is down for hours between attempts
      return 503
    })
    const emulator = await startStripeEmulator({
      port: 0,
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: receiver.url,
      now: () => Date.now() + skipped,
      timeScale: 1e-5,
    })
    try {
      const stripe = sdkFor(emulator)
      const intent = await stripe.paymentIntents.create({ amount: 1900, currency: 'usd' })
      await emulator.idle()

      const [event] = emulator.events
      expect((event?.data.object as { id: string }).id).toBe(intent.id)
      expect(emulator.deliveries).toEqual([
        { eventId: event!.id, status: 503, attempt: 1 },
        { eventId: event!.id, status: 503, attempt: 2 },
        { eventId: event!.id, status: 200, attempt: 3 },
      ])
      expect(receiver.received.map((d) => (JSON.parse(d.raw) as StripeEvent).id)).toEqual([event!.id, event!.id, event!.id])
      // The same body each time (the event as it was created), under a signature made at the attempt.
      expect(new Set(receiver.received.map((d) => d.raw)).size).toBe(1)
      const times = receiver.received.map(signedAt)
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(5 * 3600)
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(5 * 3600)
      for (const delivery of receiver.received) {
        const header = delivery.headers['stripe-signature'] as string
        const verified = stripe.webhooks.constructEvent(delivery.raw, header, WEBHOOK_SECRET, 300, undefined, signedAt(delivery) * 1000)
        expect(verified.id).toBe(event!.id)
      }
      // The first attempt's signature, 10 hours older, would be refused at the third's time.
      expect(() =>
        stripe.webhooks.constructEvent(
          receiver.received[2]!.raw,
          receiver.received[0]!.headers['stripe-signature'] as string,
          WEBHOOK_SECRET,
          300,
          undefined,
          signedAt(receiver.received[2]!) * 1000,
        ),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError)
    } finally {
      await emulator.close()
      await receiver.close()
    }
  })

  it('scales the waits by timeScale, and keeps retrying past three attempts', async () => {
    const arrivals: number[] = []
    const receiver = await startReceiver(() => {
      arrivals.push(performance.now())
      return arrivals.length < 4 ? 500 : 204
    })
    const emulator = await startStripeEmulator({
      port: 0,
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: receiver.url,
      webhookRetryDelaysMs: [MINUTE, 2 * MINUTE, 4 * MINUTE, HOUR],
      timeScale: 1 / 1000, // a minute in 60 ms
    })
    try {
      await sdkFor(emulator).paymentIntents.create({ amount: 100, currency: 'usd' })
      await emulator.idle()
      expect(emulator.deliveries.map((d) => d.status)).toEqual([500, 500, 500, 204])
      const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!)
      expect(gaps[0]).toBeGreaterThanOrEqual(55)
      expect(gaps[1]).toBeGreaterThanOrEqual(115)
      expect(gaps[2]).toBeGreaterThanOrEqual(235)
      expect(arrivals[3]! - arrivals[0]!).toBeLessThan(2_000)
    } finally {
      await emulator.close()
      await receiver.close()
    }
  })

  it('refuses a time scale that is not a positive number', async () => {
    await expect(startStripeEmulator({ port: 0, webhookSecret: WEBHOOK_SECRET, timeScale: 0 })).rejects.toThrow(/timeScale/)
  })
})
