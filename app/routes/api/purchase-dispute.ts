import { ReportProblemSchema } from '~/lib/purchase-schema'
import { z } from '~/lib/zod'
import { answer, SaleAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { disputeSale, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/purchases/:id/dispute { reason }: the buyer reports a problem within the 72-hour window.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.saleAction },
  POST: {
    summary: 'Report a problem within the dispute window',
    tags: ['Purchases'],
    errors: [404, 409],
    answers: { 200: SaleAnswerSchema },
    access: 'user',
    // The same reason the Report a problem form takes (app/lib/purchase-schema.ts).
    body: z.object({ reason: ReportProblemSchema.shape.reason }),
    handler: async ({ user, params, body }) =>
      answer(SaleAnswerSchema, {
        transaction: saleJson(await disputeSale({ transactionId: params.id!, buyerId: user.id, reason: body.reason })),
      }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
