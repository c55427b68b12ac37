import { apiRoute } from '~/server/api/api-route.server'
import { getSellerAnalytics } from '~/server/domain/seller-analytics.server'

// GET /api/seller/analytics: the signed-in seller's last 30 days (views, sales, revenue,
// conversion) and balance (in escrow, due, paid out), as on the dashboard's chart.
const api = apiRoute({
  GET: {
    access: 'user',
    handler: async ({ user }) => ({ analytics: await getSellerAnalytics(user.id) }),
  },
})
export const loader = api.loader
export const action = api.action
