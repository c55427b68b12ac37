import { parseWithZod } from '@conform-to/zod/v4'
import { Download } from 'lucide-react'
import { data, Form, useSubmit } from 'react-router'
import { AdminActionSchema, adminActionTarget, adminFormId, type AdminIntent } from '~/components/admin/admin-actions'
import { AdminSummaryCards } from '~/components/admin/admin-summary'
import { ADMIN_TABS, AdminTabs, type AdminTab } from '~/components/admin/admin-tabs'
import { AdminTransactionsTable, OpenDisputes } from '~/components/admin/admin-transactions'
import { AuditLogTable } from '~/components/admin/audit-log-table'
import { MoneyExceptions } from '~/components/admin/money-exceptions'
import { PayoutBatches } from '~/components/admin/payout-batches'
import { PendingBankDetails } from '~/components/admin/pending-bank-details'
import { Reconciliation } from '~/components/admin/reconciliation'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Label } from '~/components/ui/label'
import { NativeSelect } from '~/components/ui/native-select'
import { useHydrated } from '~/components/ui/use-hydrated'
import { SALE_STATUSES, STATUS_LABELS } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import {
  ADMIN_TRANSACTIONS_LIMIT,
  bankDetailsForPayouts,
  getAdminSummary,
  listAdminTransactions,
  listAuditLog,
  listOpenDisputes,
  parseStatusFilter,
} from '~/server/domain/admin.server'
import { approveBankDetails, countPendingBankDetails, listPendingBankDetails, rejectBankDetails } from '~/server/domain/bank-details.server'
import { AppError } from '~/server/domain/errors.server'
import { refundSale, releaseFunds } from '~/server/domain/escrow-actions.server'
import { githubEvidence } from '~/server/domain/github-views.server'
import { listOpenMoneyExceptions } from '~/server/domain/money-exceptions.server'
import { listPayoutBatches, payoutsDueBySeller, salesInOpenBatches } from '~/server/domain/payout-batch-views.server'
import {
  approvePayoutBatch,
  cancelPayoutBatch,
  exportPayoutBatch,
  markPaid,
  markPayoutBatchSent,
  preparePayoutBatch,
  reconcilePayoutBatch,
} from '~/server/domain/payout-batches.server'
import { listReconciliationRuns, runReconciliation } from '~/server/domain/reconciliation.server'
import { requireAdmin } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/admin'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.admin, compress: false })]

function currentTab(url: URL): AdminTab {
  const tab = url.searchParams.get('tab')
  return (ADMIN_TABS as readonly string[]).includes(tab ?? '') ? (tab as AdminTab) : 'transactions'
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context)
  const url = new URL(request.url)
  const tab = currentTab(url)
  const status = parseStatusFilter(url.searchParams.get('status')) ?? null
  const [summary, pendingBankCount, moneyExceptions] = await Promise.all([
    getAdminSummary(),
    countPendingBankDetails(),
    listOpenMoneyExceptions(),
  ])
  // Each tab loads only what it shows; the others stay null.
  const [pendingBank, auditLog, transactions, disputes] = await Promise.all([
    tab === 'bank-details' ? listPendingBankDetails() : null,
    tab === 'audit-log' ? listAuditLog() : null,
    tab === 'transactions' ? listAdminTransactions({ status }) : null,
    tab === 'transactions' ? listOpenDisputes() : null,
  ])
  // Issue 19: payout batches (four eyes) and what a new batch would pay.
  const [batches, payoutsDue] = await Promise.all([
    tab === 'payouts' ? listPayoutBatches() : null,
    tab === 'payouts' ? payoutsDueBySeller() : null,
  ])
  // Issue 19: the reconciliation runs (provider ↔ sales ↔ ledger), newest first.
  const reconciliationRuns = tab === 'reconciliation' ? await listReconciliationRuns() : null
  // Issue 16: the GitHub evidence of disputed sales (listed vs delivered commit, invitation, acceptance).
  const evidence = disputes?.length ? Object.fromEntries(await githubEvidence(disputes.map((d) => d.id))) : {}
  return {
    tab,
    status,
    limit: ADMIN_TRANSACTIONS_LIMIT,
    summary,
    pendingBankCount,
    moneyExceptions,
    pendingBank,
    auditLog,
    transactions,
    disputes,
    evidence,
    batches,
    payoutsDue,
    reconciliationRuns,
    adminId: admin.id,
    payoutBankDetails: transactions ? await bankDetailsForPayouts(transactions) : {},
    // Issue 19: due sales already in a payout batch that is not sent yet (no second Mark as Paid).
    inPayoutBatch: transactions ? await salesInOpenBatches(transactions.map((t) => t.id)) : {},
  }
}

/** Refusals of the domain (wrong state, details not approved…) go back to the failing dialog. */
function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  const url = new URL(request.url)
  const back = `${url.pathname}${url.search}`
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: AdminActionSchema })
  if (submission.status !== 'success') {
    const intent = String(formData.get('intent') ?? '') as AdminIntent
    const target = adminActionTarget(Object.fromEntries(formData))
    return data({ formId: adminFormId(intent, target), result: submission.reply() }, { status: 400 })
  }
  const input = submission.value
  const formId = adminFormId(input.intent, adminActionTarget(input))

  try {
    switch (input.intent) {
      case 'mark-paid': {
        // Issue 19: a one-line payout batch; the sale is Paid Out once another admin approves it.
        await markPaid({ transactionId: input.transactionId, adminId: admin.id, paymentReference: input.paymentReference })
        return redirectWithToast(back, {
          title: 'Payout waiting for approval',
          description: `Payout recorded with reference ${input.paymentReference}: another admin must approve it under Payouts.`,
        })
      }
      case 'prepare-batch': {
        const batch = await preparePayoutBatch({ adminId: admin.id, sellerIds: input.sellerId })
        return redirectWithToast('/admin?tab=payouts', {
          title: 'Payout batch prepared',
          description: `${formatCents(batch.totalCents)} to pay: another admin must approve it.`,
        })
      }
      case 'approve-batch': {
        const batch = await approvePayoutBatch({ batchId: input.batchId, adminId: admin.id })
        return redirectWithToast(back, {
          title: 'Payout batch approved',
          description: batch.status === 'sent' ? 'The payout is recorded: the sale is Paid Out.' : 'Export the bank file next.',
        })
      }
      case 'export-batch': {
        await exportPayoutBatch({ batchId: input.batchId, adminId: admin.id })
        return redirectWithToast(back, { title: 'Payout batch exported', description: 'Download the bank file and upload it to the bank.' })
      }
      case 'send-batch': {
        await markPayoutBatchSent({ batchId: input.batchId, adminId: admin.id, bankReference: input.bankReference })
        return redirectWithToast(back, {
          title: 'Payout batch sent',
          description: `Bank reference ${input.bankReference} recorded: the sales are Paid Out.`,
        })
      }
      case 'reconcile-batch': {
        await reconcilePayoutBatch({ batchId: input.batchId, adminId: admin.id })
        return redirectWithToast(back, { title: 'Payout batch reconciled', description: 'The transfers were found on the bank statement.' })
      }
      case 'cancel-batch': {
        await cancelPayoutBatch({ batchId: input.batchId, adminId: admin.id, reason: input.reason })
        return redirectWithToast(back, { title: 'Payout batch cancelled', description: 'Its sales can go into a new batch.' })
      }
      case 'run-reconciliation': {
        const run = await runReconciliation({ trigger: 'admin', adminId: admin.id })
        return redirectWithToast('/admin?tab=reconciliation', {
          title: run.exceptionCount === 0 ? 'Reconciliation clean' : 'Reconciliation found differences',
          description:
            run.exceptionCount === 0
              ? 'The payment provider, the sales and the ledger agree.'
              : `${run.exceptionCount} ${run.exceptionCount === 1 ? 'difference' : 'differences'} listed below; the admins were notified.`,
        })
      }
      case 'approve-bank': {
        const details = await approveBankDetails({ userId: input.userId, adminId: admin.id, version: input.version })
        // Issue 19: changed details need a second admin's approval after this first one.
        if (details.status === 'pending') {
          return redirectWithToast(back, {
            title: 'First approval recorded',
            description: 'A different admin must give the second approval.',
          })
        }
        return redirectWithToast(back, { title: 'Bank details approved', description: 'The seller can now be paid out.' })
      }
      case 'reject-bank': {
        await rejectBankDetails({ userId: input.userId, adminId: admin.id, reason: input.reason, version: input.version })
        return redirectWithToast(back, { title: 'Bank details rejected', description: 'The seller will see your reason on their profile.' })
      }
      case 'release': {
        await releaseFunds({ transactionId: input.transactionId, adminId: admin.id, reason: input.reason })
        return redirectWithToast(back, { title: 'Funds released', description: 'The sale is completed; its payout is now due.' })
      }
      case 'refund': {
        await refundSale({ transactionId: input.transactionId, adminId: admin.id, reason: input.reason })
        return redirectWithToast(back, {
          title: 'Refund requested',
          description: 'The sale becomes refunded when the payment provider confirms.',
        })
      }
    }
  } catch (error) {
    if (!isRefusal(error)) throw error
    return data({ formId, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status })
  }
}

function StatusFilter({ status }: { status: string | null }) {
  const hydrated = useHydrated()
  const submit = useSubmit()
  return (
    <Form method="get" className="flex items-end gap-2" aria-label="Filter transactions">
      <input type="hidden" name="tab" value="transactions" />
      <div className="grid gap-1.5">
        <Label htmlFor="status-filter">Status</Label>
        <NativeSelect
          id="status-filter"
          name="status"
          defaultValue={status ?? 'all'}
          wrapperClassName="w-48"
          onChange={(event) => submit(event.currentTarget.form)}
        >
          <option value="all">All statuses</option>
          {SALE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {STATUS_LABELS[value]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {/* With JavaScript the select applies itself; without it, this button does. */}
      {hydrated ? null : (
        <Button type="submit" variant="outline">
          Filter
        </Button>
      )}
    </Form>
  )
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const { summary, tab, pendingBankCount } = loaderData
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
        <p className="mt-1 text-sm text-muted-foreground">Payouts, disputes and seller bank details.</p>
      </div>

      <AdminSummaryCards summary={summary} />

      <MoneyExceptions exceptions={loaderData.moneyExceptions} />

      <AdminTabs current={tab} pendingBankCount={pendingBankCount} />

      {loaderData.transactions && loaderData.disputes ? (
        <div className="grid grid-cols-1 gap-6">
          <OpenDisputes disputes={loaderData.disputes} evidence={loaderData.evidence} />
          <Card>
            <CardHeader className="flex flex-row flex-wrap items-end justify-between gap-4">
              <div className="grid gap-1.5">
                <CardTitle asChild>
                  <h2>Transactions</h2>
                </CardTitle>
                <CardDescription>Newest first (up to {loaderData.limit}).</CardDescription>
              </div>
              <div className="flex flex-wrap items-end gap-3">
                <StatusFilter status={loaderData.status} />
                <Button asChild variant="outline">
                  <a href="/api/admin/payouts.csv" download>
                    <Download aria-hidden="true" />
                    Export payouts due (CSV)
                  </a>
                </Button>
              </div>
            </CardHeader>
            <CardContent>
              <AdminTransactionsTable
                transactions={loaderData.transactions}
                payoutBankDetails={loaderData.payoutBankDetails}
                inPayoutBatch={loaderData.inPayoutBatch}
              />
            </CardContent>
          </Card>
        </div>
      ) : null}

      {loaderData.batches && loaderData.payoutsDue ? (
        <PayoutBatches batches={loaderData.batches} due={loaderData.payoutsDue} adminId={loaderData.adminId} />
      ) : null}

      {loaderData.reconciliationRuns ? <Reconciliation runs={loaderData.reconciliationRuns} /> : null}

      {loaderData.pendingBank ? (
        <section aria-labelledby="bank-heading" className="grid gap-4">
          <h2 id="bank-heading" className="text-lg font-semibold">
            Bank details waiting for approval
          </h2>
          <PendingBankDetails entries={loaderData.pendingBank} />
        </section>
      ) : null}

      {loaderData.auditLog ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Audit log</h2>
            </CardTitle>
            <CardDescription>The latest 100 recorded actions.</CardDescription>
          </CardHeader>
          <CardContent>
            <AuditLogTable entries={loaderData.auditLog} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Admin Dashboard · Forkmarket' }]
}

// Full bank details are on this page: never store it in a shared cache.
export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}
