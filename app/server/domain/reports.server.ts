import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { isUuid } from '~/lib/ids'
import {
  MAX_REPORTS_PER_HOUR,
  REPORT_ALREADY_OPEN,
  TOO_MANY_REPORTS,
  type ReportInput,
  type ReportReason,
  type ReportTarget,
} from '~/lib/report-schema'
import type { DB } from '../../../db/schema.ts'
import type { RateLimit } from '../http/rate-limit.server.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'

/**
 * Reports (issue 30): a signed-in user reports a listing, a review or a user with a reason and
 * details. One open report per reporter and item (the partial unique index `reports_one_open`),
 * at most MAX_REPORTS_PER_HOUR per reporter (counted here under a lock on the reporter's row, so
 * it holds across instances). An admin's decision closes every open report of the item:
 * dismissed here, actioned by a takedown (moderation.server.ts).
 */
type Executor = Kysely<DB> | DbTransaction<DB>

const HOUR_MS = 60 * 60_000

/** The report form's per-address limit; each reporter also has MAX_REPORTS_PER_HOUR. */
export const REPORT_RATE_LIMIT: RateLimit = { name: 'report', limit: 20, windowMs: 60_000 }

export interface ReportedItem {
  targetType: ReportTarget
  targetId: string
  /** What the reporter and the admin are shown: a listing's or a user's name, a review's first words. */
  label: string
  /** Where the item is seen. */
  path: string
  /** Whose item it is: the listing's or the review's seller, or the user reported (whose history the admin weighs). */
  ownerId: string
  /** Whose conduct it is, the one a suspension would stop: the listing's seller, the review's author, the user reported. */
  accountableId: string
  /** A review an admin hid: when and why (null: shown; listings say theirs through their takedown). */
  hidden: { reason: string; at: Date } | null
}

/** The item a report names, if this user may report it (404: missing or not theirs to see; 403: their own). */
export async function reportableItem(targetType: ReportTarget, targetId: string, reporterId: string): Promise<ReportedItem> {
  const item = await findItem(targetType, targetId, true)
  if (!item) throw new AppError(404, 'There is nothing to report here')
  if (item.ownerId === reporterId || item.accountableId === reporterId) {
    throw new AppError(403, 'You cannot report your own work or account')
  }
  return item
}

/** The item as the admin's queue describes it, whatever its state (a listing taken down, a review hidden). */
export function describeReportedItem(targetType: ReportTarget, targetId: string) {
  return findItem(targetType, targetId, false)
}

/** `forReporter`: only what the public sees can be reported (a visible listing, a shown review). */
async function findItem(targetType: ReportTarget, targetId: string, forReporter: boolean): Promise<ReportedItem | undefined> {
  if (!isUuid(targetId)) return undefined
  if (targetType === 'listing') {
    const listing = await db
      .selectFrom('listings')
      .select(['id', 'title', 'slug', 'sellerId'])
      .where('id', '=', targetId)
      .$if(forReporter, (qb) => qb.where('visible', '=', true).where('archivedAt', 'is', null))
      .executeTakeFirst()
    return (
      listing && {
        targetType,
        targetId,
        label: listing.title,
        path: `/listing/${listing.slug}`,
        ownerId: listing.sellerId,
        accountableId: listing.sellerId,
        hidden: null,
      }
    )
  }
  if (targetType === 'review') {
    const review = await db
      .selectFrom('reviews')
      .innerJoin('listings', 'listings.id', 'reviews.listingId')
      .select([
        'reviews.id',
        'reviews.body',
        'reviews.sellerId',
        'reviews.buyerId',
        'reviews.hiddenAt',
        'reviews.hiddenReason',
        'listings.title',
        'listings.slug',
      ])
      .where('reviews.id', '=', targetId)
      .$if(forReporter, (qb) => qb.where('reviews.hiddenAt', 'is', null))
      .executeTakeFirst()
    if (!review) return undefined
    const excerpt = review.body.length > 80 ? `${review.body.slice(0, 79)}…` : review.body
    return {
      targetType,
      targetId,
      label: `A review of “${review.title}”: “${excerpt}”`,
      path: `/listing/${review.slug}`,
      ownerId: review.sellerId,
      accountableId: review.buyerId,
      hidden: review.hiddenAt ? { reason: review.hiddenReason ?? '', at: review.hiddenAt } : null,
    }
  }
  const user = await db.selectFrom('users').select(['id', 'username', 'displayName']).where('id', '=', targetId).executeTakeFirst()
  return (
    user && {
      targetType,
      targetId,
      label: `${user.displayName} (@${user.username})`,
      path: `/sellers/${user.username}`,
      ownerId: user.id,
      accountableId: user.id,
      hidden: null,
    }
  )
}

/** Files a report; 409 while the reporter's earlier report of the item is open, 429 past the hourly limit. */
export async function fileReport(input: {
  reporterId: string
  report: ReportInput
  now?: Date
}): Promise<{ id: string; item: ReportedItem }> {
  const now = input.now ?? new Date()
  const { targetType, targetId, reason, details } = input.report
  const item = await reportableItem(targetType, targetId, input.reporterId)
  try {
    const id = await db.transaction().execute(async (trx) => {
      // One reporter's reports are counted one at a time (the lock on their row).
      await trx.selectFrom('users').select('id').where('id', '=', input.reporterId).forUpdate().execute()
      const open = await trx
        .selectFrom('reports')
        .select('id')
        .where('reporterId', '=', input.reporterId)
        .where('targetType', '=', targetType)
        .where('targetId', '=', targetId)
        .where('status', '=', 'open')
        .executeTakeFirst()
      if (open) throw new AppError(409, REPORT_ALREADY_OPEN)
      const recent = await trx
        .selectFrom('reports')
        .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('createdAt').as('oldest')])
        .where('reporterId', '=', input.reporterId)
        .where('createdAt', '>', new Date(now.getTime() - HOUR_MS))
        .executeTakeFirstOrThrow()
      if (Number(recent.count) >= MAX_REPORTS_PER_HOUR) {
        const retryAfter = recent.oldest ? (new Date(recent.oldest).getTime() + HOUR_MS - now.getTime()) / 1000 : 3600
        throw new AppError(429, TOO_MANY_REPORTS, { retryAfter })
      }
      const row = await trx
        .insertInto('reports')
        .values({ reporterId: input.reporterId, targetType, targetId, reason, details, createdAt: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await recordAudit(trx, {
        actorId: input.reporterId,
        actorRole: 'user',
        action: 'report.filed',
        entityType: targetType,
        entityId: targetId,
        toState: 'open',
        reason: details,
        metadata: { reportId: row.id, reason },
      })
      return row.id
    })
    return { id, item }
  } catch (error) {
    if (isUniqueViolation(error, 'reports_one_open')) throw new AppError(409, REPORT_ALREADY_OPEN)
    throw error
  }
}

/**
 * Closes every open report of an item (inside the caller's transaction): `actioned` by a takedown,
 * `dismissed` by the admin's dismissal. Answers how many were closed.
 */
export async function closeReports(
  trx: Executor,
  input: { targetType: ReportTarget; targetId: string; status: 'dismissed' | 'actioned'; adminId: string; now: Date },
): Promise<number> {
  const closed = await trx
    .updateTable('reports')
    .set({ status: input.status, resolvedAt: input.now, resolvedBy: input.adminId })
    .where('targetType', '=', input.targetType)
    .where('targetId', '=', input.targetId)
    .where('status', '=', 'open')
    .returning('id')
    .execute()
  return closed.length
}

/** The admin dismisses an item's open reports (nothing wrong found); 409 when none is open. */
export async function dismissReports(input: {
  targetType: ReportTarget
  targetId: string
  adminId: string
  note: string
  now?: Date
}): Promise<number> {
  const now = input.now ?? new Date()
  if (!isUuid(input.targetId)) throw new AppError(404, 'Nothing to dismiss')
  return db.transaction().execute(async (trx) => {
    const count = await closeReports(trx, { ...input, status: 'dismissed', now })
    if (count === 0) throw new AppError(409, 'These reports were already decided')
    await recordAudit(trx, {
      actorId: input.adminId,
      actorRole: 'admin',
      action: 'reports.dismissed',
      entityType: input.targetType,
      entityId: input.targetId,
      fromState: 'open',
      toState: 'dismissed',
      reason: input.note,
      metadata: { reports: count },
    })
    return count
  })
}

export interface ReportView {
  id: string
  reason: ReportReason
  details: string
  status: 'open' | 'dismissed' | 'actioned'
  createdAt: Date
  reporter: { username: string; displayName: string }
}

/** Every report of an item, newest first (the queue shows them all, decided ones too). */
export async function reportsOf(targetType: ReportTarget, targetId: string): Promise<ReportView[]> {
  const rows = await db
    .selectFrom('reports')
    .innerJoin('users', 'users.id', 'reports.reporterId')
    .select([
      'reports.id',
      'reports.reason',
      'reports.details',
      'reports.status',
      'reports.createdAt',
      'users.username',
      'users.displayName',
    ])
    .where('reports.targetType', '=', targetType)
    .where('reports.targetId', '=', targetId)
    .orderBy('reports.createdAt', 'desc')
    .orderBy('reports.id', 'desc')
    .execute()
  return rows.map(({ username, displayName, ...report }) => ({ ...report, reporter: { username, displayName } }))
}

/** The items with open reports, the longest waiting first. */
export async function reportedItems(
  limit = 50,
): Promise<{ targetType: ReportTarget; targetId: string; openReports: number; since: Date }[]> {
  const rows = await db
    .selectFrom('reports')
    .select((eb) => ['targetType', 'targetId', eb.fn.countAll<string>().as('openReports'), eb.fn.min('createdAt').as('since')])
    .where('status', '=', 'open')
    .groupBy(['targetType', 'targetId'])
    .orderBy('since')
    .limit(limit)
    .execute()
  return rows.map((row) => ({ ...row, openReports: Number(row.openReports), since: new Date(row.since) }))
}
