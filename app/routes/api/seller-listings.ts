import { apiRoute } from '~/server/api/api-route.server'
import { sellerApiListings } from '~/server/api/listing-api.server'

// GET /api/seller/listings: the signed-in seller's listings.
const api = apiRoute({ GET: { access: 'user', handler: ({ user }) => sellerApiListings(user.id) } })
export const loader = api.loader
export const action = api.action
