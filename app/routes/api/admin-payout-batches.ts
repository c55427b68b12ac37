import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { listPayoutBatches, payoutsDueBySeller } from '~/server/domain/payout-batch-views.server'
import { preparePayoutBatch } from '~/server/domain/payout-batches.server'

// GET /api/admin/payout-batches: the latest batches and what a new one would pay (per seller).
// POST /api/admin/payout-batches `{ sellerIds? }`: prepare a draft batch of everything due (issue 19),
// or of the chosen sellers only.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  GET: {
    access: 'admin',
    handler: async () => {
      const [batches, due] = await Promise.all([listPayoutBatches(), payoutsDueBySeller()])
      return { batches, due }
    },
  },
  POST: {
    access: 'admin',
    body: z.object({ sellerIds: z.array(z.string().max(64)).max(1000).optional() }),
    handler: async ({ user, body }) => {
      const batch = await preparePayoutBatch({ adminId: user.id, sellerIds: body.sellerIds })
      return { message: 'Payout batch prepared: another admin must approve it', batch }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
