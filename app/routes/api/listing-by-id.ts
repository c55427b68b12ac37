import { apiRoute } from '~/server/api/api-route.server'
import { getApiListing } from '~/server/api/listing-api.server'

// GET /api/listings/id/:id (edit mode, checkout). Writes go to /api/listings/:id.
const api = apiRoute({ GET: { access: 'public', handler: ({ user, params }) => getApiListing(params.id!, user, { bySlug: false }) } })
export const loader = api.loader
export const action = api.action
