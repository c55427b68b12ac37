import { z } from '~/lib/zod'
import { apiError } from '~/server/responses.server'
import { readApiBody } from '~/server/api-body.server'
import { requireAdmin } from '~/server/auth.server'
import { releaseFunds, saleJson } from '~/server/escrow.server'
import { isAppError } from '~/server/errors.server'
import type { Route } from './+types/admin-release'

// POST /api/admin/transactions/:transactionId/release { reason? }: settles a dispute for the seller (disputed → completed).
const ReleaseBodySchema = z.object({ reason: z.string().trim().max(2000).optional() })

export function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  const body = ReleaseBodySchema.safeParse(await readApiBody(request))
  if (!body.success) return apiError(400, body.error.issues[0]?.message ?? 'Invalid request')
  try {
    const sale = await releaseFunds({ transactionId: params.transactionId, adminId: admin.id, reason: body.data.reason })
    return { transaction: saleJson(sale) }
  } catch (error) {
    if (isAppError(error)) return apiError(error.status, error.message)
    throw error
  }
}
