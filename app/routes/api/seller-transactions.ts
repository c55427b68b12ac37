import { z } from '~/lib/zod'
import { SellerTransactionSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listSellerTransactions } from '~/server/domain/seller-dashboard.server'

// GET /api/seller/transactions (spec §7): the signed-in seller's sales, newest
// first, with the buyer's public fields only.
const api = apiRoute({
  policy: { apiKeys: { GET: 'sales:read' } },
  GET: {
    summary: 'Your sales, newest first',
    tags: ['Seller'],
    answers: { 200: z.array(SellerTransactionSchema) },
    access: 'user',
    handler: async ({ user }) => answer(z.array(SellerTransactionSchema), await listSellerTransactions(user.id)),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
