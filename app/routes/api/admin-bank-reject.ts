import { RejectReasonSchema } from '~/lib/admin-schemas'
import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'
import { BankDetailsChangeAnswerSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { rejectBankDetails } from '~/server/domain/bank-details.server'

// POST /api/admin/bank-details/:userId/reject `{ reason, version }`: pending → rejected; the seller sees the reason.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Reject pending bank details with a reason',
    tags: ['Admin'],
    errors: [404, 409],
    answers: { 200: BankDetailsChangeAnswerSchema },
    access: 'admin',
    body: z.object({ reason: RejectReasonSchema, version: BankDetailsVersionSchema }),
    handler: async ({ user, params, body }) =>
      answer(BankDetailsChangeAnswerSchema, {
        message: 'Bank details rejected',
        bankDetails: await rejectBankDetails({ userId: params.userId!, adminId: user.id, reason: body.reason, version: body.version }),
      }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
