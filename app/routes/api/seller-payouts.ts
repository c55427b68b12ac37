import { apiRoute } from '~/server/api/api-route.server'
import { listPayoutStatements } from '~/server/domain/seller-analytics.server'

// GET /api/seller/payouts: the signed-in seller's payout statements (issue 19), newest first:
// which sales each payout paid, their amounts and fees, the bank reference and the date.
const api = apiRoute({
  GET: {
    access: 'user',
    handler: async ({ user }) => ({ statements: await listPayoutStatements(user.id) }),
  },
})
export const loader = api.loader
export const action = api.action
