/**
 * Reports and takedowns (issue 30), the rules people can see: what can be reported and why, the
 * limits of the texts, shared by the report form, the admin's moderation forms, the seller's
 * counter-notice and the server. Without Zod: the listing page shows the reasons' labels (issue 28's
 * first-visit JS); the schemas are in report-schema.ts.
 */
export const REPORT_TARGETS = ['listing', 'review', 'user'] as const
export type ReportTarget = (typeof REPORT_TARGETS)[number]

export const REPORT_REASONS = ['copyright', 'malware', 'misleading', 'spam', 'other'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  copyright: 'Copyright, or code the seller does not own',
  malware: 'Malware or leaked secrets',
  misleading: 'Misleading description',
  spam: 'Spam',
  other: 'Something else',
}

/** A takedown for these tells the listing's buyers and sends their open sales to the dispute queue (step 3). */
export const SERIOUS_REASONS: readonly ReportReason[] = ['copyright', 'malware']

export const REPORT_DETAILS_MAX_LENGTH = 2000
export const TAKEDOWN_REASON_MAX_LENGTH = 1000
export const COUNTER_NOTICE_MAX_LENGTH = 5000
/** Reports one user may file in an hour, on top of the route's per-address limit. */
export const MAX_REPORTS_PER_HOUR = 10
