import { z } from '~/lib/zod'
import { apiError } from '~/server/responses.server'
import { readApiBody } from '~/server/api-body.server'
import { requireUser } from '~/server/auth.server'
import { deliverSale, saleJson } from '~/server/escrow.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/seller-transaction-deliver'

// POST /api/seller/transactions/:id/deliver { forkUrl }: the seller hands over the buyer's fork (paid → delivered).
const DeliverBodySchema = z.object({ forkUrl: z.string().trim().min(1, 'Fork URL is required').max(2000) })

export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  const body = DeliverBodySchema.safeParse(await readApiBody(request))
  if (!body.success) return apiError(400, body.error.issues[0]?.message ?? 'Invalid request')
  try {
    const sale = await deliverSale({ transactionId: params.id, sellerId: user.id, forkUrl: body.data.forkUrl })
    return { transaction: saleJson(sale) }
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
