import { PaymentReferenceSchema } from '~/lib/admin-schemas'
import { z } from '~/lib/zod'
import { PayoutBatchAnswerSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { AppError } from '~/server/domain/errors.server'
import {
  approvePayoutBatch,
  cancelPayoutBatch,
  exportPayoutBatch,
  markPayoutBatchSent,
  reconcilePayoutBatch,
} from '~/server/domain/payout-batches.server'

// POST /api/admin/payout-batches/:batchId/{approve|export|sent|reconcile|cancel} (issue 19):
// approve (another admin than the preparer), export (the files become final), sent
// `{ bankReference }`, reconcile, cancel `{ reason? }` (before export). Wrong state → 409.
const ACTIONS = ['approve', 'export', 'sent', 'reconcile', 'cancel'] as const

const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  POST: {
    summary: 'Approve, export, mark sent, reconcile or cancel a payout batch',
    tags: ['Admin'],
    params: z.object({ batchId: z.string(), action: z.enum(ACTIONS) }),
    errors: [404, 409],
    answers: { 200: PayoutBatchAnswerSchema },
    access: 'admin',
    body: z.object({
      bankReference: PaymentReferenceSchema.optional(),
      reason: z.string().trim().max(500, 'Please keep the reason under 500 characters').optional(),
    }),
    handler: async ({ user, params, body }) => {
      const action = params.action as (typeof ACTIONS)[number]
      if (!ACTIONS.includes(action)) throw new AppError(404, 'Not found')
      const args = { batchId: params.batchId!, adminId: user.id }
      switch (action) {
        case 'approve':
          return answer(PayoutBatchAnswerSchema, { message: 'Payout batch approved', batch: await approvePayoutBatch(args) })
        case 'export':
          return answer(PayoutBatchAnswerSchema, { message: 'Payout batch exported', batch: await exportPayoutBatch(args) })
        case 'sent':
          if (!body.bankReference) throw new AppError(400, 'Payment reference is required', { extra: { field: 'bankReference' } })
          return answer(PayoutBatchAnswerSchema, {
            message: 'Payout batch sent',
            batch: await markPayoutBatchSent({ ...args, bankReference: body.bankReference }),
          })
        case 'reconcile':
          return answer(PayoutBatchAnswerSchema, { message: 'Payout batch reconciled', batch: await reconcilePayoutBatch(args) })
        case 'cancel':
          return answer(PayoutBatchAnswerSchema, {
            message: 'Payout batch cancelled',
            batch: await cancelPayoutBatch({ ...args, reason: body.reason }),
          })
      }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
