import { z } from '~/lib/zod'
import { apiError } from '~/server/responses.server'
import { readApiBody } from '~/server/api-body.server'
import { requireAdmin } from '~/server/auth.server'
import { refundSale, saleJson } from '~/server/escrow.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/admin-refund'

// POST /api/admin/transactions/:transactionId/refund { reason }: refunds a disputed sale, or a paid one
// never delivered. Answers 202: the sale becomes 'refunded' when Stripe confirms (charge.refunded).
const RefundBodySchema = z.object({ reason: z.string().trim().min(1, 'Please give a reason for the refund').max(2000) })

export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  const body = RefundBodySchema.safeParse(await readApiBody(request))
  if (!body.success) return apiError(400, body.error.issues[0]?.message ?? 'Invalid request')
  try {
    const sale = await refundSale({ transactionId: params.transactionId, adminId: admin.id, reason: body.data.reason })
    return Response.json({ transaction: saleJson(sale) }, { status: sale.status === 'refunded' ? 200 : 202 })
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
