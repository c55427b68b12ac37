import { requireAdmin } from '~/server/auth.server'
import { BankDetailsVersionSchema } from '~/lib/bank-details-schema'
import { readApiBody } from '~/server/api-body.server'
import { approveBankDetails } from '~/server/bank-details.server'
import { AppError } from '~/server/errors.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/admin-bank-approve'

// POST /api/admin/bank-details/:userId/approve `{ version }`: pending → approved (409 from any other state,
// or when the details changed since the version the admin reviewed).
export async function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  const version = BankDetailsVersionSchema.safeParse((await readApiBody(request)).version)
  if (!version.success) return apiError(400, version.error.issues[0]?.message ?? 'Invalid version', { field: 'version' })
  try {
    const bankDetails = await approveBankDetails({ userId: params.userId, adminId: admin.id, version: version.data })
    return { message: 'Bank details approved', bankDetails }
  } catch (error) {
    if (error instanceof AppError) return apiError(error.status, error.message)
    throw error
  }
}
