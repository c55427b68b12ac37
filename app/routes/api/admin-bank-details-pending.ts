import { data } from 'react-router'
import { requireAdmin } from '~/server/auth.server'
import { listPendingBankDetails } from '~/server/bank-details.server'
import type { Route } from './+types/admin-bank-details-pending'

// GET /api/admin/bank-details/pending (spec §7): `[{ id (user id), email, bankDetails }]`
// with the full account number / IBAN — the admin checks them before approving.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  return data(await listPendingBankDetails(), { headers: { 'Cache-Control': 'private, no-store' } })
}
