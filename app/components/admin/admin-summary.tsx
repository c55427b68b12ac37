import { Banknote, CircleDollarSign, Landmark, Receipt } from 'lucide-react'
import { StatCard } from '~/components/dashboard/stat-card'
import { formatCents, PLATFORM_FEE_PERCENT } from '~/lib/money'
import type { AdminSummary } from '~/server/domain/admin.server'

/**
 * The admin dashboard's four figures. The platform's fees are named by where they stand (issue
 * 26.12): earned on completed sales — the Reconciliation tab's figure, the ledger's platform_fee —
 * plus those still held in escrow, adding up on screen to the fee of every gross sale.
 */
export function AdminSummaryCards({ summary }: { summary: AdminSummary }) {
  const feesCents = summary.platformFeesEarnedCents + summary.platformFeesInEscrowCents
  return (
    <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        title="Gross sales"
        value={formatCents(summary.grossSalesCents)}
        description="Paid by buyers, refunds excluded"
        icon={<Receipt />}
      />
      <StatCard
        title="Platform fees earned on completed sales"
        value={formatCents(summary.platformFeesEarnedCents)}
        description={`+ ${formatCents(summary.platformFeesInEscrowCents)} held in escrow (sales not yet completed) = ${formatCents(feesCents)}, the ${PLATFORM_FEE_PERCENT}% fee of gross sales`}
        icon={<CircleDollarSign />}
      />
      <StatCard
        title="Payouts due"
        value={formatCents(summary.payoutsDueCents)}
        description="Sellers’ share of completed sales not yet paid"
        icon={<Landmark />}
      />
      <StatCard
        title="Paid out"
        value={formatCents(summary.paidOutCents)}
        description="Sellers’ share already transferred"
        icon={<Banknote />}
      />
    </section>
  )
}
