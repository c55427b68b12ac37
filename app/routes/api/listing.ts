import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { deleteApiListing, getApiListing, patchApiListing } from '~/server/api/listing-api.server'

// GET /api/listings/:slug; PATCH and DELETE /api/listings/:id (spec §7 shares the path).
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.listing, rateLimit: RATE_LIMITS.listingWrite },
  GET: { access: 'public', handler: ({ user, params }) => getApiListing(params.slugOrId!, user, { bySlug: true }) },
  PATCH: {
    access: 'user',
    accepts: 'json',
    body: z.record(z.string(), z.unknown()),
    handler: ({ request, user, params, body }) => patchApiListing(request, user.id, params.slugOrId!, body),
  },
  DELETE: { access: 'user', handler: ({ request, user, params }) => deleteApiListing(request, user.id, params.slugOrId!) },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
