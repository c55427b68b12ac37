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

// Payout batches (issue 19): prepare, then another admin approves; export, sent, reconciled; or cancel.
export const PrepareBatchSchema = z.object({
  intent: z.literal('prepare-batch'),
  // The sellers ticked on the Payouts tab (each due seller with approved details is ticked by default).
  sellerId: z.array(z.string(), { error: 'Choose at least one seller to pay' }).min(1, 'Choose at least one seller to pay'),
})
const batchAction = <I extends string>(intent: I) => z.object({ intent: z.literal(intent), batchId: z.string() })
export const ApproveBatchSchema = batchAction('approve-batch')
export const ExportBatchSchema = batchAction('export-batch')
export const SendBatchSchema = batchAction('send-batch').extend({ bankReference: PaymentReferenceSchema })
export const ReconcileBatchSchema = batchAction('reconcile-batch')
export const CancelBatchSchema = batchAction('cancel-batch').extend({ reason: ReleaseNoteSchema })

// Issue 19: compare the provider, the sales and the ledger now (a POST: it stores a run).
export const RunReconciliationSchema = z.object({ intent: z.literal('run-reconciliation') })

export const AdminActionSchema = z.discriminatedUnion('intent', [
  MarkPaidSchema,
  ApproveBankSchema,
  RejectBankSchema,
  ReleaseSchema,
  RefundSchema,
  PrepareBatchSchema,
  ApproveBatchSchema,
  ExportBatchSchema,
  SendBatchSchema,
  ReconcileBatchSchema,
  CancelBatchSchema,
  RunReconciliationSchema,
])

export type AdminIntent = z.infer<typeof AdminActionSchema>['intent']

/** Spec §8: what a failed action is called (the server's reason goes in the description). */
export const FAILURE_TITLES: Record<AdminIntent, string> = {
  'mark-paid': 'Failed to mark transaction as paid',
  'approve-bank': 'Failed to approve bank details',
  'reject-bank': 'Failed to reject bank details',
  release: 'Failed to release funds',
  refund: 'Failed to refund the buyer',
  'prepare-batch': 'Failed to prepare the payout batch',
  'approve-batch': 'Failed to approve the payout batch',
  'export-batch': 'Failed to export the payout batch',
  'send-batch': 'Failed to record the bank reference',
  'reconcile-batch': 'Failed to mark the payout batch reconciled',
  'cancel-batch': 'Failed to cancel the payout batch',
  'run-reconciliation': 'Failed to run the reconciliation',
}

/** The id an action is about (its form's target), '' for a prepare. */
export function adminActionTarget(input: Record<string, unknown>): string {
  return String(input.transactionId ?? input.userId ?? input.batchId ?? '')
}

/** One dialog form per intent and target, so each shows only its own result. */
export function adminFormId(intent: AdminIntent, targetId: string): string {
  return `${intent}-${targetId}`
}

export interface AdminActionResult {
  formId?: string
  result?: SubmissionResult<string[]>
}
