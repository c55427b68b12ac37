import { SALE_STATUSES } from '~/lib/escrow'
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '~/lib/webhooks'
import { z } from '~/lib/zod'

/**
 * What each webhook event carries in `data` (issue 29, decision 033): one Zod schema per payload.
 * The builders in webhook-events.server.ts return these types (the compiler checks them), and the
 * OpenAPI document's `webhooks` section is generated from the same schemas
 * (app/server/api/openapi-webhooks.server.ts), so the description cannot drift from what is sent.
 */

const Timestamp = z.iso.datetime({ offset: true })
const Cents = z.number().int()
const ListingRef = z.strictObject({ id: z.string(), title: z.string(), slug: z.string() })

export const SaleEventDataSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum([...SALE_STATUSES, 'pending_payment', 'failed']),
    listing: ListingRef,
    amountCents: Cents,
    currency: z.string().meta({ description: 'ISO 4217, lower case' }),
    platformFeeCents: Cents,
    sellerShareCents: Cents,
    createdAt: Timestamp,
    paidOutAt: Timestamp.nullable().meta({
      description: 'When the seller was paid their share (a payout sent or marked paid); null until then',
    }),
    deliveredAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    disputedAt: Timestamp.nullable(),
    disputeReason: z.string().nullable(),
    refundedAt: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookSale', description: 'The sale as it is after the change' })

export const ReviewEventDataSchema = z
  .strictObject({
    id: z.string(),
    saleId: z.string(),
    listing: ListingRef,
    stars: z.number().int().min(1).max(5),
    body: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'WebhookReview' })

export const PayoutEventDataSchema = z
  .strictObject({
    batchId: z.string(),
    amountCents: Cents.meta({ description: 'Your share of the sales paid, in total' }),
    currency: z.string(),
    bankReference: z.string(),
    paidAt: Timestamp,
    sales: z.array(z.strictObject({ saleId: z.string(), listingTitle: z.string(), sellerShareCents: Cents })),
  })
  .meta({ id: 'WebhookPayout' })

export const TestEventDataSchema = z
  .strictObject({ endpointId: z.string(), message: z.string() })
  .meta({ id: 'WebhookTest', description: 'Sent by "Send test event"; no subscription needed' })

export const WEBHOOK_PAYLOAD_SCHEMAS = {
  'sale.paid': SaleEventDataSchema,
  'sale.delivered': SaleEventDataSchema,
  'sale.completed': SaleEventDataSchema,
  'sale.disputed': SaleEventDataSchema,
  'sale.refunded': SaleEventDataSchema,
  'review.created': ReviewEventDataSchema,
  'payout.sent': PayoutEventDataSchema,
  [WEBHOOK_TEST_EVENT]: TestEventDataSchema,
} as const satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, z.ZodType>

export type WebhookPayloadType = keyof typeof WEBHOOK_PAYLOAD_SCHEMAS
/** The `data` of an event of `type`. */
export type WebhookEventData<T extends WebhookPayloadType> = z.output<(typeof WEBHOOK_PAYLOAD_SCHEMAS)[T]>
