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

/** A suspension in this state holds the seller's payouts (issue 30): requested is not yet in force, lifted no more. */
export const PAYOUTS_HELD_SUSPENSION = 'active'

export const PAYOUTS_HELD_MESSAGE = 'The seller is suspended: their payouts are held until the suspension is lifted'

/** What decides whether a seller may be paid: their bank details' state, and whether a suspension is in force. */
export interface PayeeStanding {
  bankStatus: BankDetailsStatus | null | undefined
  suspended: boolean
}

/**
 * May this seller be paid (design.md §5, issue 27.4's one rule): their bank details are approved and
 * (issue 30) they are not suspended. The rule behind the payouts desk's Mark as Paid, the batches'
 * payees and their checks before approval; its SQL form is `sellerMayBePaidSql` in
 * app/server/domain/payouts.server.ts (`payable`: due and this), built from the same two constants;
 * an integration test runs both on the same rows (payout-batches.test.ts).
 */
export function sellerMayBePaid(seller: PayeeStanding): boolean {
  return seller.bankStatus === PAYEE_BANK_STATUS && !seller.suspended
}

/** Why this seller may not be paid (null when they may): the suspension first, then the bank details. */
export function payeeBlocker(seller: PayeeStanding): string | null {
  if (sellerMayBePaid(seller)) return null
  if (seller.suspended) return PAYOUTS_HELD_MESSAGE
  return seller.bankStatus ? `The seller's bank details are ${seller.bankStatus}, not approved` : 'The seller has no bank details on file'
}

/** Why a payout cannot be recorded now (null when it can): due, and the seller may be paid. */
export function payoutBlocker(sale: { status: TransactionStatus; paidAt: Date | string | null }, seller: PayeeStanding): string | null {
  if (sale.paidAt) return 'This sale has already been paid out'
  if (sale.status !== 'completed') return `This sale is ${sale.status}: only completed sales can be paid out`
  return payeeBlocker(seller)
}
