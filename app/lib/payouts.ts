import type { BankDetailsStatus, TransactionStatus } from '../../db/schema.ts'

/**
 * When a sale's seller share is due to the seller (design.md §5): the sale is
 * completed and not yet paid out. The SQL form of the same rule is
 * `payoutDue` in app/server/domain/payouts.server.ts; a unit test keeps both agreeing.
 */
export function isPayoutDue(sale: { status: TransactionStatus; paidAt: Date | string | null }): boolean {
  return sale.status === 'completed' && !sale.paidAt
}

/** The bank-details state in which a seller may be paid (pending details may sell, never be paid). */
export const PAYEE_BANK_STATUS = 'approved' satisfies BankDetailsStatus

/**
 * May this seller be paid (design.md §5): their bank details are approved. The one rule behind the
 * payouts desk's Mark as Paid, the batches' payees and their checks before approval; its SQL form
 * is `sellerMayBePaidSql` in app/server/domain/payouts.server.ts (`payable`: due and this).
 */
export function sellerMayBePaid(bankStatus: BankDetailsStatus | null | undefined): boolean {
  return bankStatus === PAYEE_BANK_STATUS
}

/** Why a payout cannot be recorded now (null when it can): due, and the seller may be paid. */
export function payoutBlocker(
  sale: { status: TransactionStatus; paidAt: Date | string | null },
  bankStatus: BankDetailsStatus | null,
): string | null {
  if (sale.paidAt) return 'This sale has already been paid out'
  if (sale.status !== 'completed') return `This sale is ${sale.status}: only completed sales can be paid out`
  if (!sellerMayBePaid(bankStatus)) {
    return bankStatus ? `The seller's bank details are ${bankStatus}, not approved` : 'The seller has no bank details on file'
  }
  return null
}
