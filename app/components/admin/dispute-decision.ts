import { ADMIN_REASON_MAX } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { RefundSchema, ReleaseSchema } from './admin-actions'

/**
 * The decision taken from a dispute's timeline (issue 18): the admin desk's own
 * release and refund forms (admin-actions.ts), except that releasing needs a
 * reason too — the decision is audited with why.
 */
export const DECISION_REASON_REQUIRED = 'Please give the reason for your decision'

export const TimelineReleaseSchema = ReleaseSchema.extend({
  reason: z
    .string({ error: DECISION_REASON_REQUIRED })
    .trim()
    .min(1, DECISION_REASON_REQUIRED)
    .max(ADMIN_REASON_MAX, `Please keep the reason under ${ADMIN_REASON_MAX} characters`),
})

export const DisputeDecisionSchema = z.discriminatedUnion('intent', [TimelineReleaseSchema, RefundSchema])
