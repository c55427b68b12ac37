import { z } from '~/lib/zod'
import { PurchaseSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listPurchases } from '~/server/domain/purchases.server'

// GET /api/purchases (spec §7): the signed-in buyer's purchases, newest first (the spec's buyer view);
// deliveryProof.forkUrl only while the buyer has access (a refund ends it).
const api = apiRoute({
  GET: {
    summary: 'Your purchases, newest first',
    tags: ['Purchases'],
    answers: { 200: z.array(PurchaseSchema) },
    access: 'user',
    handler: async ({ user }) => answer(z.array(PurchaseSchema), await listPurchases(user.id)),
  },
})
export const loader = api.loader
export const action = api.action
