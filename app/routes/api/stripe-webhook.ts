import { apiError } from '~/server/responses.server'
import { processStripeEvent } from '~/server/stripe-webhook.server'
import { logEvent } from '~/server/log.server'
import { verifyWebhook } from '~/server/stripe.server'
import type { Route } from './+types/stripe-webhook'

// POST /api/stripe/webhook: Stripe's signed events (exempt from the CSRF origin
// check; the signature over the raw body is the authentication). 400 when the
// signature, body or timestamp (5-minute tolerance) does not verify; 500 when
// applying it failed, so Stripe delivers it again.
export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const raw = await request.text()
  let event
  try {
    event = verifyWebhook(raw, request.headers.get('Stripe-Signature'))
  } catch (error) {
    logEvent('warn', 'webhook_signature_invalid', {
      category: 'security',
      message: error instanceof Error ? error.message : String(error),
    })
    return apiError(400, 'Invalid signature')
  }
  try {
    const result = await processStripeEvent(event)
    logEvent('info', 'webhook_event', { eventId: event.id, type: event.type, result })
    return { received: true, result }
  } catch (error) {
    logEvent('error', 'webhook_failed', {
      eventId: event.id,
      type: event.type,
      message: error instanceof Error ? error.message : String(error),
    })
    return apiError(500, 'Could not process the event')
  }
}
