import { isUuid } from '~/lib/ids'
import { z } from '~/lib/zod'

const TransactionId = z.string().refine(isUuid, 'Purchase not found')

/** The buyer's actions on a delivered purchase (My Purchases), told apart by `intent`. */
export const ConfirmReceiptSchema = z.object({
  intent: z.literal('confirm-receipt'),
  transactionId: TransactionId,
})

export const ReportProblemSchema = z.object({
  intent: z.literal('report-problem'),
  transactionId: TransactionId,
  reason: z
    .string({ error: 'Please describe the problem' })
    .trim()
    .min(1, 'Please describe the problem')
    .max(2000, 'Please keep it under 2000 characters'),
})

export const PurchaseActionSchema = z.discriminatedUnion('intent', [ConfirmReceiptSchema, ReportProblemSchema])

export { purchaseHref, purchaseRowId } from '~/lib/purchase-links'
