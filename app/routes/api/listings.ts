import { data } from 'react-router'
import { ListingApiSchema } from '~/lib/listing-schema'
import { z } from '~/lib/zod'
import { answer, ListingSchema, SearchAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, bodyParsedBy, RATE_LIMITS } from '~/server/api/api-route.server'
import { createApiListing } from '~/server/api/listing-api.server'
import { searchListingsApi } from '~/server/api/search-api.server'
import { IDEMPOTENT_REPLAYED_HEADER, idempotentCreate } from '~/server/http/idempotency.server'

// GET /api/listings (marketplace search) and POST /api/listings (create, price in cents; an Idempotency-Key
// makes a retry answer the listing the first request made: decision 026).
const api = apiRoute({
  policy: {
    apiKeys: { GET: 'listings:read', POST: 'listings:write' },
    bodyLimit: BODY_LIMITS.listing,
    rateLimit: RATE_LIMITS.listingWrite,
  },
  GET: {
    summary: 'Search the marketplace',
    tags: ['Listings'],
    query: z.object({
      search: z.string().optional(),
      type: z.string().optional(),
      licence: z.string().optional(),
      minPrice: z.string().optional(),
      maxPrice: z.string().optional(),
      languages: z.string().optional(),
      frameworks: z.string().optional(),
      dependencies: z.string().optional(),
      hasSetupCall: z.string().optional(),
      hasEmailSupport: z.string().optional(),
      hasBespokeDev: z.string().optional(),
      minRating: z.string().optional(),
      sortBy: z.string().optional(),
      cursor: z.string().optional(),
      limit: z.string().optional(),
    }),
    answers: { 200: SearchAnswerSchema },
    access: 'public',
    handler: async ({ request }) => answer(SearchAnswerSchema, await searchListingsApi(new URL(request.url).searchParams)),
  },
  POST: {
    summary: 'Create a listing (price in cents; Idempotency-Key makes retries safe)',
    tags: ['Listings'],
    errors: [409, 422, 502],
    answers: { 201: ListingSchema },
    access: 'user',
    accepts: 'json',
    body: bodyParsedBy(ListingApiSchema),
    handler: async ({ request, user, body }) => {
      const { listing, replayed } = await createApiListing(user.id, body, idempotentCreate(request, body))
      return data(answer(ListingSchema, listing), { status: 201, headers: replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : undefined })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
