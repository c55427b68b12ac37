import { Fragment } from 'react'
import type { TransactionStatus } from '../../../db/schema.ts'
import { Badge, type BadgeProps } from '~/components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { OWNED_STATUSES, statusLabel, timeLeft } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import { DeliverForm } from './deliver-form'

export interface SellerTransactionRow {
  id: string
  createdAt: string | Date
  amountCents: number
  sellerShareCents: number
  status: TransactionStatus
  deliveredAt: string | Date | null
  disputeReason: string | null
  paidAt: string | Date | null
  listing: { title: string; slug: string }
  buyer: { username: string }
}

export const STATUS_BADGE: Record<TransactionStatus, BadgeProps['variant']> = {
  pending_payment: 'outline',
  paid: 'default',
  delivering: 'secondary',
  delivered: 'secondary',
  completed: 'success',
  disputed: 'warning',
  refunded: 'destructive',
  failed: 'outline',
  held: 'warning',
}

export const formatDate = (value: string | Date) =>
  new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

/** 'Pending Payout' until an admin records the transfer ('Paid Out'); refunded sales have no payout. */
export function payoutLabel(t: { status: TransactionStatus; paidAt: string | Date | null }): string {
  if (t.paidAt) return 'Paid Out'
  return (OWNED_STATUSES as readonly string[]).includes(t.status) ? 'Pending Payout' : '—'
}

export function SellerTransactionsTable({ transactions }: { transactions: SellerTransactionRow[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Listing</TableHead>
          <TableHead>Buyer</TableHead>
          <TableHead>Date</TableHead>
          <TableHead className="text-end">Amount</TableHead>
          <TableHead className="text-end">Your share</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Payout</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.map((t) => (
          <Fragment key={t.id}>
            <TableRow data-transaction-id={t.id}>
              <TableCell className="font-medium">{t.listing.title}</TableCell>
              <TableCell>@{t.buyer.username}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDate(t.createdAt)}</TableCell>
              <TableCell className="text-end tabular-nums">{formatCents(t.amountCents)}</TableCell>
              <TableCell className="text-end tabular-nums">{formatCents(t.sellerShareCents)}</TableCell>
              <TableCell>
                <Badge variant={STATUS_BADGE[t.status]}>{statusLabel(t.status)}</Badge>
              </TableCell>
              <TableCell>
                <Badge variant={t.paidAt ? 'success' : 'outline'}>{payoutLabel(t)}</Badge>
              </TableCell>
            </TableRow>
            {t.status === 'paid' ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={7} className="bg-muted/30">
                  <DeliverForm transactionId={t.id} />
                </TableCell>
              </TableRow>
            ) : null}
            {t.status === 'delivered' && t.deliveredAt ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={7} className="text-xs text-muted-foreground" suppressHydrationWarning>
                  Delivered — waiting for the buyer to confirm receipt ({timeLeft(t.deliveredAt)} before it confirms automatically).
                </TableCell>
              </TableRow>
            ) : null}
            {t.status === 'disputed' ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={7} className="text-xs text-muted-foreground">
                  The buyer reported a problem{t.disputeReason ? `: “${t.disputeReason}”` : '.'} An admin will review it and release or refund the payment.
                </TableCell>
              </TableRow>
            ) : null}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  )
}
