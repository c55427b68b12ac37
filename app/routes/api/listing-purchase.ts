import { apiError } from '~/server/responses.server'
import { requireUser } from '~/server/auth.server'
import { startCheckout } from '~/server/checkout.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/listing-purchase'

// POST /api/listings/:id/purchase (spec §7): { clientSecret } for the buyer's
// open payment attempt (created or reused), or { requiresOnboarding: true }
// while the seller has no bank details on file. The amount comes from the
// listing's price in the database; the body is ignored.
export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  try {
    const result = await startCheckout({ listingId: params.id, buyerId: user.id })
    switch (result.kind) {
      case 'requiresOnboarding':
        return { requiresOnboarding: true }
      case 'processing':
        return apiError(409, 'Your payment for this listing is already being processed', {
          paymentIntentId: result.paymentIntentId,
        })
      case 'ready':
        return { clientSecret: result.clientSecret }
    }
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
