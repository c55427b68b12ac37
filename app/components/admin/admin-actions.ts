import type { SubmissionResult } from '@conform-to/react'
import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'

/**
 * The admin dashboard's actions (one form each, told apart by `intent`),
 * shared by the dialogs (client validation) and the /admin action.
 */

export const MarkPaidSchema = z.object({
  intent: z.literal('mark-paid'),
  transactionId: z.string(),
  paymentReference: z
    .string({ error: 'Payment reference is required' })
    .trim()
    .min(1, 'Payment reference is required')
    .max(140, 'Payment reference must be at most 140 characters'),
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
  reason: z
    .string({ error: 'Please provide a rejection reason' })
    .trim()
    .min(1, 'Please provide a rejection reason')
    .max(500, 'Please keep the reason under 500 characters'),
})

export const ReleaseSchema = z.object({
  intent: z.literal('release'),
  transactionId: z.string(),
  reason: z.string().trim().max(500, 'Please keep the note under 500 characters').optional(),
})

export const RefundSchema = z.object({
  intent: z.literal('refund'),
  transactionId: z.string(),
  reason: z
    .string({ error: 'Please provide a reason for the refund' })
    .trim()
    .min(1, 'Please provide a reason for the refund')
    .max(500, 'Please keep the reason under 500 characters'),
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
