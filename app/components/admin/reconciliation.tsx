import { CircleCheck, Download, TriangleAlert } from 'lucide-react'
import { Form } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatDateTime } from '~/lib/format'
import { formatCents } from '~/lib/money'
import { RECONCILIATION_DAILY_AT, RECONCILIATION_RULES } from '~/lib/reconciliation'
import type { ReconciliationRun } from '~/server/domain/reconciliation.server'

/** A run as the loader sends it (dates may arrive serialised). */
export type ReconciliationRunRow = Omit<ReconciliationRun, 'startedAt' | 'finishedAt'> & {
  startedAt: string | Date
  finishedAt: string | Date
}

const csvPath = (runId: string) => `/api/admin/reconciliations/${runId}/exceptions.csv`
const money = (cents: number | null) => (cents === null ? '—' : formatCents(cents))
const short = (id: string | null) => (id ? id.slice(0, 8) : '—')

/**
 * Issue 19: the payment provider, the sales and the ledger compared (daily by a job, or now
 * with the button: a POST); the latest run's differences, each with its sale and rule; a CSV
 * of any run. Works without JavaScript.
 */
export function Reconciliation({ runs }: { runs: ReconciliationRunRow[] }) {
  const [latest, ...earlier] = runs
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle asChild>
            <h2>Reconciliation</h2>
          </CardTitle>
          <CardDescription>
            The payment provider’s charges, the sales and the ledger compared. Runs daily at {RECONCILIATION_DAILY_AT}.
          </CardDescription>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="run-reconciliation" />
          <Button type="submit">Run reconciliation now</Button>
        </Form>
      </CardHeader>
      <CardContent className="grid gap-6">
        {latest ? (
          <LatestRun run={latest} />
        ) : (
          <p className="py-6 text-center text-sm text-muted-foreground">No reconciliation has run yet</p>
        )}
        {earlier.length > 0 ? (
          <section aria-labelledby="earlier-runs" className="grid gap-2">
            <h3 id="earlier-runs" className="text-sm font-semibold">
              Earlier runs
            </h3>
            <Table label="Earlier reconciliation runs">
              <TableHeader>
                <TableRow>
                  <TableHead>Started</TableHead>
                  <TableHead>By</TableHead>
                  <TableHead>Result</TableHead>
                  <TableHead>CSV</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {earlier.map((run) => (
                  <TableRow key={run.id}>
                    <TableCell className="font-medium whitespace-nowrap">{formatDateTime(run.startedAt)}</TableCell>
                    <TableCell label="By">{run.trigger === 'admin' ? 'An admin' : 'The daily job'}</TableCell>
                    <TableCell label="Result">{resultText(run.exceptionCount)}</TableCell>
                    <TableCell label="CSV">
                      <a className="underline underline-offset-4" href={csvPath(run.id)} download>
                        Download<span className="sr-only"> the run of {formatDateTime(run.startedAt)}</span>
                      </a>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </section>
        ) : null}
      </CardContent>
    </Card>
  )
}

function resultText(count: number) {
  return count === 0 ? 'Clean' : `${count} ${count === 1 ? 'difference' : 'differences'}`
}

function LatestRun({ run }: { run: ReconciliationRunRow }) {
  const t = run.totals
  return (
    <section aria-labelledby="latest-run" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="latest-run" className="text-sm font-semibold">
          Latest run: {formatDateTime(run.startedAt)} ({run.trigger === 'admin' ? 'by an admin' : 'the daily job'})
        </h3>
        <Button asChild variant="outline">
          <a href={csvPath(run.id)} download>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </div>
      {run.exceptionCount === 0 ? (
        <Alert>
          <CircleCheck aria-hidden="true" />
          <AlertTitle>Clean: no differences</AlertTitle>
          <AlertDescription>The payment provider, the sales and the ledger agree on every cent.</AlertDescription>
        </Alert>
      ) : (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>{resultText(run.exceptionCount)} found</AlertTitle>
          <AlertDescription>
            Each names its sale or seller and the rule it breaks. Find the cause before the next payout batch.
          </AlertDescription>
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        {[
          ['Charged at the provider', t.providerChargesCents],
          ['Refunded at the provider', t.providerRefundsCents],
          ['Taken (ledger)', t.ledgerChargesCents],
          ['Refunded (ledger)', t.ledgerRefundsCents],
          ['Held in escrow (buyers’ payments)', t.escrowCents],
          ['Platform fees earned on completed sales', t.platformFeeCents],
          ['Due to sellers', t.sellerPayableCents],
          ['Paid out', t.paidOutCents],
        ].map(([label, cents]) => (
          <div key={label as string} className="grid content-start gap-0.5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="font-medium tabular-nums">{formatCents(cents as number)}</dd>
          </div>
        ))}
      </dl>
      {t.platformFeeInEscrowCents !== undefined ? (
        <p className="text-sm text-muted-foreground" data-fee-split>
          Platform fees: {formatCents(t.platformFeeCents)} earned on completed sales + {formatCents(t.platformFeeInEscrowCents)} held in
          escrow (part of the payments above) = {formatCents(t.platformFeeCents + t.platformFeeInEscrowCents)}, as the dashboard counts
          them.
        </p>
      ) : null}
      {run.exceptions.length > 0 ? (
        <Table label="Differences found">
          <TableHeader>
            <TableRow>
              <TableHead>Rule broken</TableHead>
              <TableHead>Sale</TableHead>
              <TableHead>Seller</TableHead>
              <TableHead>Expected</TableHead>
              <TableHead>Found</TableHead>
              <TableHead>Details</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {run.exceptions.map((e, i) => (
              <TableRow key={`${e.rule}-${e.transactionId ?? e.sellerId ?? ''}-${i}`}>
                <TableCell className="max-w-xs text-xs break-words">
                  <span className="font-mono">{e.rule}</span>: {RECONCILIATION_RULES[e.rule]}
                </TableCell>
                <TableCell label="Sale" className="font-mono text-xs">
                  <span title={e.transactionId ?? undefined}>{short(e.transactionId)}</span>
                </TableCell>
                <TableCell label="Seller" className="font-mono text-xs">
                  <span title={e.sellerId ?? undefined}>{short(e.sellerId)}</span>
                </TableCell>
                <TableCell label="Expected" className="tabular-nums whitespace-nowrap">
                  {money(e.expectedCents)}
                </TableCell>
                <TableCell label="Found" className="tabular-nums whitespace-nowrap">
                  {money(e.actualCents)}
                </TableCell>
                <TableCell label="Details" className="max-w-sm text-xs break-words">
                  {e.details}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </section>
  )
}
