import { ReleaseNoteSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { answer, SaleAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { releaseFunds, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/admin/transactions/:transactionId/release { reason? }: settles a dispute for the seller (disputed → completed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Settle a dispute for the seller',
    tags: ['Admin'],
    errors: [404, 409],
    answers: { 200: SaleAnswerSchema },
    access: 'admin',
    body: z.object({ reason: ReleaseNoteSchema }),
    handler: async ({ user, params, body }) =>
      answer(SaleAnswerSchema, {
        transaction: saleJson(await releaseFunds({ transactionId: params.transactionId!, adminId: user.id, reason: body.reason })),
      }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
