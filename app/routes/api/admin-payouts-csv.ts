import { apiRoute } from '~/server/api/api-route.server'
import { listPayoutsDue, payoutsToCsv } from '~/server/domain/payouts.server'

// GET /api/admin/payouts.csv: the payouts due (completed, not paid out) with each
// seller's full bank details, for the bank run. Admin only; never cached.
const api = apiRoute({
  GET: {
    summary: 'The payouts due, with full bank details, as CSV',
    tags: ['Admin'],
    answers: { 200: { mediaType: 'text/csv', description: 'One row per payout due' } },
    access: 'admin',
    handler: async () => {
      const day = new Date().toISOString().slice(0, 10)
      return new Response(payoutsToCsv(await listPayoutsDue()), {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="forkmarket-payouts-due-${day}.csv"`,
          'Cache-Control': 'no-store',
        },
      })
    },
  },
})
export const loader = api.loader
export const action = api.action
