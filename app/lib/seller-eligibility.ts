import type { BankDetailsStatus } from '../../db/schema.ts'

/**
 * Whether a seller can take payments (design.md §5 `requiresOnboarding`): bank
 * details on file and not rejected (pending ones may sell; rejected ones must
 * be resubmitted first). The one rule behind the checkout's "Seller Setup
 * Required", the listing page's "not yet purchasable" and the seller's notices.
 */
export function sellerCanTakePayments(bankStatus: BankDetailsStatus | null | undefined): boolean {
  return bankStatus === 'pending' || bankStatus === 'approved'
}
