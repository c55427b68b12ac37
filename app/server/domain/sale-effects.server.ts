import type { Transaction as DbTransaction, Kysely } from 'kysely'
import type { DB, Transaction, TransactionStatus } from '../../../db/schema.ts'
import type { Actor, EscrowEvent, EventData } from './escrow.server.ts'
import { postSaleLedger } from './ledger.server.ts'
import { notifySaleChange } from './notification-sender.server.ts'
import { removeReviewOnRefund } from './reviews.server.ts'
import { queueSaleWebhooks } from './webhook-events.server.ts'

/**
 * What else happens when the escrow machine applies an event to a sale.
 *
 * `applyEvent` (escrow.server.ts) calls `runSaleEffects` once per applied
 * event, inside the same database transaction, after the sale row and its
 * audit row are written: an effect's writes (an outbox row, ledger entries)
 * commit or roll back with the state change that caused them, so a replayed
 * webhook or a racing request that applies nothing produces nothing.
 *
 * Each capability registers one effect below. An effect module imports
 * escrow.server.ts for types only (`import type`): the machine imports this
 * module at runtime, and lint refuses the cycle.
 */
export interface SaleChange {
  event: EscrowEvent
  /** The state before and after (equal for events that only change the row, e.g. a refund claim). */
  from: TransactionStatus
  to: TransactionStatus
  /** The sale as it was when locked, and as written. */
  before: Transaction
  sale: Transaction
  by: Actor
  data: EventData
}

export type Executor = Kysely<DB> | DbTransaction<DB>
export type SaleEffect = (trx: Executor, change: SaleChange) => Promise<void>

const SALE_EFFECTS: readonly SaleEffect[] = [
  // Issue 19: the money event's balanced ledger entry (charge, release, refund).
  postSaleLedger,
  // Issue 18: a refunded sale loses its review.
  removeReviewOnRefund,
  // Issue 17: the buyer, the seller and the admins are told (outbox + in-app rows).
  notifySaleChange,
  // Issue 29: the seller's webhook endpoints (outbox rows, sent by the job worker).
  queueSaleWebhooks,
]

export async function runSaleEffects(trx: Executor, change: SaleChange): Promise<void> {
  for (const effect of SALE_EFFECTS) await effect(trx, change)
}
