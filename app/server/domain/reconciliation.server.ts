import type { Task } from 'graphile-worker'
import { sql } from 'kysely'
import { ESCROW_STATUSES, OWNED_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import { feeStanding, splitFee } from '~/lib/money'
import { isPayoutDue } from '~/lib/payouts'
import { RECONCILIATION_CRONTAB, RECONCILIATION_RULES, type ReconciliationRule } from '~/lib/reconciliation'
import type { ReconciliationExceptionRow, TransactionStatus } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStripe } from '../infra/stripe.server.ts'
import { csvCell } from './csv.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'

/**
 * The reconciliation (issue 19; docs/decisions/020-ledger-and-reconciliation.md): the
 * payment provider, the sales and the ledger must tell the same story. Run daily by a
 * job and on demand from /admin; each run is stored with its totals and every
 * difference found, each naming its sale (or seller) and the rule it breaks.
 */

export type ReconciliationException = ReconciliationExceptionRow & { rule: ReconciliationRule }

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

/** A succeeded charge as the provider reports it. */
export interface ProviderCharge {
  id: string
  paymentIntentId: string | null
  capturedCents: number
  refundedCents: number
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

const ESCROW: readonly TransactionStatus[] = ESCROW_STATUSES
const TAKEN_STATUSES: readonly TransactionStatus[] = OWNED_STATUSES

interface SaleLedger {
  cashIn: number
  cashOut: number
  buyerFunds: number
  platformFee: number
  feeLines: number
  sellerPayable: number
  paidOut: number
}

const emptyLedger = (): SaleLedger => ({ cashIn: 0, cashOut: 0, buyerFunds: 0, platformFee: 0, feeLines: 0, sellerPayable: 0, paidOut: 0 })

/** Compares the provider, the sales and the ledger; pure reads. */
export async function reconcile(charges: ProviderCharge[]): Promise<ReconciliationResult> {
  const exceptions: ReconciliationException[] = []
  const add = (rule: ReconciliationRule, e: Omit<ReconciliationException, 'rule'>) => exceptions.push({ rule, ...e })

  const [sales, lines, unbalanced, sums] = await Promise.all([
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

  // 1. The ledger balances (the database refuses otherwise; a restore or a disabled trigger would not).
  const debits = Number(sums.debits)
  const credits = Number(sums.credits)
  if (debits !== credits) {
    add('ledger_balanced', {
      transactionId: null,
      sellerId: null,
      expectedCents: debits,
      actualCents: credits,
      details: `Σ debits ${debits} ≠ Σ credits ${credits}`,
    })
  }
  for (const entry of unbalanced) {
    add('ledger_balanced', {
      transactionId: entry.transactionId,
      sellerId: null,
      expectedCents: entry.debits,
      actualCents: entry.credits,
      details: `Entry ${entry.eventKey}: debits ${entry.debits} ≠ credits ${entry.credits}`,
    })
  }

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

  // 2. The provider against the ledger, payment by payment (matched by the PaymentIntent id).
  const byIntent = new Map(sales.filter((s) => s.stripePaymentIntentId).map((s) => [s.stripePaymentIntentId!, s]))
  const seenSales = new Set<string>()
  for (const charge of charges) {
    const sale = charge.paymentIntentId ? byIntent.get(charge.paymentIntentId) : undefined
    const net = charge.capturedCents - charge.refundedCents
    if (!sale) {
      if (net !== 0)
        add('provider_charges', {
          transactionId: null,
          sellerId: null,
          expectedCents: 0,
          actualCents: net,
          details: `Charge ${charge.id} (${charge.paymentIntentId ?? 'no PaymentIntent'}) holds ${net} cents at the provider and matches no sale`,
        })
      continue
    }
    seenSales.add(sale.id)
    const own = ledger.get(sale.id) ?? emptyLedger()
    const booked = own.cashIn - own.cashOut
    if (booked !== net) {
      add('provider_charges', {
        transactionId: sale.id,
        sellerId: sale.sellerId,
        expectedCents: net,
        actualCents: booked,
        details: `The provider holds ${net} cents for ${charge.paymentIntentId} (charged ${charge.capturedCents}, refunded ${charge.refundedCents}); the ledger holds ${booked}`,
      })
    }
  }
  for (const sale of sales) {
    const own = ledger.get(sale.id)
    if (!own || seenSales.has(sale.id) || own.cashIn - own.cashOut === 0) continue
    add('provider_charges', {
      transactionId: sale.id,
      sellerId: sale.sellerId,
      expectedCents: 0,
      actualCents: own.cashIn - own.cashOut,
      details: `The ledger holds ${own.cashIn - own.cashOut} cents for ${sale.stripePaymentIntentId ?? 'a sale without a PaymentIntent'}; the provider has no succeeded charge for it`,
    })
  }

  // 3–6. Sale by sale: the fee rule, escrow, payable, refunds.
  const sellers = new Map<string, { taken: number; held: number; due: number; paidOut: number }>()
  let feesInEscrow = 0
  for (const sale of sales) {
    const own = ledger.get(sale.id) ?? emptyLedger()
    const rule = splitFee(sale.amountCents)
    const seller = sellers.get(sale.sellerId) ?? { taken: 0, held: 0, due: 0, paidOut: 0 }
    sellers.set(sale.sellerId, seller)
    seller.paidOut += own.paidOut
    if (TAKEN_STATUSES.includes(sale.status)) seller.taken += sale.sellerShareCents
    if (ESCROW.includes(sale.status)) seller.held += sale.sellerShareCents
    if (isPayoutDue(sale)) seller.due += sale.sellerShareCents
    const base = { transactionId: sale.id, sellerId: sale.sellerId }

    if (sale.applicationFeeCents !== rule.applicationFeeCents) {
      add('fee_rule', {
        ...base,
        expectedCents: rule.applicationFeeCents,
        actualCents: sale.applicationFeeCents,
        details: `The sale records a fee of ${sale.applicationFeeCents} cents on ${sale.amountCents}; the rule gives ${rule.applicationFeeCents}`,
      })
    }
    const fee = feeStanding(sale.status)
    const feeExpected = fee === 'earned' ? rule.applicationFeeCents : 0
    if (fee === 'in-escrow') feesInEscrow += sale.applicationFeeCents
    if (own.platformFee !== feeExpected) {
      add('fee_rule', {
        ...base,
        expectedCents: feeExpected,
        actualCents: own.platformFee,
        details: `The ledger holds a fee of ${own.platformFee} cents for this ${sale.status} sale of ${sale.amountCents}; expected ${feeExpected}`,
      })
    } else if (own.feeLines > 1 && sale.status === 'completed') {
      add('fee_rule', { ...base, expectedCents: 1, actualCents: own.feeLines, details: `The fee was posted ${own.feeLines} times` })
    }

    const escrowExpected = ESCROW.includes(sale.status)
      ? sale.amountCents
      : sale.status === 'held'
        ? own.cashIn - own.cashOut // money that did not match the sale waits in escrow for an admin
        : 0
    if (own.buyerFunds !== escrowExpected) {
      add('escrow', {
        ...base,
        expectedCents: escrowExpected,
        actualCents: own.buyerFunds,
        details: `The ledger holds ${own.buyerFunds} cents in escrow for this ${sale.status} sale; expected ${escrowExpected}`,
      })
    }

    const payableExpected = isPayoutDue(sale) ? sale.sellerShareCents : 0
    if (own.sellerPayable !== payableExpected) {
      add('seller_payable', {
        ...base,
        expectedCents: payableExpected,
        actualCents: own.sellerPayable,
        details:
          own.sellerPayable < 0
            ? `Paid out ${own.paidOut} cents for a seller share of ${sale.sellerShareCents}: paid more than once`
            : `The ledger owes the seller ${own.sellerPayable} cents for this ${sale.status}${sale.paidAt ? ', paid out,' : ''} sale; expected ${payableExpected}`,
      })
    }
    const paidOutExpected = sale.paidAt && sale.status === 'completed' ? sale.sellerShareCents : 0
    if (own.paidOut !== paidOutExpected && own.sellerPayable >= 0) {
      add('seller_payable', {
        ...base,
        expectedCents: paidOutExpected,
        actualCents: own.paidOut,
        details: `The ledger paid out ${own.paidOut} cents for this sale; expected ${paidOutExpected}`,
      })
    }

    if (sale.status === 'refunded' && (sale.paidAt || own.paidOut > 0)) {
      add('refunded_not_paid_out', {
        ...base,
        expectedCents: 0,
        actualCents: own.paidOut,
        details: 'Refunded to the buyer and paid out to the seller',
      })
    }
  }

  for (const [sellerId, s] of sellers) {
    if (s.taken === s.paidOut + s.held + s.due) continue
    add('seller_balance', {
      transactionId: null,
      sellerId,
      expectedCents: s.taken,
      actualCents: s.paidOut + s.held + s.due,
      details: `Σ seller share ${s.taken} ≠ paid out ${s.paidOut} + in escrow ${s.held} + due ${s.due}`,
    })
  }

  const all = [...ledger.values()]
  const sum = (pick: (l: SaleLedger) => number) => all.reduce((total, l) => total + pick(l), 0)
  return {
    exceptions,
    totals: {
      providerChargesCents: charges.reduce((total, c) => total + c.capturedCents, 0),
      providerRefundsCents: charges.reduce((total, c) => total + c.refundedCents, 0),
      ledgerChargesCents: sum((l) => l.cashIn),
      ledgerRefundsCents: sum((l) => l.cashOut),
      ledgerDebitsCents: debits,
      ledgerCreditsCents: credits,
      escrowCents: sum((l) => l.buyerFunds),
      platformFeeCents: sum((l) => l.platformFee),
      platformFeeInEscrowCents: feesInEscrow,
      sellerPayableCents: sum((l) => l.sellerPayable),
      paidOutCents: sum((l) => l.paidOut),
      sales: sales.length,
      providerCharges: charges.length,
    },
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
