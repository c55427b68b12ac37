import { Download, TriangleAlert } from 'lucide-react'
import { Form, useActionData, useNavigation } from 'react-router'
import { Badge, type BadgeProps } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatDateTime, pluralize } from '~/lib/format'
import { formatCents } from '~/lib/money'
import type { DueBySeller, PayoutBatchView } from '~/server/domain/payout-batch-views.server'
import { ActionDialog, BlockedAction } from './action-dialog'
import { adminFormId, ApproveBatchSchema, type AdminActionResult, type AdminIntent } from './admin-actions'

type Serialized<T> = { [K in keyof T]: T[K] extends Date ? string | Date : T[K] extends Date | null ? string | Date | null : T[K] }
type BatchRow = Serialized<Omit<PayoutBatchView, 'payees'>> & {
  payees: (Omit<PayoutBatchView['payees'][number], 'lines'> & {
    lines: Serialized<PayoutBatchView['payees'][number]['lines'][number]>[]
  })[]
}

const STATUS_BADGE: Record<PayoutBatchView['status'], { label: string; variant: BadgeProps['variant'] }> = {
  draft: { label: 'Waiting for approval', variant: 'warning' },
  approved: { label: 'Approved', variant: 'secondary' },
  exported: { label: 'Exported', variant: 'secondary' },
  sent: { label: 'Sent', variant: 'success' },
  reconciled: { label: 'Reconciled', variant: 'success' },
  cancelled: { label: 'Cancelled', variant: 'outline' },
}

/** The error the action returned for this form (a refusal or a field), shown under it. */
function useFormError(intent: AdminIntent, batchId: string) {
  const actionData = useActionData<AdminActionResult>()
  if (actionData?.formId !== adminFormId(intent, batchId)) return { form: undefined, fields: {} as Record<string, string[]> }
  const error = actionData.result?.status === 'error' ? (actionData.result.error ?? {}) : {}
  return { form: error['']?.[0], fields: error as Record<string, string[]> }
}

function ActionForm({
  intent,
  batchId,
  label,
  variant,
  children,
}: {
  intent: AdminIntent
  batchId: string
  label: string
  variant?: 'outline' | 'destructive' | 'default'
  children?: React.ReactNode
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('batchId') === batchId
  const error = useFormError(intent, batchId)
  const errorId = `${intent}-${batchId}-error`
  return (
    <Form method="post" className="grid gap-2" aria-describedby={error.form ? errorId : undefined}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="batchId" value={batchId} />
      {children}
      <div>
        <Button type="submit" size="sm" variant={variant ?? 'default'} disabled={busy}>
          {label}
        </Button>
      </div>
      {error.form ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error.form}
        </p>
      ) : null}
    </Form>
  )
}

function SendForm({ batchId }: { batchId: string }) {
  const error = useFormError('send-batch', batchId)
  const fieldError = error.fields.bankReference?.[0]
  const id = `bank-reference-${batchId}`
  return (
    <ActionForm intent="send-batch" batchId={batchId} label="Record as sent">
      <div className="grid max-w-sm gap-1.5">
        <Label htmlFor={id}>Bank reference</Label>
        <Input
          id={id}
          name="bankReference"
          required
          maxLength={140}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? `${id}-error` : `${id}-hint`}
        />
        {fieldError ? (
          <p id={`${id}-error`} className="text-sm text-destructive">
            {fieldError}
          </p>
        ) : (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            The reference the bank gave the uploaded file.
          </p>
        )}
      </div>
    </ActionForm>
  )
}

/**
 * Approving releases money (a bank file, or a single payout recorded as sent): a confirmation
 * step that names what is approved — the total and how many sellers and sales — like the bank
 * details' approval (decision 014; without JavaScript the same form opens in a disclosure).
 */
function ApproveBatch({ batch }: { batch: BatchRow }) {
  const sales = batch.payees.reduce((count, payee) => count + payee.lines.length, 0)
  const single = batch.kind === 'single'
  return (
    <ActionDialog
      intent="approve-batch"
      target={{ name: 'batchId', id: batch.id }}
      schema={ApproveBatchSchema}
      triggerLabel="Approve"
      title={single ? 'Approve this payout' : 'Approve this payout batch'}
      description={
        <p data-approval-summary>
          Pay <span className="font-medium text-foreground tabular-nums">{formatCents(batch.totalCents)}</span> to{' '}
          {pluralize(batch.payees.length, 'seller')} for {pluralize(sales, 'sale')}.{' '}
          {single
            ? 'The payout is recorded as sent with its reference and the sale becomes Paid Out.'
            : 'Its bank file can then be exported and uploaded to the bank.'}
        </p>
      }
      submitLabel={`Approve ${formatCents(batch.totalCents)}`}
    />
  )
}

function BatchActions({ batch, adminId }: { batch: BatchRow; adminId: string }) {
  const ownDraft = batch.status === 'draft' && batch.preparedBy === adminId
  return (
    <div className="flex flex-wrap items-start gap-4">
      {batch.status === 'draft' ? (
        ownDraft ? (
          <BlockedAction
            label="Approve"
            why={`Another admin must approve: you prepared this ${batch.kind === 'single' ? 'payout' : 'batch'}.`}
            whyId={`own-${batch.id}`}
          />
        ) : (
          <ApproveBatch batch={batch} />
        )
      ) : null}
      {batch.status === 'approved' ? <ActionForm intent="export-batch" batchId={batch.id} label="Export bank file" /> : null}
      {batch.status === 'exported' || batch.status === 'sent' || batch.status === 'reconciled' ? (
        <div className="flex flex-wrap gap-2">
          {batch.xmlSha256 ? (
            <Button asChild size="sm" variant="outline">
              <a href={`/api/admin/payout-batches/${batch.id}/files/pain.001.xml`} download>
                <Download aria-hidden="true" />
                pain.001 XML (IBAN)
              </a>
            </Button>
          ) : null}
          {batch.csvSha256 ? (
            <Button asChild size="sm" variant="outline">
              <a href={`/api/admin/payout-batches/${batch.id}/files/bank.csv`} download>
                <Download aria-hidden="true" />
                CSV (UK and US accounts)
              </a>
            </Button>
          ) : null}
        </div>
      ) : null}
      {batch.status === 'exported' ? <SendForm batchId={batch.id} /> : null}
      {batch.status === 'sent' && batch.kind === 'batch' ? (
        <ActionForm intent="reconcile-batch" batchId={batch.id} label="Mark reconciled" variant="outline" />
      ) : null}
      {batch.status === 'draft' || batch.status === 'approved' ? (
        <ActionForm intent="cancel-batch" batchId={batch.id} label="Cancel batch" variant="outline" />
      ) : null}
    </div>
  )
}

function BatchCard({ batch, adminId }: { batch: BatchRow; adminId: string }) {
  const status = STATUS_BADGE[batch.status]
  const title = batch.kind === 'single' ? 'Single payout' : 'Payout batch'
  return (
    <li className="grid gap-3 rounded-lg border p-4" aria-label={`${title} ${batch.id.slice(0, 8)}`} data-batch-id={batch.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">
          {title} <span className="font-mono text-sm">{batch.id.slice(0, 8)}</span>
        </h3>
        <div className="flex items-center gap-2">
          <span className="font-medium tabular-nums">{formatCents(batch.totalCents)}</span>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-muted-foreground">Prepared by </dt>
          <dd className="inline [overflow-wrap:anywhere]">
            {batch.preparedByEmail}, {formatDateTime(batch.preparedAt)}
          </dd>
        </div>
        {batch.approvedByEmail && batch.approvedAt ? (
          <div>
            <dt className="inline text-muted-foreground">Approved by </dt>
            <dd className="inline [overflow-wrap:anywhere]">
              {batch.approvedByEmail}, {formatDateTime(batch.approvedAt)}
            </dd>
          </div>
        ) : null}
        {batch.bankReference ? (
          <div>
            <dt className="inline text-muted-foreground">{batch.status === 'draft' ? 'Payment reference ' : 'Bank reference '}</dt>
            <dd className="inline [overflow-wrap:anywhere]">{batch.bankReference}</dd>
          </div>
        ) : null}
        {batch.sentAt ? (
          <div>
            <dt className="inline text-muted-foreground">Sent </dt>
            <dd className="inline">{formatDateTime(batch.sentAt)}</dd>
          </div>
        ) : null}
        {batch.xmlSha256 || batch.csvSha256 ? (
          <div className="sm:col-span-2">
            <dt className="inline text-muted-foreground">SHA-256 </dt>
            <dd className="inline font-mono text-xs [overflow-wrap:anywhere]">
              {[batch.xmlSha256 && `XML ${batch.xmlSha256}`, batch.csvSha256 && `CSV ${batch.csvSha256}`].filter(Boolean).join(' · ')}
            </dd>
          </div>
        ) : null}
        {batch.cancelReason ? (
          <div className="sm:col-span-2">
            <dt className="inline text-muted-foreground">Cancelled: </dt>
            <dd className="inline">{batch.cancelReason}</dd>
          </div>
        ) : null}
      </dl>
      <Table label={`Payees of ${title.toLowerCase()} ${batch.id.slice(0, 8)}`}>
        <TableHeader>
          <TableRow>
            <TableHead>Seller</TableHead>
            <TableHead>Account</TableHead>
            <TableHead className="text-end">Amount</TableHead>
            <TableHead>Sales</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {batch.payees.map((p) => (
            <TableRow key={p.sellerId}>
              <TableCell className="min-w-40 [overflow-wrap:anywhere]">
                <div className="font-medium">{p.sellerEmail}</div>
                <div className="font-mono text-xs text-muted-foreground">{p.endToEndId}</div>
              </TableCell>
              <TableCell label="Account" className="text-sm">
                <div>
                  <div>
                    {p.accountHolder} · {p.bankName} ({p.country})
                  </div>
                  <div className="font-mono text-xs">{p.account}</div>
                  {p.sharedAccountWith.length ? (
                    <p className="mt-1 flex items-start gap-1 text-xs [overflow-wrap:anywhere]" data-shared-account>
                      <TriangleAlert aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-warning" />
                      <span>Same account as {p.sharedAccountWith.join(', ')}</span>
                    </p>
                  ) : null}
                </div>
              </TableCell>
              <TableCell label="Amount" className="text-end tabular-nums whitespace-nowrap">
                {formatCents(p.amountCents)}
              </TableCell>
              <TableCell label="Sales" className="text-sm">
                <ul className="grid gap-0.5">
                  {p.lines.map((l) => (
                    <li key={l.transactionId}>
                      {l.listingTitle}: {formatCents(l.amountCents)} − fee {formatCents(l.applicationFeeCents)} ={' '}
                      {formatCents(l.sellerShareCents)}
                    </li>
                  ))}
                </ul>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <BatchActions batch={batch} adminId={adminId} />
    </li>
  )
}

function PrepareForm({ due }: { due: DueBySeller[] }) {
  const error = useFormError('prepare-batch', '')
  const message = error.form ?? error.fields.sellerId?.[0]
  const ready = due.filter((d) => d.blocker === null)
  if (ready.length === 0) return null
  return (
    <Form method="post" className="grid gap-3" aria-describedby={message ? 'prepare-error' : undefined}>
      <input type="hidden" name="intent" value="prepare-batch" />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Sellers to pay</legend>
        {ready.map((d) => (
          <label key={d.sellerId} className="flex items-center gap-2 text-sm [overflow-wrap:anywhere]">
            <input type="checkbox" name="sellerId" value={d.sellerId} defaultChecked className="size-4 accent-primary" />
            {d.sellerEmail}: {formatCents(d.amountCents)} ({d.sales} {d.sales === 1 ? 'sale' : 'sales'})
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit">Prepare payout batch</Button>
      </div>
      {message ? (
        <p id="prepare-error" role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : null}
    </Form>
  )
}

/** The admin's Payouts tab (issue 19): what is due, the batches, and each one's next step. */
export function PayoutBatches({ batches, due, adminId }: { batches: BatchRow[]; due: DueBySeller[]; adminId: string }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Due to sellers</h2>
          </CardTitle>
          <CardDescription>
            Sellers’ share of completed sales not yet paid and not in a batch. A batch pays the sellers with approved bank details; a
            different admin must approve it before its bank file can be exported.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {due.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing is due.</p>
          ) : (
            <Table label="Due to sellers">
              <TableHeader>
                <TableRow>
                  <TableHead>Seller</TableHead>
                  <TableHead>Sales</TableHead>
                  <TableHead className="text-end">Due</TableHead>
                  <TableHead>Bank details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {due.map((d) => (
                  <TableRow key={d.sellerId}>
                    <TableCell className="[overflow-wrap:anywhere]">{d.sellerEmail}</TableCell>
                    <TableCell label="Sales">{d.sales}</TableCell>
                    <TableCell label="Due" className="text-end tabular-nums whitespace-nowrap">
                      {formatCents(d.amountCents)}
                    </TableCell>
                    <TableCell label="Bank details">
                      {d.blocker ? <span className="text-sm text-muted-foreground">{d.blocker}: not in a batch</span> : 'Approved'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <PrepareForm due={due} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Payout batches</h2>
          </CardTitle>
          <CardDescription>
            Newest first. Draft → approved (by another admin) → exported → sent (bank reference) → reconciled; a batch can be cancelled
            until it is exported. Single payouts come from Mark as Paid.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {batches.length === 0 ? (
            <p className="text-sm text-muted-foreground">No payout batches yet.</p>
          ) : (
            <ul className="grid gap-4">
              {batches.map((batch) => (
                <BatchCard key={batch.id} batch={batch} adminId={adminId} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
