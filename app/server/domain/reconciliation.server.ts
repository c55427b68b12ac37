import type { Task } from 'graphile-worker'
import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { feeStanding } from '~/lib/money'
import { RECONCILIATION_CRONTAB, RECONCILIATION_RULES } from '~/lib/reconciliation'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { csvCell } from './csv.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'
import {
  emptyLedger,
  ledgerBalanced,
  providerCharges,
  SALE_RULES,
  sellerBalance,
  type Books,
  type ProviderCharge,
  type ReconciliationException,
  type SaleLedger,
} from './reconciliation-rules.server.ts'

/**
 * The reconciliation (issue 19; docs/decisions/020-ledger-and-reconciliation.md): the
 * payment provider, the sales and the ledger must tell the same story. Run daily by a
 * job and on demand from /admin; each run is stored with its totals and every
 * difference found, each naming its sale (or seller) and the rule it breaks (one function per
 * rule: reconciliation-rules.server.ts).
 */

export type { ProviderCharge, ReconciliationException } from './reconciliation-rules.server.ts'

export interface ReconciliationTotals {
  providerChargesCents: number
  providerRefundsCents: number
  ledgerChargesCents: number
  ledgerRefundsCents: number
  ledgerDebitsCents: number
  ledgerCreditsCents: number
  escrowCents: number
  /** Platform fees earned on completed sales: the ledger's platform_fee account. */
  platformFeeCents: number
  /** The fee part of the payments held in escrow (the sales' stored split); absent from runs before issue 26.12. */
  platformFeeInEscrowCents?: number
  sellerPayableCents: number
  paidOutCents: number
  sales: number
  providerCharges: number
}

export interface ReconciliationResult {
  totals: ReconciliationTotals
  exceptions: ReconciliationException[]
}

/** Every succeeded charge on the account, read through the Stripe API (auto-paginated). */
export async function listProviderCharges(): Promise<ProviderCharge[]> {
  const charges: ProviderCharge[] = []
  for await (const charge of getStripe().charges.list({ limit: 100 })) {
    if (charge.status !== 'succeeded') continue
    charges.push({
      id: charge.id,
      paymentIntentId: typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null),
      capturedCents: charge.amount_captured,
      refundedCents: charge.amount_refunded,
    })
  }
  return charges
}

/** What the provider, the sales and the ledger say, read once for every rule. */
async function readBooks(charges: ProviderCharge[]): Promise<Books> {
  const [sales, lines, unbalancedEntries, sums] = await Promise.all([
    db
      .selectFrom('transactions')
      .select([
        'id',
        'sellerId',
        'status',
        'amountCents',
        'applicationFeeCents',
        'sellerShareCents',
        'paidAt',
        'stripePaymentIntentId',
        'createdAt',
      ])
      .orderBy('createdAt')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('ledgerLines')
      .select([
        'transactionId',
        'account',
        sql<number>`sum(debit_cents)::int`.as('debits'),
        sql<number>`sum(credit_cents)::int`.as('credits'),
        sql<number>`count(*) filter (where credit_cents > 0)::int`.as('creditLines'),
      ])
      .where('transactionId', 'is not', null)
      .groupBy(['transactionId', 'account'])
      .execute(),
    db
      .selectFrom('ledgerLines')
      .innerJoin('ledgerEntries', 'ledgerEntries.id', 'ledgerLines.entryId')
      .select([
        'ledgerEntries.eventKey',
        'ledgerEntries.transactionId',
        sql<number>`sum(debit_cents)::int`.as('debits'),
        sql<number>`sum(credit_cents)::int`.as('credits'),
      ])
      .groupBy(['ledgerEntries.id', 'ledgerEntries.eventKey', 'ledgerEntries.transactionId'])
      .having(sql<boolean>`sum(debit_cents) <> sum(credit_cents)`)
      .execute(),
    db
      .selectFrom('ledgerLines')
      .select([
        sql<number>`coalesce(sum(debit_cents), 0)::bigint`.as('debits'),
        sql<number>`coalesce(sum(credit_cents), 0)::bigint`.as('credits'),
      ])
      .executeTakeFirstOrThrow(),
  ])

  const ledger = new Map<string, SaleLedger>()
  for (const line of lines) {
    const own = ledger.get(line.transactionId!) ?? emptyLedger()
    ledger.set(line.transactionId!, own)
    if (line.account === 'provider_cash') {
      own.cashIn += line.debits
      own.cashOut += line.credits
    } else if (line.account === 'buyer_funds') own.buyerFunds += line.credits - line.debits
    else if (line.account === 'platform_fee') {
      own.platformFee += line.credits - line.debits
      own.feeLines += line.creditLines
    } else if (line.account === 'seller_payable') own.sellerPayable += line.credits - line.debits
    else own.paidOut += line.credits - line.debits
  }
  return { charges, sales, ledger, debits: Number(sums.debits), credits: Number(sums.credits), unbalancedEntries }
}

/** Compares the provider, the sales and the ledger (pure reads): runs every rule and collects what each finds. */
export async function reconcile(charges: ProviderCharge[]): Promise<ReconciliationResult> {
  const books = await readBooks(charges)
  const exceptions = [
    ...ledgerBalanced(books),
    ...providerCharges(books),
    ...books.sales.flatMap((sale) => SALE_RULES.flatMap((rule) => rule(sale, books.ledger.get(sale.id) ?? emptyLedger()))),
    ...sellerBalance(books),
  ]
  return { exceptions, totals: totalsOf(books) }
}

function totalsOf({ charges, sales, ledger, debits, credits }: Books): ReconciliationTotals {
  const all = [...ledger.values()]
  const sum = (pick: (l: SaleLedger) => number) => all.reduce((total, l) => total + pick(l), 0)
  return {
    providerChargesCents: charges.reduce((total, c) => total + c.capturedCents, 0),
    providerRefundsCents: charges.reduce((total, c) => total + c.refundedCents, 0),
    ledgerChargesCents: sum((l) => l.cashIn),
    ledgerRefundsCents: sum((l) => l.cashOut),
    ledgerDebitsCents: debits,
    ledgerCreditsCents: credits,
    escrowCents: sum((l) => l.buyerFunds),
    platformFeeCents: sum((l) => l.platformFee),
    platformFeeInEscrowCents: sales.reduce((total, s) => total + (feeStanding(s.status) === 'in-escrow' ? s.applicationFeeCents : 0), 0),
    sellerPayableCents: sum((l) => l.sellerPayable),
    paidOutCents: sum((l) => l.paidOut),
    sales: sales.length,
    providerCharges: charges.length,
  }
}

export interface ReconciliationRun {
  id: string
  trigger: 'schedule' | 'admin'
  requestedBy: string | null
  startedAt: Date
  finishedAt: Date
  exceptionCount: number
  totals: ReconciliationTotals
  exceptions: ReconciliationException[]
}

/**
 * Runs a reconciliation, stores its result and, when it found differences,
 * tells every admin (in the run's transaction). The provider is read first,
 * outside any database transaction.
 */
export async function runReconciliation(input: {
  trigger: 'schedule' | 'admin'
  adminId?: string
  now?: Date
}): Promise<ReconciliationRun> {
  const startedAt = input.now ?? new Date()
  let charges: ProviderCharge[]
  try {
    charges = await listProviderCharges()
  } catch (error) {
    logEvent('error', 'reconciliation_provider_unreachable', { message: error instanceof Error ? error.message : String(error) })
    throw new AppError(502, 'The payment provider could not be read. Please try again.')
  }
  const result = await reconcile(charges)
  await ensureJobSchema() // notify() queues the mail's job in the transaction
  const run = await db.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('reconciliationRuns')
      .values({
        trigger: input.trigger,
        requestedBy: input.adminId ?? null,
        startedAt,
        finishedAt: new Date(Math.max(Date.now(), startedAt.getTime())),
        exceptionCount: result.exceptions.length,
        totals: JSON.stringify(result.totals),
        exceptions: JSON.stringify(result.exceptions),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (result.exceptions.length > 0) {
      const admins = await trx.selectFrom('users').select('id').where('isAdmin', '=', true).orderBy('createdAt').execute()
      const kind = 'admin_reconciliation_exceptions'
      for (const admin of admins) {
        await notify(trx, {
          kind,
          userId: admin.id,
          dedupeKey: `${kind}:${stored.id}:${admin.id}`,
          data: {
            runId: stored.id,
            count: result.exceptions.length,
            startedAt: startedAt.toISOString(),
            rules: ruleCounts(result.exceptions),
          },
          now: startedAt,
        })
      }
    }
    return stored
  })
  logEvent(result.exceptions.length > 0 ? 'error' : 'info', 'reconciliation_run', {
    alert: result.exceptions.length > 0,
    runId: run.id,
    trigger: input.trigger,
    exceptions: result.exceptions.length,
  })
  return toRun(run)
}

/** "fee_rule: 2, seller_payable: 1" as the admins' mail lists them. */
function ruleCounts(exceptions: ReconciliationException[]): string {
  const counts = new Map<string, number>()
  for (const e of exceptions) counts.set(e.rule, (counts.get(e.rule) ?? 0) + 1)
  return [...counts].map(([rule, n]) => `${rule}: ${n}`).join(', ')
}

/** A stored run: its JSON columns come back untyped. */
function toRun(row: Omit<ReconciliationRun, 'totals' | 'exceptions'> & { totals: unknown; exceptions: unknown }): ReconciliationRun {
  return {
    ...row,
    totals: row.totals as ReconciliationTotals,
    exceptions: row.exceptions as ReconciliationException[],
  }
}

/** The latest runs, newest first (the admin's Reconciliation tab). */
export async function listReconciliationRuns(limit = 10): Promise<ReconciliationRun[]> {
  const rows = await db
    .selectFrom('reconciliationRuns')
    .selectAll()
    .orderBy('startedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toRun)
}

export async function getReconciliationRun(id: string): Promise<ReconciliationRun | null> {
  if (!isUuid(id)) return null
  const row = await db.selectFrom('reconciliationRuns').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? toRun(row) : null
}

export const RECONCILIATION_CSV_COLUMNS = [
  'run_id',
  'started_at',
  'rule',
  'rule_text',
  'sale_id',
  'seller_id',
  'expected_usd',
  'actual_usd',
  'details',
] as const

const dollars = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2))

/** One row per difference; a clean run is one row saying so. */
export function reconciliationToCsv(run: ReconciliationRun): string {
  const lines = [RECONCILIATION_CSV_COLUMNS.map(csvCell).join(',')]
  const at = run.startedAt.toISOString()
  if (run.exceptions.length === 0) lines.push([run.id, at, 'clean', 'No differences found', '', '', '', '', ''].map(csvCell).join(','))
  for (const e of run.exceptions) {
    lines.push(
      [
        run.id,
        at,
        e.rule,
        RECONCILIATION_RULES[e.rule],
        e.transactionId,
        e.sellerId,
        dollars(e.expectedCents),
        dollars(e.actualCents),
        e.details,
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}

// --- The daily job ------------------------------------------------------------------------

export const RECONCILIATION_TASK = 'reconciliation'

const reconciliationTask: Task = async () => {
  await runReconciliation({ trigger: 'schedule' })
}

/** Daily (graphile-worker's crontab runs it once per tick across every instance). */
export const RECONCILIATION_JOBS: readonly JobDefinition[] = [
  { name: RECONCILIATION_TASK, task: reconciliationTask, sweep: RECONCILIATION_CRONTAB },
]
