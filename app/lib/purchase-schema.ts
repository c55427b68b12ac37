import { z } from '~/lib/zod'

/** The buyer's actions on a delivered purchase (My Purchases), told apart by `intent`. */
export const ConfirmReceiptSchema = z.object({
  intent: z.literal('confirm-receipt'),
  transactionId: z.uuid(),
})

export const ReportProblemSchema = z.object({
  intent: z.literal('report-problem'),
  transactionId: z.uuid(),
  reason: z
    .string({ error: 'Please describe the problem' })
    .trim()
    .min(1, 'Please describe the problem')
    .max(2000, 'Please keep it under 2000 characters'),
})

export const PurchaseActionSchema = z.discriminatedUnion('intent', [ConfirmReceiptSchema, ReportProblemSchema])
