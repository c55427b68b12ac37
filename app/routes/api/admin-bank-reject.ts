import { readApiBody } from '~/server/api-body.server'
import { requireAdmin } from '~/server/auth.server'
import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { rejectBankDetails } from '~/server/bank-details.server'
import { AppError } from '~/server/errors.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/admin-bank-reject'

// POST /api/admin/bank-details/:userId/reject `{ reason, version }`: pending → rejected; the seller sees the reason.
export async function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  const body = await readApiBody(request)
  const reason = typeof body.reason === 'string' ? body.reason : ''
  if (!reason.trim()) return apiError(400, 'Please provide a rejection reason')
  const version = BankDetailsVersionSchema.safeParse(body.version)
  if (!version.success) return apiError(400, version.error.issues[0]?.message ?? 'Invalid version', { field: 'version' })
  try {
    const bankDetails = await rejectBankDetails({ userId: params.userId, adminId: admin.id, reason, version: version.data })
    return { message: 'Bank details rejected', bankDetails }
  } catch (error) {
    if (error instanceof AppError) return apiError(error.status, error.message)
    throw error
  }
}
