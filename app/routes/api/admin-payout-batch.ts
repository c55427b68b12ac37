import { z } from '~/lib/zod'
import { PayoutBatchViewSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { getPayoutBatch } from '~/server/domain/payout-batch-views.server'

// GET /api/admin/payout-batches/:batchId: one batch with its sellers (masked accounts) and sales.
const BatchAnswerSchema = z.strictObject({ batch: PayoutBatchViewSchema })

const api = apiRoute({
  GET: {
    summary: 'One payout batch with its sellers and sales',
    tags: ['Admin'],
    errors: [404],
    answers: { 200: BatchAnswerSchema },
    access: 'admin',
    handler: async ({ params }) => answer(BatchAnswerSchema, { batch: await getPayoutBatch(params.batchId!) }),
  },
})
export const loader = api.loader
export const action = api.action
