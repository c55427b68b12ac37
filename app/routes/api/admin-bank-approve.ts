import { requireAdmin } from '~/server/auth.server'
import { approveBankDetails, BankDetailsError } from '~/server/bank-details.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/admin-bank-approve'

// POST /api/admin/bank-details/:userId/approve: pending → approved (409 from any other state).
export async function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  try {
    const bankDetails = await approveBankDetails({ userId: params.userId, adminId: admin.id })
    return { message: 'Bank details approved', bankDetails }
  } catch (error) {
    if (error instanceof BankDetailsError) return apiError(error.status, error.message)
    throw error
  }
}
