import {
  COUNTER_NOTICE_MAX_LENGTH,
  MAX_REPORTS_PER_HOUR,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  REPORT_TARGETS,
  TAKEDOWN_REASON_MAX_LENGTH,
} from '~/lib/report-reasons'
import { HideReviewSchema } from '~/lib/review-schema'
import { z } from '~/lib/zod'

// The words and limits (zod-free, for the pages that only show them: issue 28), then the forms' schemas.
export * from '~/lib/report-reasons'

export const REPORT_ALREADY_OPEN = 'You have already reported this. An admin will look at it soon.'
export const TOO_MANY_REPORTS = `You can send at most ${MAX_REPORTS_PER_HOUR} reports an hour. Please try again later.`

function text(required: string, max: number, tooLong: string) {
  return z
    .string({ error: required })
    .transform((v) => v.replace(/\r\n/g, '\n').trim())
    .pipe(z.string().min(1, required).max(max, tooLong))
}

export const ReportSchema = z.object({
  targetType: z.enum(REPORT_TARGETS, { error: 'Choose what you are reporting' }),
  targetId: z.uuid({ error: 'Choose what you are reporting' }),
  reason: z.enum(REPORT_REASONS, { error: 'Choose a reason' }),
  details: text(
    'Tell us what is wrong',
    REPORT_DETAILS_MAX_LENGTH,
    `Details must be at most ${REPORT_DETAILS_MAX_LENGTH.toLocaleString('en-US')} characters`,
  ),
})
export type ReportInput = z.output<typeof ReportSchema>

export const takedownReason = text(
  'Write the reason the seller will see',
  TAKEDOWN_REASON_MAX_LENGTH,
  `The reason must be at most ${TAKEDOWN_REASON_MAX_LENGTH.toLocaleString('en-US')} characters`,
)

export const decisionNote = text(
  'Write a short note for the record',
  TAKEDOWN_REASON_MAX_LENGTH,
  `The note must be at most ${TAKEDOWN_REASON_MAX_LENGTH.toLocaleString('en-US')} characters`,
)

export const CounterNoticeSchema = z.object({
  takedownId: z.uuid(),
  counterNotice: text(
    'Explain why the listing should be restored',
    COUNTER_NOTICE_MAX_LENGTH,
    `The counter-notice must be at most ${COUNTER_NOTICE_MAX_LENGTH.toLocaleString('en-US')} characters`,
  ),
})

/** The admin's decisions on the moderation queue, told apart by `intent`. */
export const ModerationDecisionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('dismiss'), targetType: z.enum(REPORT_TARGETS), targetId: z.uuid(), note: decisionNote }),
  z.object({
    intent: z.literal('take-down'),
    targetId: z.uuid(),
    category: z.enum(REPORT_REASONS, { error: 'Choose a reason' }),
    note: takedownReason,
  }),
  z.object({ intent: z.literal('uphold'), targetId: z.uuid(), note: decisionNote }),
  z.object({ intent: z.literal('restore'), targetId: z.uuid(), note: decisionNote }),
  // Reviews: hidden with the reason its author sees (the listing page's rule), restored with a note.
  z.object({ intent: z.literal('hide-review'), targetId: z.uuid(), note: HideReviewSchema.shape.reason }),
  z.object({ intent: z.literal('restore-review'), targetId: z.uuid(), note: decisionNote }),
  // Suspensions: the target is the user; a second admin approves without a note (the request has the reason).
  z.object({ intent: z.literal('request-suspension'), targetId: z.uuid(), note: takedownReason }),
  z.object({ intent: z.literal('approve-suspension'), targetId: z.uuid() }),
  z.object({ intent: z.literal('cancel-suspension'), targetId: z.uuid(), note: decisionNote }),
  z.object({ intent: z.literal('lift-suspension'), targetId: z.uuid(), note: decisionNote }),
])
export type ModerationDecision = z.output<typeof ModerationDecisionSchema>
