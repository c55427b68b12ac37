import { z } from '~/lib/zod'

/**
 * Outgoing webhooks (issue 29, decision 033): the events a seller's endpoint can subscribe to, and
 * the form that registers or edits one. Shared by the server (what is sent, what the OpenAPI
 * document's `webhooks` section describes) and the dashboard's form.
 */
export const WEBHOOK_EVENTS = {
  'sale.paid': 'A buyer paid for one of your listings (the money is held in escrow)',
  'sale.delivered': 'Delivery was confirmed: your link was released, or GitHub confirmed the buyer’s access',
  'sale.completed': 'The buyer confirmed receipt, or the dispute window ended: your share is due',
  'sale.disputed': 'The buyer reported a problem, or the delivery failed: an admin decides',
  'sale.refunded': 'The buyer was refunded',
  'review.created': 'A buyer reviewed a purchase',
  'payout.sent': 'A bank transfer to you was sent (its sales and reference)',
} as const

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]]
/** The event "Send test event" sends; it needs no subscription. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

export const WEBHOOK_SECRET_PREFIX = 'whsec_'
/** How long the previous secret keeps signing after a rotation (both signatures are sent). */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24
/** Endpoints a seller may register. */
export const MAX_WEBHOOK_ENDPOINTS = 10
export const WEBHOOK_DESCRIPTION_MAX = 200
export const WEBHOOK_URL_MAX = 2000

export const SAVE_WEBHOOK_INTENT = 'save-endpoint'
export const ROTATE_WEBHOOK_INTENT = 'rotate-secret'
export const DELETE_WEBHOOK_INTENT = 'delete-endpoint'
export const ENABLE_WEBHOOK_INTENT = 'enable-endpoint'
export const TEST_WEBHOOK_INTENT = 'send-test'
export const RESEND_WEBHOOK_INTENT = 'resend'

export const WebhookEndpointFormSchema = z.object({
  intent: z.literal(SAVE_WEBHOOK_INTENT),
  url: z
    .string({ error: 'Enter the URL that receives the events' })
    .trim()
    .max(WEBHOOK_URL_MAX, `Please keep the URL under ${WEBHOOK_URL_MAX} characters`)
    .refine((value) => URL.canParse(value), 'Enter a full URL, e.g. https://example.com/webhooks/forkmarket'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Choose an event from the list' }), { error: 'Choose at least one event' })
    .min(1, 'Choose at least one event'),
  description: z
    .string()
    .trim()
    .max(WEBHOOK_DESCRIPTION_MAX, `Please keep the description under ${WEBHOOK_DESCRIPTION_MAX} characters`)
    .optional(),
})

export type WebhookEndpointForm = z.output<typeof WebhookEndpointFormSchema>
