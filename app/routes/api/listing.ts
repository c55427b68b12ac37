// GET /api/listings/:slug; PATCH and DELETE /api/listings/:id (spec §7 shares the path).
export { listingBySlugApiLoader as loader, listingApiAction as action } from '~/server/listing-api.server'
