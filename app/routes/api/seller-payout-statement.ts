import { apiRoute } from '~/server/api/api-route.server'
import { getPayoutStatement, statementToCsv } from '~/server/domain/seller-analytics.server'

// GET /api/seller/payouts/:batchId/statement.csv: one payout statement of the signed-in seller
// as CSV (404 for another seller's payout).
const api = apiRoute({
  policy: { apiKeys: { GET: 'payouts:read' } },

  GET: {
    summary: 'One of your payout statements as CSV',
    tags: ['Seller'],
    errors: [404],
    answers: { 200: { mediaType: 'text/csv', description: 'The sales the payout paid, their amounts and fees' } },
    access: 'user',
    handler: async ({ user, params }) => {
      const statement = await getPayoutStatement(user.id, params.batchId!)
      const day = statement.paidAt.toISOString().slice(0, 10)
      return new Response(statementToCsv(statement), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="forkmarket-payout-${day}-${statement.batchId.slice(0, 8)}.csv"`,
          'Cache-Control': 'private, no-store',
        },
      })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
