import { z } from '~/lib/zod'
import { PayoutStatementSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listPayoutStatements } from '~/server/domain/seller-analytics.server'

// GET /api/seller/payouts: the signed-in seller's payout statements (issue 19), newest first:
// which sales each payout paid, their amounts and fees, the bank reference and the date.
const StatementsAnswerSchema = z.strictObject({ statements: z.array(PayoutStatementSchema) })

const api = apiRoute({
  policy: { apiKeys: { GET: 'payouts:read' } },

  GET: {
    summary: 'Your payout statements, newest first',
    tags: ['Seller'],
    answers: { 200: StatementsAnswerSchema },
    access: 'user',
    handler: async ({ user }) => answer(StatementsAnswerSchema, { statements: await listPayoutStatements(user.id) }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
