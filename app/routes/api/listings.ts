// GET /api/listings (marketplace search) and POST /api/listings (create).
export { listingsApiLoader as loader } from '~/server/search-api.server'
export { createListingApiAction as action } from '~/server/listing-api.server'
