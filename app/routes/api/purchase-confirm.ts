import { answer, SaleAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { confirmReceipt, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/purchases/:id/confirm: the buyer confirms receipt (delivered → completed).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.saleAction },
  POST: {
    summary: 'Confirm receipt of a delivered purchase',
    tags: ['Purchases'],
    errors: [404, 409],
    answers: { 200: SaleAnswerSchema },
    access: 'user',
    handler: async ({ user, params }) =>
      answer(SaleAnswerSchema, { transaction: saleJson(await confirmReceipt({ transactionId: params.id!, buyerId: user.id })) }),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
