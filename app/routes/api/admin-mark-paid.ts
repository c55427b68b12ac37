import { PaymentReferenceSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { markPaid } from '~/server/domain/payouts.server'

// POST /api/admin/transactions/:transactionId/mark-paid `{ paymentReference }`:
// records the bank transfer of a completed sale to a seller with approved details.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    access: 'admin',
    body: z.object({ paymentReference: PaymentReferenceSchema }),
    handler: async ({ user, params, body }) => {
      const sale = await markPaid({ transactionId: params.transactionId!, adminId: user.id, paymentReference: body.paymentReference })
      const { id, status, paidAt, paymentReference } = sale
      return { message: 'Transaction marked as paid', transaction: { id, status, paidAt, paymentReference } }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
