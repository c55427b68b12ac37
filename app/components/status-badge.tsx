import { Badge, type BadgeProps } from '~/components/ui/badge'
import { statusLabel } from '~/lib/escrow'
import { formatDate } from '~/lib/format'
import type { TransactionStatus } from '../../db/schema.ts'

/**
 * How each sale status looks, on every table (buyer, seller, admin): the one
 * map, so a status reads the same wherever it appears. Waiting on someone:
 * neutral; needs the buyer: primary; done: success; needs an admin: warning;
 * money gone back or never taken: destructive / outline.
 */
export const STATUS_BADGE_VARIANT: Record<TransactionStatus, BadgeProps['variant']> = {
  pending_payment: 'outline',
  paid: 'secondary',
  delivering: 'secondary',
  delivered: 'default',
  completed: 'success',
  disputed: 'warning',
  held: 'warning',
  refunded: 'destructive',
  failed: 'outline',
}

export function StatusBadge({ status }: { status: TransactionStatus }) {
  return <Badge variant={STATUS_BADGE_VARIANT[status]}>{statusLabel(status)}</Badge>
}

/**
 * A sale's payout (spec §4): 'Paid Out' with the transfer's date and
 * reference once an admin recorded it, 'Pending Payout' while it is owed,
 * else a dash (nothing is owed: refunded, failed, not paid yet).
 */
export function PayoutStatus({
  paidAt,
  paymentReference,
  pending,
}: {
  paidAt: Date | string | null
  paymentReference: string | null
  /** The seller's share is owed and not yet transferred. */
  pending: boolean
}) {
  if (paidAt) {
    return (
      <div className="grid justify-items-start gap-1">
        <Badge variant="success">Paid Out</Badge>
        <span className="text-xs text-muted-foreground">
          <time dateTime={new Date(paidAt).toISOString()}>{formatDate(paidAt)}</time>
          {paymentReference ? (
            <>
              {' · '}
              <span className="sr-only">reference </span>
              <span className="break-all">{paymentReference}</span>
            </>
          ) : null}
        </span>
      </div>
    )
  }
  if (pending) return <Badge variant="outline">Pending Payout</Badge>
  return <span className="text-muted-foreground">—</span>
}
