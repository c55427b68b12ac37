import { requireAdmin } from '~/server/auth.server'
import { listPayoutsDue, payoutsToCsv } from '~/server/payouts.server'
import type { Route } from './+types/admin-payouts-csv'

// GET /api/admin/payouts.csv: the payouts due (completed, not paid out) with each
// seller's full bank details, for the bank run. Admin only; never cached.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const csv = payoutsToCsv(await listPayoutsDue())
  const day = new Date().toISOString().slice(0, 10)
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="forkmarket-payouts-due-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
