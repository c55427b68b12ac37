import type { Transaction as DbTransaction, UpdateQueryBuilder, UpdateResult, Updateable } from 'kysely'
import type { AuditActorRole, DB, Transaction, TransactionStatus, TransactionsTable } from '../../db/schema.ts'
import { ACCESS_STATUSES, DISPUTE_WINDOW_HOURS, DISPUTE_WINDOW_MS, isValidForkUrl, windowEndsAt } from '~/lib/escrow'
import { recordAudit } from './audit.server.ts'
import { db } from './db.server.ts'
import { ensureJobSchema, scheduleAutoConfirm } from './jobs.server.ts'
import { logEvent } from './log.server.ts'
import { getStripe } from './stripe.server.ts'

/**
 * The escrow state machine of design.md §5 (docs/decisions/005-escrow-state-machine.md).
 * Every transition is one guarded UPDATE … WHERE status IN (<expected>) plus its
 * audit row, in one database transaction: two racing actions cannot both win,
 * and a transition that did not happen leaves no audit trace.
 */

export class EscrowError extends Error {
  constructor(
    message: string,
    // 502: the payment provider refused or could not be reached (refunds).
    readonly status: 403 | 404 | 409 | 400 | 502,
  ) {
    super(message)
    this.name = 'EscrowError'
  }
}

type Executor = DbTransaction<DB>
type SaleUpdate = UpdateQueryBuilder<DB, 'transactions', 'transactions', UpdateResult>

interface TransitionInput {
  id: string
  from: readonly TransactionStatus[]
  to: TransactionStatus
  set?: Updateable<TransactionsTable>
  /** Extra guard on top of the expected state (e.g. the dispute window is still open). */
  where?: (qb: SaleUpdate) => SaleUpdate
  actorId: string | null
  actorRole: AuditActorRole
  action: string
  reason?: string | null
  metadata?: Record<string, unknown>
  now: Date
}

/**
 * The guarded UPDATE and its audit row; undefined when the sale was not in an
 * expected state. The row lock (FOR UPDATE) makes a racing second caller wait
 * and then see the first one's result, so the audit's from-state is exact.
 */
export async function transitionSale(trx: Executor, input: TransitionInput): Promise<Transaction | undefined> {
  const current = await trx
    .selectFrom('transactions')
    .select('status')
    .where('id', '=', input.id)
    .forUpdate()
    .executeTakeFirst()
  if (!current || !input.from.includes(current.status)) return undefined
  let query: SaleUpdate = trx
    .updateTable('transactions')
    .set({ ...input.set, status: input.to, updatedAt: input.now })
    .where('id', '=', input.id)
    .where('status', 'in', [...input.from])
  if (input.where) query = input.where(query)
  const updated = await query.returningAll().executeTakeFirst()
  if (!updated) return undefined
  await recordAudit(trx, {
    actorId: input.actorId,
    actorRole: input.actorRole,
    action: input.action,
    entityType: 'transaction',
    entityId: input.id,
    fromState: current.status,
    toState: input.to,
    reason: input.reason ?? null,
    metadata: input.metadata,
  })
  return updated
}

export async function getTransaction(id: string): Promise<Transaction | undefined> {
  if (!isUuid(id)) return undefined
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst()
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

function wrongState(current: TransactionStatus, expected: readonly TransactionStatus[]): EscrowError {
  return new EscrowError(`This sale is ${current}, not ${expected.join(' or ')}`, 409)
}

/** Loads the sale and checks that `userId` plays `role` in it (404 for outsiders, 403 for the other party). */
async function saleFor(id: string, userId: string, role: 'buyer' | 'seller'): Promise<Transaction> {
  const sale = await getTransaction(id)
  if (!sale || (sale.buyerId !== userId && sale.sellerId !== userId)) throw new EscrowError('Sale not found', 404)
  const actual = role === 'buyer' ? sale.buyerId : sale.sellerId
  if (actual !== userId) {
    throw new EscrowError(role === 'buyer' ? 'Only the buyer can do this' : 'Only the seller can do this', 403)
  }
  return sale
}

async function anySale(id: string): Promise<Transaction> {
  const sale = await getTransaction(id)
  if (!sale) throw new EscrowError('Sale not found', 404)
  return sale
}

/** After a guarded update found nothing: explain why with the state the sale is in now. */
async function refusal(id: string, expected: readonly TransactionStatus[]): Promise<EscrowError> {
  const now = await anySale(id)
  return wrongState(now.status, expected)
}

// --- Seller ----------------------------------------------------------------------

/** paid → delivered: the seller hands over the buyer's fork; the 72-hour window starts. */
export async function deliverSale(input: {
  transactionId: string
  sellerId: string
  forkUrl: string
  now?: Date
}): Promise<Transaction> {
  const now = input.now ?? new Date()
  const forkUrl = input.forkUrl.trim()
  if (!isValidForkUrl(forkUrl)) throw new EscrowError('The fork URL must be an https:// link', 400)
  const sale = await saleFor(input.transactionId, input.sellerId, 'seller')
  if (sale.status !== 'paid') throw wrongState(sale.status, ['paid'])
  await ensureJobSchema()
  const delivered = await db.transaction().execute(async (trx) => {
    const updated = await transitionSale(trx, {
      id: sale.id,
      from: ['paid'],
      to: 'delivered',
      set: { deliveryProof: JSON.stringify({ forkUrl }), deliveredAt: now },
      actorId: input.sellerId,
      actorRole: 'seller',
      action: 'deliver',
      metadata: { forkUrl },
      now,
    })
    if (updated) await scheduleAutoConfirm(trx, updated.id, windowEndsAt(now))
    return updated
  })
  if (!delivered) throw await refusal(sale.id, ['paid'])
  return delivered
}

// --- Buyer -----------------------------------------------------------------------

/** delivered → completed: the buyer confirms receipt and the funds are released to the seller. */
export async function confirmReceipt(input: { transactionId: string; buyerId: string; now?: Date }): Promise<Transaction> {
  const now = input.now ?? new Date()
  const sale = await saleFor(input.transactionId, input.buyerId, 'buyer')
  if (sale.status !== 'delivered') throw wrongState(sale.status, ['delivered'])
  const completed = await db.transaction().execute((trx) =>
    transitionSale(trx, {
      id: sale.id,
      from: ['delivered'],
      to: 'completed',
      set: { completedAt: now },
      actorId: input.buyerId,
      actorRole: 'buyer',
      action: 'confirm_receipt',
      now,
    }),
  )
  if (!completed) throw await refusal(sale.id, ['delivered'])
  return completed
}

/** delivered → disputed, only while the window is open: stops the auto-confirm clock. */
export async function disputeSale(input: {
  transactionId: string
  buyerId: string
  reason: string
  now?: Date
}): Promise<Transaction> {
  const now = input.now ?? new Date()
  const reason = input.reason.trim()
  if (!reason) throw new EscrowError('Please describe the problem', 400)
  const sale = await saleFor(input.transactionId, input.buyerId, 'buyer')
  if (sale.status !== 'delivered') throw wrongState(sale.status, ['delivered'])
  const windowClosedAt = new Date(now.getTime() - DISPUTE_WINDOW_MS)
  const disputed = await db.transaction().execute((trx) =>
    transitionSale(trx, {
      id: sale.id,
      from: ['delivered'],
      to: 'disputed',
      set: { disputedAt: now, disputeReason: reason },
      // The window is open while now < deliveredAt + 72 h, i.e. deliveredAt > now − 72 h.
      where: (qb) => qb.where('deliveredAt', '>', windowClosedAt),
      actorId: input.buyerId,
      actorRole: 'buyer',
      action: 'dispute',
      reason,
      now,
    }),
  )
  if (disputed) return disputed
  const current = await anySale(sale.id)
  if (current.status === 'delivered') {
    throw new EscrowError(`The ${DISPUTE_WINDOW_HOURS}-hour window to report a problem with this sale has ended`, 409)
  }
  throw wrongState(current.status, ['delivered'])
}

// --- Admin -----------------------------------------------------------------------

/** disputed → completed: the admin sides with the seller and releases the funds. */
export async function releaseFunds(input: {
  transactionId: string
  adminId: string
  reason?: string
  now?: Date
}): Promise<Transaction> {
  const now = input.now ?? new Date()
  const sale = await anySale(input.transactionId)
  if (sale.status !== 'disputed') throw wrongState(sale.status, ['disputed'])
  if (sale.refundRequestedAt) throw new EscrowError('A refund has already been requested for this sale', 409)
  const released = await db.transaction().execute((trx) =>
    transitionSale(trx, {
      id: sale.id,
      from: ['disputed'],
      to: 'completed',
      set: { completedAt: now },
      where: (qb) => qb.where('refundRequestedAt', 'is', null),
      actorId: input.adminId,
      actorRole: 'admin',
      action: 'release',
      reason: input.reason?.trim() || null,
      now,
    }),
  )
  if (released) return released
  const current = await anySale(sale.id)
  if (current.status === 'disputed') throw new EscrowError('A refund has already been requested for this sale', 409)
  throw wrongState(current.status, ['disputed'])
}

const REFUNDABLE: readonly TransactionStatus[] = ['disputed', 'paid']

/**
 * disputed | paid (never delivered) → refund requested → refunded when Stripe's
 * charge.refunded event arrives (the webhook makes the final transition). The
 * claim (refundRequestedAt) is taken first with a guarded update, so two admins
 * clicking at once ask Stripe once; the idempotency key covers a retried call.
 */
export async function refundSale(input: {
  transactionId: string
  adminId: string
  reason: string
  now?: Date
}): Promise<Transaction> {
  const now = input.now ?? new Date()
  const reason = input.reason.trim()
  if (!reason) throw new EscrowError('Please give a reason for the refund', 400)
  const sale = await anySale(input.transactionId)
  if (!REFUNDABLE.includes(sale.status)) throw wrongState(sale.status, REFUNDABLE)
  if (sale.refundRequestedAt) throw new EscrowError('A refund has already been requested for this sale', 409)
  if (!sale.stripePaymentIntentId) throw new EscrowError('This sale has no payment to refund', 409)

  const claimed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('transactions')
      .set({ refundRequestedAt: now, updatedAt: now })
      .where('id', '=', sale.id)
      .where('status', 'in', [...REFUNDABLE])
      .where('refundRequestedAt', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (row) {
      await recordAudit(trx, {
        actorId: input.adminId,
        actorRole: 'admin',
        action: 'refund_requested',
        entityType: 'transaction',
        entityId: sale.id,
        fromState: row.status,
        toState: row.status,
        reason,
      })
    }
    return row
  })
  if (!claimed) {
    const current = await anySale(sale.id)
    if (REFUNDABLE.includes(current.status)) throw new EscrowError('A refund has already been requested for this sale', 409)
    throw wrongState(current.status, REFUNDABLE)
  }

  let refundId: string
  try {
    const refund = await getStripe().refunds.create(
      {
        payment_intent: sale.stripePaymentIntentId,
        reason: 'requested_by_customer',
        metadata: { transactionId: sale.id, adminId: input.adminId },
      },
      { idempotencyKey: `refund:${sale.id}` },
    )
    refundId = refund.id
  } catch (error) {
    // Give the claim back so the admin can try again; the audit keeps the failed attempt.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('transactions')
        .set({ refundRequestedAt: null, updatedAt: new Date() })
        .where('id', '=', sale.id)
        .where('refundRequestedAt', '=', now)
        .where('status', 'in', [...REFUNDABLE])
        .execute()
      await recordAudit(trx, {
        actorId: input.adminId,
        actorRole: 'admin',
        action: 'refund_failed',
        entityType: 'transaction',
        entityId: sale.id,
        fromState: claimed.status,
        toState: claimed.status,
        reason: error instanceof Error ? error.message : String(error),
      })
    })
    logEvent('error', 'refund_failed', { transactionId: sale.id, message: error instanceof Error ? error.message : String(error) })
    throw new EscrowError('The payment provider could not refund this sale. Please try again.', 502)
  }

  // The charge.refunded webhook may already have moved the sale to refunded: only fill the id.
  const stored = await db
    .updateTable('transactions')
    .set({ stripeRefundId: refundId })
    .where('id', '=', sale.id)
    .where('stripeRefundId', 'is', null)
    .returningAll()
    .executeTakeFirst()
  return stored ?? (await anySale(sale.id))
}

// --- System ----------------------------------------------------------------------

/**
 * Confirms every delivered, undisputed sale whose 72-hour window has ended at
 * `now` (the job queue calls this when a sale's window ends; tests call it with
 * a moved clock). Returns the ids it completed.
 */
export async function autoConfirmDue(now: Date = new Date()): Promise<string[]> {
  const windowClosedAt = new Date(now.getTime() - DISPUTE_WINDOW_MS)
  return db.transaction().execute(async (trx) => {
    const completed = await trx
      .updateTable('transactions')
      .set({ status: 'completed', completedAt: now, updatedAt: now })
      .where('status', '=', 'delivered')
      .where('deliveredAt', '<=', windowClosedAt)
      .returning(['id', 'deliveredAt'])
      .execute()
    for (const sale of completed) {
      await recordAudit(trx, {
        actorId: null,
        actorRole: 'system',
        action: 'auto_confirm',
        entityType: 'transaction',
        entityId: sale.id,
        fromState: 'delivered',
        toState: 'completed',
        reason: `No problem reported within ${DISPUTE_WINDOW_HOURS} hours of delivery`,
      })
    }
    return completed.map((sale) => sale.id)
  })
}

/** When a delivered sale's window ends (for the job that auto-confirms it). */
export async function autoConfirmDueAt(transactionId: string): Promise<Date | null> {
  const sale = await db
    .selectFrom('transactions')
    .select(['status', 'deliveredAt'])
    .where('id', '=', transactionId)
    .executeTakeFirst()
  if (!sale || sale.status !== 'delivered' || !sale.deliveredAt) return null
  return windowEndsAt(sale.deliveredAt)
}

// --- The buyer's purchases -------------------------------------------------------------

/** Statuses shown in My Purchases: attempts that never got paid are not purchases. */
const PURCHASE_STATUSES: readonly TransactionStatus[] = ['paid', 'delivered', 'completed', 'disputed', 'refunded']

export interface Purchase {
  id: string
  createdAt: Date
  amountCents: number
  status: TransactionStatus
  listing: { id: string; title: string; slug: string }
  seller: { username: string }
  /** Only while the buyer has access (a refund ends it). */
  deliveryProof: { forkUrl: string } | null
  deliveredAt: Date | null
  /** When the 72-hour window ends, for a delivered sale. */
  windowEndsAt: Date | null
  disputeReason: string | null
}

/** The spec's buyer view (GET /api/purchases and /purchases), newest first. */
export async function listPurchases(buyerId: string): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .select([
      'transactions.id',
      'transactions.createdAt',
      'transactions.amountCents',
      'transactions.status',
      'transactions.deliveryProof',
      'transactions.deliveredAt',
      'transactions.disputeReason',
      'listings.id as listingId',
      'listings.title',
      'listings.slug',
      'seller.username as sellerUsername',
    ])
    .where('transactions.buyerId', '=', buyerId)
    .where('transactions.status', 'in', [...PURCHASE_STATUSES])
    .orderBy('transactions.createdAt', 'desc')
    .orderBy('transactions.id', 'desc')
    .execute()
  return rows.map((row) => {
    const hasAccess = (ACCESS_STATUSES as readonly TransactionStatus[]).includes(row.status)
    const forkUrl = hasAccess ? row.deliveryProof?.forkUrl : undefined
    return {
      id: row.id,
      createdAt: row.createdAt,
      amountCents: row.amountCents,
      status: row.status,
      listing: { id: row.listingId, title: row.title, slug: row.slug },
      seller: { username: row.sellerUsername },
      deliveryProof: forkUrl ? { forkUrl } : null,
      deliveredAt: row.deliveredAt,
      windowEndsAt: row.status === 'delivered' && row.deliveredAt ? windowEndsAt(row.deliveredAt) : null,
      disputeReason: row.disputeReason,
    }
  })
}

// --- JSON for the API ------------------------------------------------------------------

/** A sale as the /api/* endpoints answer it (no provider ids). */
export function saleJson(sale: Transaction) {
  return {
    id: sale.id,
    listingId: sale.listingId,
    buyerId: sale.buyerId,
    sellerId: sale.sellerId,
    status: sale.status,
    amountCents: sale.amountCents,
    applicationFeeCents: sale.applicationFeeCents,
    deliveryProof: sale.deliveryProof,
    deliveredAt: sale.deliveredAt,
    windowEndsAt: sale.status === 'delivered' && sale.deliveredAt ? windowEndsAt(sale.deliveredAt) : null,
    completedAt: sale.completedAt,
    disputedAt: sale.disputedAt,
    disputeReason: sale.disputeReason,
    refundRequestedAt: sale.refundRequestedAt,
    refundedAt: sale.refundedAt,
    createdAt: sale.createdAt,
    updatedAt: sale.updatedAt,
  }
}
