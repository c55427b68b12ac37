import { ListingApiSchema } from '~/lib/listing-schema'
import { z } from '~/lib/zod'
import { answer, ListingSchema } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, bodyParsedBy, RATE_LIMITS } from '~/server/api/api-route.server'
import { deleteApiListing, getApiListing, patchApiListing } from '~/server/api/listing-api.server'

// GET /api/listings/:slug; PATCH and DELETE /api/listings/:id (spec §7 shares the path).
const api = apiRoute({
  policy: {
    apiKeys: { GET: 'listings:read', PATCH: 'listings:write', DELETE: 'listings:write' },
    bodyLimit: BODY_LIMITS.listing,
    rateLimit: RATE_LIMITS.listingWrite,
  },
  GET: {
    summary: 'One listing by slug (or id)',
    tags: ['Listings'],
    errors: [404],
    answers: { 200: ListingSchema },
    access: 'public',
    handler: async ({ user, params }) => answer(ListingSchema, await getApiListing(params.slugOrId!, user, { bySlug: true })),
  },
  PATCH: {
    summary: 'Update your listing (fields not sent keep their value)',
    tags: ['Listings'],
    errors: [404, 409],
    answers: { 200: ListingSchema },
    access: 'user',
    accepts: 'json',
    body: bodyParsedBy(ListingApiSchema, { partial: true }),
    handler: async ({ request, user, params, body }) =>
      answer(ListingSchema, await patchApiListing(request, user.id, params.slugOrId!, body)),
  },
  DELETE: {
    summary: 'Delete your listing (archived when it has sales)',
    tags: ['Listings'],
    errors: [404],
    answers: { 200: z.strictObject({ message: z.string(), archived: z.boolean() }) },
    access: 'user',
    handler: ({ request, user, params }) => deleteApiListing(request, user.id, params.slugOrId!),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
