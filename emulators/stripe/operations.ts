/**
 * The Stripe API operations and webhook events the emulator implements: one list used by the route
 * table (api.ts), by `extract-openapi.ts` (which copies exactly their schemas from Stripe's OpenAPI
 * description into `openapi-subset.json`) and by the contract test (which validates every response
 * and every event the emulator gives against them).
 */

export interface Operation {
  /** Stripe's operationId, e.g. 'PostPaymentIntents'. */
  operationId: string
  method: 'GET' | 'POST'
  /** The OpenAPI path template, e.g. '/v1/payment_intents/{intent}'. */
  path: string
}

export const OPERATIONS = [
  { operationId: 'PostPaymentIntents', method: 'POST', path: '/v1/payment_intents' },
  { operationId: 'GetPaymentIntentsIntent', method: 'GET', path: '/v1/payment_intents/{intent}' },
  { operationId: 'PostPaymentIntentsIntent', method: 'POST', path: '/v1/payment_intents/{intent}' },
  { operationId: 'PostPaymentIntentsIntentConfirm', method: 'POST', path: '/v1/payment_intents/{intent}/confirm' },
  { operationId: 'PostPaymentIntentsIntentCancel', method: 'POST', path: '/v1/payment_intents/{intent}/cancel' },
  { operationId: 'PostRefunds', method: 'POST', path: '/v1/refunds' },
  { operationId: 'GetRefunds', method: 'GET', path: '/v1/refunds' },
  { operationId: 'GetRefundsRefund', method: 'GET', path: '/v1/refunds/{refund}' },
  { operationId: 'GetCharges', method: 'GET', path: '/v1/charges' },
  { operationId: 'GetChargesCharge', method: 'GET', path: '/v1/charges/{charge}' },
  { operationId: 'GetPaymentMethodsPaymentMethod', method: 'GET', path: '/v1/payment_methods/{payment_method}' },
  { operationId: 'GetEventsId', method: 'GET', path: '/v1/events/{id}' },
] as const satisfies readonly Operation[]

export type OperationId = (typeof OPERATIONS)[number]['operationId']

export function operation(operationId: OperationId): Operation {
  return OPERATIONS.find((op) => op.operationId === operationId)!
}

/**
 * The event types the emulator sends, each with the schema of its `data.object` (Stripe's
 * description types an event's `data.object` loosely; its docs name the object of each type).
 */
export const WEBHOOK_EVENTS = {
  'payment_intent.created': 'payment_intent',
  'payment_intent.requires_action': 'payment_intent',
  'payment_intent.succeeded': 'payment_intent',
  'payment_intent.payment_failed': 'payment_intent',
  'payment_intent.canceled': 'payment_intent',
  'charge.succeeded': 'charge',
  'charge.failed': 'charge',
  'charge.refunded': 'charge',
  'refund.created': 'refund',
} as const satisfies Record<string, string>

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS

/**
 * The objects the emulator can expand (`expand[]=…`): an expandable field naming another of these
 * keeps its schema in the subset; any other expansion target is left as a bare object there.
 */
export const EXPANDABLE_OBJECTS = ['charge', 'payment_intent', 'payment_method', 'refund'] as const
