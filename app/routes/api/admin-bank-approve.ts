import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'
import { BankDetailsChangeAnswerSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { approveBankDetails } from '~/server/domain/bank-details.server'

// POST /api/admin/bank-details/:userId/approve `{ version }`: pending → approved (409 from any other state,
// or when the details changed since the version the admin reviewed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Approve pending bank details (four eyes after a change)',
    tags: ['Admin'],
    errors: [404, 409],
    answers: { 200: BankDetailsChangeAnswerSchema },
    access: 'admin',
    body: z.object({ version: BankDetailsVersionSchema }),
    handler: async ({ user, params, body }) => {
      const bankDetails = await approveBankDetails({ userId: params.userId!, adminId: user.id, version: body.version })
      // Issue 19: changed details stay pending after a first approval until a different admin approves.
      const message =
        bankDetails.status === 'approved' ? 'Bank details approved' : 'First approval recorded: a different admin must approve'
      return answer(BankDetailsChangeAnswerSchema, { message, bankDetails })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
