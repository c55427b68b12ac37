import type { Transaction as DbTransaction } from 'kysely'
import { OWNED_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import { REPORT_REASON_LABELS, SERIOUS_REASONS, type ReportReason, type ReportTarget } from '~/lib/report-schema'
import type { DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { cancelStaleCheckouts } from './checkout.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent, prepareEscrow } from './escrow.server.ts'
import {
  decideTakedown,
  type TakedownEvent,
  type TakedownEventData,
  type TakedownState,
  type TakedownStatus,
} from './moderation-transitions.server.ts'
import { notify } from './notifications.server.ts'
import { closeReports, describeReportedItem, reportedItems, reportsOf, type ReportedItem, type ReportView } from './reports.server.ts'
import { recentlyHiddenReviews } from './reviews.server.ts'

/**
 * Takedowns of listings (issue 30, docs/decisions/030): the runner of the takedown machine
 * (moderation-transitions.server.ts) and the verbs the admin's queue and the seller's page use.
 * The listing's visibility is the marketplace's one rule (`visible AND archived_at IS NULL`): a
 * takedown sets `visible = false` (a trigger keeps it so while the takedown is in force), a restore
 * gives back the visibility the listing had. Open checkouts of a listing taken down are cancelled
 * after the commit (Stripe is called outside the transaction).
 */

export interface Takedown {
  id: string
  listingId: string
  status: TakedownStatus
  category: ReportReason
  reason: string
  takenDownAt: Date
  counterNotice: string | null
  counterNoticedAt: Date | null
  decidedAt: Date | null
  decisionReason: string | null
}

const TAKEDOWN_COLUMNS = [
  'id',
  'listingId',
  'status',
  'category',
  'reason',
  'takenDownAt',
  'counterNotice',
  'counterNoticedAt',
  'decidedAt',
  'decisionReason',
] as const

interface Actor {
  id: string
  role: 'admin' | 'seller'
}

/**
 * Runs one event of a listing's takedown: locks the listing and its takedown in force, asks the
 * table, writes with `WHERE status = <from>`, sets the listing's visibility, closes the listing's
 * open reports when it is taken down, audits. 404 for a listing that is missing or (for a seller)
 * not theirs.
 */
async function applyTakedownEvent(input: {
  listingId: string
  event: TakedownEvent
  by: Actor
  data: Omit<TakedownEventData, 'actorId' | 'now'> & { now?: Date }
}): Promise<Takedown> {
  if (!isUuid(input.listingId)) throw new AppError(404, 'Listing not found')
  const now = input.data.now ?? new Date()
  const data: TakedownEventData = { ...input.data, now, actorId: input.by.id }
  // The escrow machine's entry hooks and the notifications queue jobs inside the transaction.
  await prepareEscrow()
  const { takedown, hidden } = await db.transaction().execute(async (trx) => {
    const listing = await trx
      .selectFrom('listings')
      .select(['id', 'sellerId', 'visible', 'title', 'slug'])
      .where('id', '=', input.listingId)
      .forUpdate()
      .executeTakeFirst()
    if (!listing || (input.by.role === 'seller' && listing.sellerId !== input.by.id)) throw new AppError(404, 'Listing not found')
    const current = await trx
      .selectFrom('listingTakedowns')
      .selectAll()
      .where('listingId', '=', listing.id)
      .where('status', '<>', 'restored')
      .forUpdate()
      .executeTakeFirst()
    const from: TakedownState = current?.status ?? 'none'
    const { rule, to } = decideTakedown(current, input.event, data)
    if (rule.who !== input.by.role) throw new AppError(403, 'You cannot do this')
    let written: Takedown | undefined
    if (input.event === 'take_down') {
      written = await trx
        .insertInto('listingTakedowns')
        .values({
          ...rule.set(data),
          listingId: listing.id,
          status: 'hidden',
          wasVisible: listing.visible,
          category: data.category!,
          reason: data.reason!,
          takenDownAt: now,
        })
        .returning(TAKEDOWN_COLUMNS)
        .executeTakeFirstOrThrow()
      await trx.updateTable('listings').set({ visible: false, updatedAt: now }).where('id', '=', listing.id).execute()
      await closeReports(trx, { targetType: 'listing', targetId: listing.id, status: 'actioned', adminId: input.by.id, now })
      if (SERIOUS_REASONS.includes(written.category)) await tellBuyers(trx, { takedown: written, adminId: input.by.id, now })
    } else {
      written = await trx
        .updateTable('listingTakedowns')
        .set({ ...rule.set(data), status: to as TakedownStatus })
        .where('id', '=', current!.id)
        .where('status', '=', current!.status)
        .returning(TAKEDOWN_COLUMNS)
        .executeTakeFirst()
      if (!written) throw new AppError(409, 'This takedown changed meanwhile: please reload')
      // Restored after the takedown is no longer in force, so the trigger lets the listing be seen again.
      if (to === 'restored' && current!.wasVisible) {
        await trx.updateTable('listings').set({ visible: true, updatedAt: now }).where('id', '=', listing.id).execute()
      }
    }
    await tellAboutTakedown(trx, { event: input.event, takedown: written, listing, now })
    await recordAudit(trx, {
      actorId: input.by.id,
      actorRole: input.by.role,
      action: rule.action,
      entityType: 'listing',
      entityId: listing.id,
      fromState: from,
      toState: to,
      reason: input.event === 'counter_notice' ? data.counterNotice : data.reason,
      metadata: { takedownId: written.id, category: written.category },
    })
    return { takedown: written, hidden: input.event === 'take_down' }
  })
  logEvent('info', 'listing_moderated', { listingId: input.listingId, event: input.event, status: takedown.status })
  if (hidden) await cancelStaleCheckouts(input.listingId)
  return takedown
}

/**
 * Who hears of a takedown's event (in the app and by mail, once: the keys name the takedown): its
 * seller when the listing is taken down (with the reason) and when it is restored; the admins when
 * the seller answers with a counter-notice. An upheld takedown is said on the seller's takedown page.
 */
async function tellAboutTakedown(
  trx: DbTransaction<DB>,
  input: { event: TakedownEvent; takedown: Takedown; listing: { sellerId: string; title: string; slug: string }; now: Date },
): Promise<void> {
  const { event, takedown, listing, now } = input
  const data = {
    takedownId: takedown.id,
    listingTitle: listing.title,
    listingSlug: listing.slug,
    category: REPORT_REASON_LABELS[takedown.category],
    reason: takedown.reason,
  }
  if (event === 'take_down' || event === 'restore') {
    const kind = event === 'take_down' ? 'listing_taken_down' : 'listing_restored'
    await notify(trx, { kind, userId: listing.sellerId, dedupeKey: `${kind}:${takedown.id}:${listing.sellerId}`, data, now })
  }
  if (event === 'counter_notice') {
    const seller = await trx.selectFrom('users').select('displayName').where('id', '=', listing.sellerId).executeTakeFirstOrThrow()
    const admins = await trx.selectFrom('users').select('id').where('isAdmin', '=', true).execute()
    for (const admin of admins) {
      await notify(trx, {
        kind: 'admin_counter_notice',
        userId: admin.id,
        dedupeKey: `admin_counter_notice:${takedown.id}:${admin.id}`,
        data: { listingTitle: listing.title, sellerName: seller.displayName, counterNotice: takedown.counterNotice ?? '' },
        now,
      })
    }
  }
}

/** The sales a takedown for copyright or malware sends to the dispute queue: paid, not yet confirmed. */
const OPEN_SALE_STATUSES = ['paid', 'delivering', 'delivered'] as const

/**
 * A takedown for copyright or malware (issue 30): every open sale of the listing goes to the admin's
 * dispute queue through the escrow machine (its effects tell the buyer, the seller and the admins that
 * a dispute was opened, with the takedown as its reason); every other buyer who owns it is told once.
 */
async function tellBuyers(trx: DbTransaction<DB>, input: { takedown: Takedown; adminId: string; now: Date }): Promise<void> {
  const { takedown, adminId, now } = input
  const category = REPORT_REASON_LABELS[takedown.category]
  const sales = await trx
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select(['transactions.id', 'transactions.buyerId', 'transactions.status', 'listings.title'])
    .where('transactions.listingId', '=', takedown.listingId)
    .where('transactions.status', 'in', [...OWNED_STATUSES])
    .orderBy('transactions.createdAt')
    .execute()
  for (const sale of sales) {
    if ((OPEN_SALE_STATUSES as readonly string[]).includes(sale.status)) {
      const outcome = await applyEvent(trx, {
        saleId: sale.id,
        event: 'listing_taken_down',
        by: { id: adminId, role: 'admin' },
        reason: `The listing was taken down (${category}): ${takedown.reason}`,
        metadata: { takedownId: takedown.id },
        now,
      })
      if (outcome.applied) continue
      logEvent('warn', 'takedown_sale_not_disputed', { saleId: sale.id, reason: outcome.error.message })
    }
    await notify(trx, {
      kind: 'purchase_taken_down',
      userId: sale.buyerId,
      dedupeKey: `purchase_taken_down:${takedown.id}:${sale.buyerId}`,
      data: { listingTitle: sale.title, category, reason: takedown.reason },
      now,
    })
  }
}

/** The admin hides a listing with a reason its seller sees; its open reports are closed as actioned. */
export function takeDownListing(input: { listingId: string; adminId: string; category: ReportReason; reason: string; now?: Date }) {
  return applyTakedownEvent({
    listingId: input.listingId,
    event: 'take_down',
    by: { id: input.adminId, role: 'admin' },
    data: { category: input.category, reason: input.reason, now: input.now },
  })
}

/** The seller answers the takedown in force, once. */
export function fileCounterNotice(input: { listingId: string; sellerId: string; counterNotice: string; now?: Date }) {
  return applyTakedownEvent({
    listingId: input.listingId,
    event: 'counter_notice',
    by: { id: input.sellerId, role: 'seller' },
    data: { counterNotice: input.counterNotice, now: input.now },
  })
}

/** The admin keeps a contested takedown in force. */
export function upholdTakedown(input: { listingId: string; adminId: string; note: string; now?: Date }) {
  return applyTakedownEvent({
    listingId: input.listingId,
    event: 'uphold',
    by: { id: input.adminId, role: 'admin' },
    data: { reason: input.note, now: input.now },
  })
}

/** The admin ends the takedown: the listing is as visible as it was before it. */
export function restoreListing(input: { listingId: string; adminId: string; note: string; now?: Date }) {
  return applyTakedownEvent({
    listingId: input.listingId,
    event: 'restore',
    by: { id: input.adminId, role: 'admin' },
    data: { reason: input.note, now: input.now },
  })
}

// --- Reading -----------------------------------------------------------------------

/** The takedown of a listing in force (not restored), if any. */
export async function takedownInForce(listingId: string): Promise<Takedown | undefined> {
  if (!isUuid(listingId)) return undefined
  return db
    .selectFrom('listingTakedowns')
    .select(TAKEDOWN_COLUMNS)
    .where('listingId', '=', listingId)
    .where('status', '<>', 'restored')
    .executeTakeFirst()
}

/** The seller's listing and its takedown in force, for the seller's page of it (undefined: not theirs, or none). */
export async function sellerTakedown(
  takedownId: string,
  sellerId: string,
): Promise<(Takedown & { listing: { title: string; slug: string } }) | undefined> {
  if (!isUuid(takedownId)) return undefined
  const row = await db
    .selectFrom('listingTakedowns')
    .innerJoin('listings', 'listings.id', 'listingTakedowns.listingId')
    .select(TAKEDOWN_COLUMNS.map((column) => `listingTakedowns.${column}` as const))
    .select(['listings.title', 'listings.slug'])
    .where('listingTakedowns.id', '=', takedownId)
    .where('listings.sellerId', '=', sellerId)
    .executeTakeFirst()
  if (!row) return undefined
  const { title, slug, ...takedown } = row
  return { ...takedown, listing: { title, slug } }
}

export interface SellerHistory {
  username: string
  displayName: string
  memberSince: Date
  listings: number
  completedSales: number
  takedowns: number
  reportsAgainst: number
}

/** What an admin weighs beside a report: the seller's listings, sales, earlier takedowns and reports. */
export async function sellerHistory(sellerId: string): Promise<SellerHistory | undefined> {
  const user = await db.selectFrom('users').select(['username', 'displayName', 'createdAt']).where('id', '=', sellerId).executeTakeFirst()
  if (!user) return undefined
  const [listings, sales, takedowns, reports] = await Promise.all([
    db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('sellerId', '=', sellerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('sellerId', '=', sellerId)
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listingTakedowns')
      .innerJoin('listings', 'listings.id', 'listingTakedowns.listingId')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('listings.sellerId', '=', sellerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('reports')
      .leftJoin('listings', (join) => join.onRef('listings.id', '=', 'reports.targetId').on('reports.targetType', '=', 'listing'))
      .leftJoin('reviews', (join) => join.onRef('reviews.id', '=', 'reports.targetId').on('reports.targetType', '=', 'review'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where((eb) =>
        eb.or([
          eb('listings.sellerId', '=', sellerId),
          eb('reviews.sellerId', '=', sellerId),
          eb.and([eb('reports.targetType', '=', 'user'), eb('reports.targetId', '=', sellerId)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
  ])
  return {
    username: user.username,
    displayName: user.displayName,
    memberSince: user.createdAt,
    listings: Number(listings.n),
    completedSales: Number(sales.n),
    takedowns: Number(takedowns.n),
    reportsAgainst: Number(reports.n),
  }
}

export interface ModerationItem {
  item: ReportedItem
  openReports: number
  reports: ReportView[]
  /** Listings only: the takedown in force. */
  takedown: Takedown | null
  seller: SellerHistory | null
  /** Whom "Request suspension" would suspend: the listing's seller, the review's author, the user reported. */
  accountable: { id: string; username: string } | null
  /** The accountable user has a suspension requested or active. */
  suspended: boolean
}

type QueueKey = { targetType: ReportTarget; targetId: string; openReports: number }

/** Each key's item, reports, takedown in force, seller's history and whom a suspension would stop. */
async function describeItems(keys: readonly QueueKey[]): Promise<ModerationItem[]> {
  if (keys.length === 0) return []
  const suspended = new Set(
    (await db.selectFrom('userSuspensions').select('userId').where('status', 'in', ['requested', 'active']).execute()).map(
      (row) => row.userId,
    ),
  )
  const items: ModerationItem[] = []
  for (const key of keys) {
    const item = await describeReportedItem(key.targetType, key.targetId)
    if (!item) continue
    const [reports, takedown, seller, accountable] = await Promise.all([
      reportsOf(key.targetType, key.targetId),
      key.targetType === 'listing' ? takedownInForce(key.targetId) : Promise.resolve(undefined),
      sellerHistory(item.ownerId),
      db.selectFrom('users').select(['id', 'username']).where('id', '=', item.accountableId).executeTakeFirst(),
    ])
    items.push({
      item,
      openReports: key.openReports,
      reports,
      takedown: takedown ?? null,
      seller: seller ?? null,
      accountable: accountable ?? null,
      suspended: suspended.has(item.accountableId),
    })
  }
  return items
}

/**
 * The admin's queue: every item with open reports (the longest waiting first), then the takedowns
 * a seller answered (contested: the admin decides again).
 */
export async function moderationQueue(): Promise<ModerationItem[]> {
  const reported = await reportedItems()
  const contested = await db
    .selectFrom('listingTakedowns')
    .select('listingId')
    .where('status', '=', 'contested')
    .orderBy('counterNoticedAt')
    .execute()
  return describeItems([
    ...reported,
    ...contested
      .filter((row) => !reported.some((r) => r.targetType === 'listing' && r.targetId === row.listingId))
      .map((row) => ({ targetType: 'listing' as const, targetId: row.listingId, openReports: 0 })),
  ])
}

/**
 * What moderation hid and nobody is asking about (issue 30): listings taken down and not contested
 * (hidden, or upheld), and hidden reviews, the latest first — where an admin restores them. Hiding
 * closed their reports, and what is hidden cannot be reported again, so none is also in the queue.
 */
export async function hiddenByModeration(limit = 50): Promise<ModerationItem[]> {
  const [takedowns, reviews] = await Promise.all([
    db
      .selectFrom('listingTakedowns')
      .select(['listingId', 'takenDownAt'])
      .where('status', 'in', ['hidden', 'upheld'])
      .orderBy('takenDownAt', 'desc')
      .limit(limit)
      .execute(),
    recentlyHiddenReviews(limit),
  ])
  const keys = [
    ...takedowns.map((row) => ({ at: row.takenDownAt, key: { targetType: 'listing' as const, targetId: row.listingId, openReports: 0 } })),
    ...reviews.map((row) => ({ at: row.hiddenAt, key: { targetType: 'review' as const, targetId: row.id, openReports: 0 } })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, limit)
  return describeItems(keys.map((entry) => entry.key))
}

/** The takedowns in force on a seller's listings (their dashboard's notice). */
export async function sellerTakedowns(sellerId: string): Promise<(Takedown & { listingTitle: string })[]> {
  if (!isUuid(sellerId)) return []
  const rows = await db
    .selectFrom('listingTakedowns')
    .innerJoin('listings', 'listings.id', 'listingTakedowns.listingId')
    .select(TAKEDOWN_COLUMNS.map((column) => `listingTakedowns.${column}` as const))
    .select('listings.title as listingTitle')
    .where('listings.sellerId', '=', sellerId)
    .where('listings.archivedAt', 'is', null)
    .where('listingTakedowns.status', '<>', 'restored')
    .orderBy('listingTakedowns.takenDownAt', 'desc')
    .execute()
  return rows
}
