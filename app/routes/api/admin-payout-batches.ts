import { z } from '~/lib/zod'
import { PayoutBatchAnswerSchema, PayoutBatchViewSchema, PayoutDueSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { listPayoutBatches, payoutsDueBySeller } from '~/server/domain/payout-batch-views.server'
import { preparePayoutBatch } from '~/server/domain/payout-batches.server'

// GET /api/admin/payout-batches: the latest batches and what a new one would pay (per seller).
// POST /api/admin/payout-batches `{ sellerIds? }`: prepare a draft batch of everything due (issue 19),
// or of the chosen sellers only.
const BatchesAnswerSchema = z.strictObject({ batches: z.array(PayoutBatchViewSchema), due: z.array(PayoutDueSchema) })

const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.admin },
  GET: {
    summary: 'The latest payout batches and what a new one would pay',
    tags: ['Admin'],
    answers: { 200: BatchesAnswerSchema },
    access: 'admin',
    handler: async () => {
      const [batches, due] = await Promise.all([listPayoutBatches(), payoutsDueBySeller()])
      return answer(BatchesAnswerSchema, { batches, due })
    },
  },
  POST: {
    summary: 'Prepare a draft payout batch',
    tags: ['Admin'],
    errors: [409],
    answers: { 200: PayoutBatchAnswerSchema },
    access: 'admin',
    body: z.object({ sellerIds: z.array(z.string().max(64)).max(1000).optional() }),
    handler: async ({ user, body }) => {
      const batch = await preparePayoutBatch({ adminId: user.id, sellerIds: body.sellerIds })
      return answer(PayoutBatchAnswerSchema, { message: 'Payout batch prepared: another admin must approve it', batch })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
