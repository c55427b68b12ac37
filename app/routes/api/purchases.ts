import { apiError } from '~/server/responses.server'
import { requireUser } from '~/server/auth.server'
import { listPurchases } from '~/server/escrow.server'
import type { Route } from './+types/purchases'

// GET /api/purchases (spec §7): the signed-in buyer's purchases, newest first (the spec's buyer view);
// deliveryProof.forkUrl only while the buyer has access (a refund ends it).
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  return listPurchases(user.id)
}

export function action() {
  return apiError(405, 'Method not allowed')
}
