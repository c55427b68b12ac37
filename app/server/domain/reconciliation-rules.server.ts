import { ESCROW_STATUSES, OWNED_STATUSES } from '~/lib/escrow'
import { feeStanding, splitFee } from '~/lib/money'
import { isPayoutDue } from '~/lib/payouts'
import type { ReconciliationRule } from '~/lib/reconciliation'
import type { ReconciliationExceptionRow, TransactionStatus } from '../../../db/schema.ts'

/**
 * The reconciliation's rules (app/lib/reconciliation.ts names them for the admins), one function
 * each: given what the provider, the sales and the ledger say (`Books`, read by `reconcile` in
 * reconciliation.server.ts), each returns the differences it finds. Pure: no reads, no writes.
 */

export type ReconciliationException = ReconciliationExceptionRow & { rule: ReconciliationRule }

/** A succeeded charge as the provider reports it. */
export interface ProviderCharge {
  id: string
  paymentIntentId: string | null
  capturedCents: number
  refundedCents: number
}

/** A sale as the rules read it. */
export interface BookedSale {
  id: string
  sellerId: string
  status: TransactionStatus
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
  paidAt: Date | null
  stripePaymentIntentId: string | null
}

/** What the ledger holds for one sale, account by account. */
export interface SaleLedger {
  cashIn: number
  cashOut: number
  buyerFunds: number
  platformFee: number
  feeLines: number
  sellerPayable: number
  paidOut: number
}

export const emptyLedger = (): SaleLedger => ({
  cashIn: 0,
  cashOut: 0,
  buyerFunds: 0,
  platformFee: 0,
  feeLines: 0,
  sellerPayable: 0,
  paidOut: 0,
})

/** Everything the rules compare. */
export interface Books {
  charges: ProviderCharge[]
  sales: BookedSale[]
  /** By sale id. */
  ledger: Map<string, SaleLedger>
  /** Σ debits and Σ credits of the whole ledger. */
  debits: number
  credits: number
  /** Ledger entries whose debits differ from their credits. */
  unbalancedEntries: { eventKey: string; transactionId: string | null; debits: number; credits: number }[]
}

const ESCROW: readonly TransactionStatus[] = ESCROW_STATUSES
const TAKEN_STATUSES: readonly TransactionStatus[] = OWNED_STATUSES

const difference = (rule: ReconciliationRule, e: Omit<ReconciliationException, 'rule'>): ReconciliationException => ({ rule, ...e })

/** 1. The ledger balances (the database refuses otherwise; a restore or a disabled trigger would not). */
export function ledgerBalanced({ debits, credits, unbalancedEntries }: Books): ReconciliationException[] {
  const found: ReconciliationException[] = []
  if (debits !== credits) {
    found.push(
      difference('ledger_balanced', {
        transactionId: null,
        sellerId: null,
        expectedCents: debits,
        actualCents: credits,
        details: `Σ debits ${debits} ≠ Σ credits ${credits}`,
      }),
    )
  }
  for (const entry of unbalancedEntries) {
    found.push(
      difference('ledger_balanced', {
        transactionId: entry.transactionId,
        sellerId: null,
        expectedCents: entry.debits,
        actualCents: entry.credits,
        details: `Entry ${entry.eventKey}: debits ${entry.debits} ≠ credits ${entry.credits}`,
      }),
    )
  }
  return found
}

/** 2. The provider against the ledger, payment by payment (matched by the PaymentIntent id). */
export function providerCharges({ charges, sales, ledger }: Books): ReconciliationException[] {
  const found: ReconciliationException[] = []
  const byIntent = new Map(sales.filter((s) => s.stripePaymentIntentId).map((s) => [s.stripePaymentIntentId!, s]))
  const seenSales = new Set<string>()
  for (const charge of charges) {
    const sale = charge.paymentIntentId ? byIntent.get(charge.paymentIntentId) : undefined
    const net = charge.capturedCents - charge.refundedCents
    if (!sale) {
      if (net !== 0)
        found.push(
          difference('provider_charges', {
            transactionId: null,
            sellerId: null,
            expectedCents: 0,
            actualCents: net,
            details: `Charge ${charge.id} (${charge.paymentIntentId ?? 'no PaymentIntent'}) holds ${net} cents at the provider and matches no sale`,
          }),
        )
      continue
    }
    seenSales.add(sale.id)
    const own = ledger.get(sale.id) ?? emptyLedger()
    const booked = own.cashIn - own.cashOut
    if (booked !== net) {
      found.push(
        difference('provider_charges', {
          transactionId: sale.id,
          sellerId: sale.sellerId,
          expectedCents: net,
          actualCents: booked,
          details: `The provider holds ${net} cents for ${charge.paymentIntentId} (charged ${charge.capturedCents}, refunded ${charge.refundedCents}); the ledger holds ${booked}`,
        }),
      )
    }
  }
  for (const sale of sales) {
    const own = ledger.get(sale.id)
    if (!own || seenSales.has(sale.id) || own.cashIn - own.cashOut === 0) continue
    found.push(
      difference('provider_charges', {
        transactionId: sale.id,
        sellerId: sale.sellerId,
        expectedCents: 0,
        actualCents: own.cashIn - own.cashOut,
        details: `The ledger holds ${own.cashIn - own.cashOut} cents for ${sale.stripePaymentIntentId ?? 'a sale without a PaymentIntent'}; the provider has no succeeded charge for it`,
      }),
    )
  }
  return found
}

/** A rule checked sale by sale, against what the ledger holds for that sale. */
export type SaleRule = (sale: BookedSale, own: SaleLedger) => ReconciliationException[]

/** 3. The sale's fee is the fee rule's, and the ledger earned it once, only once the sale completed. */
export const feeRule: SaleRule = (sale, own) => {
  const found: ReconciliationException[] = []
  const base = { transactionId: sale.id, sellerId: sale.sellerId }
  const rule = splitFee(sale.amountCents)
  if (sale.applicationFeeCents !== rule.applicationFeeCents) {
    found.push(
      difference('fee_rule', {
        ...base,
        expectedCents: rule.applicationFeeCents,
        actualCents: sale.applicationFeeCents,
        details: `The sale records a fee of ${sale.applicationFeeCents} cents on ${sale.amountCents}; the rule gives ${rule.applicationFeeCents}`,
      }),
    )
  }
  const feeExpected = feeStanding(sale.status) === 'earned' ? rule.applicationFeeCents : 0
  if (own.platformFee !== feeExpected) {
    found.push(
      difference('fee_rule', {
        ...base,
        expectedCents: feeExpected,
        actualCents: own.platformFee,
        details: `The ledger holds a fee of ${own.platformFee} cents for this ${sale.status} sale of ${sale.amountCents}; expected ${feeExpected}`,
      }),
    )
  } else if (own.feeLines > 1 && sale.status === 'completed') {
    found.push(
      difference('fee_rule', { ...base, expectedCents: 1, actualCents: own.feeLines, details: `The fee was posted ${own.feeLines} times` }),
    )
  }
  return found
}

/** 4. The sale's money is in escrow exactly while it is paid and not completed or refunded. */
export const escrowRule: SaleRule = (sale, own) => {
  const escrowExpected = ESCROW.includes(sale.status)
    ? sale.amountCents
    : sale.status === 'held'
      ? own.cashIn - own.cashOut // money that did not match the sale waits in escrow for an admin
      : 0
  if (own.buyerFunds === escrowExpected) return []
  return [
    difference('escrow', {
      transactionId: sale.id,
      sellerId: sale.sellerId,
      expectedCents: escrowExpected,
      actualCents: own.buyerFunds,
      details: `The ledger holds ${own.buyerFunds} cents in escrow for this ${sale.status} sale; expected ${escrowExpected}`,
    }),
  ]
}

/** 5. The seller's share is owed while due, and paid out exactly once. */
export const sellerPayable: SaleRule = (sale, own) => {
  const found: ReconciliationException[] = []
  const base = { transactionId: sale.id, sellerId: sale.sellerId }
  const payableExpected = isPayoutDue(sale) ? sale.sellerShareCents : 0
  if (own.sellerPayable !== payableExpected) {
    found.push(
      difference('seller_payable', {
        ...base,
        expectedCents: payableExpected,
        actualCents: own.sellerPayable,
        details:
          own.sellerPayable < 0
            ? `Paid out ${own.paidOut} cents for a seller share of ${sale.sellerShareCents}: paid more than once`
            : `The ledger owes the seller ${own.sellerPayable} cents for this ${sale.status}${sale.paidAt ? ', paid out,' : ''} sale; expected ${payableExpected}`,
      }),
    )
  }
  const paidOutExpected = sale.paidAt && sale.status === 'completed' ? sale.sellerShareCents : 0
  if (own.paidOut !== paidOutExpected && own.sellerPayable >= 0) {
    found.push(
      difference('seller_payable', {
        ...base,
        expectedCents: paidOutExpected,
        actualCents: own.paidOut,
        details: `The ledger paid out ${own.paidOut} cents for this sale; expected ${paidOutExpected}`,
      }),
    )
  }
  return found
}

/** 6. A refunded sale is never paid out. */
export const refundedNotPaidOut: SaleRule = (sale, own) => {
  if (sale.status !== 'refunded' || !(sale.paidAt || own.paidOut > 0)) return []
  return [
    difference('refunded_not_paid_out', {
      transactionId: sale.id,
      sellerId: sale.sellerId,
      expectedCents: 0,
      actualCents: own.paidOut,
      details: 'Refunded to the buyer and paid out to the seller',
    }),
  ]
}

/** The rules checked sale by sale, in the order a sale's differences are listed. */
export const SALE_RULES: readonly SaleRule[] = [feeRule, escrowRule, sellerPayable, refundedNotPaidOut]

/** 7. For every seller, Σ seller share of the sales taken = paid out + held in escrow + due. */
export function sellerBalance({ sales, ledger }: Books): ReconciliationException[] {
  const sellers = new Map<string, { taken: number; held: number; due: number; paidOut: number }>()
  for (const sale of sales) {
    const seller = sellers.get(sale.sellerId) ?? { taken: 0, held: 0, due: 0, paidOut: 0 }
    sellers.set(sale.sellerId, seller)
    seller.paidOut += (ledger.get(sale.id) ?? emptyLedger()).paidOut
    if (TAKEN_STATUSES.includes(sale.status)) seller.taken += sale.sellerShareCents
    if (ESCROW.includes(sale.status)) seller.held += sale.sellerShareCents
    if (isPayoutDue(sale)) seller.due += sale.sellerShareCents
  }
  const found: ReconciliationException[] = []
  for (const [sellerId, s] of sellers) {
    if (s.taken === s.paidOut + s.held + s.due) continue
    found.push(
      difference('seller_balance', {
        transactionId: null,
        sellerId,
        expectedCents: s.taken,
        actualCents: s.paidOut + s.held + s.due,
        details: `Σ seller share ${s.taken} ≠ paid out ${s.paidOut} + in escrow ${s.held} + due ${s.due}`,
      }),
    )
  }
  return found
}
