import type { SubmissionResult } from '@conform-to/react'
import { Clock } from 'lucide-react'
import { Link } from 'react-router'
import { SaleChecksLines } from '~/components/listing-detail/commit-checks-line'
import { StatusBadge } from '~/components/status-badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { SaleChecksView } from '~/lib/commit-checks'
import { isWindowOpen, timeLeft } from '~/lib/escrow'
import { formatDate } from '~/lib/format'
import { formatCents } from '~/lib/money'
import { purchaseRowId } from '~/lib/purchase-schema'
import type { PurchaseGithub } from '~/server/domain/github-views.server'
import type { TransactionStatus } from '../../../db/schema.ts'
import { DeliveryCell } from './delivery-cell'
import { PurchaseActions } from './purchase-actions'

export interface PurchaseRow {
  id: string
  createdAt: Date
  amountCents: number
  status: TransactionStatus
  listing: { title: string; slug: string }
  seller: { username: string }
  deliveryProof: { forkUrl: string } | null
  deliveredAt: Date | null
  /** Delivered through GitHub (issue 16): the invitation, then the fork. */
  github?: PurchaseGithub | null
}

export interface PurchaseActionResult {
  transactionId: string
  intent: 'confirm-receipt' | 'report-problem'
  result: SubmissionResult<string[]>
}

/** The buyer may still Confirm Receipt or Report a problem: delivered, and the window has not closed. */
export function canActOn(purchase: Pick<PurchaseRow, 'status' | 'deliveredAt'>, now: Date): boolean {
  return purchase.status === 'delivered' && purchase.deliveredAt !== null && isWindowOpen(purchase.deliveredAt, now)
}

/** Spec "My Purchases": Listing, Seller, Date, Amount, Status, Delivery (+ the buyer's escrow actions). */
export function PurchasesTable({
  purchases,
  now,
  actionResult,
  connectGithubUrl,
  checks = {},
}: {
  purchases: PurchaseRow[]
  /** The server's clock when the page was rendered (so SSR and hydration agree). */
  now: Date
  actionResult?: PurchaseActionResult | null
  /** Where the buyer connects GitHub when an invitation waits for their account (issue 16). */
  connectGithubUrl?: string
  /** Disputed purchases delivered through GitHub: what its checks said at the listed and the delivered commit (issue 30). */
  checks?: Record<string, SaleChecksView>
}) {
  const hasActions = purchases.some((p) => p.status === 'delivered')
  return (
    <Table label="Your purchases">
      <TableHeader>
        <TableRow>
          <TableHead>Listing</TableHead>
          <TableHead>Seller</TableHead>
          <TableHead>Date</TableHead>
          <TableHead className="text-right">Amount</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Delivery</TableHead>
          {hasActions ? <TableHead>Actions</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {purchases.map((purchase) => {
          const windowOpen = canActOn(purchase, now)
          const result = actionResult?.transactionId === purchase.id ? actionResult : null
          return (
            <TableRow key={purchase.id} id={purchaseRowId(purchase.id)} className="scroll-mt-20">
              <TableCell className="font-medium">
                <div className="grid gap-1">
                  <Link to={`/listing/${purchase.listing.slug}`} className="hover:underline">
                    {purchase.listing.title}
                  </Link>
                  <Link
                    to={`/sales/${purchase.id}/messages`}
                    className="w-fit text-xs font-normal text-primary underline-offset-4 hover:underline"
                  >
                    Messages
                    <span className="sr-only">
                      {' '}
                      with @{purchase.seller.username} about {purchase.listing.title}
                    </span>
                  </Link>
                </div>
              </TableCell>
              <TableCell label="Seller">@{purchase.seller.username}</TableCell>
              <TableCell label="Date" className="whitespace-nowrap">
                <time dateTime={new Date(purchase.createdAt).toISOString()}>{formatDate(purchase.createdAt)}</time>
              </TableCell>
              <TableCell label="Amount" className="text-right tabular-nums whitespace-nowrap">
                {formatCents(purchase.amountCents)}
              </TableCell>
              <TableCell label="Status">
                <div className="grid gap-1">
                  <StatusBadge status={purchase.status} />
                  {windowOpen && purchase.deliveredAt ? (
                    <span className="flex items-center gap-1 text-xs text-muted-foreground">
                      <Clock aria-hidden="true" className="size-3" />
                      {timeLeft(purchase.deliveredAt, now)}
                    </span>
                  ) : null}
                </div>
              </TableCell>
              <TableCell label="Delivery">
                <DeliveryCell
                  status={purchase.status}
                  title={purchase.listing.title}
                  github={purchase.github}
                  forkUrl={purchase.deliveryProof?.forkUrl ?? null}
                  connectGithubUrl={connectGithubUrl}
                />
                {checks[purchase.id] ? (
                  <div className="mt-2 text-xs">
                    <SaleChecksLines checks={checks[purchase.id]!} />
                  </div>
                ) : null}
              </TableCell>
              {hasActions ? (
                <TableCell>
                  {windowOpen ? (
                    <PurchaseActions
                      target={{
                        transactionId: purchase.id,
                        title: purchase.listing.title,
                        amountCents: purchase.amountCents,
                        sellerUsername: purchase.seller.username,
                      }}
                      confirmResult={result?.intent === 'confirm-receipt' ? result.result : null}
                      reportResult={result?.intent === 'report-problem' ? result.result : null}
                    />
                  ) : null}
                </TableCell>
              ) : null}
            </TableRow>
          )
        })}
      </TableBody>
    </Table>
  )
}
