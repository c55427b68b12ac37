import { requireAdmin } from '~/server/auth.server'
import { listAdminTransactions, parseStatusFilter, toAdminTransactionView } from '~/server/admin.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/admin-transactions'

// GET /api/admin/transactions[?status=…] (spec §7): the admin view of each
// transaction (spec §3) plus its status, newest first.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const status = parseStatusFilter(new URL(request.url).searchParams.get('status'))
  if (status === undefined) return apiError(400, 'Unknown transaction status')
  const transactions = await listAdminTransactions({ status })
  return transactions.map(toAdminTransactionView)
}
