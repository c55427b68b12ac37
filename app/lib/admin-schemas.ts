import { z } from '~/lib/zod'

/**
 * The text an admin types, one schema per field, used by the admin desk's
 * forms (components/admin/admin-actions.ts) and by /api/admin/* alike, so both
 * surfaces accept exactly the same (issue 15.2: one set of length limits).
 */

export const PAYMENT_REFERENCE_MAX = 140
export const ADMIN_REASON_MAX = 500

export const PaymentReferenceSchema = z
  .string({ error: 'Payment reference is required' })
  .trim()
  .min(1, 'Payment reference is required')
  .max(PAYMENT_REFERENCE_MAX, `Payment reference must be at most ${PAYMENT_REFERENCE_MAX} characters`)

export const RejectReasonSchema = z
  .string({ error: 'Please provide a rejection reason' })
  .trim()
  .min(1, 'Please provide a rejection reason')
  .max(ADMIN_REASON_MAX, `Please keep the reason under ${ADMIN_REASON_MAX} characters`)

export const RefundReasonSchema = z
  .string({ error: 'Please provide a reason for the refund' })
  .trim()
  .min(1, 'Please provide a reason for the refund')
  .max(ADMIN_REASON_MAX, `Please keep the reason under ${ADMIN_REASON_MAX} characters`)

/** Releasing a dispute to the seller may carry a note (optional). */
export const ReleaseNoteSchema = z
  .string()
  .trim()
  .max(ADMIN_REASON_MAX, `Please keep the note under ${ADMIN_REASON_MAX} characters`)
  .optional()
