import { z } from '~/lib/zod'
import { SellerAnalyticsSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { getSellerAnalytics } from '~/server/domain/seller-analytics.server'

// GET /api/seller/analytics: the signed-in seller's last 30 days (views, sales, revenue,
// conversion) and balance (in escrow, due, paid out), as on the dashboard's chart.
const AnalyticsAnswerSchema = z.strictObject({ analytics: SellerAnalyticsSchema })

const api = apiRoute({
  policy: { apiKeys: { GET: 'sales:read' } },

  GET: {
    summary: 'Your last 30 days and your balance',
    tags: ['Seller'],
    answers: { 200: AnalyticsAnswerSchema },
    access: 'user',
    handler: async ({ user }) => answer(AnalyticsAnswerSchema, { analytics: await getSellerAnalytics(user.id) }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
