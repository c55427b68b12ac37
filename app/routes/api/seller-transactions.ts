import { requireUser } from '~/server/auth.server'
import { listSellerTransactions } from '~/server/seller-dashboard.server'
import type { Route } from './+types/seller-transactions'

// GET /api/seller/transactions (spec §7): the signed-in seller's sales, newest
// first, with the buyer's public fields only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  return listSellerTransactions(user.id)
}
