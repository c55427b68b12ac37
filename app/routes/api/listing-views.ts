import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { countViewFromBrowser } from '~/server/domain/seller-analytics.server'

// POST /api/listings/:id/views (issue 19/20): the listing page reports an anonymous view once it has
// loaded, because a shared cache answers most anonymous visits without running the loader.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.tiny, rateLimit: RATE_LIMITS.listingView },
  POST: {
    summary: 'Count an anonymous view of a listing',
    tags: ['Listings'],
    errors: [404],
    answers: { 200: z.strictObject({ counted: z.boolean() }) },
    access: 'public',
    handler: ({ request, params, user }) => countViewFromBrowser(request, params.id!, user?.id ?? null),
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
