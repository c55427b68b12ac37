import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { confirmReceipt, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/purchases/:id/confirm: the buyer confirms receipt (delivered → completed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.saleAction },
  POST: {
    access: 'user',
    handler: async ({ user, params }) => ({ transaction: saleJson(await confirmReceipt({ transactionId: params.id!, buyerId: user.id })) }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
