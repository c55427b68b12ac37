import { apiRoute } from '~/server/api/api-route.server'
import { listSellerTransactions } from '~/server/domain/seller-dashboard.server'

// GET /api/seller/transactions (spec §7): the signed-in seller's sales, newest
// first, with the buyer's public fields only.
const api = apiRoute({ GET: { access: 'user', handler: ({ user }) => listSellerTransactions(user.id) } })
export const loader = api.loader
export const action = api.action
