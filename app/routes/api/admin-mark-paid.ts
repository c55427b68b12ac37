import { readApiBody } from '~/server/api-body.server'
import { requireAdmin } from '~/server/auth.server'
import { AppError } from '~/server/errors.server'
import { markPaid } from '~/server/payouts.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/admin-mark-paid'

// POST /api/admin/transactions/:transactionId/mark-paid `{ paymentReference }`:
// records the bank transfer of a completed sale to a seller with approved details.
export async function loader() {
  return apiError(405, 'Method not allowed')
}

export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const admin = await requireAdmin(request, context)
  const body = await readApiBody(request)
  const paymentReference = typeof body.paymentReference === 'string' ? body.paymentReference : ''
  if (!paymentReference.trim()) return apiError(400, 'Payment reference is required')
  try {
    const transaction = await markPaid({ transactionId: params.transactionId, adminId: admin.id, paymentReference })
    return {
      message: 'Transaction marked as paid',
      transaction: {
        id: transaction.id,
        status: transaction.status,
        paidAt: transaction.paidAt,
        paymentReference: transaction.paymentReference,
      },
    }
  } catch (error) {
    if (error instanceof AppError) return apiError(error.status, error.message)
    throw error
  }
}
