import type { BankDetailsStatus } from '../../db/schema.ts'

/** Bank-details states in which a seller can take payments (see sellerCanTakePayments). */
export const PAYABLE_BANK_STATUSES = ['pending', 'approved'] as const satisfies readonly BankDetailsStatus[]

/**
 * Whether a seller can take payments (design.md §5 `requiresOnboarding`): bank
 * details on file and not rejected (pending ones may sell; rejected ones must
 * be resubmitted first). The one rule behind the checkout's "Seller Setup
 * Required", the listing page's "not yet purchasable", the seller's notices and
 * (as PAYABLE_BANK_STATUSES, in SQL) which listings the marketplace shows (issue 26.13).
 */
export function sellerCanTakePayments(bankStatus: BankDetailsStatus | null | undefined): boolean {
  return (PAYABLE_BANK_STATUSES as readonly string[]).includes(bankStatus ?? '')
}
