import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import type { PayoutLine } from '~/lib/payout-line'
import { sellerMayBePaid } from '~/lib/payouts'
import { db } from '../infra/db.server.ts'
import { decryptSecret } from '../infra/secret-box.server.ts'
import { bankAccountIdentity, sellersSharingAccount } from './bank-details.server.ts'
import { endToEndId } from './bank-files.server.ts'
import { AppError } from './errors.server.ts'
import { buildFiles, verifyFiles } from './payout-batch-export.server.ts'
import type { PayoutBatch, PayoutBatchStatus } from './payout-batch-transitions.server.ts'
import { BATCH_NOT_FOUND, notInLiveBatch } from './payout-batches.server.ts'
import { payoutDue, sellerSuspendedSql } from './payouts.server.ts'

/**
 * What the admins read of payout batches (issue 19): the batches with their payees and lines, the
 * sellers a new batch would pay, the sales in a batch not yet sent, and an exported batch's files.
 * The batches' steps are in payout-batches.server.ts.
 */

const BATCHES_LIMIT = 50

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
  lines: PayoutLine[]
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
      // Issue 30: a suspended seller's payouts are held (sellerMayBePaidSql leaves them out of a batch).
      sellerSuspendedSql(sql<string>`transactions.seller_id`).as('suspended'),
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
    blocker: sellerMayBePaid({ bankStatus: r.bankStatus, suspended: r.suspended })
      ? null
      : r.suspended
        ? 'Seller suspended: payouts held'
        : r.bankStatus
          ? `Bank details ${r.bankStatus}`
          : 'No bank details',
  }))
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
