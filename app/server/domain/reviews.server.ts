/**
 * Verified reviews (issue 18, docs/decisions/018).
 *
 * - Only the buyer of a completed, not refunded sale reviews it, once, within
 *   REVIEW_WINDOW_DAYS of completion (the sale row is locked while deciding, so
 *   a refund and a review never cross).
 * - The seller replies once, publicly. An admin hides a review with a reason
 *   (audited; its open reports are decided as actioned); its author still sees
 *   it, with the reason. An admin can restore it (issue 30, from the moderation queue).
 * - A refund removes the review: `removeReviewOnRefund` is a sale effect
 *   (sale-effects.server.ts), run in the escrow machine's transaction.
 * - Every change to a listing's visible reviews rewrites the listing's stored
 *   rating (app/lib/ratings.ts) in the same transaction, so the top-rated sort
 *   and the minimum-rating filter read one indexed column.
 */
import { sql, type Transaction as DbTransaction, type Expression, type Kysely, type ShallowDehydrateObject } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import { OWNED_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import { ratingSummary, type RatingTotals } from '~/lib/ratings'
import { REVIEW_WINDOW_DAYS, type ReviewInput } from '~/lib/review-schema'
import type { DB, Review } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'
import { closeReports } from './reports.server.ts'
import type { SaleEffect } from './sale-effects.server.ts'
import { queueReviewWebhook } from './webhook-events.server.ts'

type Executor = Kysely<DB> | DbTransaction<DB>

const DAY_MS = 24 * 60 * 60 * 1000
export const REVIEWS_PAGE_SIZE = 10

export const REVIEW_NOT_COMPLETED = 'You can review a purchase once it is completed'
export const REVIEW_REFUNDED = 'A refunded purchase cannot be reviewed'
export const REVIEW_TOO_LATE = `Reviews are accepted for ${REVIEW_WINDOW_DAYS} days after a purchase is completed`
export const REVIEW_ALREADY = 'You have already reviewed this purchase'
export const REPLY_ALREADY = 'You have already replied to this review'
export const REVIEW_ALREADY_HIDDEN = 'This review is already hidden'

/** Why this sale cannot be reviewed by its buyer now, or null when it can. */
export function reviewRefusal(
  sale: { status: string; completedAt: Date | null; refundedAt: Date | null; refundRequestedAt: Date | null },
  now: Date,
): string | null {
  if (sale.refundedAt || sale.refundRequestedAt || sale.status === 'refunded') return REVIEW_REFUNDED
  if (sale.status !== 'completed' || !sale.completedAt) return REVIEW_NOT_COMPLETED
  if (now.getTime() - sale.completedAt.getTime() > REVIEW_WINDOW_DAYS * DAY_MS) return REVIEW_TOO_LATE
  return null
}

/** Rewrites the listing's stored rating from its visible reviews (call inside the transaction that changed them). */
export async function refreshListingRating(trx: Executor, listingId: string): Promise<void> {
  // One writer at a time per listing: two reviews committing together both count.
  await trx.selectFrom('listings').select('id').where('id', '=', listingId).forUpdate().execute()
  const totals = await trx
    .selectFrom('reviews')
    .select([sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(sum(stars), 0)::int`.as('sum')])
    .where('listingId', '=', listingId)
    .where('hiddenAt', 'is', null)
    .executeTakeFirstOrThrow()
  const summary = ratingSummary(totals)
  await trx
    .updateTable('listings')
    .set({ ratingCount: summary.count, ratingAverageTenths: summary.averageTenths, ratingScore: summary.score })
    .where('id', '=', listingId)
    .execute()
}

export async function createReview(input: { saleId: string; buyerId: string; review: ReviewInput; now?: Date }): Promise<Review> {
  const now = input.now ?? new Date()
  if (!isUuid(input.saleId)) throw new AppError(404, 'Purchase not found')
  await ensureJobSchema() // notify() queues the seller's mail in the transaction
  return db.transaction().execute(async (trx) => {
    const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', input.saleId).forUpdate().executeTakeFirst()
    // Someone else's sale is not found (never say it exists).
    if (!sale || sale.buyerId !== input.buyerId) throw new AppError(404, 'Purchase not found')
    const refusal = reviewRefusal(sale, now)
    if (refusal) throw new AppError(409, refusal)
    const review = await trx
      .insertInto('reviews')
      .values({
        transactionId: sale.id,
        listingId: sale.listingId,
        buyerId: sale.buyerId,
        sellerId: sale.sellerId,
        stars: input.review.stars,
        body: input.review.body,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict((oc) => oc.column('transactionId').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!review) throw new AppError(409, REVIEW_ALREADY)
    await refreshListingRating(trx, sale.listingId)
    const listing = await trx.selectFrom('listings').select(['title', 'slug']).where('id', '=', sale.listingId).executeTakeFirstOrThrow()
    const excerpt = review.body.length > 200 ? `${review.body.slice(0, 199)}…` : review.body
    await notify(trx, {
      kind: 'new_review',
      userId: sale.sellerId,
      dedupeKey: `new_review:${review.id}:${sale.sellerId}`,
      data: { listingTitle: listing.title, listingSlug: listing.slug, stars: review.stars, excerpt },
      now,
    })
    await queueReviewWebhook(trx, review, listing)
    return review
  })
}

export async function replyToReview(input: { reviewId: string; sellerId: string; reply: string; now?: Date }): Promise<Review> {
  const now = input.now ?? new Date()
  if (!isUuid(input.reviewId)) throw new AppError(404, 'Review not found')
  return db.transaction().execute(async (trx) => {
    const review = await trx.selectFrom('reviews').selectAll().where('id', '=', input.reviewId).forUpdate().executeTakeFirst()
    if (!review || (review.hiddenAt && review.sellerId !== input.sellerId)) throw new AppError(404, 'Review not found')
    if (review.sellerId !== input.sellerId) throw new AppError(403, 'Only the seller can reply to a review')
    if (review.sellerReply !== null) throw new AppError(409, REPLY_ALREADY)
    return trx
      .updateTable('reviews')
      .set({ sellerReply: input.reply, sellerRepliedAt: now, updatedAt: now })
      .where('id', '=', review.id)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

export const REVIEW_NOT_HIDDEN = 'This review is not hidden'

/**
 * A review's two moderation states, shown and hidden (issue 30): one runner for both moves. Locks the
 * review, refuses a move to the state it is in (409), writes, rewrites the listing's rating, audits
 * with the admin's text. Hiding keeps the reason its author sees and decides the review's open
 * reports as actioned (the moderation queue's "Hide review", or the listing page's form).
 */
async function moveReview(input: {
  reviewId: string
  adminId: string
  to: 'hidden' | 'visible'
  text: string
  now?: Date
}): Promise<Review> {
  const now = input.now ?? new Date()
  if (!isUuid(input.reviewId)) throw new AppError(404, 'Review not found')
  const hiding = input.to === 'hidden'
  return db.transaction().execute(async (trx) => {
    const review = await trx.selectFrom('reviews').selectAll().where('id', '=', input.reviewId).forUpdate().executeTakeFirst()
    if (!review) throw new AppError(404, 'Review not found')
    if (hiding === (review.hiddenAt !== null)) throw new AppError(409, hiding ? REVIEW_ALREADY_HIDDEN : REVIEW_NOT_HIDDEN)
    const moved = await trx
      .updateTable('reviews')
      .set(
        hiding
          ? { hiddenAt: now, hiddenBy: input.adminId, hiddenReason: input.text, updatedAt: now }
          : { hiddenAt: null, hiddenBy: null, hiddenReason: null, updatedAt: now },
      )
      .where('id', '=', review.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await refreshListingRating(trx, review.listingId)
    if (hiding) await closeReports(trx, { targetType: 'review', targetId: review.id, status: 'actioned', adminId: input.adminId, now })
    await recordAudit(trx, {
      actorId: input.adminId,
      actorRole: 'admin',
      action: hiding ? 'review_hidden' : 'review_restored',
      entityType: 'review',
      entityId: review.id,
      fromState: hiding ? 'visible' : 'hidden',
      toState: input.to,
      reason: input.text,
      metadata: {
        listingId: review.listingId,
        transactionId: review.transactionId,
        ...(hiding ? { stars: review.stars } : { hiddenReason: review.hiddenReason }),
      },
    })
    return moved
  })
}

/** The admin hides a review with the reason its author sees. */
export function hideReview(input: { reviewId: string; adminId: string; reason: string; now?: Date }): Promise<Review> {
  return moveReview({ reviewId: input.reviewId, adminId: input.adminId, to: 'hidden', text: input.reason, now: input.now })
}

/** The admin shows a hidden review again (issue 30): back on the listing page and in its rating; audited with the admin's note. */
export function restoreReview(input: { reviewId: string; adminId: string; note: string; now?: Date }): Promise<Review> {
  return moveReview({ reviewId: input.reviewId, adminId: input.adminId, to: 'visible', text: input.note, now: input.now })
}

/** Reviews hidden by an admin, the latest first (the moderation queue's "Hidden" section, where they are restored). */
export async function recentlyHiddenReviews(limit = 50): Promise<{ id: string; hiddenAt: Date }[]> {
  const rows = await db
    .selectFrom('reviews')
    .select(['id', 'hiddenAt'])
    .where('hiddenAt', 'is not', null)
    .orderBy('hiddenAt', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({ id: row.id, hiddenAt: row.hiddenAt! }))
}

/** Sale effect: a sale that becomes refunded loses its review (and the listing its stars). */
export const removeReviewOnRefund: SaleEffect = async (trx, change) => {
  if (change.to !== 'refunded' || change.from === 'refunded') return
  const removed = await trx.deleteFrom('reviews').where('transactionId', '=', change.sale.id).returningAll().executeTakeFirst()
  if (!removed) return
  await refreshListingRating(trx, removed.listingId)
  await recordAudit(trx, {
    actorId: null,
    actorRole: 'system',
    action: 'review_removed',
    entityType: 'review',
    entityId: removed.id,
    fromState: removed.hiddenAt ? 'hidden' : 'visible',
    toState: 'removed',
    reason: 'The purchase was refunded',
    metadata: { listingId: removed.listingId, transactionId: removed.transactionId, stars: removed.stars },
  })
}

// --- Reading -----------------------------------------------------------------------

export interface ReviewView {
  id: string
  stars: number
  body: string
  createdAt: Date
  /** Always true: only buyers of a completed sale can write one. */
  verifiedPurchase: true
  author: { displayName: string; username: string; avatarUrl: string | null }
  sellerReply: { body: string; createdAt: Date } | null
  /** Only on the author's own hidden review (and for admins): why it was hidden. */
  hidden: { reason: string; hiddenAt: Date } | null
}

export interface ReviewPage {
  reviews: ReviewView[]
  /** Pass back as `cursor` for older reviews; null on the last page. */
  nextCursor: string | null
}

// Microseconds, which a JS Date would lose: the cursor must compare exactly.
const createdAtKey = sql<string>`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

function encodeReviewCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url')
}

/** The cursor's [createdAt, id], or null for anything that is not one of ours (a 400 for the API). */
export function decodeReviewCursor(cursor: string): [string, string] | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || value.length !== 2) return null
    const [key, id] = value as unknown[]
    if (typeof key !== 'string' || !CURSOR_TIMESTAMP.test(key) || Number.isNaN(Date.parse(key)) || !isUuid(id)) return null
    return [key, id]
  } catch {
    return null
  }
}

function reviewQuery(executor: Executor) {
  return executor
    .selectFrom('reviews as r')
    .innerJoin('users as u', 'u.id', 'r.buyerId')
    .select([
      'r.id',
      'r.stars',
      'r.body',
      'r.createdAt',
      'r.sellerReply',
      'r.sellerRepliedAt',
      'r.hiddenAt',
      'r.hiddenReason',
      'r.buyerId',
      'u.displayName',
      'u.username',
      'u.avatarUrl',
      createdAtKey.as('createdAtKey'),
    ])
}

type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewQuery>['execute']>>[number]
/** What a review's view is made of (the keyset column aside). */
type ReviewFields = Omit<ReviewRow, 'createdAtKey'>

function toView(row: ReviewFields, showHidden: boolean): ReviewView {
  return {
    id: row.id,
    stars: row.stars,
    body: row.body,
    createdAt: row.createdAt,
    verifiedPurchase: true,
    author: { displayName: row.displayName, username: row.username, avatarUrl: row.avatarUrl },
    sellerReply: row.sellerReply && row.sellerRepliedAt ? { body: row.sellerReply, createdAt: row.sellerRepliedAt } : null,
    hidden: showHidden && row.hiddenAt ? { reason: row.hiddenReason ?? '', hiddenAt: row.hiddenAt } : null,
  }
}

/** A listing's visible reviews, newest first, one more than `limit` (is there a next page?), older than the cursor. */
function visibleReviewsQuery(listingId: string | Expression<string>, cursor: [string, string] | null, limit: number) {
  let query = reviewQuery(db).where('r.listingId', '=', listingId).where('r.hiddenAt', 'is', null)
  if (cursor) {
    const [key, id] = cursor
    query = query.where(sql<boolean>`(r.created_at, r.id) < (${key}::timestamptz, ${id}::uuid)`)
  }
  return query
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
}

function toPage(rows: ReviewRow[], limit: number): ReviewPage {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  return {
    reviews: page.map((row) => toView(row, false)),
    nextCursor: rows.length > limit && last ? encodeReviewCursor(last.createdAtKey, last.id) : null,
  }
}

/** A listing's visible reviews, newest first, REVIEWS_PAGE_SIZE at a time (keyset: never a repeat or a gap). */
export async function listingReviews(
  listingId: string,
  options: { cursor?: [string, string] | null; limit?: number } = {},
): Promise<ReviewPage> {
  const limit = Math.min(Math.max(options.limit ?? REVIEWS_PAGE_SIZE, 1), 50)
  if (!isUuid(listingId)) return { reviews: [], nextCursor: null }
  return toPage(await visibleReviewsQuery(listingId, options.cursor ?? null, limit).execute(), limit)
}

/**
 * The first page of a listing's visible reviews inside the listing's own read (issue 28: the listing page
 * asked it in a statement of its own), made a ReviewPage by `reviewPageFromJson`.
 */
export function firstReviewsJson(listingId: Expression<string>) {
  return jsonArrayFrom(visibleReviewsQuery(listingId, null, REVIEWS_PAGE_SIZE))
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value))

/** JSON has no dates: a review's times come back as their ISO text. */
export function reviewPageFromJson(rows: ShallowDehydrateObject<ReviewRow>[]): ReviewPage {
  return toPage(
    rows.map((row) => ({
      ...row,
      createdAt: new Date(row.createdAt),
      sellerRepliedAt: dateOrNull(row.sellerRepliedAt),
      hiddenAt: dateOrNull(row.hiddenAt),
    })),
    REVIEWS_PAGE_SIZE,
  )
}

/** Hidden reviews of a listing, with their reasons (admins). */
export async function hiddenListingReviews(listingId: string): Promise<ReviewView[]> {
  if (!isUuid(listingId)) return []
  const rows = await reviewQuery(db)
    .where('r.listingId', '=', listingId)
    .where('r.hiddenAt', 'is not', null)
    .orderBy('r.createdAt', 'desc')
    .limit(50)
    .execute()
  return rows.map((row) => toView(row, true))
}

/** A buyer's sales of a listing, each with its review (`listingId` the listing's column in the listing's own read). */
function viewerSalesQuery(listingId: Expression<string>, buyerId: string) {
  return db
    .selectFrom('transactions as t')
    .leftJoin('reviews as r', (join) => join.onRef('r.transactionId', '=', 't.id').onRef('r.buyerId', '=', 't.buyerId'))
    .leftJoin('users as u', 'u.id', 'r.buyerId')
    .select(['t.id as saleId', 't.status', 't.completedAt', 't.refundedAt', 't.refundRequestedAt'])
    .select(['r.id', 'r.stars', 'r.body', 'r.createdAt', 'r.sellerReply', 'r.sellerRepliedAt', 'r.hiddenAt', 'r.hiddenReason'])
    .select(['r.buyerId', 'u.displayName', 'u.username', 'u.avatarUrl'])
    .where('t.listingId', '=', listingId)
    .where('t.buyerId', '=', buyerId)
}

/** A signed-in visitor's relation to a listing (the listing page; `viewerRelationFromJson`). */
export interface ViewerListingRelation {
  ownReview: ReviewView | null
  reviewableSaleId: string | null
  ownedPurchaseId: string | null
}

/**
 * A signed-in visitor's sales of a listing inside the listing's own read (issue 28.3: the listing page asked
 * their relation to it in three statements, then in one of its own): made a relation by viewerRelationFromJson.
 */
export function viewerSalesJson(listingId: Expression<string>, buyerId: string) {
  return jsonArrayFrom(viewerSalesQuery(listingId, buyerId))
}

type ViewerSale = Awaited<ReturnType<ReturnType<typeof viewerSalesQuery>['execute']>>[number]

/**
 * What the visitor's sales of the listing say: their own review, newest first, hidden or not (the author
 * sees why it was hidden); when they have none, the completed sale they may review now (the listing page's
 * form: reviewRefusal, the latest completion first); and the copy they own (OWNED_STATUSES: "You own this"
 * instead of a Buy Now that checkout refuses). JSON has no dates: the sales' times come back as their ISO text.
 */
export function viewerRelationFromJson(rows: ShallowDehydrateObject<ViewerSale>[], now = new Date()): ViewerListingRelation {
  const sales: ViewerSale[] = rows.map((row) => ({
    ...row,
    completedAt: dateOrNull(row.completedAt),
    refundedAt: dateOrNull(row.refundedAt),
    refundRequestedAt: dateOrNull(row.refundRequestedAt),
    createdAt: dateOrNull(row.createdAt),
    sellerRepliedAt: dateOrNull(row.sellerRepliedAt),
    hiddenAt: dateOrNull(row.hiddenAt),
  }))
  // A review's columns are all there when its id is (NOT NULL columns, its author by foreign key).
  const reviewed = sales.filter((sale): sale is ViewerSale & ReviewFields => sale.id !== null)
  const newest = reviewed.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
  const reviewable = newest
    ? undefined
    : sales
        .filter((sale) => sale.id === null && sale.status === 'completed')
        .sort((a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0))
        .find((sale) => reviewRefusal(sale, now) === null)
  const owned = sales.find((sale) => (OWNED_STATUSES as readonly string[]).includes(sale.status))
  return {
    ownReview: newest ? toView(newest, true) : null,
    reviewableSaleId: reviewable?.saleId ?? null,
    ownedPurchaseId: owned?.saleId ?? null,
  }
}

export interface ReviewPrompt {
  saleId: string
  listingTitle: string
  listingSlug: string
}

/** For My Purchases: the buyer's completed sales they can still review (newest completion first). */
export async function reviewPrompts(buyerId: string, now = new Date()): Promise<ReviewPrompt[]> {
  if (!isUuid(buyerId)) return []
  const sales = await db
    .selectFrom('transactions as t')
    .innerJoin('listings as l', 'l.id', 't.listingId')
    .leftJoin('reviews as r', 'r.transactionId', 't.id')
    .select(['t.id', 't.status', 't.completedAt', 't.refundedAt', 't.refundRequestedAt', 'l.title', 'l.slug', 'l.archivedAt', 'l.visible'])
    .where('t.buyerId', '=', buyerId)
    .where('t.status', '=', 'completed')
    .where('r.id', 'is', null)
    .orderBy('t.completedAt', 'desc')
    .limit(50)
    .execute()
  return (
    sales
      // The form is on the listing page: only listings the buyer can open.
      .filter((sale) => sale.archivedAt === null && sale.visible && reviewRefusal(sale, now) === null)
      .map((sale) => ({ saleId: sale.id, listingTitle: sale.title, listingSlug: sale.slug }))
  )
}

/** The seller page's latest visible reviews across the seller's listings, with the listing reviewed. */
export async function sellerRecentReviews(
  sellerId: string,
  limit = 5,
): Promise<(ReviewView & { listing: { title: string; slug: string } })[]> {
  if (!isUuid(sellerId)) return []
  const rows = await reviewQuery(db)
    .innerJoin('listings as l', 'l.id', 'r.listingId')
    .select(['l.title as listingTitle', 'l.slug as listingSlug'])
    .where('r.sellerId', '=', sellerId)
    .where('r.hiddenAt', 'is', null)
    .where('l.visible', '=', true)
    .where('l.archivedAt', 'is', null)
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({ ...toView(row, false), listing: { title: row.listingTitle, slug: row.listingSlug } }))
}

/** A seller's average over the visible reviews of all their listings. */
export async function sellerRatingTotals(sellerId: string): Promise<RatingTotals> {
  if (!isUuid(sellerId)) return { count: 0, sum: 0 }
  return db
    .selectFrom('reviews')
    .select([sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(sum(stars), 0)::int`.as('sum')])
    .where('sellerId', '=', sellerId)
    .where('hiddenAt', 'is', null)
    .executeTakeFirstOrThrow()
}
