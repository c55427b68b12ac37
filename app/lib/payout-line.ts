/**
 * One sale of a payout, as the admin's payout batch and the seller's payout statement list it
 * (the sale, its listing, and how its price splits into the platform fee and the seller's share).
 */
export interface PayoutLine {
  transactionId: string
  listingTitle: string
  completedAt: Date | null
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
}
