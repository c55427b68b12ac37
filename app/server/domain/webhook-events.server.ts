import { randomUUID } from 'node:crypto'
import { sql, type Transaction as DbTransaction, type Kysely } from 'kysely'
import type { WebhookEventType } from '~/lib/webhooks'
import type { DB, Review, Transaction, TransactionStatus } from '../../../db/schema.ts'
import { queueJob } from '../infra/jobs.server.ts'
import type { SaleChange } from './sale-effects.server.ts'
import type { WebhookEventData, WebhookPayloadType } from './webhook-payloads.server.ts'

/**
 * What our webhooks say and when (issue 29, decision 033). `queueWebhookEvent` writes one outbox row
 * (`webhook_deliveries`) per subscribed, enabled endpoint of the user, and its send job, inside the
 * caller's database transaction: the event exists if and only if the change that caused it commits.
 * The three places that cause events call it: the escrow machine's runner (a sale effect, the one
 * place sales change), review creation, and a payout batch marked sent (per seller). Each payload is
 * typed by its Zod schema (webhook-payloads.server.ts), from which the OpenAPI document's `webhooks`
 * section is generated (app/server/api/openapi-webhooks.server.ts).
 */

type Executor = Kysely<DB> | DbTransaction<DB>

export const WEBHOOK_SEND_TASK = 'webhook-send'
export const webhookSendJobKey = (deliveryId: string) => `${WEBHOOK_SEND_TASK}:${deliveryId}`
/** The queue's own retries cover a crashed or failing job; the delivery's backoff is ours (webhook-sender). */
export const WEBHOOK_JOB_MAX_ATTEMPTS = 5

/** The Standard Webhooks message id: the same on every attempt, so receivers process it once. */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`
}

export interface WebhookBody<T extends WebhookPayloadType = WebhookPayloadType> {
  type: T
  timestamp: string
  data: WebhookEventData<T>
}

/** Queues `type` for every enabled endpoint of `userId` subscribed to it (call ensureJobSchema() before the transaction). */
export async function queueWebhookEvent<T extends WebhookEventType>(
  trx: Executor,
  input: { userId: string; type: T; data: WebhookEventData<T>; now?: Date },
): Promise<string[]> {
  const endpoints = await trx
    .selectFrom('webhookEndpoints')
    .select('id')
    .where('userId', '=', input.userId)
    .where('disabledAt', 'is', null)
    .where(sql<boolean>`${input.type} = any(events)`)
    .execute()
  const ids: string[] = []
  for (const endpoint of endpoints) ids.push(await insertDelivery(trx, endpoint.id, input.type, input.data, input.now ?? new Date()))
  return ids
}

/** One delivery of `type` to one endpoint, and its send job. */
export async function insertDelivery<T extends WebhookPayloadType>(
  trx: Executor,
  endpointId: string,
  type: T,
  data: WebhookEventData<T>,
  now: Date,
): Promise<string> {
  const body: WebhookBody<T> = { type, timestamp: now.toISOString(), data }
  const row = await trx
    .insertInto('webhookDeliveries')
    .values({ endpointId, webhookId: newWebhookId(), eventType: type, body: JSON.stringify(body), createdAt: now, nextAttemptAt: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  await queueJob(
    trx,
    WEBHOOK_SEND_TASK,
    { deliveryId: row.id },
    { runAt: now, jobKey: webhookSendJobKey(row.id), maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS },
  )
  return row.id
}

// --- The sale events (a sale effect of the escrow machine) ------------------------------

const SALE_EVENT_ON_ENTER: Partial<Record<TransactionStatus, WebhookEventType>> = {
  paid: 'sale.paid',
  delivered: 'sale.delivered',
  completed: 'sale.completed',
  disputed: 'sale.disputed',
  refunded: 'sale.refunded',
}

/** What a sale event carries (SaleEventDataSchema, `WebhookSale` in the OpenAPI document). */
export async function salePayload(trx: Executor, sale: Transaction): Promise<WebhookEventData<'sale.paid'>> {
  const listing = await trx
    .selectFrom('listings')
    .select(['id', 'title', 'slug'])
    .where('id', '=', sale.listingId)
    .executeTakeFirstOrThrow()
  const iso = (date: Date | null) => date?.toISOString() ?? null
  return {
    id: sale.id,
    status: sale.status,
    listing: { id: listing.id, title: listing.title, slug: listing.slug },
    amountCents: sale.amountCents,
    currency: sale.currency,
    platformFeeCents: sale.applicationFeeCents,
    sellerShareCents: sale.sellerShareCents,
    createdAt: sale.createdAt.toISOString(),
    paidOutAt: iso(sale.paidAt),
    deliveredAt: iso(sale.deliveredAt),
    completedAt: iso(sale.completedAt),
    disputedAt: iso(sale.disputedAt),
    disputeReason: sale.disputeReason,
    refundedAt: iso(sale.refundedAt),
  }
}

/** The sale effect: entering paid, delivered, completed, disputed or refunded tells the seller's endpoints. */
export async function queueSaleWebhooks(trx: Executor, change: SaleChange): Promise<void> {
  if (change.from === change.to) return
  const type = SALE_EVENT_ON_ENTER[change.to]
  if (!type) return
  await queueWebhookEvent(trx, { userId: change.sale.sellerId, type, data: await salePayload(trx, change.sale), now: change.data.now })
}

/** review.created, in the review's transaction. */
export async function queueReviewWebhook(trx: Executor, review: Review, listing: { title: string; slug: string }): Promise<void> {
  await queueWebhookEvent(trx, {
    userId: review.sellerId,
    type: 'review.created',
    data: {
      id: review.id,
      saleId: review.transactionId,
      listing: { id: review.listingId, title: listing.title, slug: listing.slug },
      stars: review.stars,
      body: review.body,
      createdAt: review.createdAt.toISOString(),
    },
    now: review.createdAt,
  })
}

/** payout.sent, per seller of a batch marked sent, in that transaction (payout-batches.server.ts). */
export async function queuePayoutWebhook(
  trx: Executor,
  payout: { sellerId: string; batchId: string; bankReference: string; paidAt: Date; transactionIds: string[] },
): Promise<void> {
  const sales = await trx
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select(['transactions.id', 'transactions.currency', 'transactions.sellerShareCents', 'listings.title'])
    .where('transactions.id', 'in', payout.transactionIds)
    .orderBy('transactions.id')
    .execute()
  await queueWebhookEvent(trx, {
    userId: payout.sellerId,
    type: 'payout.sent',
    data: {
      batchId: payout.batchId,
      amountCents: sales.reduce((sum, sale) => sum + sale.sellerShareCents, 0),
      currency: sales[0]?.currency ?? 'usd',
      bankReference: payout.bankReference,
      paidAt: payout.paidAt.toISOString(),
      sales: sales.map((sale) => ({ saleId: sale.id, listingTitle: sale.title, sellerShareCents: sale.sellerShareCents })),
    },
    now: payout.paidAt,
  })
}
