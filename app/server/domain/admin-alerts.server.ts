import type { Task } from 'graphile-worker'
import type { BankDigestNotice, StuckNotice } from '~/emails/content'
import { DELIVERY_LIMIT_HOURS, deliveryDueAt, deliveryLimitLabel } from '~/lib/escrow'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, type JobDefinition } from '../infra/jobs.server.ts'
import { saleNotice } from './notification-sender.server.ts'
import { notify, type Executor } from './notifications.server.ts'

/**
 * What the admins are told without an escrow event causing it (issue 17):
 *   - a delivery overdue: a paid sale not delivered (nor its GitHub invitation
 *     sent) past its listing's delivery limit (`deliveryDueAt`, app/lib/escrow.ts),
 *     once per sale and admin;
 *   - a daily digest of bank details waiting for approval (one mail a day, not
 *     one per request; admins can turn digests off on /profile).
 *
 * Both run as graphile-worker crontab jobs (one run per tick across all
 * instances) and write through `notify`, whose dedupe keys make a second run of
 * the same tick — or a sweep that overlaps the previous one — write nothing.
 */

const SHORTEST_LIMIT_MS = Math.min(...Object.values(DELIVERY_LIMIT_HOURS)) * 60 * 60 * 1000
const SCAN_LIMIT = 500

const adminIds = async (trx: Executor) =>
  (await trx.selectFrom('users').select('id').where('isAdmin', '=', true).orderBy('createdAt').execute()).map((row) => row.id)

/** Tells every admin of each delivery past its limit; returns the sales newly reported. */
export async function alertOverdueDeliveries(now: Date = new Date()): Promise<string[]> {
  await ensureJobSchema()
  const candidates = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .leftJoin('githubDeliveries', 'githubDeliveries.transactionId', 'transactions.id')
    .select(['transactions.id', 'transactions.paidAtProvider', 'transactions.createdAt', 'listings.deliveryTimeframe'])
    .where((eb) =>
      eb.or([
        eb('transactions.status', '=', 'paid'),
        // A GitHub delivery whose invitation could not be sent yet (GitHub's limits, a lost installation).
        eb.and([eb('transactions.status', '=', 'delivering'), eb('githubDeliveries.state', '=', 'queued')]),
      ]),
    )
    .where(
      (eb) => eb.fn.coalesce('transactions.paidAtProvider', 'transactions.createdAt'),
      '<=',
      new Date(now.getTime() - SHORTEST_LIMIT_MS),
    )
    .orderBy('transactions.createdAt')
    .limit(SCAN_LIMIT)
    .execute()
  const overdue = candidates.filter((sale) => deliveryDueAt(sale.paidAtProvider ?? sale.createdAt, sale.deliveryTimeframe) <= now)
  const reported: string[] = []
  for (const sale of overdue) {
    const fresh = await db.transaction().execute(async (trx) => {
      const admins = await adminIds(trx)
      const paidAt = sale.paidAtProvider ?? sale.createdAt
      const data: StuckNotice = {
        ...(await saleNotice(trx, sale.id)),
        paidAt: paidAt.toISOString(),
        deliverBy: deliveryDueAt(paidAt, sale.deliveryTimeframe).toISOString(),
        limitLabel: deliveryLimitLabel(sale.deliveryTimeframe),
      }
      let wrote = false
      for (const adminId of admins) {
        const kind = 'admin_delivery_stuck'
        const result = await notify(trx, { kind, userId: adminId, dedupeKey: `${kind}:${sale.id}:${adminId}`, data: { ...data }, now })
        wrote ||= result.outboxId !== null
      }
      return wrote
    })
    if (fresh) reported.push(sale.id)
  }
  return reported
}

/** The day's digest of bank details waiting for approval, to every admin; false when none wait. */
export async function sendBankDetailsDigest(now: Date = new Date()): Promise<boolean> {
  await ensureJobSchema()
  const waiting = await db
    .selectFrom('bankDetails')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('requestedAt').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  const count = Number(waiting.count)
  if (count === 0 || !waiting.oldest) return false
  const date = now.toISOString().slice(0, 10)
  const data: BankDigestNotice = { date, count, oldestRequestedAt: new Date(waiting.oldest).toISOString() }
  await db.transaction().execute(async (trx) => {
    for (const adminId of await adminIds(trx)) {
      const kind = 'admin_bank_details_digest'
      await notify(trx, { kind, userId: adminId, dedupeKey: `${kind}:${date}:${adminId}`, data: { ...data }, now })
    }
  })
  return true
}

const overdueTask: Task = async () => {
  await alertOverdueDeliveries()
}
const digestTask: Task = async () => {
  await sendBankDetailsDigest()
}

export const ADMIN_ALERT_JOBS: readonly JobDefinition[] = [
  // Every 15 minutes: an overdue delivery is known within a quarter of an hour of its limit.
  { name: 'admin-overdue-deliveries', task: overdueTask, sweep: '*/15 * * * *' },
  // Daily at 08:00 UTC.
  { name: 'admin-bank-details-digest', task: digestTask, sweep: '0 8 * * *' },
]
