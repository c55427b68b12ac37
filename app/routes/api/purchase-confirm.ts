import { apiError } from '~/server/responses.server'
import { requireUser } from '~/server/auth.server'
import { confirmReceipt, saleJson } from '~/server/escrow.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/purchase-confirm'

// POST /api/purchases/:id/confirm: the buyer confirms receipt (delivered → completed).
export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  try {
    const sale = await confirmReceipt({ transactionId: params.id, buyerId: user.id })
    return { transaction: saleJson(sale) }
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
