import { sql, type Transaction as DbTransaction, type Kysely, type Selectable } from 'kysely'
import { isUuid } from '~/lib/ids'
import { payoutBlocker, PAYOUTS_HELD_MESSAGE, sellerMayBePaid } from '~/lib/payouts'
import type { DB } from '../../../db/schema.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { payoutDebtor, sha256 } from './bank-files.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent } from './escrow.server.ts'
import { buildFiles, verifyFiles } from './payout-batch-export.server.ts'
import {
  decideBatch,
  type BatchEvent,
  type BatchEventData,
  type PayoutBatch,
  type PayoutBatchStatus,
} from './payout-batch-transitions.server.ts'
import { payable, payoutDue, recordSellerPaid, sellerMayBePaidSql, sellerSuspendedSql } from './payouts.server.ts'
import { queuePayoutWebhook } from './webhook-events.server.ts'

/**
 * Payout batches (issue 19, docs/decisions/021): one admin prepares, another
 * approves; the database enforces both (migrations/0012_payout_batches.ts).
 *
 * The states and events are a table (payout-batch-transitions.server.ts);
 * `applyBatchEvent` below is its runner. A `single` batch is the spec's Mark as
 * Paid dialog: one sale, the payment reference typed by the first admin; a
 * second admin's approval records it (draft → sent), no file. Every step is
 * one guarded UPDATE on the locked batch row, so two admins racing get one
 * success and one 409.
 *
 * What the admins read of the batches is in payout-batch-views.server.ts, the bank files in
 * payout-batch-export.server.ts.
 */

export type { PayoutBatch, PayoutBatchStatus } from './payout-batch-transitions.server.ts'
type Executor = Kysely<DB> | DbTransaction<DB>

export const BATCH_NOT_FOUND = 'Payout batch not found'
export const OWN_BATCH = 'A different admin must approve this payout: you prepared it'
export const NOTHING_DUE = 'No payouts are due to sellers with approved bank details'

/** Sales not already in a batch that is not cancelled. */
export const notInLiveBatch = sql<boolean>`not exists (select 1 from payout_batch_lines l where l.transaction_id = transactions.id and not l.cancelled)`

interface DueSale {
  id: string
  sellerId: string
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
}

/** What a batch's payee row keeps of the seller's bank details: the approved version it pays to, as it was then. */
export function payeeBankSnapshot(bank: Selectable<DB['bankDetails']>) {
  return {
    bankDetailsVersion: bank.version,
    country: bank.country,
    accountHolder: bank.accountHolder,
    bankName: bank.bankName,
    sortCode: bank.sortCode,
    routingNumber: bank.routingNumber,
    swift: bank.swift,
    accountNumberEncrypted: bank.accountNumberEncrypted,
    ibanEncrypted: bank.ibanEncrypted,
  }
}

async function insertBatch(
  trx: Executor,
  input: { kind: 'batch' | 'single'; adminId: string; now: Date; sales: DueSale[]; bankReference?: string },
): Promise<PayoutBatch> {
  const bySeller = new Map<string, DueSale[]>()
  for (const sale of input.sales) bySeller.set(sale.sellerId, [...(bySeller.get(sale.sellerId) ?? []), sale])
  const banks = await trx
    .selectFrom('bankDetails')
    .selectAll()
    .where('userId', 'in', [...bySeller.keys()])
    .execute()
  const bankOf = new Map(banks.map((row) => [row.userId, row]))
  const suspended = new Set(
    (
      await trx
        .selectFrom('users')
        .select('id')
        .where('id', 'in', [...bySeller.keys()])
        .where(sellerSuspendedSql(sql<string>`users.id`))
        .execute()
    ).map((row) => row.id),
  )
  const total = input.sales.reduce((sum, s) => sum + s.sellerShareCents, 0)
  const batch = await trx
    .insertInto('payoutBatches')
    .values({
      kind: input.kind,
      totalCents: total,
      preparedBy: input.adminId,
      preparedAt: input.now,
      bankReference: input.bankReference ?? null,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  // Payees in a stable order (seller id), so positions — and the file — never depend on timing.
  const sellers = [...bySeller.keys()].sort()
  for (const [index, sellerId] of sellers.entries()) {
    const bank = bankOf.get(sellerId)
    const standing = { bankStatus: bank?.status, suspended: suspended.has(sellerId) }
    if (!bank || !sellerMayBePaid(standing)) {
      throw new AppError(409, standing.suspended ? PAYOUTS_HELD_MESSAGE : "The seller's bank details are no longer approved")
    }
    const sales = bySeller.get(sellerId)!
    await trx
      .insertInto('payoutBatchPayees')
      .values({
        batchId: batch.id,
        sellerId,
        position: index + 1,
        amountCents: sales.reduce((sum, s) => sum + s.sellerShareCents, 0),
        ...payeeBankSnapshot(bank),
      })
      .execute()
    await trx
      .insertInto('payoutBatchLines')
      .values(
        sales.map((s) => ({
          batchId: batch.id,
          transactionId: s.id,
          sellerId,
          amountCents: s.amountCents,
          applicationFeeCents: s.applicationFeeCents,
          sellerShareCents: s.sellerShareCents,
        })),
      )
      .execute()
  }
  return batch
}

/**
 * Prepares a batch of everything payable (the `payable` rule: due, to a seller
 * who may be paid), except sales already in a live batch. Refunded
 * sales are never due, so never enter.
 */
export async function preparePayoutBatch(input: {
  adminId: string
  /** Only these sellers (the admin's choice on the Payouts tab); all when absent. */
  sellerIds?: string[]
  now?: Date
}): Promise<PayoutBatch> {
  const now = input.now ?? new Date()
  const sellerIds = input.sellerIds?.filter(isUuid)
  if (input.sellerIds && sellerIds?.length === 0) throw new AppError(400, 'Choose at least one seller to pay')
  try {
    const batch = await db.transaction().execute(async (trx) => {
      const sales = await trx
        .selectFrom('transactions')
        .select([
          'transactions.id',
          'transactions.sellerId',
          'transactions.amountCents',
          'transactions.applicationFeeCents',
          'transactions.sellerShareCents',
        ])
        .where(payable)
        .where(notInLiveBatch)
        .$if(sellerIds !== undefined, (q) => q.where('transactions.sellerId', 'in', sellerIds!))
        .orderBy('transactions.completedAt', 'asc')
        .orderBy('transactions.id', 'asc')
        .execute()
      if (sales.length === 0) throw new AppError(409, NOTHING_DUE)
      const created = await insertBatch(trx, { kind: 'batch', adminId: input.adminId, now, sales })
      await recordAudit(trx, {
        actorId: input.adminId,
        actorRole: 'admin',
        action: 'payout_batch.prepare',
        entityType: 'payout_batch',
        entityId: created.id,
        fromState: null,
        toState: 'draft',
        metadata: { totalCents: created.totalCents, sales: sales.length },
      })
      return created
    })
    logEvent('info', 'payout_batch_prepared', { category: 'security', adminId: input.adminId, batchId: batch.id })
    return batch
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'Another admin put some of these sales in a batch at the same time: reload')
    throw error
  }
}

/**
 * The spec's Mark as Paid for one urgent payout: a one-line batch carrying the
 * payment reference, which a second admin's approval records. Refusals keep
 * the spec-era texts (payoutBlocker).
 */
export async function markPaid(input: {
  transactionId: string
  adminId: string
  paymentReference: string
  now?: Date
}): Promise<PayoutBatch> {
  const now = input.now ?? new Date()
  const reference = input.paymentReference.trim()
  if (!reference) throw new AppError(400, 'Payment reference is required')
  if (reference.length > 140) throw new AppError(400, 'Payment reference must be at most 140 characters')
  if (!isUuid(input.transactionId)) throw new AppError(404, 'Sale not found')
  try {
    await ensureJobSchema() // notify() queues the payout mail's job in the transaction
    const { batch, sellerId } = await db.transaction().execute(async (trx) => {
      const sale = await trx
        .selectFrom('transactions')
        .leftJoin('bankDetails', 'bankDetails.userId', 'transactions.sellerId')
        .select([
          'transactions.id',
          'transactions.sellerId',
          'transactions.status',
          'transactions.paidAt',
          'transactions.amountCents',
          'transactions.applicationFeeCents',
          'transactions.sellerShareCents',
          'bankDetails.status as bankStatus',
          sellerSuspendedSql(sql<string>`transactions.seller_id`).as('sellerSuspended'),
          sql<boolean>`${notInLiveBatch}`.as('free'),
        ])
        .where('transactions.id', '=', input.transactionId)
        .executeTakeFirst()
      if (!sale) throw new AppError(404, 'Sale not found')
      const blocker = payoutBlocker(sale, { bankStatus: sale.bankStatus, suspended: sale.sellerSuspended })
      if (blocker) throw new AppError(409, blocker)
      if (!sale.free) throw new AppError(409, 'This sale is already in a payout waiting for approval')
      const batch = await insertBatch(trx, { kind: 'single', adminId: input.adminId, now, sales: [sale], bankReference: reference })
      const prepared = await applyEvent(trx, {
        saleId: sale.id,
        event: 'payout_prepared',
        by: { id: input.adminId, role: 'admin' },
        metadata: { paymentReference: reference, sellerShareCents: sale.sellerShareCents, batchId: batch.id },
        now,
      })
      if (!prepared.applied) throw prepared.error
      return { batch, sellerId: sale.sellerId }
    })
    logEvent('info', 'payout_recorded', {
      category: 'security',
      adminId: input.adminId,
      transactionId: input.transactionId,
      sellerId,
      batchId: batch.id,
    })
    return batch
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'This sale is already in a payout waiting for approval')
    throw error
  }
}

async function lockBatch(trx: Executor, batchId: string): Promise<PayoutBatch> {
  if (!isUuid(batchId)) throw new AppError(404, BATCH_NOT_FOUND)
  const batch = await trx.selectFrom('payoutBatches').selectAll().where('id', '=', batchId).forUpdate().executeTakeFirst()
  if (!batch) throw new AppError(404, BATCH_NOT_FOUND)
  return batch
}

/**
 * Entering a state starts what must happen in the same database transaction: a sent batch records
 * its sellers as paid (the ledger hook), a cancelled one frees its sales for another batch.
 */
const ON_ENTER: Partial<Record<PayoutBatchStatus, (trx: Executor, batch: PayoutBatch, data: BatchEventData) => Promise<void>>> = {
  sent: (trx, batch, data) => paySellers(trx, batch, data.adminId, data.now),
  cancelled: async (trx, batch) => {
    await trx.updateTable('payoutBatchLines').set({ cancelled: true }).where('batchId', '=', batch.id).execute()
  },
}

/**
 * The runner: applies `event` to the batch locked by the caller (`lockBatch`), who has made its own
 * checks first — writes the rule's fields and state guarded by the state it was in, audits, and runs
 * the entry effects. A refusal throws (409).
 */
async function applyBatchEvent(
  trx: Executor,
  batch: PayoutBatch,
  event: BatchEvent,
  data: BatchEventData,
  metadata?: (updated: PayoutBatch) => Record<string, unknown>,
): Promise<PayoutBatch> {
  const { rule, to } = decideBatch(batch, event, data)
  const updated = await trx
    .updateTable('payoutBatches')
    .set({ ...rule.set(batch, data), status: to, updatedAt: data.now })
    .where('id', '=', batch.id)
    .where('status', '=', batch.status)
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(trx, {
    actorId: data.adminId,
    actorRole: 'admin',
    action: rule.action,
    entityType: 'payout_batch',
    entityId: batch.id,
    fromState: batch.status,
    toState: to,
    reason: data.reason ?? null,
    metadata: metadata?.(updated),
  })
  await ON_ENTER[to]?.(trx, updated, data)
  return updated
}

/** Every line still due and every payee's details still the approved version the batch was prepared with. */
async function checkStillPayable(trx: Executor, batchId: string): Promise<void> {
  const gone = await trx
    .selectFrom('payoutBatchLines')
    .innerJoin('transactions', 'transactions.id', 'payoutBatchLines.transactionId')
    .select(['transactions.id', 'transactions.status'])
    .where('payoutBatchLines.batchId', '=', batchId)
    .where(sql<boolean>`not ${payoutDue}`)
    .executeTakeFirst()
  if (gone) {
    throw new AppError(409, `Sale ${gone.id.slice(0, 8)} is no longer due (${gone.status}): cancel this batch and prepare a new one`)
  }
  const changed = await trx
    .selectFrom('payoutBatchPayees')
    .leftJoin('bankDetails', 'bankDetails.userId', 'payoutBatchPayees.sellerId')
    .innerJoin('users', 'users.id', 'payoutBatchPayees.sellerId')
    .select('users.email')
    .where('payoutBatchPayees.batchId', '=', batchId)
    .where((eb) =>
      eb.or([
        eb.not(sellerMayBePaidSql(eb.ref('payoutBatchPayees.sellerId'))),
        eb('bankDetails.version', '<>', eb.ref('payoutBatchPayees.bankDetailsVersion')),
      ]),
    )
    .executeTakeFirst()
  if (changed) {
    throw new AppError(409, `${changed.email} changed their bank details since this batch was prepared: cancel it and prepare a new one`)
  }
}

/** draft → approved (or, for a single payout, draft → sent): by an admin who did not prepare it. */
export async function approvePayoutBatch(input: { batchId: string; adminId: string; now?: Date }): Promise<PayoutBatch> {
  const data: BatchEventData = { adminId: input.adminId, now: input.now ?? new Date() }
  await ensureJobSchema() // notify() queues the payout mail's job in the transaction
  const batch = await db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, input.batchId)
    decideBatch(batch, 'approve', data)
    if (batch.preparedBy === input.adminId) throw new AppError(403, OWN_BATCH)
    await checkStillPayable(trx, batch.id)

    if (batch.kind === 'single') {
      return applyBatchEvent(trx, batch, 'approve', data, (updated) => ({
        kind: 'single',
        bankReference: updated.bankReference,
        totalCents: updated.totalCents,
      }))
    }
    const debtor = payoutDebtor()
    if (!debtor) throw new AppError(409, 'Set PAYOUT_DEBTOR_NAME, PAYOUT_DEBTOR_IBAN and PAYOUT_DEBTOR_BIC before approving a payout batch')
    const payer = { debtorName: debtor.name, debtorIban: debtor.iban, debtorBic: debtor.bic }
    const files = await buildFiles(trx, { ...batch, approvedBy: input.adminId, approvedAt: data.now, ...payer })
    const approval = { ...payer, xmlSha256: files.xml ? sha256(files.xml) : null, csvSha256: files.csv ? sha256(files.csv) : null }
    return applyBatchEvent(trx, batch, 'approve', { ...data, approval }, (updated) => ({
      totalCents: updated.totalCents,
      xmlSha256: updated.xmlSha256,
      csvSha256: updated.csvSha256,
    }))
  })
  logEvent('info', 'payout_batch_approved', { category: 'security', adminId: input.adminId, batchId: batch.id })
  return batch
}

/** approved → exported: the files are final; download them from then on. */
export async function exportPayoutBatch(input: { batchId: string; adminId: string; now?: Date }): Promise<PayoutBatch> {
  const data: BatchEventData = { adminId: input.adminId, now: input.now ?? new Date() }
  return db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, input.batchId)
    decideBatch(batch, 'export', data)
    verifyFiles(batch, await buildFiles(trx, batch))
    return applyBatchEvent(trx, batch, 'export', data, () => ({ xmlSha256: batch.xmlSha256, csvSha256: batch.csvSha256 }))
  })
}

/** Records each payee's sales as paid with the batch's bank reference (the ledger hook). */
async function paySellers(trx: Executor, batch: PayoutBatch, adminId: string, now: Date): Promise<void> {
  const lines = await trx
    .selectFrom('payoutBatchLines')
    .select(['sellerId', 'transactionId', 'sellerShareCents'])
    .where('batchId', '=', batch.id)
    .orderBy('transactionId')
    .execute()
  const bySeller = new Map<string, typeof lines>()
  for (const line of lines) bySeller.set(line.sellerId, [...(bySeller.get(line.sellerId) ?? []), line])
  for (const [sellerId, own] of [...bySeller.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    await recordSellerPaid(trx, {
      batchId: batch.id,
      sellerId,
      transactionIds: own.map((l) => l.transactionId),
      amountCents: own.reduce((sum, l) => sum + l.sellerShareCents, 0),
      bankReference: batch.bankReference!,
      paidAt: now,
      adminId,
    })
    await queuePayoutWebhook(trx, {
      sellerId,
      batchId: batch.id,
      bankReference: batch.bankReference!,
      paidAt: now,
      transactionIds: own.map((l) => l.transactionId),
    })
  }
}

/** exported → sent: the bank took the file; its reference is recorded and the sales are Paid Out. */
export async function markPayoutBatchSent(input: {
  batchId: string
  adminId: string
  bankReference: string
  now?: Date
}): Promise<PayoutBatch> {
  const reference = input.bankReference.trim()
  if (!reference) throw new AppError(400, 'Payment reference is required')
  if (reference.length > 140) throw new AppError(400, 'Payment reference must be at most 140 characters')
  const data: BatchEventData = { adminId: input.adminId, now: input.now ?? new Date(), bankReference: reference }
  await ensureJobSchema() // notify() queues the payout mail's job in the transaction
  return db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, input.batchId)
    return applyBatchEvent(trx, batch, 'send', data, () => ({ bankReference: reference, totalCents: batch.totalCents }))
  })
}

/** sent → reconciled: the admin found the transfers on the bank statement. */
export async function reconcilePayoutBatch(input: { batchId: string; adminId: string; now?: Date }): Promise<PayoutBatch> {
  const data: BatchEventData = { adminId: input.adminId, now: input.now ?? new Date() }
  return db.transaction().execute(async (trx) => applyBatchEvent(trx, await lockBatch(trx, input.batchId), 'reconcile', data))
}

/** draft or approved → cancelled (never after export): its sales may enter another batch. */
export async function cancelPayoutBatch(input: { batchId: string; adminId: string; reason?: string; now?: Date }): Promise<PayoutBatch> {
  const data: BatchEventData = { adminId: input.adminId, now: input.now ?? new Date(), reason: input.reason?.trim() || null }
  return db.transaction().execute(async (trx) => applyBatchEvent(trx, await lockBatch(trx, input.batchId), 'cancel', data))
}
