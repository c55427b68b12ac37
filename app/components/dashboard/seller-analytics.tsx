import { Download } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatDate } from '~/lib/format'
import { formatCents } from '~/lib/money'
import type { PayoutLine } from '~/lib/payout-line'
import type { SellerAnalytics } from '~/server/domain/seller-analytics.server'

/**
 * The seller's last 30 days (issue 19, decision 021): server-rendered SVG bar
 * charts — no chart library, nothing to hydrate, the same without JavaScript —
 * one small chart per measure (views, sales, revenue, conversion) so each has
 * its own scale, each with a text summary and the numbers in a table below.
 */

interface Day {
  day: string
  views: number
  sales: number
  revenueCents: number
}

const WIDTH = 300
const HEIGHT = 64

function conversion(d: Day): number {
  return d.views > 0 ? (d.sales / d.views) * 100 : 0
}

function MiniChart({ title, summary, days, value }: { title: string; summary: string; days: Day[]; value: (d: Day) => number }) {
  const values = days.map(value)
  const max = Math.max(...values, 0)
  const step = WIDTH / days.length
  return (
    <figure className="grid gap-1.5 rounded-lg border p-3">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="tabular-nums">{summary}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-16 w-full"
        preserveAspectRatio="none"
        role="img"
        aria-label={`${title}, last ${days.length} days: ${summary}`}
        data-chart={title}
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-border" strokeWidth="1" />
        {values.map((v, i) => {
          const h = max > 0 ? Math.max((v / max) * (HEIGHT - 4), v > 0 ? 2 : 0) : 0
          return (
            <rect key={days[i]!.day} x={i * step + 1} y={HEIGHT - h} width={Math.max(step - 2, 1)} height={h} className="fill-primary">
              <title>{`${days[i]!.day}: ${v % 1 === 0 ? v : v.toFixed(1)}`}</title>
            </rect>
          )
        })}
      </svg>
    </figure>
  )
}

function BalanceBar({ balance }: { balance: SellerAnalytics['balance'] }) {
  const total = balance.heldCents + balance.dueCents + balance.paidCents
  const parts = [
    { key: 'held', label: 'In escrow', cents: balance.heldCents, className: 'fill-muted-foreground' },
    { key: 'due', label: 'Due', cents: balance.dueCents, className: 'fill-warning' },
    { key: 'paid', label: 'Paid out', cents: balance.paidCents, className: 'fill-success' },
  ]
  let x = 0
  return (
    <div className="grid gap-2">
      <svg
        viewBox="0 0 300 12"
        preserveAspectRatio="none"
        className="h-3 w-full rounded"
        role="img"
        aria-label={`Your share: ${parts.map((p) => `${p.label} ${formatCents(p.cents)}`).join(', ')}`}
      >
        <rect x="0" y="0" width="300" height="12" className="fill-muted" />
        {total > 0
          ? parts.map((p) => {
              const w = (p.cents / total) * 300
              const rect = <rect key={p.key} x={x} y="0" width={w} height="12" className={p.className} />
              x += w
              return rect
            })
          : null}
      </svg>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        {parts.map((p) => (
          <div key={p.key}>
            <dt className="text-muted-foreground">{p.label}</dt>
            <dd className="font-medium tabular-nums">{formatCents(p.cents)}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

export function SellerAnalyticsCard({
  analytics,
}: {
  analytics: { days: Day[]; totals: SellerAnalytics['totals']; balance: SellerAnalytics['balance'] }
}) {
  const { days, totals } = analytics
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Last 30 days</h2>
        </CardTitle>
        <CardDescription>
          Views of your listings (counted without any personal data), sales, your revenue after the platform fee, and conversion.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <MiniChart title="Views" summary={String(totals.views)} days={days} value={(d) => d.views} />
          <MiniChart title="Sales" summary={String(totals.sales)} days={days} value={(d) => d.sales} />
          <MiniChart title="Revenue" summary={formatCents(totals.revenueCents)} days={days} value={(d) => d.revenueCents} />
          <MiniChart
            title="Conversion"
            summary={totals.conversionPercent === null ? '—' : `${totals.conversionPercent.toFixed(1)}%`}
            days={days}
            value={conversion}
          />
        </div>
        <section aria-labelledby="balance-heading" className="grid gap-2">
          <h3 id="balance-heading" className="text-sm font-medium">
            Your balance
          </h3>
          <BalanceBar balance={analytics.balance} />
        </section>
        <details className="text-sm">
          <summary className="cursor-pointer text-primary underline-offset-4 hover:underline">Show the numbers by day</summary>
          <Table className="mt-2" label="Views, sales and revenue by day">
            <TableHeader>
              <TableRow>
                <TableHead>Day</TableHead>
                <TableHead className="text-end">Views</TableHead>
                <TableHead className="text-end">Sales</TableHead>
                <TableHead className="text-end">Revenue</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {days
                .filter((d) => d.views > 0 || d.sales > 0)
                .reverse()
                .map((d) => (
                  <TableRow key={d.day}>
                    <TableCell>{formatDate(`${d.day}T12:00:00Z`)}</TableCell>
                    <TableCell label="Views" className="text-end tabular-nums whitespace-nowrap">
                      {d.views}
                    </TableCell>
                    <TableCell label="Sales" className="text-end tabular-nums whitespace-nowrap">
                      {d.sales}
                    </TableCell>
                    <TableCell label="Revenue" className="text-end tabular-nums whitespace-nowrap">
                      {formatCents(d.revenueCents)}
                    </TableCell>
                  </TableRow>
                ))}
            </TableBody>
          </Table>
        </details>
      </CardContent>
    </Card>
  )
}

interface StatementRow {
  batchId: string
  paidAt: string | Date
  bankReference: string
  amountCents: number
  feeCents: number
  payoutCents: number
  lines: Omit<PayoutLine, 'completedAt'>[]
}

/** One statement per payout: which sales, amounts, fees, the bank reference and the date, downloadable as CSV. */
export function PayoutStatements({ statements }: { statements: StatementRow[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Payout statements</h2>
        </CardTitle>
        <CardDescription>Each bank transfer you received and the sales it paid.</CardDescription>
      </CardHeader>
      <CardContent>
        {statements.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payouts yet.</p>
        ) : (
          <ul className="grid gap-3">
            {statements.map((s) => (
              <li key={s.batchId} className="grid gap-2 rounded-lg border p-3" aria-label={`Payout of ${formatDate(s.paidAt)}`}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div>
                    <div className="font-medium">
                      {formatDate(s.paidAt)}: {formatCents(s.payoutCents)}
                    </div>
                    <div className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                      Reference {s.bankReference} · {formatCents(s.amountCents)} in sales − {formatCents(s.feeCents)} platform fee
                    </div>
                  </div>
                  <Button asChild size="sm" variant="outline">
                    <a href={`/api/seller/payouts/${s.batchId}/statement.csv`} download>
                      <Download aria-hidden="true" />
                      Statement (CSV)
                    </a>
                  </Button>
                </div>
                <ul className="grid gap-0.5 text-sm">
                  {s.lines.map((l) => (
                    <li key={l.transactionId}>
                      {l.listingTitle}: {formatCents(l.amountCents)} − fee {formatCents(l.applicationFeeCents)} ={' '}
                      {formatCents(l.sellerShareCents)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
