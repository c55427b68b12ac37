import { ForkUrlSchema } from '~/lib/escrow-schemas'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { deliverSale, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/seller/transactions/:id/deliver { forkUrl }: the seller hands over the buyer's fork (paid → delivered).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.saleAction },
  POST: {
    access: 'user',
    body: z.object({ forkUrl: ForkUrlSchema }),
    handler: async ({ user, params, body }) => ({
      transaction: saleJson(await deliverSale({ transactionId: params.id!, sellerId: user.id, forkUrl: body.forkUrl })),
    }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
