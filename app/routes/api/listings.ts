import { data } from 'react-router'
import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { createApiListing } from '~/server/api/listing-api.server'
import { searchListingsApi } from '~/server/api/search-api.server'
import { IDEMPOTENT_REPLAYED_HEADER, idempotentCreate } from '~/server/http/idempotency.server'

// GET /api/listings (marketplace search) and POST /api/listings (create, price in cents; an Idempotency-Key
// makes a retry answer the listing the first request made: decision 026).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.listing, rateLimit: RATE_LIMITS.listingWrite },
  GET: { access: 'public', handler: ({ request }) => searchListingsApi(new URL(request.url).searchParams) },
  POST: {
    access: 'user',
    accepts: 'json',
    body: z.record(z.string(), z.unknown()),
    handler: async ({ request, user, body }) => {
      const { listing, replayed } = await createApiListing(user.id, body, idempotentCreate(request, body))
      return data(listing, { status: 201, headers: replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : undefined })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
