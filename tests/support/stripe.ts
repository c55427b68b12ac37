import { stripeEmulator, stripeWebhookForwardUrl, stripeWebhookSinkUrl } from './services.ts'

/*
 * Every integration test file has its own Stripe emulator (tests/support/services.ts, started for each
 * file), and the app's Stripe configuration points at it. Webhooks reach the app's real route: a tiny
 * local HTTP server receives the emulator's signed POSTs and hands them, byte for byte, to
 * callRoute(stripe-webhook) (the same middleware chain as the app). The helpers of such tests live here.
 */
export { stripeEmulator, stripeWebhookForwardUrl as webhookForwardUrl, stripeWebhookSecret as webhookSecret } from './services.ts'

/** Runs `work` with the emulator's events going to a sink that answers 200 instead of the app. */
export async function withWebhooksWithheld<T>(work: () => Promise<T>): Promise<T> {
  stripeEmulator.setWebhookUrl(stripeWebhookSinkUrl)
  try {
    const result = await work()
    await stripeEmulator.idle()
    return result
  } finally {
    stripeEmulator.setWebhookUrl(stripeWebhookForwardUrl)
  }
}

/** Waits until every webhook the emulator has sent so far was answered. */
export function webhooksDelivered(): Promise<void> {
  return stripeEmulator.idle()
}
