import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { startCheckout } from '~/server/domain/checkout.server'
import { AppError } from '~/server/domain/errors.server'
import { GITHUB_AUTHORIZE_PATH, githubPath } from '~/server/domain/github-accounts.server'

// POST /api/listings/:id/purchase (spec §7): { clientSecret } for the buyer's
// open payment attempt (created or reused), or { requiresOnboarding: true }
// while the seller has no bank details on file, or { requiresGithub: true, connectUrl } for a
// GitHub-delivered listing while the buyer has no connected GitHub account. The amount comes from the
// listing's price in the database; the body is ignored.
const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.purchase },
  POST: {
    summary: 'Start or resume paying for a listing',
    tags: ['Purchases'],
    errors: [404, 409, 502],
    answers: {
      200: z.union([
        z.strictObject({ clientSecret: z.string() }),
        z.strictObject({ requiresOnboarding: z.literal(true) }),
        z.strictObject({ requiresGithub: z.literal(true), connectUrl: z.string() }),
      ]),
    },
    access: 'user',
    handler: async ({ user, params }) => {
      const result = await startCheckout({ listingId: params.id!, buyerId: user.id })
      switch (result.kind) {
        case 'requiresOnboarding':
          return { requiresOnboarding: true }
        case 'requiresGithub':
          // Issue 16: a GitHub-delivered listing needs the buyer's GitHub account before any payment.
          return { requiresGithub: true, connectUrl: githubPath(GITHUB_AUTHORIZE_PATH, `/checkout/${result.summary.listingId}`) }
        case 'processing':
          throw new AppError(409, 'Your payment for this listing is already being processed', {
            extra: { paymentIntentId: result.paymentIntentId },
          })
        case 'ready':
          return { clientSecret: result.clientSecret }
      }
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
