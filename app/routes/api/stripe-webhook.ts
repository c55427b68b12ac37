import { WebhookAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { processStripeEvent } from '~/server/domain/stripe-webhook.server'
import { readTextBody } from '~/server/http/form-data.server'
import { apiError } from '~/server/http/responses.server'
import { logEvent } from '~/server/infra/log.server'
import { verifyWebhook } from '~/server/infra/stripe.server'

// POST /api/stripe/webhook: Stripe's signed events (it sends no cookie and no
// Origin; the signature over the raw body is the authentication). 400 when the
// signature, body or timestamp (5-minute tolerance) does not verify; 500 when
// applying it failed, so Stripe delivers it again.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.webhook, rateLimit: RATE_LIMITS.webhook },
  POST: {
    summary: 'Stripe events (signed)',
    description: 'Authenticated by the Stripe-Signature over the raw body (5-minute tolerance); 500 makes Stripe deliver it again.',
    tags: ['Webhooks'],
    errors: [500],
    answers: { 200: WebhookAnswerSchema },
    access: 'public',
    handler: async ({ request, context }) => {
      const raw = await readTextBody(request, context)
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
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
