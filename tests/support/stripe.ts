import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'
import { startStripeEmulator } from '../../emulators/stripe/server.ts'
import { setEnv } from './config.ts'
import { startWebhookForwarder } from './webhook-forwarder.ts'

/*
 * Each integration test file that imports this gets its own Stripe emulator
 * (port 0), and the app's Stripe configuration points at it. Import it before
 * any app module. Webhooks reach the app's real route: a tiny local HTTP
 * server receives the emulator's signed POSTs and hands them, byte for byte,
 * to callRoute(stripe-webhook) (the same middleware chain as the app).
 */
export const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`
// Stripe's 3 days of webhook retries in about 3 s (a test where the app answers 5xx still ends).
export const stripeEmulator = await startStripeEmulator({ port: 0, webhookSecret, timeScale: 1e-5 })

setEnv({
  STRIPE_SECRET_KEY: stripeEmulator.secretKey,
  STRIPE_PUBLISHABLE_KEY: stripeEmulator.publishableKey,
  STRIPE_API_BASE: stripeEmulator.url,
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  STRIPE_JS_URL: stripeEmulator.scriptUrl,
})

const forwarder = await startWebhookForwarder({
  path: '/api/stripe/webhook',
  route: () => import('../../app/routes/api/stripe-webhook.ts'),
})
export const webhookForwardUrl = forwarder.url
stripeEmulator.setWebhookUrl(webhookForwardUrl)

// A sink that answers 200 to every event without telling the app: tests that
// replay real events in orders of their choosing collect them this way.
const sink = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'))
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`

/** Runs `work` with the emulator's events going to the sink instead of the app. */
export async function withWebhooksWithheld<T>(work: () => Promise<T>): Promise<T> {
  stripeEmulator.setWebhookUrl(sinkUrl)
  try {
    const result = await work()
    await stripeEmulator.idle()
    return result
  } finally {
    stripeEmulator.setWebhookUrl(webhookForwardUrl)
  }
}

/** Waits until every webhook the emulator has sent so far was answered. */
export function webhooksDelivered(): Promise<void> {
  return stripeEmulator.idle()
}

afterAll(async () => {
  await stripeEmulator.close()
  await forwarder.close()
  await new Promise<void>((resolve) => sink.close(() => resolve()))
})
