import { data } from 'react-router'
import { REPORT_TARGETS, ReportSchema } from '~/lib/report-schema'
import { z } from '~/lib/zod'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS } from '~/server/api/api-route.server'
import { fileReport, REPORT_RATE_LIMIT } from '~/server/domain/reports.server'

/** What a filed report answers: its id, and the item as the reporter sees it. */
const ReportAnswerSchema = z.object({
  report: z.object({
    id: z.uuid(),
    status: z.literal('open'),
    item: z.object({
      targetType: z.enum(REPORT_TARGETS),
      targetId: z.uuid(),
      label: z.string(),
      path: z.string().describe('Where the item is seen on Forkmarket'),
    }),
  }),
})

// POST /api/reports (issue 30): the report form (/report) as JSON, with its rules and limits. Refused
// for API keys (no scope is declared): a report is a person's judgement of what they saw, and a key
// that files reports on its own is the flood the per-reporter limit exists to stop.
const api = apiRoute({
  // The form's limits: per address, and (in fileReport) per reporter.
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: REPORT_RATE_LIMIT },
  POST: {
    summary: 'Report a listing, a review or a user',
    description:
      'Only what the public sees can be reported (a visible listing, a shown review, any user), and not your own. One open report per reporter and item (409 until an admin decides); at most 10 reports an hour per reporter (429 with Retry-After). Signed-in people only: API keys are refused.',
    tags: ['Reports'],
    errors: [403, 404, 409],
    answers: { 201: ReportAnswerSchema },
    access: 'user',
    accepts: 'json',
    body: ReportSchema,
    handler: async ({ user, body }) => {
      const { id, item } = await fileReport({ reporterId: user.id, report: body })
      const { targetType, targetId, label, path } = item
      return data(answer(ReportAnswerSchema, { report: { id, status: 'open', item: { targetType, targetId, label, path } } }), {
        status: 201,
      })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
