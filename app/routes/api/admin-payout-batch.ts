import { apiRoute } from '~/server/api/api-route.server'
import { getPayoutBatch } from '~/server/domain/payout-batch-views.server'

// GET /api/admin/payout-batches/:batchId: one batch with its sellers (masked accounts) and sales.
const api = apiRoute({
  GET: {
    access: 'admin',
    handler: async ({ params }) => ({ batch: await getPayoutBatch(params.batchId!) }),
  },
})
export const loader = api.loader
export const action = api.action
