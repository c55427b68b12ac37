import { PayoutStatus, StatusBadge } from '~/components/status-badge'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { BankAccountDetails } from '~/lib/bank-details-schema'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatDate } from '~/lib/format'
import { formatCents } from '~/lib/money'
import { isPayoutDue, sellerMayBePaid } from '~/lib/payouts'
import type { GithubEvidence } from '~/server/domain/github-views.server'
import type { BankDetailsStatus, TransactionStatus } from '../../../db/schema.ts'
import { ActionDialog, BlockedAction } from './action-dialog'
import { MarkPaidSchema } from './admin-actions'
import { BankDetailsView } from './bank-details-view'
import { DeliveryEvidence, ForkRow } from './delivery-evidence'
import { RefundAction, ReleaseOrRefund } from './release-refund'

export interface AdminTransactionRow {
  id: string
  createdAt: string | Date
  sellerEmail: string
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
  paidAt: string | Date | null
  paymentReference: string | null
  status: TransactionStatus
  listingTitle: string
  sellerId: string
  sellerUsername: string
  buyerEmail: string
  buyerUsername: string
  disputedAt: string | Date | null
  disputeReason: string | null
  forkUrl: string | null
  refundRequestedAt: string | Date | null
  sellerBankStatus: BankDetailsStatus | null
  sellerSuspended: boolean
}

function MarkPaidAction({ t, bank }: { t: AdminTransactionRow; bank: BankAccountDetails | undefined }) {
  const standing = { bankStatus: t.sellerBankStatus, suspended: t.sellerSuspended }
  if (!sellerMayBePaid(standing) || !bank) {
    const why = t.sellerSuspended
      ? 'Seller suspended: payouts held'
      : t.sellerBankStatus
        ? `Seller's bank details are ${t.sellerBankStatus}`
        : 'Seller has no bank details'
    return <BlockedAction label="Mark as Paid" why={why} whyId={`why-${t.id}`} className="max-w-44 justify-items-start" />
  }
  return (
    <ActionDialog
      intent="mark-paid"
      target={{ name: 'transactionId', id: t.id }}
      schema={MarkPaidSchema}
      triggerLabel="Mark as Paid"
      title="Mark as Paid"
      description={
        <p>
          Record the bank transfer of {formatCents(t.sellerShareCents)} to {t.sellerEmail} for “{t.listingTitle}”.
        </p>
      }
      details={<BankDetailsView details={bank} />}
      field={{ name: 'paymentReference', label: 'Payment reference', description: 'The reference of the bank transfer.' }}
      submitLabel="Mark as Paid"
    />
  )
}

function RowActions({ t, bank, batchStatus }: { t: AdminTransactionRow; bank: BankAccountDetails | undefined; batchStatus?: string }) {
  if (t.refundRequestedAt && t.status !== 'refunded') return <Badge variant="warning">Refund requested</Badge>
  // Issue 19: already in a payout batch that is not sent yet — its next step is on the Payouts tab.
  if (isPayoutDue(t) && batchStatus) {
    return (
      <a href="?tab=payouts" className="inline-block max-w-36 text-sm text-primary underline-offset-4 hover:underline">
        {batchStatus === 'draft' ? 'Awaiting approval' : `Payout ${batchStatus}`}
      </a>
    )
  }
  if (isPayoutDue(t)) return <MarkPaidAction t={t} bank={bank} />
  if (t.status === 'paid' || t.status === 'held') return <RefundAction sale={t} />
  if (t.status === 'disputed') {
    return (
      <a href={`/admin/disputes/${t.id}`} className="text-sm text-primary underline-offset-4 hover:underline">
        Resolve dispute<span className="sr-only"> about {t.listingTitle}</span>
      </a>
    )
  }
  // A decided dispute stays readable: its timeline with the decision (issue 26.7).
  if (t.disputedAt) {
    return (
      <a href={`/admin/disputes/${t.id}`} className="text-sm text-primary underline-offset-4 hover:underline">
        Dispute decision<span className="sr-only"> about {t.listingTitle}</span>
      </a>
    )
  }
  return null
}

export function AdminTransactionsTable({
  transactions,
  payoutBankDetails,
  inPayoutBatch = {},
}: {
  transactions: AdminTransactionRow[]
  payoutBankDetails: Record<string, BankAccountDetails>
  /** Sales in a payout batch not yet sent, by id: the batch's state (issue 19). */
  inPayoutBatch?: Record<string, string>
}) {
  if (transactions.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No transactions</p>
  return (
    <Table label="Transactions">
      <TableHeader>
        <TableRow>
          <TableHead>Sale</TableHead>
          <TableHead>Seller / Buyer</TableHead>
          <TableHead className="text-end">Amount</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Payout</TableHead>
          <TableHead>Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.map((t) => (
          <TableRow key={t.id} data-transaction-id={t.id}>
            <TableCell className="min-w-40">
              <div className="font-medium">{t.listingTitle}</div>
              <div className="text-xs text-muted-foreground">
                {formatDate(t.createdAt)} ·{' '}
                <span className="font-mono" title={t.id}>
                  {t.id.slice(0, 8)}
                </span>
              </div>
            </TableCell>
            <TableCell label="Seller / Buyer" className="min-w-44 text-xs [overflow-wrap:anywhere]">
              <div>
                <div>
                  <span className="sr-only">Seller </span>
                  {t.sellerEmail}
                </div>
                <div className="text-muted-foreground">
                  <span className="sr-only">Buyer </span>
                  {t.buyerEmail}
                </div>
              </div>
            </TableCell>
            <TableCell label="Amount" className="text-end tabular-nums whitespace-nowrap">
              <div>
                <div>{formatCents(t.amountCents)}</div>
                <div className="text-xs whitespace-nowrap text-muted-foreground">fee {formatCents(t.applicationFeeCents)}</div>
              </div>
            </TableCell>
            <TableCell label="Status">
              <StatusBadge status={t.status} />
            </TableCell>
            <TableCell label="Payout">
              <PayoutStatus paidAt={t.paidAt} paymentReference={t.paymentReference} pending={isPayoutDue(t)} />
            </TableCell>
            <TableCell>
              <RowActions t={t} bank={payoutBankDetails[t.sellerId]} batchStatus={inPayoutBatch[t.id]} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/** Open disputes with both sides' details, waiting for Release or Refund. */
export function OpenDisputes({
  disputes,
  evidence = {},
}: {
  disputes: AdminTransactionRow[]
  /** Sales delivered through GitHub: their evidence, by transaction id (issue 16). */
  evidence?: Record<string, GithubEvidence>
}) {
  return (
    <Card id="disputes" className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Open disputes ({disputes.length})</h2>
        </CardTitle>
        <CardDescription>
          The buyer reported a problem within {DISPUTE_WINDOW_HOURS} hours of delivery, or a delivery through GitHub did not go through
          (never accepted, or the seller’s repository became unreachable). Release the funds to the seller or refund the buyer.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {disputes.length === 0 ? (
          <p className="text-sm text-muted-foreground">No open disputes</p>
        ) : (
          <ul className="grid gap-4">
            {disputes.map((t) => (
              <li key={t.id} className="grid gap-3 rounded-lg border p-4" aria-label={`Dispute about ${t.listingTitle}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h3 className="font-medium">{t.listingTitle}</h3>
                  <span className="text-sm tabular-nums">{formatCents(t.amountCents)}</span>
                </div>
                <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                  <dt className="text-muted-foreground">Buyer</dt>
                  <dd>
                    @{t.buyerUsername} · {t.buyerEmail}
                  </dd>
                  <dt className="text-muted-foreground">Seller</dt>
                  <dd>
                    @{t.sellerUsername} · {t.sellerEmail}
                  </dd>
                  <dt className="text-muted-foreground">Reported</dt>
                  <dd>{t.disputedAt ? formatDate(t.disputedAt) : '—'}</dd>
                  <dt className="text-muted-foreground">Problem</dt>
                  <dd className="break-words">{t.disputeReason ?? '—'}</dd>
                  <ForkRow url={t.forkUrl} />
                </dl>
                {evidence[t.id] ? <DeliveryEvidence evidence={evidence[t.id]!} /> : null}
                <a href={`/admin/disputes/${t.id}`} className="w-fit text-sm text-primary underline-offset-4 hover:underline">
                  Open the timeline<span className="sr-only"> of the dispute about {t.listingTitle}</span>
                </a>
                <ReleaseOrRefund sale={t} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
