import { apiError } from '~/server/responses.server'

// GET /api/seller/listings: the signed-in seller's listings.
export { sellerListingsApiLoader as loader } from '~/server/listing-api.server'

export function action() {
  return apiError(405, 'Method not allowed')
}
