import { apiRoute } from '~/server/api/api-route.server'
import { listingReviewsApi } from '~/server/api/reviews-api.server'

// GET /api/listings/:id/reviews (issue 18): a listing's reviews, newest first, keyset pages.
const api = apiRoute({
  GET: {
    access: 'public',
    handler: ({ user, params, request }) => listingReviewsApi(params.id!, new URL(request.url).searchParams, user),
  },
})
export const loader = api.loader
export const action = api.action
