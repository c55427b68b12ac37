import { Webhook } from 'standardwebhooks'
import { isUuid } from '~/lib/ids'
import { WEBHOOK_TEST_EVENT } from '~/lib/webhooks'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, queueJob, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { postGuarded, type AddressPolicy } from '../infra/webhook-http.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'
import { signingSecrets, webhookAddressPolicy } from './webhook-endpoints.server.ts'
import { insertDelivery, WEBHOOK_JOB_MAX_ATTEMPTS, WEBHOOK_SEND_TASK, webhookSendJobKey } from './webhook-events.server.ts'

/**
 * Sends the webhook outbox (issue 29, decision 033), Standard Webhooks 1.0: headers `webhook-id`
 * (the same on every attempt), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256
 * of id.timestamp.body>`, one per active secret, space-separated), signed by the `standardwebhooks`
 * package. At least once: a short transaction claims the row (FOR UPDATE SKIP LOCKED, then
 * `sending_since`), the POST goes with no transaction open (decision 028), a second transaction
 * records the attempt and the next one. 2xx is success; anything else, a timeout or a refused
 * address is retried on RETRY_SCHEDULE_MS (about three days). An endpoint failing without a success
 * for DISABLE_AFTER_MS is disabled and its owner told, by mail and in the app.
 */

/** Wait before each attempt after the first (Standard Webhooks' suggested schedule, stretched to ~3 days). */
export const RETRY_SCHEDULE_MS = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000)
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1
/** An endpoint failing this long since its last success is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000
/** A claim older than this is a crashed sender's (an attempt lasts at most 10 s). */
export const SEND_CLAIM_MS = 2 * 60_000
/** What the delivery log keeps of an answer. */
export const ANSWER_EXCERPT_CHARS = 2000

export type SendResult = 'succeeded' | 'retrying' | 'failed' | 'skipped'

/** The Standard Webhooks headers of one attempt: every active secret signs. */
export function signedHeaders(webhookId: string, at: Date, body: string, secrets: string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body))
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': signatures.join(' '),
  }
}

/** One attempt of one delivery, if it is due and nobody else is sending it. */
export async function sendWebhookDelivery(deliveryId: string, options: { now?: Date; policy?: AddressPolicy } = {}): Promise<SendResult> {
  const now = options.now ?? new Date()
  const claimed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('webhookDeliveries')
      .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
      .select([
        'webhookDeliveries.id',
        'webhookDeliveries.webhookId',
        'webhookDeliveries.body',
        'webhookDeliveries.status',
        'webhookDeliveries.nextAttemptAt',
        'webhookDeliveries.sendingSince',
        'webhookEndpoints.url',
        'webhookEndpoints.disabledAt',
        'webhookEndpoints.secretSealed',
        'webhookEndpoints.previousSecretSealed',
        'webhookEndpoints.previousSecretExpiresAt',
      ])
      .where('webhookDeliveries.id', '=', deliveryId)
      .forUpdate('webhookDeliveries')
      .skipLocked()
      .executeTakeFirst()
    if (!row || row.status !== 'pending' || row.nextAttemptAt > now) return null
    if (row.sendingSince && now.getTime() - row.sendingSince.getTime() < SEND_CLAIM_MS) return null
    if (row.disabledAt) {
      await trx
        .updateTable('webhookDeliveries')
        .set({ status: 'failed', lastError: 'The endpoint is disabled', completedAt: now, sendingSince: null })
        .where('id', '=', row.id)
        .execute()
      return 'disabled' as const
    }
    await trx.updateTable('webhookDeliveries').set({ sendingSince: now }).where('id', '=', row.id).execute()
    return row
  })
  if (claimed === null) return 'skipped'
  if (claimed === 'disabled') return 'failed'

  const outcome = await postGuarded(
    claimed.url,
    signedHeaders(claimed.webhookId, now, claimed.body, signingSecrets(claimed, now)),
    claimed.body,
    {
      policy: options.policy ?? webhookAddressPolicy(),
    },
  )
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300
  const after = new Date(now.getTime() + outcome.durationMs)
  await ensureJobSchema()
  return db.transaction().execute(async (trx) => {
    const delivery = await trx
      .selectFrom('webhookDeliveries')
      .select(['id', 'endpointId', 'attempts', 'eventType'])
      .where('id', '=', deliveryId)
      .forUpdate()
      .executeTakeFirst()
    if (!delivery) return 'skipped' // the endpoint was deleted meanwhile
    await trx
      .insertInto('webhookAttempts')
      .values({
        deliveryId,
        attemptedAt: now,
        url: claimed.url,
        webhookTimestamp: Math.floor(now.getTime() / 1000),
        status: outcome.status,
        error: outcome.error ?? (ok ? null : `HTTP ${outcome.status}`),
        responseExcerpt: outcome.body.slice(0, ANSWER_EXCERPT_CHARS),
        durationMs: outcome.durationMs,
      })
      .execute()
    const attempts = delivery.attempts + 1
    const endpoint = await trx
      .selectFrom('webhookEndpoints')
      .select(['id', 'userId', 'url', 'failingSince', 'disabledAt'])
      .where('id', '=', delivery.endpointId)
      .forUpdate()
      .executeTakeFirstOrThrow()
    const lastError = ok ? null : (outcome.error ?? `HTTP ${outcome.status}`)
    if (ok) {
      await trx
        .updateTable('webhookDeliveries')
        .set({ status: 'succeeded', attempts, lastStatus: outcome.status, lastError, completedAt: after, sendingSince: null })
        .where('id', '=', deliveryId)
        .execute()
      await trx.updateTable('webhookEndpoints').set({ failingSince: null }).where('id', '=', endpoint.id).execute()
      return 'succeeded'
    }
    const failingSince = endpoint.failingSince ?? now
    const disable = !endpoint.disabledAt && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS
    const giveUp = attempts >= MAX_ATTEMPTS || disable || endpoint.disabledAt !== null
    const nextAttemptAt = giveUp ? now : new Date(after.getTime() + RETRY_SCHEDULE_MS[attempts - 1]!)
    await trx
      .updateTable('webhookDeliveries')
      .set({
        status: giveUp ? 'failed' : 'pending',
        attempts,
        lastStatus: outcome.status,
        lastError,
        nextAttemptAt,
        completedAt: giveUp ? after : null,
        sendingSince: null,
      })
      .where('id', '=', deliveryId)
      .execute()
    await trx
      .updateTable('webhookEndpoints')
      .set(
        disable
          ? { failingSince, disabledAt: now, disabledReason: `No successful delivery since ${failingSince.toISOString()}: ${lastError}` }
          : { failingSince },
      )
      .where('id', '=', endpoint.id)
      .execute()
    if (disable) await disabledForFailing(trx, endpoint, failingSince, lastError ?? 'failed', now)
    if (!giveUp) {
      await queueJob(
        trx,
        WEBHOOK_SEND_TASK,
        { deliveryId },
        { runAt: nextAttemptAt, jobKey: webhookSendJobKey(deliveryId), maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS },
      )
    }
    logEvent('warn', 'webhook_delivery_failed', {
      deliveryId,
      endpointId: endpoint.id,
      attempts,
      status: outcome.status,
      error: lastError,
      giveUp,
    })
    return giveUp ? 'failed' : 'retrying'
  })
}

type Trx = Parameters<Parameters<ReturnType<typeof db.transaction>['execute']>[0]>[0]

async function disabledForFailing(
  trx: Trx,
  endpoint: { id: string; userId: string; url: string },
  failingSince: Date,
  lastError: string,
  now: Date,
): Promise<void> {
  await recordAudit(trx, {
    actorId: null,
    actorRole: 'system',
    action: 'webhook_endpoint.disable',
    entityType: 'webhook_endpoint',
    entityId: endpoint.id,
    fromState: 'enabled',
    toState: 'disabled',
    reason: `Failing since ${failingSince.toISOString()}`,
  })
  const kind = 'webhook_endpoint_disabled'
  await notify(trx, {
    kind,
    userId: endpoint.userId,
    dedupeKey: `${kind}:${endpoint.id}:${now.toISOString()}`,
    data: { endpointId: endpoint.id, url: endpoint.url, failingSince: failingSince.toISOString(), lastError },
    now,
  })
}

// --- What the owner does from the delivery log --------------------------------------------

/** Sends a delivery again (same webhook-id: a receiver that processed it already ignores it). */
export async function resendWebhookDelivery(userId: string, deliveryId: string, now = new Date()): Promise<void> {
  if (!isUuid(deliveryId)) throw new AppError(404, 'Delivery not found')
  await ensureJobSchema()
  await db.transaction().execute(async (trx) => {
    const delivery = await trx
      .selectFrom('webhookDeliveries')
      .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
      .select([
        'webhookDeliveries.id',
        'webhookDeliveries.status',
        'webhookDeliveries.webhookId',
        'webhookEndpoints.disabledAt',
        'webhookEndpoints.id as endpointId',
      ])
      .where('webhookDeliveries.id', '=', deliveryId)
      .where('webhookEndpoints.userId', '=', userId)
      .forUpdate('webhookDeliveries')
      .executeTakeFirst()
    if (!delivery) throw new AppError(404, 'Delivery not found')
    if (delivery.disabledAt) throw new AppError(409, 'Enable the endpoint before sending to it again')
    if (delivery.status === 'pending') throw new AppError(409, 'This delivery is still being sent')
    await trx
      .updateTable('webhookDeliveries')
      .set({ status: 'pending', nextAttemptAt: now, completedAt: null, sendingSince: null })
      .where('id', '=', delivery.id)
      .execute()
    await queueJob(
      trx,
      WEBHOOK_SEND_TASK,
      { deliveryId },
      { runAt: now, jobKey: webhookSendJobKey(deliveryId), maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS },
    )
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'seller',
      action: 'webhook_delivery.resend',
      entityType: 'webhook_endpoint',
      entityId: delivery.endpointId,
      fromState: delivery.status,
      toState: 'pending',
      metadata: { webhookId: delivery.webhookId },
    })
  })
}

/** Queues a `webhook.test` event to one endpoint (no subscription needed). */
export async function sendTestWebhook(userId: string, endpointId: string, now = new Date()): Promise<string> {
  if (!isUuid(endpointId)) throw new AppError(404, 'Endpoint not found')
  await ensureJobSchema()
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx
      .selectFrom('webhookEndpoints')
      .select(['id', 'disabledAt'])
      .where('id', '=', endpointId)
      .where('userId', '=', userId)
      .executeTakeFirst()
    if (!endpoint) throw new AppError(404, 'Endpoint not found')
    if (endpoint.disabledAt) throw new AppError(409, 'Enable the endpoint before sending to it again')
    const id = await insertDelivery(
      trx,
      endpoint.id,
      WEBHOOK_TEST_EVENT,
      { endpointId, message: 'A test event sent from your Forkmarket dashboard.' },
      now,
    )
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'seller',
      action: 'webhook_endpoint.send_test',
      entityType: 'webhook_endpoint',
      entityId: endpoint.id,
      metadata: { deliveryId: id },
    })
    return id
  })
}

// --- The delivery log ----------------------------------------------------------------------

export async function endpointDeliveries(userId: string, endpointId: string, limit = 50) {
  if (!isUuid(endpointId)) return []
  const deliveries = await db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
    .select([
      'webhookDeliveries.id',
      'webhookDeliveries.webhookId',
      'webhookDeliveries.eventType',
      'webhookDeliveries.body',
      'webhookDeliveries.status',
      'webhookDeliveries.attempts',
      'webhookDeliveries.nextAttemptAt',
      'webhookDeliveries.lastStatus',
      'webhookDeliveries.lastError',
      'webhookDeliveries.createdAt',
    ])
    .where('webhookDeliveries.endpointId', '=', endpointId)
    .where('webhookEndpoints.userId', '=', userId)
    .orderBy('webhookDeliveries.createdAt', 'desc')
    .limit(limit)
    .execute()
  const attempts = deliveries.length
    ? await db
        .selectFrom('webhookAttempts')
        .select(['deliveryId', 'attemptedAt', 'status', 'error', 'responseExcerpt', 'durationMs'])
        .where(
          'deliveryId',
          'in',
          deliveries.map((d) => d.id),
        )
        .orderBy('attemptedAt', 'desc')
        .execute()
    : []
  return deliveries.map((delivery) => ({ ...delivery, log: attempts.filter((a) => a.deliveryId === delivery.id) }))
}
export type DeliveryLogEntry = Awaited<ReturnType<typeof endpointDeliveries>>[number]

/** The latest delivery of each of the user's endpoints (the endpoints list's "Last delivery"), by endpoint id. */
export async function lastWebhookDeliveries(userId: string) {
  const rows = await db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
    .distinctOn('webhookDeliveries.endpointId')
    .select([
      'webhookDeliveries.endpointId',
      'webhookDeliveries.eventType',
      'webhookDeliveries.status',
      'webhookDeliveries.lastStatus',
      'webhookDeliveries.createdAt',
    ])
    .where('webhookEndpoints.userId', '=', userId)
    .orderBy('webhookDeliveries.endpointId')
    .orderBy('webhookDeliveries.createdAt', 'desc')
    .execute()
  return Object.fromEntries(rows.map(({ endpointId, ...last }) => [endpointId, last]))
}

// --- Jobs ----------------------------------------------------------------------------------

/** Pending deliveries whose job was lost or gave up (the database was down while it ran): queued again. */
export async function requeueDueWebhooks(now = new Date()): Promise<number> {
  await ensureJobSchema()
  const due = await db
    .selectFrom('webhookDeliveries')
    .select('id')
    .where('status', '=', 'pending')
    // A minute late: the row's own job had its chance (queueing again with its key only moves it).
    .where('nextAttemptAt', '<=', new Date(now.getTime() - 60_000))
    .where((eb) => eb.or([eb('sendingSince', 'is', null), eb('sendingSince', '<', new Date(now.getTime() - SEND_CLAIM_MS))]))
    .limit(500)
    .execute()
  for (const row of due) {
    await queueJob(
      db,
      WEBHOOK_SEND_TASK,
      { deliveryId: row.id },
      { runAt: now, jobKey: webhookSendJobKey(row.id), maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS },
    )
  }
  return due.length
}

export const WEBHOOK_JOBS: readonly JobDefinition[] = [
  {
    name: WEBHOOK_SEND_TASK,
    task: async (payload) => {
      const deliveryId = (payload as { deliveryId?: unknown } | null)?.deliveryId
      if (typeof deliveryId === 'string') await sendWebhookDelivery(deliveryId)
    },
  },
  {
    name: 'webhook-sweep',
    sweep: '*/5 * * * *',
    task: async () => {
      await requeueDueWebhooks()
    },
  },
]
