import { PaymentReferenceSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { markPaid } from '~/server/domain/payout-batches.server'

// POST /api/admin/transactions/:transactionId/mark-paid `{ paymentReference }`: one urgent payout
// of a completed sale to a seller with approved details, as a one-line payout batch (issue 19):
// it is recorded (paidAt) when another admin approves it
// (POST /api/admin/payout-batches/:batchId/approve).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Pay one completed sale now, as a one-line payout batch',
    tags: ['Admin'],
    errors: [404, 409],
    answers: {
      200: z.strictObject({
        message: z.string(),
        batch: z.strictObject({
          id: z.string(),
          kind: z.string(),
          status: z.string(),
          totalCents: z.int(),
          bankReference: z.string().nullable(),
          transactionId: z.string(),
        }),
      }),
    },
    access: 'admin',
    body: z.object({ paymentReference: PaymentReferenceSchema }),
    handler: async ({ user, params, body }) => {
      const batch = await markPaid({ transactionId: params.transactionId!, adminId: user.id, paymentReference: body.paymentReference })
      const { id, kind, status, totalCents, bankReference } = batch
      return {
        message: 'Payout recorded: another admin must approve it',
        batch: { id, kind, status, totalCents, bankReference, transactionId: params.transactionId },
      }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
