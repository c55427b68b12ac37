import { sql, type Transaction as DbTransaction, type Kysely, type Selectable } from 'kysely'
import { isUuid } from '~/lib/ids'
import { payoutBlocker, sellerMayBePaid } from '~/lib/payouts'
import type { PayoutBatchPayees } from '../../../db/schema.generated.ts'
import type { DB } from '../../../db/schema.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { decryptSecret } from '../infra/secret-box.server.ts'
import { recordAudit } from './audit.server.ts'
import { bankAccountIdentity, sellersSharingAccount } from './bank-details.server.ts'
import {
  buildBankCsv,
  buildPain001,
  endToEndId,
  payoutDebtor,
  sha256,
  type BankFileBatch,
  type BankFilePayee,
} from './bank-files.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent } from './escrow.server.ts'
import {
  decideBatch,
  type BatchEvent,
  type BatchEventData,
  type PayoutBatch,
  type PayoutBatchStatus,
} from './payout-batch-transitions.server.ts'
import { payable, payoutDue, recordSellerPaid, sellerMayBePaidSql } from './payouts.server.ts'

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
 */

export type { PayoutBatch, PayoutBatchStatus } from './payout-batch-transitions.server.ts'
type Executor = Kysely<DB> | DbTransaction<DB>

export const BATCH_NOT_FOUND = 'Payout batch not found'
export const OWN_BATCH = 'A different admin must approve this payout: you prepared it'
export const NOTHING_DUE = 'No payouts are due to sellers with approved bank details'
const BATCHES_LIMIT = 50

/** Sales not already in a batch that is not cancelled. */
const notInLiveBatch = sql<boolean>`not exists (select 1 from payout_batch_lines l where l.transaction_id = transactions.id and not l.cancelled)`

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
    if (!bank || !sellerMayBePaid(bank.status)) throw new AppError(409, "The seller's bank details are no longer approved")
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
          sql<boolean>`${notInLiveBatch}`.as('free'),
        ])
        .where('transactions.id', '=', input.transactionId)
        .executeTakeFirst()
      if (!sale) throw new AppError(404, 'Sale not found')
      const blocker = payoutBlocker(sale, sale.bankStatus)
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

function toPayee(row: Selectable<PayoutBatchPayees>): BankFilePayee {
  return {
    position: row.position,
    sellerId: row.sellerId,
    amountCents: row.amountCents,
    country: row.country,
    accountHolder: row.accountHolder,
    bankName: row.bankName,
    sortCode: row.sortCode,
    routingNumber: row.routingNumber,
    swift: row.swift,
    accountNumber: row.accountNumberEncrypted ? decryptSecret(row.accountNumberEncrypted) : null,
    iban: row.ibanEncrypted ? decryptSecret(row.ibanEncrypted) : null,
  }
}

export interface BankFiles {
  xml: string | null
  csv: string | null
}

/** The batch's files, from the frozen batch and payees only. */
async function buildFiles(executor: Executor, batch: PayoutBatch): Promise<BankFiles> {
  if (!batch.approvedAt || !batch.debtorName || !batch.debtorIban || !batch.debtorBic) {
    throw new AppError(409, 'This payout batch has no bank file before it is approved')
  }
  const payees = await executor.selectFrom('payoutBatchPayees').selectAll().where('batchId', '=', batch.id).orderBy('position').execute()
  const fileBatch: BankFileBatch = {
    id: batch.id,
    currency: batch.currency,
    approvedAt: batch.approvedAt,
    debtorName: batch.debtorName,
    debtorIban: batch.debtorIban,
    debtorBic: batch.debtorBic,
  }
  const list = payees.map(toPayee)
  return { xml: buildPain001(fileBatch, list), csv: buildBankCsv(fileBatch, list) }
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

/** Files whose bytes must equal the ones approved: a difference (a changed key, a bug) refuses. */
function verifyFiles(batch: PayoutBatch, files: BankFiles): void {
  const xml = files.xml ? sha256(files.xml) : null
  const csv = files.csv ? sha256(files.csv) : null
  if (xml !== batch.xmlSha256 || csv !== batch.csvSha256) {
    throw new AppError(409, 'The bank file no longer matches the one approved (SHA-256): cancel this batch and prepare a new one')
  }
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

/** A file of an exported (or later) batch; the same bytes every time. Reads only. */
export async function payoutBatchFile(batchId: string, format: 'xml' | 'csv'): Promise<{ content: string; filename: string }> {
  if (!isUuid(batchId)) throw new AppError(404, BATCH_NOT_FOUND)
  const batch = await db.selectFrom('payoutBatches').selectAll().where('id', '=', batchId).executeTakeFirst()
  if (!batch) throw new AppError(404, BATCH_NOT_FOUND)
  if (!['exported', 'sent', 'reconciled'].includes(batch.status)) {
    throw new AppError(409, `This payout batch is ${batch.status}: its files are available once it is exported`)
  }
  const files = await buildFiles(db, batch)
  verifyFiles(batch, files)
  const content = format === 'xml' ? files.xml : files.csv
  if (!content)
    throw new AppError(
      404,
      format === 'xml' ? 'No seller of this batch is paid to an IBAN' : 'Every seller of this batch is paid to an IBAN',
    )
  const stem = `forkmarket-payouts-${batch.id.slice(0, 8)}`
  return { content, filename: format === 'xml' ? `${stem}.pain.001.xml` : `${stem}.csv` }
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

// ── Reading ─────────────────────────────────────────────────────────────────

export interface PayoutBatchLineView {
  transactionId: string
  listingTitle: string
  completedAt: Date | null
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
}

export interface PayoutBatchPayeeView {
  position: number
  endToEndId: string
  sellerId: string
  sellerEmail: string
  amountCents: number
  country: string
  accountHolder: string
  bankName: string
  /** Masked: the approver checks the account's end, the file carries the full number. */
  account: string
  /** Other sellers whose approved bank details name this same account (issue 26.5). */
  sharedAccountWith: string[]
  lines: PayoutBatchLineView[]
}

export interface PayoutBatchView {
  id: string
  kind: PayoutBatch['kind']
  status: PayoutBatchStatus
  currency: string
  totalCents: number
  preparedAt: Date
  preparedBy: string
  preparedByEmail: string
  approvedAt: Date | null
  approvedByEmail: string | null
  exportedAt: Date | null
  sentAt: Date | null
  bankReference: string | null
  reconciledAt: Date | null
  cancelledAt: Date | null
  cancelReason: string | null
  xmlSha256: string | null
  csvSha256: string | null
  payees: PayoutBatchPayeeView[]
}

const last4 = (value: string | null) => (value ? `•••• ${value.slice(-4)}` : '')

/** The latest batches (newest first) with their payees and lines. */
export async function listPayoutBatches({ batchId }: { batchId?: string } = {}): Promise<PayoutBatchView[]> {
  let query = db
    .selectFrom('payoutBatches')
    .innerJoin('users as preparer', 'preparer.id', 'payoutBatches.preparedBy')
    .leftJoin('users as approver', 'approver.id', 'payoutBatches.approvedBy')
    .selectAll('payoutBatches')
    .select(['preparer.email as preparedByEmail', 'approver.email as approvedByEmail'])
    .orderBy('payoutBatches.createdAt', 'desc')
    .orderBy('payoutBatches.id', 'desc')
    .limit(BATCHES_LIMIT)
  if (batchId !== undefined) {
    if (!isUuid(batchId)) return []
    query = query.where('payoutBatches.id', '=', batchId)
  }
  const batches = await query.execute()
  if (batches.length === 0) return []
  const ids = batches.map((b) => b.id)
  const [payees, lines] = await Promise.all([
    db
      .selectFrom('payoutBatchPayees')
      .innerJoin('users', 'users.id', 'payoutBatchPayees.sellerId')
      .selectAll('payoutBatchPayees')
      .select('users.email')
      .where('batchId', 'in', ids)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('payoutBatchLines')
      .innerJoin('transactions', 'transactions.id', 'payoutBatchLines.transactionId')
      .innerJoin('listings', 'listings.id', 'transactions.listingId')
      .select([
        'payoutBatchLines.batchId',
        'payoutBatchLines.sellerId',
        'payoutBatchLines.transactionId',
        'payoutBatchLines.amountCents',
        'payoutBatchLines.applicationFeeCents',
        'payoutBatchLines.sellerShareCents',
        'transactions.completedAt',
        'listings.title as listingTitle',
      ])
      .where('payoutBatchLines.batchId', 'in', ids)
      .orderBy('transactions.completedAt')
      .orderBy('payoutBatchLines.transactionId')
      .execute(),
  ])
  const snapshots = payees.map((p) => ({
    ...p,
    iban: p.ibanEncrypted ? decryptSecret(p.ibanEncrypted) : null,
    accountNumber: p.accountNumberEncrypted ? decryptSecret(p.accountNumberEncrypted) : null,
  }))
  const shared = await sellersSharingAccount(snapshots.map((p) => ({ userId: p.sellerId, identity: bankAccountIdentity(p) })))
  const decrypted = snapshots.map((p, i) => ({ ...p, sharedAccountWith: shared[i]! }))
  return batches.map((b) => ({
    id: b.id,
    kind: b.kind,
    status: b.status,
    currency: b.currency,
    totalCents: b.totalCents,
    preparedAt: b.preparedAt,
    preparedBy: b.preparedBy,
    preparedByEmail: b.preparedByEmail,
    approvedAt: b.approvedAt,
    approvedByEmail: b.approvedByEmail,
    exportedAt: b.exportedAt,
    sentAt: b.sentAt,
    bankReference: b.bankReference,
    reconciledAt: b.reconciledAt,
    cancelledAt: b.cancelledAt,
    cancelReason: b.cancelReason,
    xmlSha256: b.xmlSha256,
    csvSha256: b.csvSha256,
    payees: decrypted
      .filter((p) => p.batchId === b.id)
      .map((p) => ({
        position: p.position,
        endToEndId: endToEndId(b.id, p.position),
        sellerId: p.sellerId,
        sellerEmail: p.email,
        amountCents: p.amountCents,
        country: p.country,
        accountHolder: p.accountHolder,
        bankName: p.bankName,
        account: p.iban
          ? `IBAN ${last4(p.iban)}`
          : `${p.sortCode ? `Sort code ${p.sortCode}` : `Routing ${p.routingNumber ?? ''}`} · ${last4(p.accountNumber)}`,
        sharedAccountWith: p.sharedAccountWith,
        lines: lines
          .filter((l) => l.batchId === b.id && l.sellerId === p.sellerId)
          .map((l) => ({
            transactionId: l.transactionId,
            listingTitle: l.listingTitle,
            completedAt: l.completedAt,
            amountCents: l.amountCents,
            applicationFeeCents: l.applicationFeeCents,
            sellerShareCents: l.sellerShareCents,
          })),
      })),
  }))
}

export async function getPayoutBatch(batchId: string): Promise<PayoutBatchView> {
  const [batch] = await listPayoutBatches({ batchId })
  if (!batch) throw new AppError(404, BATCH_NOT_FOUND)
  return batch
}

/** Of these sales, those in a batch not yet sent (by id: the batch's state), for the admin's table. */
export async function salesInOpenBatches(transactionIds: string[]): Promise<Record<string, PayoutBatchStatus>> {
  if (transactionIds.length === 0) return {}
  const rows = await db
    .selectFrom('payoutBatchLines')
    .innerJoin('payoutBatches', 'payoutBatches.id', 'payoutBatchLines.batchId')
    .select(['payoutBatchLines.transactionId', 'payoutBatches.status'])
    .where('payoutBatchLines.transactionId', 'in', transactionIds)
    .where('payoutBatchLines.cancelled', '=', false)
    .where('payoutBatches.status', 'in', ['draft', 'approved', 'exported'])
    .execute()
  return Object.fromEntries(rows.map((r) => [r.transactionId, r.status]))
}

export interface DueBySeller {
  sellerId: string
  sellerEmail: string
  sales: number
  amountCents: number
  /** Why the seller cannot be in a batch now (null when they can). */
  blocker: string | null
}

/** What a new batch would contain, and who is left out and why (sales already in a live batch excluded). */
export async function payoutsDueBySeller(): Promise<DueBySeller[]> {
  const rows = await db
    .selectFrom('transactions')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .leftJoin('bankDetails', 'bankDetails.userId', 'transactions.sellerId')
    .select([
      'transactions.sellerId',
      'seller.email as sellerEmail',
      'bankDetails.status as bankStatus',
      sql<string>`count(*)`.as('sales'),
      sql<string>`sum(transactions.seller_share_cents)`.as('amount'),
    ])
    .where(payoutDue)
    .where(notInLiveBatch)
    .groupBy(['transactions.sellerId', 'seller.email', 'bankDetails.status'])
    .orderBy('seller.email')
    .execute()
  return rows.map((r) => ({
    sellerId: r.sellerId,
    sellerEmail: r.sellerEmail,
    sales: Number(r.sales),
    amountCents: Number(r.amount),
    blocker: sellerMayBePaid(r.bankStatus) ? null : r.bankStatus ? `Bank details ${r.bankStatus}` : 'No bank details',
  }))
}
