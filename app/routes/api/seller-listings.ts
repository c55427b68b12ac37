import { z } from '~/lib/zod'
import { answer, ListingSchema } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { sellerApiListings } from '~/server/api/listing-api.server'

// GET /api/seller/listings: the signed-in seller's listings.
const api = apiRoute({
  policy: { apiKeys: { GET: 'listings:read' } },
  GET: {
    summary: 'Your listings',
    tags: ['Seller'],
    answers: { 200: z.array(ListingSchema) },
    access: 'user',
    handler: async ({ user }) => answer(z.array(ListingSchema), await sellerApiListings(user.id)),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
