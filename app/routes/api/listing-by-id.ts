import { apiError } from '~/server/responses.server'

// GET /api/listings/id/:id (edit mode, checkout). Writes go to /api/listings/:id.
export { listingByIdApiLoader as loader } from '~/server/listing-api.server'

export function action() {
  return apiError(405, 'Method not allowed')
}
