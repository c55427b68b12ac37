import { sql } from 'kysely'
import { OWNED_STATUSES, SALE_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import { FEE_EARNED_STATUSES, FEE_IN_ESCROW_STATUSES } from '~/lib/money'
import { payoutBlocker } from '~/lib/payouts'
import type { AuditActorRole, BankDetailsStatus, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { getFullBankDetailsFor, type FullBankDetails } from './bank-details.server.ts'
import { payoutDue, sellerSuspendedSql } from './payouts.server.ts'

/** Most rows the admin transactions table (and its API) returns; the status filter narrows it. */
export const ADMIN_TRANSACTIONS_LIMIT = 200
export const AUDIT_LOG_LIMIT = 100

export interface AdminSummary {
  /** Gross sales: amounts of sales the buyers paid and that were not refunded (paid, delivered, completed, disputed). */
  grossSalesCents: number
  /** Platform fees earned on completed sales (what the ledger's platform_fee account holds; the Reconciliation tab's figure). */
  platformFeesEarnedCents: number
  /** Platform fees held in escrow: the fee part of payments not yet released (the rest of the gross sales' fees). */
  platformFeesInEscrowCents: number
  /** Payouts due: the sellers' share (amount − fee) of completed sales not yet paid out. */
  payoutsDueCents: number
  /** Paid out: the sellers' share of sales an admin marked paid (paidAt set). */
  paidOutCents: number
}

export async function getAdminSummary(): Promise<AdminSummary> {
  const owned = sql.join([...OWNED_STATUSES])
  const earned = sql.join([...FEE_EARNED_STATUSES])
  const inEscrow = sql.join([...FEE_IN_ESCROW_STATUSES])
  const row = await db
    .selectFrom('transactions')
    .select([
      sql<string>`coalesce(sum(amount_cents) filter (where status in (${owned})), 0)`.as('gross'),
      sql<string>`coalesce(sum(application_fee_cents) filter (where status in (${earned})), 0)`.as('feesEarned'),
      sql<string>`coalesce(sum(application_fee_cents) filter (where status in (${inEscrow})), 0)`.as('feesInEscrow'),
      sql<string>`coalesce(sum(seller_share_cents) filter (where ${payoutDue}), 0)`.as('due'),
      sql<string>`coalesce(sum(seller_share_cents) filter (where paid_at is not null), 0)`.as('paidOut'),
    ])
    .executeTakeFirstOrThrow()
  return {
    grossSalesCents: Number(row.gross),
    platformFeesEarnedCents: Number(row.feesEarned),
    platformFeesInEscrowCents: Number(row.feesInEscrow),
    payoutsDueCents: Number(row.due),
    paidOutCents: Number(row.paidOut),
  }
}

/** Spec §3 "Admin view" of a transaction, plus its status. */
export interface AdminTransactionView {
  id: string
  createdAt: Date
  sellerEmail: string
  amountCents: number
  applicationFeeCents: number
  paidAt: Date | null
  paymentReference: string | null
  status: TransactionStatus
}

/** What the admin screen needs on top: both parties, the dispute, the delivery and the seller's bank status. */
export interface AdminTransaction extends AdminTransactionView {
  listingTitle: string
  listingSlug: string
  sellerId: string
  sellerUsername: string
  buyerEmail: string
  buyerUsername: string
  deliveredAt: Date | null
  completedAt: Date | null
  disputedAt: Date | null
  disputeReason: string | null
  forkUrl: string | null
  refundRequestedAt: Date | null
  sellerBankStatus: BankDetailsStatus | null
  /** Issue 30: a suspension in force holds the seller's payouts (`sellerMayBePaid`). */
  sellerSuspended: boolean
  sellerShareCents: number
}

function adminTransactionsQuery() {
  return db
    .selectFrom('transactions')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .leftJoin('bankDetails', 'bankDetails.userId', 'transactions.sellerId')
    .select([
      'transactions.id',
      'transactions.createdAt',
      'seller.email as sellerEmail',
      'transactions.amountCents',
      'transactions.applicationFeeCents',
      'transactions.sellerShareCents',
      'transactions.paidAt',
      'transactions.paymentReference',
      'transactions.status',
      'listings.title as listingTitle',
      'listings.slug as listingSlug',
      'transactions.sellerId',
      'seller.username as sellerUsername',
      'buyer.email as buyerEmail',
      'buyer.username as buyerUsername',
      'transactions.deliveredAt',
      'transactions.completedAt',
      'transactions.disputedAt',
      'transactions.disputeReason',
      'transactions.deliveryProof',
      'transactions.refundRequestedAt',
      'bankDetails.status as sellerBankStatus',
      sellerSuspendedSql(sql<string>`transactions.seller_id`).as('sellerSuspended'),
    ])
    .orderBy('transactions.createdAt', 'desc')
    .orderBy('transactions.id', 'desc')
}

export async function listAdminTransactions({ status }: { status?: TransactionStatus | null } = {}): Promise<AdminTransaction[]> {
  // Abandoned and declined payment attempts are not sales (issue 14.6).
  let query = adminTransactionsQuery()
    .where('transactions.status', 'in', [...SALE_STATUSES])
    .limit(ADMIN_TRANSACTIONS_LIMIT)
  if (status) query = query.where('transactions.status', '=', status)
  const rows = await query.execute()
  return rows.map(({ deliveryProof, ...row }) => ({ ...row, forkUrl: deliveryProof?.forkUrl ?? null }))
}

/** The spec's admin view only (GET /api/admin/transactions). */
export function toAdminTransactionView(t: AdminTransaction): AdminTransactionView {
  return {
    id: t.id,
    createdAt: t.createdAt,
    sellerEmail: t.sellerEmail,
    amountCents: t.amountCents,
    applicationFeeCents: t.applicationFeeCents,
    paidAt: t.paidAt,
    paymentReference: t.paymentReference,
    status: t.status,
  }
}

/** One sale as the admin tables show it (the dispute timeline's header and decision), or undefined. */
export async function getAdminTransaction(id: string): Promise<AdminTransaction | undefined> {
  if (!isUuid(id)) return undefined
  const row = await adminTransactionsQuery().where('transactions.id', '=', id).executeTakeFirst()
  if (!row) return undefined
  const { deliveryProof, ...rest } = row
  return { ...rest, forkUrl: deliveryProof?.forkUrl ?? null }
}

/** Every open dispute (not narrowed by the status filter), oldest first: they wait for a decision. */
export async function listOpenDisputes(): Promise<AdminTransaction[]> {
  const rows = await adminTransactionsQuery()
    .clearOrderBy()
    .where('transactions.status', '=', 'disputed')
    .orderBy('transactions.disputedAt', 'asc')
    .execute()
  return rows.map(({ deliveryProof, ...row }) => ({ ...row, forkUrl: deliveryProof?.forkUrl ?? null }))
}

/** Full bank details of the sellers whose completed sales can be paid out now (the Mark as Paid dialogs). */
export async function bankDetailsForPayouts(transactions: AdminTransaction[]): Promise<Record<string, FullBankDetails>> {
  const sellerIds = [
    ...new Set(
      transactions
        .filter((t) => payoutBlocker(t, { bankStatus: t.sellerBankStatus, suspended: t.sellerSuspended }) === null)
        .map((t) => t.sellerId),
    ),
  ]
  return Object.fromEntries(await getFullBankDetailsFor(sellerIds))
}

export interface AuditLogEntry {
  id: string
  createdAt: Date
  actorId: string | null
  actorEmail: string | null
  actorRole: AuditActorRole
  action: string
  entityType: string
  entityId: string
  fromState: string | null
  toState: string | null
  reason: string | null
}

export async function listAuditLog({ limit = AUDIT_LOG_LIMIT }: { limit?: number } = {}): Promise<AuditLogEntry[]> {
  return db
    .selectFrom('auditLog')
    .leftJoin('users', 'users.id', 'auditLog.actorId')
    .select([
      sql<string>`audit_log.id::text`.as('id'),
      'auditLog.createdAt',
      'auditLog.actorId',
      'users.email as actorEmail',
      'auditLog.actorRole',
      'auditLog.action',
      'auditLog.entityType',
      'auditLog.entityId',
      'auditLog.fromState',
      'auditLog.toState',
      'auditLog.reason',
    ])
    .orderBy('auditLog.createdAt', 'desc')
    .orderBy('auditLog.id', 'desc')
    .limit(Math.min(Math.max(limit, 1), AUDIT_LOG_LIMIT))
    .execute()
}

const STATUSES: readonly TransactionStatus[] = SALE_STATUSES

/** ?status=… of the admin table and API: a known status, or null for all. Undefined means "not a status". */
export function parseStatusFilter(value: string | null): TransactionStatus | null | undefined {
  if (!value || value === 'all') return null
  return (STATUSES as string[]).includes(value) ? (value as TransactionStatus) : undefined
}
