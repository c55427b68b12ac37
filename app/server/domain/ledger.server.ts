import { sql, type Transaction as DbTransaction, type Kysely } from 'kysely'
import type { DB, LedgerAccount, LedgerEntryKind, Transaction } from '../../../db/schema.ts'
import type { SaleChange } from './sale-effects.server.ts'

/**
 * The double-entry ledger (issue 19; docs/decisions/020-ledger-and-reconciliation.md).
 *
 * Accounts, in integer cents (debit-normal: provider_cash, payouts_bank; credit-normal: the rest):
 * - provider_cash   the platform's balance at Stripe (one account);
 * - buyer_funds     what a buyer paid, held in escrow (one per sale);
 * - seller_payable  what the platform owes a seller (per seller, each line naming its sale);
 * - platform_fee    the platform's revenue (each line naming its sale);
 * - payouts_bank    bank transfers to sellers, out of the platform's bank account.
 *
 * What posts, each in the same database transaction as the change that causes it:
 * - charge   payment succeeded (paid, or held when the amount differs): Dr provider_cash / Cr buyer_funds;
 * - release  the sale completed (confirm, auto-confirm, admin release): Dr buyer_funds amount /
 *            Cr platform_fee fee, Cr seller_payable share (the sale's stored split, splitFee at checkout);
 * - refund   charge.refunded: every balance the sale still has is reversed, Cr provider_cash the total;
 * - payout   a batch (or a single payout) sent: Dr seller_payable per sale / Cr payouts_bank.
 * Each entry's `event_key` is unique: a replayed webhook or a retried step posts nothing twice.
 */

type Executor = Kysely<DB> | DbTransaction<DB>

export interface LedgerLine {
  account: LedgerAccount
  transactionId?: string | null
  sellerId?: string | null
  debitCents?: number
  creditCents?: number
}

export interface NewLedgerEntry {
  key: string
  kind: LedgerEntryKind
  description: string
  transactionId?: string | null
  sellerId?: string | null
  payoutBatchId?: string | null
  postedAt: Date
  lines: LedgerLine[]
}

/**
 * Posts one balanced entry, once per key: true when posted, false when the key
 * was already there. The database refuses an unbalanced entry at commit.
 */
export async function postLedgerEntry(trx: Executor, entry: NewLedgerEntry): Promise<boolean> {
  // The balance is checked at commit: the entry and its lines must commit together.
  if (!trx.isTransaction) return trx.transaction().execute((inner) => postLedgerEntry(inner, entry))
  const lines = entry.lines.filter((line) => (line.debitCents ?? 0) > 0 || (line.creditCents ?? 0) > 0)
  if (lines.length === 0) return false
  const inserted = await trx
    .insertInto('ledgerEntries')
    .values({
      eventKey: entry.key,
      kind: entry.kind,
      description: entry.description,
      transactionId: entry.transactionId ?? null,
      sellerId: entry.sellerId ?? null,
      payoutBatchId: entry.payoutBatchId ?? null,
      postedAt: entry.postedAt,
    })
    .onConflict((oc) => oc.column('eventKey').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return false
  await trx
    .insertInto('ledgerLines')
    .values(
      lines.map((line) => ({
        entryId: inserted.id,
        account: line.account,
        transactionId: line.transactionId ?? null,
        sellerId: line.sellerId ?? null,
        debitCents: line.debitCents ?? 0,
        creditCents: line.creditCents ?? 0,
      })),
    )
    .execute()
  return true
}

export const ledgerKeys = {
  charge: (saleId: string) => `charge:${saleId}`,
  release: (saleId: string) => `release:${saleId}`,
  refund: (saleId: string) => `refund:${saleId}`,
  /** A payout recorded before batches existed (batch null) is keyed by its sale. */
  payout: (batchId: string | null, sellerId: string, saleId?: string) => `payout:${batchId ?? `sale-${saleId}`}:${sellerId}`,
}

/** Cash in: what the provider says arrived for the sale (the sale's amount when not said). */
export function postCharge(trx: Executor, sale: Transaction, amountCents: number, postedAt: Date): Promise<boolean> {
  return postLedgerEntry(trx, {
    key: ledgerKeys.charge(sale.id),
    kind: 'charge',
    description: 'Payment succeeded: the buyer’s money is held in escrow',
    transactionId: sale.id,
    sellerId: sale.sellerId,
    postedAt,
    lines: [
      { account: 'provider_cash', transactionId: sale.id, debitCents: amountCents },
      { account: 'buyer_funds', transactionId: sale.id, creditCents: amountCents },
    ],
  })
}

/** Escrow released: the fee to the platform, the rest owed to the seller (the sale's stored split). */
export function postRelease(trx: Executor, sale: Transaction, postedAt: Date): Promise<boolean> {
  return postLedgerEntry(trx, {
    key: ledgerKeys.release(sale.id),
    kind: 'release',
    description: 'Sale completed: platform fee earned, seller share payable',
    transactionId: sale.id,
    sellerId: sale.sellerId,
    postedAt,
    lines: [
      { account: 'buyer_funds', transactionId: sale.id, debitCents: sale.amountCents },
      { account: 'platform_fee', transactionId: sale.id, creditCents: sale.applicationFeeCents },
      { account: 'seller_payable', transactionId: sale.id, sellerId: sale.sellerId, creditCents: sale.sellerShareCents },
    ],
  })
}

/** What each account holds for one sale, credit-positive (provider_cash: debit-positive, what the provider holds). */
export interface SaleBalances {
  providerCash: number
  buyerFunds: number
  sellerPayable: number
  platformFee: number
  /** Paid out to the seller from the bank (payouts_bank's credits). */
  paidOut: number
}

export async function saleBalances(executor: Executor, saleId: string): Promise<SaleBalances> {
  const rows = await executor
    .selectFrom('ledgerLines')
    .select(['account', sql<number>`sum(credit_cents - debit_cents)::int`.as('net')])
    .where('transactionId', '=', saleId)
    .groupBy('account')
    .execute()
  const net = (account: LedgerAccount) => rows.find((r) => r.account === account)?.net ?? 0
  return {
    providerCash: 0 - net('provider_cash'),
    buyerFunds: net('buyer_funds'),
    sellerPayable: net('seller_payable'),
    platformFee: net('platform_fee'),
    paidOut: net('payouts_bank'),
  }
}

/**
 * The money went back to the buyer: whatever the sale still holds (in escrow,
 * or as fee and seller payable after completion) is reversed and leaves the
 * provider's balance. A sale whose payment never posted (a duplicate payment
 * refunded) posts nothing.
 */
export async function postRefund(trx: Executor, sale: Transaction, postedAt: Date): Promise<boolean> {
  const held = await saleBalances(trx, sale.id)
  const lines: LedgerLine[] = [
    { account: 'buyer_funds', transactionId: sale.id, ...reverse(held.buyerFunds) },
    { account: 'platform_fee', transactionId: sale.id, ...reverse(held.platformFee) },
    { account: 'seller_payable', transactionId: sale.id, sellerId: sale.sellerId, ...reverse(held.sellerPayable) },
  ]
  const total = held.buyerFunds + held.platformFee + held.sellerPayable
  if (total === 0) return false
  lines.push({ account: 'provider_cash', transactionId: sale.id, ...(total > 0 ? { creditCents: total } : { debitCents: -total }) })
  return postLedgerEntry(trx, {
    key: ledgerKeys.refund(sale.id),
    kind: 'refund',
    description: 'Refunded: the buyer’s money went back through the payment provider',
    transactionId: sale.id,
    sellerId: sale.sellerId,
    postedAt,
    lines,
  })
}

/** The line that brings a credit-positive balance back to zero. */
function reverse(balance: number): Pick<LedgerLine, 'debitCents' | 'creditCents'> {
  return balance > 0 ? { debitCents: balance } : { creditCents: -balance }
}

/** A seller paid by bank transfer: their payable for each sale of the payment is settled. */
export function postSellerPayout(
  trx: Executor,
  payment: {
    batchId: string | null
    sellerId: string
    bankReference: string
    paidAt: Date
    sales: { saleId: string; sellerShareCents: number }[]
  },
): Promise<boolean> {
  return postLedgerEntry(trx, {
    key: ledgerKeys.payout(payment.batchId, payment.sellerId, payment.sales[0]?.saleId),
    kind: 'payout',
    description: `Paid out by bank transfer, reference ${payment.bankReference}`,
    sellerId: payment.sellerId,
    payoutBatchId: payment.batchId,
    postedAt: payment.paidAt,
    // A pair of lines per sale, so each sale's payout can be traced (and a second one seen).
    lines: payment.sales.flatMap((sale) => [
      { account: 'seller_payable' as const, transactionId: sale.saleId, sellerId: payment.sellerId, debitCents: sale.sellerShareCents },
      { account: 'payouts_bank' as const, transactionId: sale.saleId, sellerId: payment.sellerId, creditCents: sale.sellerShareCents },
    ]),
  })
}

/** The escrow machine's sale effect: each money event posts its entry in the transition's transaction. */
export async function postSaleLedger(trx: Executor, change: SaleChange): Promise<void> {
  if (change.from === change.to) return
  const now = change.data.now
  if (change.event === 'payment_succeeded') {
    await postCharge(trx, change.sale, change.data.amountReceived ?? change.sale.amountCents, now)
  } else if (change.to === 'completed') {
    await postRelease(trx, change.sale, now)
  } else if (change.to === 'refunded') {
    await postRefund(trx, change.sale, now)
  }
}

/**
 * Posts what each sale's current state implies and is not yet in the ledger
 * (the same functions, the same keys): for data written without the machine —
 * the demo seed, rows from before the ledger. Idempotent.
 */
export async function backfillLedger(executor: Executor): Promise<void> {
  const sales = await executor
    .selectFrom('transactions')
    .selectAll()
    .where('status', 'not in', ['pending_payment', 'failed'])
    .orderBy('createdAt')
    .execute()
  for (const sale of sales) {
    await postCharge(executor, sale, sale.amountCents, sale.paidAtProvider ?? sale.createdAt)
    if (sale.completedAt) await postRelease(executor, sale, sale.completedAt)
    if (sale.status === 'refunded') await postRefund(executor, sale, sale.refundedAt ?? sale.updatedAt)
  }
  const paid = await executor
    .selectFrom('transactions')
    .leftJoin('payoutBatchLines', (join) =>
      join.onRef('payoutBatchLines.transactionId', '=', 'transactions.id').on('payoutBatchLines.cancelled', '=', false),
    )
    .select([
      'transactions.id',
      'transactions.sellerId',
      'transactions.sellerShareCents',
      'transactions.paidAt',
      'transactions.paymentReference',
      'payoutBatchLines.batchId',
    ])
    .where('transactions.paidAt', 'is not', null)
    .execute()
  const payments = new Map<string, { batchId: string | null; sellerId: string; reference: string; paidAt: Date; sales: typeof paid }>()
  for (const sale of paid) {
    const batchId = sale.batchId ?? null
    const key = ledgerKeys.payout(batchId, sale.sellerId, sale.id)
    const payment = payments.get(key) ?? {
      batchId,
      sellerId: sale.sellerId,
      reference: sale.paymentReference ?? 'unknown',
      paidAt: sale.paidAt!,
      sales: [],
    }
    payment.sales.push(sale)
    payments.set(key, payment)
  }
  for (const payment of payments.values()) {
    await postSellerPayout(executor, {
      batchId: payment.batchId,
      sellerId: payment.sellerId,
      bankReference: payment.reference,
      paidAt: payment.paidAt,
      sales: payment.sales.map((sale) => ({ saleId: sale.id, sellerShareCents: sale.sellerShareCents })),
    })
  }
}
