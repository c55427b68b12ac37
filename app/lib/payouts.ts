import type { BankDetailsStatus, TransactionStatus } from '../../db/schema.ts'

/**
 * When a sale's seller share is due to the seller (design.md §5): the sale is
 * completed and not yet paid out. The SQL form of the same rule is
 * `payoutDue` in app/server/domain/payouts.server.ts; a unit test keeps both agreeing.
 */
export function isPayoutDue(sale: { status: TransactionStatus; paidAt: Date | string | null }): boolean {
  return sale.status === 'completed' && !sale.paidAt
}

/** Why a payout cannot be recorded now (null when it can): due, and the seller's bank details approved. */
export function payoutBlocker(
  sale: { status: TransactionStatus; paidAt: Date | string | null },
  bankStatus: BankDetailsStatus | null,
): string | null {
  if (sale.paidAt) return 'This sale has already been paid out'
  if (sale.status !== 'completed') return `This sale is ${sale.status}: only completed sales can be paid out`
  if (bankStatus !== 'approved') {
    return bankStatus ? `The seller's bank details are ${bankStatus}, not approved` : 'The seller has no bank details on file'
  }
  return null
}
