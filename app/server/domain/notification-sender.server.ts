import type { Task } from 'graphile-worker'
import { notificationContent, type SaleNotice } from '~/emails/content'
import { renderNotificationEmail } from '~/emails/notification-email'
import { deliveryDueAt, windowEndsAt } from '~/lib/escrow'
import { preferenceFor } from '~/lib/notifications'
import { db } from '../infra/db.server.ts'
import { appUrl } from '../infra/env.server.ts'
import type { JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { MailNotConfiguredError, MailSendError, sendMail, type OutgoingMail } from '../infra/mail.server.ts'
import { deliversThroughGithub, invitationsWebUrl } from './github-views.server.ts'
import { notify, SEND_TASK, type Executor } from './notifications.server.ts'
import type { SaleEffect } from './sale-effects.server.ts'

/**
 * Sends the notifications outbox (issue 17, docs/decisions/016-notifications-outbox.md).
 *
 * One graphile-worker job per outbox row (job key `notification-send:<id>`). The
 * job claims its row in a short transaction (`sending_since`), talks to the SMTP
 * server with no lock held (docs/decisions/028), then marks the row sent: a
 * second run of the same job, on this instance or another, finds the row claimed,
 * sent or skipped and does nothing. A failed SMTP attempt releases the claim,
 * records the error and throws, so graphile-worker retries with its exponential
 * backoff; a sent row is never sent again. The windows left are a crash after
 * the SMTP server accepted the mail and before the row is marked, and a send that
 * outlasts its claim (SEND_CLAIM_MS): then it is sent again with the same
 * Message-ID (`<outbox-<id>@forkmarket>`), which mail systems use to recognise a
 * duplicate. A sweep every 10 minutes re-queues due rows whose job was lost or
 * gave up (a crashed sender's claim is taken over once it is stale).
 *
 * `notifySaleChange` is the escrow machine's sale effect: it maps each applied
 * event to what the buyer, the seller and the admins are told.
 */

const sendNotification: Task = async (payload) => {
  const { outboxId } = payload as { outboxId?: string }
  if (typeof outboxId === 'string') await sendOne(outboxId)
}

/** A claim older than this is a crashed sender's: longer than an SMTP attempt lasts (mail.server.ts's timeouts). */
export const SEND_CLAIM_MS = 5 * 60_000

type Claim = { outcome: 'skipped' | 'done' | 'missing' } | { outcome: 'claimed'; id: string; mail: OutgoingMail }

/** Sends one outbox row unless it was sent, skipped or is being sent; returns what happened. */
export async function sendOne(outboxId: string, now: Date = new Date()): Promise<'sent' | 'skipped' | 'done' | 'missing'> {
  const claim = await db.transaction().execute(async (trx): Promise<Claim> => {
    const row = await trx
      .selectFrom('notificationOutbox')
      .innerJoin('users', 'users.id', 'notificationOutbox.userId')
      .leftJoin('notificationPreferences', 'notificationPreferences.userId', 'notificationOutbox.userId')
      .select([
        'notificationOutbox.id',
        'notificationOutbox.kind',
        'notificationOutbox.payload',
        'notificationOutbox.sentAt',
        'notificationOutbox.skippedAt',
        'notificationOutbox.sendingSince',
        'users.email',
        'notificationPreferences.reminders',
        'notificationPreferences.updates',
        'notificationPreferences.digests',
        'notificationPreferences.timeZone',
      ])
      .where('notificationOutbox.id', '=', outboxId)
      .forUpdate('notificationOutbox')
      .executeTakeFirst()
    if (!row) return { outcome: 'missing' }
    if (row.sentAt || row.skippedAt) return { outcome: 'done' }
    // Another sender is on it (its claim is fresh): it sends, or fails and releases the claim for a retry.
    if (row.sendingSince && row.sendingSince.getTime() > now.getTime() - SEND_CLAIM_MS) return { outcome: 'done' }
    const data = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>
    const skip = await skipReason(trx, row.kind, data, row)
    const content = skip ? null : notificationContent(row.kind, data, { timeZone: row.timeZone ?? null })
    if (skip || !content) {
      await trx
        .updateTable('notificationOutbox')
        .set({ skippedAt: now, skipReason: skip ?? `No e-mail copy for ${row.kind}` })
        .where('id', '=', row.id)
        .execute()
      return { outcome: 'skipped' }
    }
    const origin = appUrl()
    const { html, text } = await renderNotificationEmail(content, origin)
    const optional = preferenceFor(row.kind) !== null
    await trx.updateTable('notificationOutbox').set({ sendingSince: now }).where('id', '=', row.id).execute()
    return {
      outcome: 'claimed',
      id: row.id,
      mail: {
        to: row.email,
        subject: content.subject,
        html,
        text,
        messageId: `<outbox-${row.id}@forkmarket>`,
        headers: optional ? { 'List-Unsubscribe': `<${new URL('/profile#notifications', origin).toString()}>` } : undefined,
      },
    }
  })
  if (claim.outcome !== 'claimed') return claim.outcome
  let messageId: string
  try {
    messageId = await sendMail(claim.mail)
  } catch (error) {
    const recorded = error instanceof MailSendError || error instanceof MailNotConfiguredError
    await db
      .updateTable('notificationOutbox')
      .set({
        sendingSince: null,
        ...(recorded
          ? { attempts: (eb) => eb('attempts', '+', 1), lastAttemptAt: now, lastError: (error as Error).message.slice(0, 500) }
          : {}),
      })
      .where('id', '=', claim.id)
      .execute()
    if (recorded) logEvent('warn', 'notification_send_failed', { outboxId, message: (error as Error).message })
    throw error
  }
  await db
    .updateTable('notificationOutbox')
    .set({ sentAt: now, messageId, sendingSince: null, lastAttemptAt: now, attempts: (eb) => eb('attempts', '+', 1), lastError: null })
    .where('id', '=', claim.id)
    .execute()
  return 'sent'
}

/** Why a row is not sent (the recipient turned the kind off, or the sale moved on), or null. */
async function skipReason(
  trx: Executor,
  kind: string,
  data: Record<string, unknown>,
  prefs: { reminders: boolean | null; updates: boolean | null; digests: boolean | null },
): Promise<string | null> {
  const preference = preferenceFor(kind)
  if (preference && prefs[preference] === false) return `The recipient turned ${preference} off`
  if (kind === 'confirm_reminder') {
    const sale = await trx.selectFrom('transactions').select('status').where('id', '=', String(data.saleId)).executeTakeFirst()
    if (sale?.status !== 'delivered') return `The sale is ${sale?.status ?? 'gone'}: no reminder`
  }
  return null
}

/** Re-queues due rows whose job was lost or used up its attempts (every 10 minutes). */
const sweepOutbox: Task = async () => {
  const due = await db
    .selectFrom('notificationOutbox')
    .select('id')
    .where('sentAt', 'is', null)
    .where('skippedAt', 'is', null)
    .where('sendAfter', '<=', new Date(Date.now() - 10 * 60_000))
    .limit(100)
    .execute()
  for (const row of due) await sendOne(row.id).catch(() => undefined)
}

export const NOTIFICATION_JOBS: readonly JobDefinition[] = [
  { name: SEND_TASK, task: sendNotification },
  { name: 'notification-sweep', task: sweepOutbox, sweep: '*/10 * * * *' },
]

// --- What each escrow event tells whom ------------------------------------------------

/** What a sale's notifications say about it, read in the caller's transaction. */
export async function saleNotice(trx: Executor, saleId: string): Promise<SaleNotice> {
  const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', saleId).executeTakeFirstOrThrow()
  const row = await trx
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .leftJoin('githubDeliveries', 'githubDeliveries.transactionId', 'transactions.id')
    .select([
      'listings.title',
      'listings.deliveryTimeframe',
      'buyer.displayName as buyerName',
      'seller.displayName as sellerName',
      'githubDeliveries.repoFullName',
      'githubDeliveries.invitationUrl',
      'listings.githubRepoId',
      'listings.githubInstallationId',
      'listings.githubRepoFullName',
    ])
    .where('transactions.id', '=', sale.id)
    .executeTakeFirstOrThrow()
  // The receipt is written as the sale is paid, before beginGithubDelivery writes the delivery row: a listing
  // delivered through GitHub is named by its repository from the start, with the page its invitation waits on.
  const repository = row.repoFullName ?? (deliversThroughGithub(row) ? row.githubRepoFullName : null)
  return {
    saleId: sale.id,
    listingTitle: row.title,
    amountCents: sale.amountCents,
    feeCents: sale.applicationFeeCents,
    sellerShareCents: sale.sellerShareCents,
    buyerName: row.buyerName,
    sellerName: row.sellerName,
    paidAt: sale.paidAtProvider?.toISOString() ?? null,
    // An instant or GitHub delivery needs no date: it happens on its own.
    deliverBy:
      sale.paidAtProvider && row.deliveryTimeframe !== 'instant' && !repository
        ? deliveryDueAt(sale.paidAtProvider, row.deliveryTimeframe).toISOString()
        : null,
    deliveryLabel: row.deliveryTimeframe === 'instant' ? 'Instant' : null,
    deliveredAt: sale.deliveredAt?.toISOString() ?? null,
    windowEndsAt: sale.deliveredAt ? windowEndsAt(sale.deliveredAt).toISOString() : null,
    disputeReason: sale.disputeReason,
    github: repository ? { repository, invitationUrl: row.invitationUrl ?? invitationsWebUrl(repository) } : null,
  }
}

const REMINDER_BEFORE_MS = 24 * 60 * 60_000

/** The buyer is told GitHub sent (or sent again) their invitation to the repository. */
export async function notifyGithubInvitation(trx: Executor, saleId: string, invitation: { id: number; resent: boolean }): Promise<void> {
  const data = await saleNotice(trx, saleId)
  const kind = 'github_invitation_sent'
  await notify(trx, {
    kind,
    userId: (await trx.selectFrom('transactions').select('buyerId').where('id', '=', saleId).executeTakeFirstOrThrow()).buyerId,
    dedupeKey: `${kind}:${saleId}:${invitation.id}`,
    data: { ...data, github: data.github ? { ...data.github, resent: invitation.resent } : null },
  })
}

export const notifySaleChange: SaleEffect = async (trx, change) => {
  const { event, from, to, sale } = change
  if (from === to) return
  const tell = async (kind: string, userId: string, data: SaleNotice, options: { sendAfter?: Date; inApp?: null } = {}) => {
    await notify(trx, { kind, userId, dedupeKey: `${kind}:${sale.id}:${userId}`, data: { ...data }, now: change.data.now, ...options })
  }
  const notice = () => saleNotice(trx, sale.id)

  if (event === 'payment_succeeded' && to === 'paid') {
    const data = await notice()
    await tell('purchase_receipt', sale.buyerId, data)
    await tell('new_sale', sale.sellerId, data)
  }
  if (to === 'delivered') {
    const data = await notice()
    await tell(data.github ? 'github_access_ready' : 'purchase_delivered', sale.buyerId, data)
    await tell('sale_delivered', sale.sellerId, data)
    if (sale.deliveredAt) {
      // The mail goes 24 hours before the window ends; the sender skips it once the sale moved on.
      const sendAfter = new Date(windowEndsAt(sale.deliveredAt).getTime() - REMINDER_BEFORE_MS)
      await tell('confirm_reminder', sale.buyerId, data, { sendAfter, inApp: null })
    }
  }
  if (to === 'completed') {
    const data = { ...(await notice()), automatic: event === 'auto_confirm' }
    if (from === 'disputed') {
      await tell('dispute_resolved', sale.buyerId, { ...data, outcome: 'released' })
      await tell('dispute_resolved', sale.sellerId, { ...data, outcome: 'released' })
    } else {
      await tell('purchase_confirmed', sale.buyerId, data)
    }
    await tell('funds_released', sale.sellerId, data)
  }
  if (to === 'disputed') {
    const data = await notice()
    await tell('dispute_opened', sale.buyerId, data)
    await tell('dispute_opened', sale.sellerId, data)
    const admins = await trx.selectFrom('users').select('id').where('isAdmin', '=', true).execute()
    for (const admin of admins) await tell('admin_dispute_opened', admin.id, data)
  }
  if (to === 'refunded' && from !== 'pending_payment' && from !== 'failed') {
    const data = { ...(await notice()), afterDispute: from === 'disputed' }
    await tell('refund_issued', sale.buyerId, data)
    await tell('sale_refunded', sale.sellerId, data)
  }
}
