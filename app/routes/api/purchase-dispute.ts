import { z } from '~/lib/zod'
import { apiError } from '~/server/responses.server'
import { readApiBody } from '~/server/api-body.server'
import { requireUser } from '~/server/auth.server'
import { disputeSale, saleJson } from '~/server/escrow.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/purchase-dispute'

// POST /api/purchases/:id/dispute { reason }: the buyer reports a problem within the 72-hour window.
const DisputeBodySchema = z.object({ reason: z.string().trim().min(1, 'Please describe the problem').max(2000) })

export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  const body = DisputeBodySchema.safeParse(await readApiBody(request))
  if (!body.success) return apiError(400, body.error.issues[0]?.message ?? 'Invalid request')
  try {
    const sale = await disputeSale({ transactionId: params.id, buyerId: user.id, reason: body.data.reason })
    return { transaction: saleJson(sale) }
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
