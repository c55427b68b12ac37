import { sql } from 'kysely'
import { OWNED_STATUSES } from '~/lib/escrow'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { notForSaleReason } from '~/lib/seller-setup'
import type { BankDetailsStatus, DeliveryProof, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { getBankDetailsStatus } from './bank-details.server.ts'
import { listSellerListings, type SellerListingSummary } from './listings.server.ts'

/**
 * The seller dashboard's numbers (spec "Seller dashboard", §9) read through
 * the escrow states of design.md §5:
 * - a sale counts once the buyer has paid and until it is refunded
 *   (paid, delivered, completed, disputed); pending and failed checkouts and
 *   refunded sales never count;
 * - Total Sales = the amounts of those sales;
 * - Pending payouts = the seller's share (amount − platform fee) of those not
 *   yet paid out (no paidAt);
 * - Active Listings = visible, non-archived listings.
 */

/** Sales the seller sees in their transactions: paid by the buyer (refunded ones stay visible as such). */
const SELLER_VISIBLE_STATUSES = [...OWNED_STATUSES, 'refunded'] as const satisfies readonly TransactionStatus[]

export const RECENT_TRANSACTIONS_LIMIT = 10

export interface SellerStats {
  totalSalesCents: number
  pendingPayoutCents: number
  /** Sales not yet paid out and not refunded (drives the bank-details alert). */
  pendingSales: number
}

export async function getSellerStats(sellerId: string): Promise<SellerStats> {
  const owned = sql.join([...OWNED_STATUSES])
  const row = await db
    .selectFrom('transactions')
    .select([
      sql<string>`coalesce(sum(amount_cents) filter (where status in (${owned})), 0)`.as('totalSales'),
      sql<string>`coalesce(sum(seller_share_cents) filter (where status in (${owned}) and paid_at is null), 0)`.as('pendingPayout'),
      sql<string>`count(*) filter (where status in (${owned}) and paid_at is null)`.as('pendingSales'),
    ])
    .where('sellerId', '=', sellerId)
    .executeTakeFirstOrThrow()
  return {
    totalSalesCents: Number(row.totalSales),
    pendingPayoutCents: Number(row.pendingPayout),
    pendingSales: Number(row.pendingSales),
  }
}

export interface SellerTransaction {
  id: string
  createdAt: Date
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
  status: TransactionStatus
  deliveredAt: Date | null
  completedAt: Date | null
  disputeReason: string | null
  deliveryProof: DeliveryProof | null
  paidAt: Date | null
  paymentReference: string | null
  listing: { id: string; title: string; slug: string }
  /** The buyer's public profile fields only (never their e-mail). */
  buyer: { username: string; displayName: string; avatarUrl: string | null }
}

/** The seller's sales, newest first. */
export async function listSellerTransactions(sellerId: string, { limit }: { limit?: number } = {}): Promise<SellerTransaction[]> {
  let query = db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
    .select([
      'transactions.id',
      'transactions.createdAt',
      'transactions.amountCents',
      'transactions.applicationFeeCents',
      'transactions.sellerShareCents',
      'transactions.status',
      'transactions.deliveredAt',
      'transactions.completedAt',
      'transactions.disputeReason',
      'transactions.deliveryProof',
      'transactions.paidAt',
      'transactions.paymentReference',
      'listings.id as listingId',
      'listings.title as listingTitle',
      'listings.slug as listingSlug',
      'buyer.username as buyerUsername',
      'buyer.displayName as buyerDisplayName',
      'buyer.avatarUrl as buyerAvatarUrl',
    ])
    .where('transactions.sellerId', '=', sellerId)
    .where('transactions.status', 'in', [...SELLER_VISIBLE_STATUSES])
    .orderBy('transactions.createdAt', 'desc')
    .orderBy('transactions.id', 'desc')
  if (limit) query = query.limit(limit)
  const rows = await query.execute()
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    amountCents: r.amountCents,
    applicationFeeCents: r.applicationFeeCents,
    sellerShareCents: r.sellerShareCents,
    status: r.status,
    deliveredAt: r.deliveredAt,
    completedAt: r.completedAt,
    disputeReason: r.disputeReason,
    deliveryProof: r.deliveryProof,
    paidAt: r.paidAt,
    paymentReference: r.paymentReference,
    listing: { id: r.listingId, title: r.listingTitle, slug: r.listingSlug },
    buyer: { username: r.buyerUsername, displayName: r.buyerDisplayName, avatarUrl: r.buyerAvatarUrl },
  }))
}

export interface SellerDashboard {
  stats: SellerStats & { activeListings: number }
  listings: SellerListingSummary[]
  transactions: SellerTransaction[]
  bankStatus: BankDetailsStatus | null
  /**
   * `missing`: the seller cannot take payments (`sellerCanTakePayments`) and has listings or a sale
   * waiting for a payout — their listings cannot be bought until they add (or resubmit) bank details.
   * `pending`: spec §9, at least one pending sale and details waiting for approval.
   */
  bankAlert: 'pending' | 'missing' | null
  /** Issue 26.13: why the seller's listings are not in the marketplace (cannot be bought), or null. */
  notForSale: string | null
}

export async function getSellerDashboard(sellerId: string): Promise<SellerDashboard> {
  const [stats, listings, transactions, bankStatus] = await Promise.all([
    getSellerStats(sellerId),
    listSellerListings(sellerId),
    listSellerTransactions(sellerId, { limit: RECENT_TRANSACTIONS_LIMIT }),
    getBankDetailsStatus(sellerId),
  ])
  const activeListings = listings.filter((l) => l.visible).length
  let bankAlert: SellerDashboard['bankAlert'] = null
  if (!sellerCanTakePayments(bankStatus) && (listings.length > 0 || stats.pendingSales > 0)) bankAlert = 'missing'
  else if (bankStatus === 'pending' && stats.pendingSales > 0) bankAlert = 'pending'
  return { stats: { ...stats, activeListings }, listings, transactions, bankStatus, bankAlert, notForSale: notForSaleReason(bankStatus) }
}
