import { ForkUrlSchema } from '~/lib/escrow-schemas'
import { z } from '~/lib/zod'
import { answer, SaleAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { deliverSale, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/seller/transactions/:id/deliver { forkUrl }: the seller hands over the buyer's fork (paid → delivered).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.saleAction },
  POST: {
    summary: "Deliver a sale (the buyer's fork URL)",
    tags: ['Seller'],
    errors: [404, 409],
    answers: { 200: SaleAnswerSchema },
    access: 'user',
    body: z.object({ forkUrl: ForkUrlSchema }),
    handler: async ({ user, params, body }) =>
      answer(SaleAnswerSchema, {
        transaction: saleJson(await deliverSale({ transactionId: params.id!, sellerId: user.id, forkUrl: body.forkUrl })),
      }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
