import { Fragment } from 'react'
import { SaleChecksLines } from '~/components/listing-detail/commit-checks-line'
import { PayoutStatus, StatusBadge } from '~/components/status-badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { SaleChecksView } from '~/lib/commit-checks'
import { DISPUTE_WINDOW_HOURS, OWNED_STATUSES, timeLeft } from '~/lib/escrow'
import { formatDate } from '~/lib/format'
import { formatCents } from '~/lib/money'
import type { TransactionStatus } from '../../../db/schema.ts'
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
  paymentReference: string | null
  listing: { title: string; slug: string }
  buyer: { username: string }
}

/** Owed to the seller until an admin records the transfer; refunded and failed sales owe nothing. */
function payoutPending(t: { status: TransactionStatus; paidAt: string | Date | null }): boolean {
  return !t.paidAt && (OWNED_STATUSES as readonly string[]).includes(t.status)
}

export function SellerTransactionsTable({
  transactions,
  waitingInvitations = {},
  checks = {},
}: {
  transactions: SellerTransactionRow[]
  /** GitHub sales whose invitation is not sent yet (a limit, an error), by id: why (issue 16). */
  waitingInvitations?: Record<string, string>
  /** Disputed sales delivered through GitHub: what its checks said at the listed and the delivered commit (issue 30). */
  checks?: Record<string, SaleChecksView>
}) {
  return (
    <Table label="Your sales">
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
              <TableCell className="font-medium">
                <div className="grid gap-1">
                  <span>{t.listing.title}</span>
                  <a href={`/sales/${t.id}/messages`} className="w-fit text-xs font-normal text-primary underline-offset-4 hover:underline">
                    Messages
                    <span className="sr-only">
                      {' '}
                      with @{t.buyer.username} about {t.listing.title}
                    </span>
                  </a>
                </div>
              </TableCell>
              <TableCell label="Buyer">@{t.buyer.username}</TableCell>
              <TableCell label="Date" className="whitespace-nowrap">
                {formatDate(t.createdAt)}
              </TableCell>
              <TableCell label="Amount" className="text-end tabular-nums whitespace-nowrap">
                {formatCents(t.amountCents)}
              </TableCell>
              <TableCell label="Your share" className="text-end tabular-nums whitespace-nowrap">
                {formatCents(t.sellerShareCents)}
              </TableCell>
              <TableCell label="Status">
                <StatusBadge status={t.status} />
              </TableCell>
              <TableCell label="Payout">
                <PayoutStatus paidAt={t.paidAt} paymentReference={t.paymentReference} pending={payoutPending(t)} />
              </TableCell>
            </TableRow>
            {t.status === 'paid' ? (
              <TableRow detail>
                <TableCell colSpan={7} className="bg-muted/30">
                  <DeliverForm transactionId={t.id} />
                </TableCell>
              </TableRow>
            ) : null}
            {t.status === 'delivering' ? (
              <TableRow detail>
                <TableCell colSpan={7} className="text-xs text-muted-foreground">
                  {waitingInvitations[t.id]
                    ? `Delivering through GitHub — invitation queued: ${waitingInvitations[t.id]}`
                    : `Delivering through GitHub — waiting for @${t.buyer.username} to accept the invitation to your repository. The ${DISPUTE_WINDOW_HOURS}-hour window starts once they have access.`}
                </TableCell>
              </TableRow>
            ) : null}
            {t.status === 'delivered' && t.deliveredAt ? (
              <TableRow detail>
                <TableCell colSpan={7} className="text-xs text-muted-foreground" suppressHydrationWarning>
                  Delivered — waiting for the buyer to confirm receipt ({timeLeft(t.deliveredAt)} before it confirms automatically).
                </TableCell>
              </TableRow>
            ) : null}
            {t.status === 'disputed' ? (
              <TableRow detail>
                <TableCell colSpan={7} className="text-xs text-muted-foreground">
                  {t.deliveredAt ? 'The buyer reported a problem' : 'The delivery did not go through'}
                  {t.disputeReason ? `: “${t.disputeReason}”` : '.'} An admin will review it and release or refund the payment.
                  {checks[t.id] ? (
                    <div className="mt-2 text-foreground">
                      <SaleChecksLines checks={checks[t.id]!} />
                    </div>
                  ) : null}
                </TableCell>
              </TableRow>
            ) : null}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  )
}
