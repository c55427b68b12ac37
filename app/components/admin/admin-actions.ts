import type { SubmissionResult } from '@conform-to/react'
import { PaymentReferenceSchema, RefundReasonSchema, RejectReasonSchema, ReleaseNoteSchema } from '~/lib/admin-schemas'
import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'

/**
 * The admin dashboard's actions (one form each, told apart by `intent`),
 * shared by the dialogs (client validation) and the /admin action.
 */

export const MarkPaidSchema = z.object({
  intent: z.literal('mark-paid'),
  transactionId: z.string(),
  paymentReference: PaymentReferenceSchema,
})

export const ApproveBankSchema = z.object({
  intent: z.literal('approve-bank'),
  userId: z.string(),
  version: BankDetailsVersionSchema,
})

export const RejectBankSchema = z.object({
  intent: z.literal('reject-bank'),
  userId: z.string(),
  version: BankDetailsVersionSchema,
  reason: RejectReasonSchema,
})

export const ReleaseSchema = z.object({
  intent: z.literal('release'),
  transactionId: z.string(),
  reason: ReleaseNoteSchema,
})

export const RefundSchema = z.object({
  intent: z.literal('refund'),
  transactionId: z.string(),
  reason: RefundReasonSchema,
})

export const AdminActionSchema = z.discriminatedUnion('intent', [
  MarkPaidSchema,
  ApproveBankSchema,
  RejectBankSchema,
  ReleaseSchema,
  RefundSchema,
])

export type AdminIntent = z.infer<typeof AdminActionSchema>['intent']

/** Spec §8: what a failed action is called (the server's reason goes in the description). */
export const FAILURE_TITLES: Record<AdminIntent, string> = {
  'mark-paid': 'Failed to mark transaction as paid',
  'approve-bank': 'Failed to approve bank details',
  'reject-bank': 'Failed to reject bank details',
  release: 'Failed to release funds',
  refund: 'Failed to refund the buyer',
}

/** One dialog form per intent and target, so each shows only its own result. */
export function adminFormId(intent: AdminIntent, targetId: string): string {
  return `${intent}-${targetId}`
}

export interface AdminActionResult {
  formId?: string
  result?: SubmissionResult<string[]>
}
