import { z } from '~/lib/zod'
import { answer, ReviewsAnswerSchema } from '~/server/api/api-answers.server'
import { apiRoute } from '~/server/api/api-route.server'
import { listingReviewsApi } from '~/server/api/reviews-api.server'

// GET /api/listings/:id/reviews (issue 18): a listing's reviews, newest first, keyset pages.
const api = apiRoute({
  GET: {
    summary: "A listing's reviews, newest first",
    tags: ['Listings'],
    query: z.object({ cursor: z.string().optional(), limit: z.string().optional() }),
    errors: [404],
    answers: { 200: ReviewsAnswerSchema },
    access: 'public',
    handler: async ({ user, params, request }) =>
      answer(ReviewsAnswerSchema, await listingReviewsApi(params.id!, new URL(request.url).searchParams, user)),
  },
})
export const loader = api.loader
export const action = api.action
