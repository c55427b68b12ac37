import { answer, ListingSchema } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { getApiListing } from '~/server/api/listing-api.server'

// GET /api/listings/id/:id (edit mode, checkout). Writes go to /api/listings/:id.
const api = apiRoute({
  policy: { apiKeys: { GET: 'listings:read' } },
  GET: {
    summary: 'One listing by id (hidden ones: their seller only)',
    tags: ['Listings'],
    errors: [404],
    answers: { 200: ListingSchema },
    access: 'public',
    handler: async ({ user, params }) => answer(ListingSchema, await getApiListing(params.id!, user, { bySlug: false })),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
