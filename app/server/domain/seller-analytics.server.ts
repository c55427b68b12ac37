import { isbot } from 'isbot'
import { sql } from 'kysely'
import { OWNED_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import type { PayoutLine } from '~/lib/payout-line'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { centsToDecimal } from './bank-files.server.ts'
import { AppError } from './errors.server.ts'
import { canViewListing } from './listings.server.ts'
import { csvCell, payoutDue } from './payouts.server.ts'

/**
 * The seller's analytics and payout statements (issue 19, docs/decisions/021).
 *
 * Listing views are counted without personal data: one row per listing and
 * UTC day (listing_views_daily). A signed-in visitor's page view is added to
 * this instance's tally and never awaited; the tally is written at most once a
 * second, every listing in one upsert (each instance adds its own, so several
 * instances count together). Nothing about the visitor is stored (no IP, user
 * id, cookie or user agent); bots (isbot), prefetches and the seller's own
 * visits are not counted.
 */

export const ANALYTICS_DAYS = 30

/** Whether a request to a listing page counts as a view. */
export function countsAsView(request: Request, viewerId: string | null | undefined, sellerId: string): boolean {
  if (viewerId && viewerId === sellerId) return false
  const purpose = request.headers.get('sec-purpose') ?? request.headers.get('purpose') ?? ''
  if (/prefetch|prerender/i.test(purpose)) return false
  return !isbot(request.headers.get('user-agent') ?? '')
}

/** Adds views to today's (UTC) counters of the listings, in one statement; a listing deleted meanwhile is left out. */
async function addViews(listingIds: string[], views: number[]): Promise<void> {
  await sql`
    INSERT INTO listing_views_daily (listing_id, day, views)
    SELECT t.id, (now() AT TIME ZONE 'utc')::date, t.n FROM unnest(${listingIds}::uuid[], ${views}::int[]) AS t(id, n)
    JOIN listings ON listings.id = t.id
    ON CONFLICT (listing_id, day) DO UPDATE SET views = listing_views_daily.views + excluded.views
  `.execute(db)
}

/** +1 view of the listing today (UTC): one statement. */
export async function countListingView(listingId: string): Promise<void> {
  await addViews([listingId], [1])
}

/**
 * A view reported by the browser (POST /api/listings/:id/views). An anonymous
 * listing page is served from a shared cache (decision 023), so its loader
 * does not run for most visitors: the page reports the view itself once it
 * has loaded. The same rules as the loader's count apply (bots, prefetches and
 * the seller are not counted); a listing the caller may not see is a 404.
 */
export async function countViewFromBrowser(request: Request, listingId: string, viewerId: string | null): Promise<{ counted: boolean }> {
  if (!isUuid(listingId)) throw new AppError(404, 'Listing not found')
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'sellerId', 'visible', 'archivedAt'])
    .where('id', '=', listingId)
    .executeTakeFirst()
  if (!listing || !canViewListing(listing, viewerId)) throw new AppError(404, 'Listing not found')
  if (!countsAsView(request, viewerId, listing.sellerId)) return { counted: false }
  await countListingView(listing.id)
  return { counted: true }
}

/** How long a view waits in the instance's tally before it is written (issue 28.3). */
export const VIEW_TALLY_FLUSH_MS = 1_000

/** Views counted here and not yet written: listing id → views. */
let tally = new Map<string, number>()
let flushTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Counts the view without delaying the page: added to the tally, written with the others within
 * VIEW_TALLY_FLUSH_MS (a signed-in listing page used to start a write of its own: issue 28.3 measured
 * it among the statements a signed-in page costs). A crash loses at most that second's views.
 */
export function countListingViewLater(listingId: string): void {
  tally.set(listingId, (tally.get(listingId) ?? 0) + 1)
  flushTimer ??= setTimeout(() => void flushListingViews(), VIEW_TALLY_FLUSH_MS).unref()
}

/** Writes the tally now, in one statement (server shutdown, tests); a failure is logged and those views are lost, never shown. */
export async function flushListingViews(): Promise<void> {
  clearTimeout(flushTimer)
  flushTimer = undefined
  if (tally.size === 0) return
  const written = tally
  tally = new Map()
  try {
    // A listing deleted since its view was counted is left out, not a failed write for all the others.
    await addViews([...written.keys()], [...written.values()])
  } catch (error) {
    logEvent('warn', 'listing_view_not_counted', { listings: written.size, error: error instanceof Error ? error.message : String(error) })
  }
}

export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  day: string
  views: number
  sales: number
  /** The seller's share of those sales, in cents. */
  revenueCents: number
}

export interface SellerAnalytics {
  days: AnalyticsDay[]
  totals: { views: number; sales: number; revenueCents: number; conversionPercent: number | null }
  /** Seller's share: in escrow (paid, not yet completed), due (completed, not paid out), paid out. */
  balance: { heldCents: number; dueCents: number; paidCents: number }
}

const ESCROW_STATUSES = OWNED_STATUSES.filter((s) => s !== 'completed')

/** Conversion = sales ÷ views, in percent with one decimal (null without views). */
export function conversionPercent(sales: number, views: number): number | null {
  return views > 0 ? Math.round((sales / views) * 1000) / 10 : null
}

export async function getSellerAnalytics(sellerId: string, now = new Date()): Promise<SellerAnalytics> {
  const end = now.toISOString().slice(0, 10)
  const [views, sales, balance] = await Promise.all([
    sql<{ day: string; views: string }>`
      SELECT v.day::text AS day, sum(v.views) AS views
      FROM listing_views_daily v JOIN listings l ON l.id = v.listing_id
      WHERE l.seller_id = ${sellerId} AND v.day > ${end}::date - ${ANALYTICS_DAYS}::int AND v.day <= ${end}::date
      GROUP BY v.day
    `.execute(db),
    sql<{ day: string; sales: string; revenue: string }>`
      SELECT (coalesce(paid_at_provider, created_at) AT TIME ZONE 'utc')::date::text AS day,
             count(*) AS sales, sum(seller_share_cents) AS revenue
      FROM transactions
      WHERE seller_id = ${sellerId} AND status IN (${sql.join([...OWNED_STATUSES])})
        AND (coalesce(paid_at_provider, created_at) AT TIME ZONE 'utc')::date > ${end}::date - ${ANALYTICS_DAYS}::int
        AND (coalesce(paid_at_provider, created_at) AT TIME ZONE 'utc')::date <= ${end}::date
      GROUP BY 1
    `.execute(db),
    db
      .selectFrom('transactions')
      .select([
        sql<string>`coalesce(sum(seller_share_cents) filter (where status in (${sql.join([...ESCROW_STATUSES])})), 0)`.as('held'),
        sql<string>`coalesce(sum(seller_share_cents) filter (where ${payoutDue}), 0)`.as('due'),
        sql<string>`coalesce(sum(seller_share_cents) filter (where paid_at is not null), 0)`.as('paid'),
      ])
      .where('sellerId', '=', sellerId)
      .executeTakeFirstOrThrow(),
  ])
  const viewsByDay = new Map(views.rows.map((r) => [r.day, Number(r.views)]))
  const salesByDay = new Map(sales.rows.map((r) => [r.day, { sales: Number(r.sales), revenue: Number(r.revenue) }]))
  const days: AnalyticsDay[] = []
  for (let i = ANALYTICS_DAYS - 1; i >= 0; i--) {
    const day = new Date(`${end}T00:00:00Z`)
    day.setUTCDate(day.getUTCDate() - i)
    const key = day.toISOString().slice(0, 10)
    days.push({
      day: key,
      views: viewsByDay.get(key) ?? 0,
      sales: salesByDay.get(key)?.sales ?? 0,
      revenueCents: salesByDay.get(key)?.revenue ?? 0,
    })
  }
  const totalViews = days.reduce((s, d) => s + d.views, 0)
  const totalSales = days.reduce((s, d) => s + d.sales, 0)
  return {
    days,
    totals: {
      views: totalViews,
      sales: totalSales,
      revenueCents: days.reduce((s, d) => s + d.revenueCents, 0),
      conversionPercent: conversionPercent(totalSales, totalViews),
    },
    balance: { heldCents: Number(balance.held), dueCents: Number(balance.due), paidCents: Number(balance.paid) },
  }
}

// ── Payout statements ───────────────────────────────────────────────────────

export interface PayoutStatement {
  batchId: string
  /** When the transfer was recorded as sent. */
  paidAt: Date
  bankReference: string
  status: 'sent' | 'reconciled'
  amountCents: number
  feeCents: number
  payoutCents: number
  lines: PayoutLine[]
}

/** One statement per payout the seller received (sent or reconciled batches), newest first. */
export async function listPayoutStatements(sellerId: string, { batchId }: { batchId?: string } = {}): Promise<PayoutStatement[]> {
  let query = db
    .selectFrom('payoutBatchLines')
    .innerJoin('payoutBatches', 'payoutBatches.id', 'payoutBatchLines.batchId')
    .innerJoin('transactions', 'transactions.id', 'payoutBatchLines.transactionId')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select([
      'payoutBatches.id as batchId',
      'payoutBatches.sentAt',
      'payoutBatches.bankReference',
      'payoutBatches.status',
      'payoutBatchLines.transactionId',
      'payoutBatchLines.amountCents',
      'payoutBatchLines.applicationFeeCents',
      'payoutBatchLines.sellerShareCents',
      'transactions.completedAt',
      'listings.title as listingTitle',
    ])
    .where('payoutBatchLines.sellerId', '=', sellerId)
    .where('payoutBatches.status', 'in', ['sent', 'reconciled'])
    .orderBy('payoutBatches.sentAt', 'desc')
    .orderBy('payoutBatches.id')
    .orderBy('transactions.completedAt')
    .orderBy('payoutBatchLines.transactionId')
  if (batchId !== undefined) query = query.where('payoutBatches.id', '=', batchId)
  const rows = await query.execute()
  const statements = new Map<string, PayoutStatement>()
  for (const row of rows) {
    let statement = statements.get(row.batchId)
    if (!statement) {
      statement = {
        batchId: row.batchId,
        paidAt: row.sentAt!,
        bankReference: row.bankReference!,
        status: row.status as PayoutStatement['status'],
        amountCents: 0,
        feeCents: 0,
        payoutCents: 0,
        lines: [],
      }
      statements.set(row.batchId, statement)
    }
    statement.amountCents += row.amountCents
    statement.feeCents += row.applicationFeeCents
    statement.payoutCents += row.sellerShareCents
    statement.lines.push({
      transactionId: row.transactionId,
      listingTitle: row.listingTitle,
      completedAt: row.completedAt,
      amountCents: row.amountCents,
      applicationFeeCents: row.applicationFeeCents,
      sellerShareCents: row.sellerShareCents,
    })
  }
  return [...statements.values()]
}

/** The seller's own statement (404 for anyone else's, and for a payout not yet sent). */
export async function getPayoutStatement(sellerId: string, batchId: string): Promise<PayoutStatement> {
  if (!isUuid(batchId)) throw new AppError(404, 'Payout statement not found')
  const [statement] = await listPayoutStatements(sellerId, { batchId })
  if (!statement) throw new AppError(404, 'Payout statement not found')
  return statement
}

export const STATEMENT_CSV_COLUMNS = [
  'payout_date',
  'bank_reference',
  'sale_id',
  'listing',
  'completed_at',
  'amount_usd',
  'platform_fee_usd',
  'payout_usd',
] as const

export function statementToCsv(statement: PayoutStatement): string {
  const lines = [STATEMENT_CSV_COLUMNS.map(csvCell).join(',')]
  for (const line of statement.lines) {
    lines.push(
      [
        statement.paidAt.toISOString(),
        statement.bankReference,
        line.transactionId,
        line.listingTitle,
        line.completedAt?.toISOString() ?? '',
        centsToDecimal(line.amountCents),
        centsToDecimal(line.applicationFeeCents),
        centsToDecimal(line.sellerShareCents),
      ]
        .map(csvCell)
        .join(','),
    )
  }
  lines.push(
    [
      'total',
      '',
      '',
      '',
      '',
      centsToDecimal(statement.amountCents),
      centsToDecimal(statement.feeCents),
      centsToDecimal(statement.payoutCents),
    ]
      .map(csvCell)
      .join(','),
  )
  return `${lines.join('\r\n')}\r\n`
}
