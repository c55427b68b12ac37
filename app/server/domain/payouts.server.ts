import { sql, type Transaction as DbTransaction, type Expression, type Kysely } from 'kysely'
import { PAYEE_BANK_STATUS, PAYOUTS_HELD_SUSPENSION } from '~/lib/payouts'
import type { BankDetailsStatus, DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { getFullBankDetailsFor, type FullBankDetails } from './bank-details.server.ts'
import { csvCell } from './csv.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent } from './escrow.server.ts'
import { postSellerPayout } from './ledger.server.ts'
import { notify } from './notifications.server.ts'

/**
 * LEDGER HOOK (issue 19): `recordSellerPaid(trx, payment)` below is the ONE
 * function that records that a seller was paid (sets paid_at and the bank
 * reference on the seller's sales of a payout batch, inside the caller's
 * database transaction). The ledger writes its payout entries from there.
 *
 * Seller payouts (design.md §5): the platform holds the funds and an admin
 * records each bank transfer. A payout may be recorded only for a `completed`
 * sale whose seller's bank details are approved; recording it sets paidAt and
 * the transfer's reference, once.
 */

/**
 * The payout-due rule in SQL (completed, not yet paid out): the one fragment
 * every query uses — marking paid, the payouts due, the admin's summary.
 * `isPayoutDue` in app/lib/payouts.ts is the same rule for rows already read.
 */
type Executor = Kysely<DB> | DbTransaction<DB>

export const payoutDue = sql<boolean>`(transactions.status = 'completed' and transactions.paid_at is null)`

/** Whether the seller a query names has a suspension in force that holds their payouts (issue 30). */
export function sellerSuspendedSql(sellerId: Expression<string>) {
  return sql<boolean>`exists (select 1 from user_suspensions s where s.user_id = ${sellerId} and s.status = ${PAYOUTS_HELD_SUSPENSION})`
}

/**
 * `sellerMayBePaid` (app/lib/payouts.ts) in SQL, for the seller a query names (e.g.
 * `eb.ref('payoutBatchPayees.sellerId')`): their bank details are approved, and (issue 30) they are
 * not suspended: a suspended seller's payouts are held until the suspension is lifted.
 */
export function sellerMayBePaidSql(sellerId: Expression<string>) {
  return sql<boolean>`(exists (select 1 from bank_details b where b.user_id = ${sellerId} and b.status = ${PAYEE_BANK_STATUS})
    and not ${sellerSuspendedSql(sellerId)})`
}

/** A sale whose seller share may be paid now: due, and its seller may be paid (the batches take these). */
export const payable = sql<boolean>`(${payoutDue} and ${sellerMayBePaidSql(sql<string>`transactions.seller_id`)})`

// Mark as Paid (one urgent payout) is a one-line payout batch: markPaid in payout-batches.server.ts.

export interface PayoutDue {
  transactionId: string
  completedAt: Date | null
  listingTitle: string
  sellerId: string
  sellerEmail: string
  sellerUsername: string
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
  bankStatus: BankDetailsStatus | null
  /** Decrypted: admin-only (the payouts CSV). */
  bankDetails: FullBankDetails | null
}

/** Completed sales not yet paid out, oldest first: the admin's bank run. */
export async function listPayoutsDue(): Promise<PayoutDue[]> {
  const rows = await db
    .selectFrom('transactions')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select([
      'transactions.id as transactionId',
      'transactions.completedAt',
      'transactions.amountCents',
      'transactions.applicationFeeCents',
      'transactions.sellerShareCents',
      'transactions.sellerId',
      'seller.email as sellerEmail',
      'seller.username as sellerUsername',
      'listings.title as listingTitle',
    ])
    .where(payoutDue)
    .orderBy('transactions.completedAt', 'asc')
    .orderBy('transactions.id', 'asc')
    .execute()
  const banks = await getFullBankDetailsFor([...new Set(rows.map((r) => r.sellerId))])
  return rows.map((row) => {
    const bankDetails = banks.get(row.sellerId) ?? null
    return {
      ...row,
      bankStatus: bankDetails?.status ?? null,
      bankDetails,
    }
  })
}

// csvCell lives in csv.server.ts (no database import: the bank files and the demo seed use it too).
export { csvCell } from './csv.server.ts'

export const PAYOUTS_CSV_COLUMNS = [
  'transaction_id',
  'completed_at',
  'listing',
  'seller_email',
  'seller_username',
  'bank_status',
  'country',
  'account_holder',
  'bank_name',
  'sort_code',
  'account_number',
  'routing_number',
  'iban',
  'bic_swift',
  'amount_usd',
  'platform_fee_usd',
  'seller_share_usd',
] as const

const dollars = (cents: number) => (cents / 100).toFixed(2)

/** The bank-run file: one row per sale due, with the seller's full bank details (admin only). */
export function payoutsToCsv(payouts: PayoutDue[]): string {
  const lines = [PAYOUTS_CSV_COLUMNS.map(csvCell).join(',')]
  for (const p of payouts) {
    const bank = p.bankDetails
    lines.push(
      [
        p.transactionId,
        p.completedAt?.toISOString() ?? '',
        p.listingTitle,
        p.sellerEmail,
        p.sellerUsername,
        p.bankStatus ?? 'none',
        bank?.country,
        bank?.accountHolder,
        bank?.bankName,
        bank?.sortCode,
        bank?.accountNumber,
        bank?.routingNumber,
        bank?.iban,
        bank?.swift,
        dollars(p.amountCents),
        dollars(p.applicationFeeCents),
        dollars(p.sellerShareCents),
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}

/** One seller's payment of a payout batch, as recorded when the batch is sent (see the LEDGER HOOK above). */
export interface SellerPayment {
  batchId: string
  sellerId: string
  transactionIds: string[]
  /** Σ seller share of those sales, in cents. */
  amountCents: number
  bankReference: string
  paidAt: Date
  adminId: string
}

/**
 * Records that a seller was paid: each of the batch's sales of that seller
 * fires the escrow's payout_recorded (still due: completed, not yet paid out;
 * it sets paid_at and the bank reference, and audits), inside the caller's
 * transaction. Throws 409 when a sale is no longer due.
 */
export async function recordSellerPaid(trx: Executor, payment: SellerPayment): Promise<void> {
  for (const saleId of payment.transactionIds) {
    const recorded = await applyEvent(trx, {
      saleId,
      event: 'payout_recorded',
      by: { id: payment.adminId, role: 'admin' },
      paymentReference: payment.bankReference,
      metadata: { batchId: payment.batchId, paymentReference: payment.bankReference },
      now: payment.paidAt,
    })
    if (!recorded.applied || recorded.sale.sellerId !== payment.sellerId) {
      throw new AppError(409, 'A sale of this batch is no longer due (refunded or already paid): cancel it and prepare a new batch')
    }
  }
  const sales = await trx
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .select(['transactions.id', 'listings.title', 'transactions.sellerShareCents'])
    .where('transactions.id', 'in', payment.transactionIds)
    .orderBy('transactions.id')
    .execute()
  await postSellerPayout(trx, {
    batchId: payment.batchId,
    sellerId: payment.sellerId,
    bankReference: payment.bankReference,
    paidAt: payment.paidAt,
    sales: sales.map((sale) => ({ saleId: sale.id, sellerShareCents: sale.sellerShareCents })),
  })
  const kind = 'payout_recorded'
  await notify(trx, {
    kind,
    userId: payment.sellerId,
    dedupeKey: `${kind}:${payment.batchId}:${payment.sellerId}`,
    data: {
      batchId: payment.batchId,
      amountCents: payment.amountCents,
      bankReference: payment.bankReference,
      paidAt: payment.paidAt.toISOString(),
      sales: sales.map((sale) => ({ saleId: sale.id, listingTitle: sale.title, sellerShareCents: sale.sellerShareCents })),
    },
    now: payment.paidAt,
  })
}
