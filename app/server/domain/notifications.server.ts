import { sql, type Transaction as DbTransaction, type Kysely } from 'kysely'
import { notificationContent } from '~/emails/content'
import type { NotificationKind } from '~/lib/notifications'
import type { DB } from '../../../db/schema.ts'
import { queueJob } from '../infra/jobs.server.ts'

/**
 * Notifications (issue 17, docs/decisions/016-notifications-outbox.md).
 *
 * `notify(trx, …)` is the one way to tell someone something. It runs inside the
 * caller's database transaction, next to the change that causes it, and writes:
 *   - an outbox row (`notification_outbox`): the e-mail to send, unique on
 *     `dedupeKey` (INSERT … ON CONFLICT DO NOTHING), so a replayed webhook, a
 *     retried job or a racing request writes it once;
 *   - the in-app row (`notifications`, the bell), with the same key;
 *   - a graphile-worker job keyed on the outbox row (`notification-send:<id>`)
 *     that sends it at `sendAfter` (notification-sender.server.ts).
 * If the transaction rolls back, none of the three exists.
 *
 * Dedupe keys are "<event>:<sale or user or batch id>:<recipient id>"; pass the
 * recipient in the key whenever one event tells several people.
 *
 * Batching (e.g. new messages on a sale: one mail for several within minutes):
 * pass `batch: { key, windowMs, maxDelayMs? }`. Each event still needs its own
 * `dedupeKey` (the message id: a replayed event is ignored), and gets its own
 * in-app row. For the mail, while an UNSENT outbox row with the same batch key
 * exists, the event is merged into it instead of writing a new one:
 * `payload.count` goes up by one, `payload.items` gains the event's `data`
 * (the last 10 are kept), `payload.latest` is the event's `data`, and its
 * send-after moves to now + windowMs, never later than its creation +
 * maxDelayMs (default 15 minutes), so a busy conversation still mails. Once
 * the row is sent (or being sent: the sender holds its row lock), the next
 * event opens a new batch. A batch row's payload is `{ count, items, latest }`.
 */

export type Executor = Kysely<DB> | DbTransaction<DB>
export type NotificationData = Record<string, unknown>

export interface NotifyInput {
  kind: NotificationKind | (string & {})
  userId: string
  dedupeKey: string
  data: NotificationData
  /** When the mail may go out (default: now). */
  sendAfter?: Date
  /** Merge later events of the same key into one unsent mail (see above). */
  batch?: { key: string; windowMs: number; maxDelayMs?: number }
  /** The in-app row's text, when the kind has no copy in app/emails/content.ts (null: no in-app row). */
  inApp?: { title: string; body: string; link: string | null } | null
  now?: Date
}

export interface NotifyResult {
  /** The outbox row the mail is in (new or merged), or null when the key was seen before. */
  outboxId: string | null
  merged: boolean
}

export const SEND_TASK = 'notification-send'
export const sendJobKey = (outboxId: string) => `${SEND_TASK}:${outboxId}`
const BATCH_ITEMS_KEPT = 10
const DEFAULT_BATCH_MAX_DELAY_MS = 15 * 60_000
/** Attempts the queue makes per row before the sweep takes over (graphile-worker backs off exponentially). */
export const SEND_MAX_ATTEMPTS = 25

/**
 * Writes one notification (outbox row + in-app row + send job) in the caller's
 * transaction. The caller must have called ensureJobSchema() before opening it
 * (the escrow machine's `fire` does).
 */
export async function notify(trx: Executor, input: NotifyInput): Promise<NotifyResult> {
  const now = input.now ?? new Date()
  const sendAfter = input.sendAfter ?? now
  let outboxId: string | null = null
  const merged = false

  if (input.batch) {
    // The event itself is deduplicated by its in-app row's key (one per event).
    const fresh = await insertInApp(trx, input, now)
    if (!fresh) return { outboxId: null, merged: false }
    const merge = () => mergeIntoOpenBatch(trx, input, now)
    const open = await merge()
    if (open) return { outboxId: open, merged: true }
    const pushed = new Date(now.getTime() + input.batch.windowMs)
    const inserted = await trx
      .insertInto('notificationOutbox')
      .values({
        dedupeKey: input.dedupeKey,
        batchKey: input.batch.key,
        userId: input.userId,
        kind: input.kind,
        payload: JSON.stringify({ count: 1, items: [input.data], latest: input.data }),
        createdAt: now,
        sendAfter: new Date(Math.max(sendAfter.getTime(), pushed.getTime())),
      })
      // No target: a first event racing another one conflicts on the open-batch index
      // (PostgreSQL waits for the other transaction), and is then merged into its row.
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'sendAfter'])
      .executeTakeFirst()
    if (!inserted) {
      const raced = await merge()
      return { outboxId: raced, merged: raced !== null }
    }
    outboxId = inserted.id
    await queueJob(
      trx,
      SEND_TASK,
      { outboxId },
      { runAt: inserted.sendAfter, jobKey: sendJobKey(outboxId), maxAttempts: SEND_MAX_ATTEMPTS },
    )
    return { outboxId, merged }
  }

  const inserted = await trx
    .insertInto('notificationOutbox')
    .values({
      dedupeKey: input.dedupeKey,
      userId: input.userId,
      kind: input.kind,
      payload: JSON.stringify(input.data),
      createdAt: now,
      sendAfter,
    })
    .onConflict((oc) => oc.column('dedupeKey').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return { outboxId: null, merged: false }
  outboxId = inserted.id
  await insertInApp(trx, input, now)
  await queueJob(trx, SEND_TASK, { outboxId }, { runAt: sendAfter, jobKey: sendJobKey(outboxId), maxAttempts: SEND_MAX_ATTEMPTS })
  return { outboxId, merged }
}

/** Merges an event into its batch's unsent row (see above) and moves the row's job; null when none is open. */
async function mergeIntoOpenBatch(trx: Executor, input: NotifyInput, now: Date): Promise<string | null> {
  const batch = input.batch!
  const maxDelayMs = batch.maxDelayMs ?? DEFAULT_BATCH_MAX_DELAY_MS
  const pushed = new Date(now.getTime() + batch.windowMs)
  const data = JSON.stringify(input.data)
  const open = await trx
    .updateTable('notificationOutbox')
    .set({
      payload: sql`jsonb_build_object(
        'count', coalesce((payload->>'count')::int, 1) + 1,
        'items', (SELECT coalesce(jsonb_agg(item ORDER BY ord), '[]'::jsonb) FROM (
          SELECT item, ord FROM jsonb_array_elements(coalesce(payload->'items', '[]'::jsonb) || jsonb_build_array(${data}::jsonb))
            WITH ORDINALITY AS t(item, ord)
          ORDER BY ord DESC LIMIT ${BATCH_ITEMS_KEPT}) kept),
        'latest', ${data}::jsonb)`,
      sendAfter: sql`least(greatest(send_after, ${pushed.toISOString()}::timestamptz), created_at + ${`${maxDelayMs} milliseconds`}::interval)`,
    })
    .where('batchKey', '=', batch.key)
    .where('sentAt', 'is', null)
    .where('skippedAt', 'is', null)
    .returning(['id', 'sendAfter'])
    .executeTakeFirst()
  if (!open) return null
  await queueJob(
    trx,
    SEND_TASK,
    { outboxId: open.id },
    { runAt: open.sendAfter, jobKey: sendJobKey(open.id), maxAttempts: SEND_MAX_ATTEMPTS },
  )
  return open.id
}

/** The in-app row for an event; false when its key was seen before. */
async function insertInApp(trx: Executor, input: NotifyInput, now: Date): Promise<boolean> {
  const text = input.inApp === undefined ? inAppText(input.kind, input.data) : input.inApp
  if (text === null) {
    // No in-app row for this kind: the key is still claimed by the outbox row (non-batched),
    // or must be unique per event (batched) — a batched kind always has in-app text.
    return true
  }
  const row = await trx
    .insertInto('notifications')
    .values({
      dedupeKey: input.dedupeKey,
      userId: input.userId,
      kind: input.kind,
      title: text.title.slice(0, 200),
      body: text.body.slice(0, 1000),
      link: text.link,
      createdAt: now,
    })
    .onConflict((oc) => oc.column('dedupeKey').doNothing())
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** The bell's text for a kind, from the same copy as its e-mail (times in UTC in the app). */
function inAppText(kind: string, data: NotificationData): { title: string; body: string; link: string | null } | null {
  const content = notificationContent(kind, data, { timeZone: null })
  if (!content) return null
  return { title: content.heading, body: content.summary, link: content.action?.path ?? null }
}
