import { ReleaseNoteSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { releaseFunds, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/admin/transactions/:transactionId/release { reason? }: settles a dispute for the seller (disputed → completed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    access: 'admin',
    body: z.object({ reason: ReleaseNoteSchema }),
    handler: async ({ user, params, body }) => ({
      transaction: saleJson(await releaseFunds({ transactionId: params.transactionId!, adminId: user.id, reason: body.reason })),
    }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
