import type { Transaction as DbTransaction, Kysely } from 'kysely'
import type { DB, MoneyExceptionKind } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'

/**
 * Money that moved where the escrow cannot follow: a payment whose amount or
 * currency differs from the sale's (the sale is held), a refund at the
 * provider after the seller was paid out. Each one is a row admins see on
 * /admin until it is resolved, and an alert in the log when it happens.
 * (Issue 19's reconciliation will build on this list.)
 */

export interface NewMoneyException {
  transactionId: string
  kind: MoneyExceptionKind
  amountCents: number
  currency: string
  details: string
  providerRef?: string | null
}

/** Records the exception in the caller's database transaction and raises the alert. */
export async function recordMoneyException(executor: Kysely<DB> | DbTransaction<DB>, entry: NewMoneyException): Promise<void> {
  await executor
    .insertInto('moneyExceptions')
    .values({ ...entry, currency: entry.currency.toUpperCase(), providerRef: entry.providerRef ?? null })
    .execute()
  logEvent('error', 'money_exception', {
    alert: true,
    kind: entry.kind,
    transactionId: entry.transactionId,
    amountCents: entry.amountCents,
    currency: entry.currency.toUpperCase(),
    providerRef: entry.providerRef ?? null,
  })
}

export interface MoneyException {
  id: string
  kind: MoneyExceptionKind
  createdAt: Date
  amountCents: number
  currency: string
  details: string
  transactionId: string
  saleAmountCents: number
  saleStatus: string
  listingTitle: string
  buyerEmail: string
  sellerEmail: string
}

/** The open exceptions, newest first (the admin dashboard shows them on every tab). */
export async function listOpenMoneyExceptions(): Promise<MoneyException[]> {
  return db
    .selectFrom('moneyExceptions')
    .innerJoin('transactions', 'transactions.id', 'moneyExceptions.transactionId')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .select([
      'moneyExceptions.id',
      'moneyExceptions.kind',
      'moneyExceptions.createdAt',
      'moneyExceptions.amountCents',
      'moneyExceptions.currency',
      'moneyExceptions.details',
      'moneyExceptions.transactionId',
      'transactions.amountCents as saleAmountCents',
      'transactions.status as saleStatus',
      'listings.title as listingTitle',
      'buyer.email as buyerEmail',
      'seller.email as sellerEmail',
    ])
    .where('moneyExceptions.resolvedAt', 'is', null)
    .orderBy('moneyExceptions.createdAt', 'desc')
    .limit(100)
    .execute()
}
