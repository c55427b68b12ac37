import type { BankDetailsStatus, TransactionStatus } from '../../../db/schema.ts'
import { STATUS_BADGE } from '~/components/dashboard/seller-transactions-table'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { statusLabel } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import { ActionDialog } from './action-dialog'
import { isPayoutDue } from '~/lib/payouts'
import { MarkPaidSchema, RefundSchema, ReleaseSchema } from './admin-actions'
import { BankDetailsView, type BankDetailsViewData } from './bank-details-view'

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
}

const formatDate = (value: string | Date) =>
  new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

function MarkPaidAction({ t, bank }: { t: AdminTransactionRow; bank: BankDetailsViewData | undefined }) {
  if (t.sellerBankStatus !== 'approved' || !bank) {
    const why = t.sellerBankStatus ? `Seller's bank details are ${t.sellerBankStatus}` : 'Seller has no bank details'
    return (
      <div className="grid justify-items-end gap-1">
        <Button size="sm" disabled aria-describedby={`why-${t.id}`}>
          Mark as Paid
        </Button>
        <span id={`why-${t.id}`} className="text-xs text-muted-foreground">
          {why}
        </span>
      </div>
    )
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

function RefundAction({ t }: { t: AdminTransactionRow }) {
  return (
    <ActionDialog
      intent="refund"
      target={{ name: 'transactionId', id: t.id }}
      schema={RefundSchema}
      triggerLabel="Refund"
      triggerVariant="outline"
      title="Refund the buyer"
      description={
        <p>
          Refund {formatCents(t.amountCents)} to {t.buyerEmail} by card. The sale becomes refunded when the payment provider
          confirms, and the buyer loses access to the fork.
        </p>
      }
      field={{ name: 'reason', label: 'Reason', multiline: true }}
      submitLabel="Refund"
      submitVariant="destructive"
    />
  )
}

function RowActions({ t, bank }: { t: AdminTransactionRow; bank: BankDetailsViewData | undefined }) {
  if (t.refundRequestedAt && t.status !== 'refunded') return <Badge variant="warning">Refund requested</Badge>
  if (isPayoutDue(t)) return <MarkPaidAction t={t} bank={bank} />
  if (t.status === 'paid' || t.status === 'held') return <RefundAction t={t} />
  if (t.status === 'disputed') {
    return (
      <a href="#disputes" className="text-sm text-primary underline-offset-4 hover:underline">
        Resolve dispute
      </a>
    )
  }
  return null
}

export function AdminTransactionsTable({
  transactions,
  payoutBankDetails,
}: {
  transactions: AdminTransactionRow[]
  payoutBankDetails: Record<string, BankDetailsViewData>
}) {
  if (transactions.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No transactions</p>
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>ID</TableHead>
          <TableHead>Date</TableHead>
          <TableHead>Listing</TableHead>
          <TableHead>Seller</TableHead>
          <TableHead>Buyer</TableHead>
          <TableHead className="text-end">Amount</TableHead>
          <TableHead className="text-end">Fee</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Payout</TableHead>
          <TableHead className="text-end">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.map((t) => (
          <TableRow key={t.id} data-transaction-id={t.id}>
            <TableCell className="font-mono text-xs" title={t.id}>
              {t.id.slice(0, 8)}
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatDate(t.createdAt)}</TableCell>
            <TableCell className="max-w-48 truncate" title={t.listingTitle}>
              {t.listingTitle}
            </TableCell>
            <TableCell>{t.sellerEmail}</TableCell>
            <TableCell>{t.buyerEmail}</TableCell>
            <TableCell className="text-end tabular-nums">{formatCents(t.amountCents)}</TableCell>
            <TableCell className="text-end tabular-nums">{formatCents(t.applicationFeeCents)}</TableCell>
            <TableCell>
              <Badge variant={STATUS_BADGE[t.status]}>{statusLabel(t.status)}</Badge>
            </TableCell>
            <TableCell className="text-xs">
              {t.paidAt ? (
                <>
                  <Badge variant="success">Paid Out</Badge>
                  <div className="mt-1 text-muted-foreground">
                    {formatDate(t.paidAt)} · {t.paymentReference}
                  </div>
                </>
              ) : t.status === 'completed' ? (
                <Badge variant="outline">Pending Payout</Badge>
              ) : (
                <span className="text-muted-foreground">—</span>
              )}
            </TableCell>
            <TableCell className="text-end">
              <RowActions t={t} bank={payoutBankDetails[t.sellerId]} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/** Open disputes with both sides' details, waiting for Release or Refund. */
export function OpenDisputes({ disputes }: { disputes: AdminTransactionRow[] }) {
  return (
    <Card id="disputes" className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Open disputes ({disputes.length})</h2>
        </CardTitle>
        <CardDescription>
          The buyer reported a problem within 72 hours of delivery. Release the funds to the seller or refund the buyer.
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
                  <dt className="text-muted-foreground">Fork</dt>
                  <dd className="break-all">
                    {t.forkUrl ? (
                      <a href={t.forkUrl} target="_blank" rel="noreferrer noopener" className="text-primary underline-offset-4 hover:underline">
                        {t.forkUrl}
                      </a>
                    ) : (
                      '—'
                    )}
                  </dd>
                </dl>
                {t.refundRequestedAt ? (
                  <Badge variant="warning">Refund requested</Badge>
                ) : (
                  <div className="flex flex-wrap gap-2">
                    <ActionDialog
                      intent="release"
                      target={{ name: 'transactionId', id: t.id }}
                      schema={ReleaseSchema}
                      triggerLabel="Release Funds"
                      title="Release the funds to the seller"
                      description={
                        <p>
                          The sale becomes completed and {formatCents(t.sellerShareCents)} becomes due to{' '}
                          {t.sellerEmail}.
                        </p>
                      }
                      field={{ name: 'reason', label: 'Note (optional)', multiline: true }}
                      submitLabel="Release Funds"
                    />
                    <RefundAction t={t} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
