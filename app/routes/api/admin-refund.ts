import { RefundReasonSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { SaleAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { refundSale, saleJson } from '~/server/domain/escrow-actions.server'

// POST /api/admin/transactions/:transactionId/refund { reason }: refunds a disputed sale, or a paid one
// never delivered. Answers 202: the sale becomes 'refunded' when Stripe confirms (charge.refunded).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Refund a disputed or undelivered sale',
    tags: ['Admin'],
    errors: [404, 409, 502],
    answers: { 200: SaleAnswerSchema, 202: SaleAnswerSchema },
    access: 'admin',
    body: z.object({ reason: RefundReasonSchema }),
    handler: async ({ user, params, body }) => {
      const sale = await refundSale({ transactionId: params.transactionId!, adminId: user.id, reason: body.reason })
      return Response.json({ transaction: saleJson(sale) }, { status: sale.status === 'refunded' ? 200 : 202 })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
