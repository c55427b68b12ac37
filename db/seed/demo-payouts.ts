import { sql, type Kysely } from 'kysely'
import { buildBankCsv, buildPain001, sha256, type BankFileBatch } from '../../app/server/domain/bank-files.server.ts'
import { toPayee } from '../../app/server/domain/payout-batch-export.server.ts'
import { payeeBankSnapshot } from '../../app/server/domain/payout-batches.server.ts'
import type { DB } from '../schema.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

/**
 * Issue 19's demo data: the payout already made to Ada (the demo's first sale, reference
 * BACS-2026-1042) as a reconciled payout batch — prepared by the admin, approved by the
 * finance admin (four eyes), exported, sent, reconciled — so her dashboard lists a payout
 * statement; and 30 days of listing views for the sellers' listings, so the dashboard's
 * chart has something to show. Written like db/seed/demo.ts: a reviewed writer of demo rows.
 */
export async function seedDemoPayouts(
  db: Kysely<DB>,
  now: Date,
  input: { preparedBy: string; approvedBy: string; paidSaleId: string; listingIds: string[] },
): Promise<void> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR)
  const sale = await db.selectFrom('transactions').selectAll().where('id', '=', input.paidSaleId).executeTakeFirstOrThrow()
  const bank = await db.selectFrom('bankDetails').selectAll().where('userId', '=', sale.sellerId).executeTakeFirstOrThrow()
  const preparedAt = at(24 * 15)
  const approvedAt = at(24 * 15 - 2)
  const batch = await db
    .insertInto('payoutBatches')
    .values({ totalCents: sale.sellerShareCents, preparedBy: input.preparedBy, preparedAt, createdAt: preparedAt, updatedAt: preparedAt })
    .returningAll()
    .executeTakeFirstOrThrow()
  await db
    .insertInto('payoutBatchPayees')
    .values({
      batchId: batch.id,
      sellerId: sale.sellerId,
      position: 1,
      amountCents: sale.sellerShareCents,
      ...payeeBankSnapshot(bank),
    })
    .execute()
  await db
    .insertInto('payoutBatchLines')
    .values({
      batchId: batch.id,
      transactionId: sale.id,
      sellerId: sale.sellerId,
      amountCents: sale.amountCents,
      applicationFeeCents: sale.applicationFeeCents,
      sellerShareCents: sale.sellerShareCents,
    })
    .execute()

  const debtor = { debtorName: 'Forkmarket Ltd', debtorIban: 'GB33BUKB20201555555555', debtorBic: 'BUKBGB22' }
  const fileBatch: BankFileBatch = {
    id: batch.id,
    currency: batch.currency,
    approvedAt,
    debtorName: debtor.debtorName,
    debtorIban: debtor.debtorIban,
    debtorBic: debtor.debtorBic,
  }
  const payee = toPayee({ position: 1, sellerId: sale.sellerId, amountCents: sale.sellerShareCents, ...payeeBankSnapshot(bank) })
  const xml = buildPain001(fileBatch, [payee])
  const csv = buildBankCsv(fileBatch, [payee])
  // Each step as the app takes it (the database's trigger checks the order and the four eyes).
  const steps = [
    {
      status: 'approved' as const,
      approvedBy: input.approvedBy,
      approvedAt,
      ...debtor,
      xmlSha256: xml ? sha256(xml) : null,
      csvSha256: csv ? sha256(csv) : null,
    },
    { status: 'exported' as const, exportedBy: input.approvedBy, exportedAt: at(24 * 15 - 3) },
    { status: 'sent' as const, bankReference: sale.paymentReference!, sentBy: input.preparedBy, sentAt: sale.paidAt! },
    { status: 'reconciled' as const, reconciledBy: input.approvedBy, reconciledAt: at(24 * 12) },
  ]
  for (const step of steps) await db.updateTable('payoutBatches').set(step).where('id', '=', batch.id).execute()

  // Views: a deterministic, believable pattern per listing and day (no visitor data exists to seed).
  const rows = input.listingIds.flatMap((listingId, i) =>
    Array.from({ length: 30 }, (_, d) => {
      const day = new Date(now.getTime() - d * DAY).toISOString().slice(0, 10)
      return { listingId, day, views: ((i * 7 + d * 13) % 17) + (d % 7 === 1 ? 9 : 3) }
    }),
  )
  await sql`INSERT INTO listing_views_daily (listing_id, day, views)
    SELECT * FROM unnest(${rows.map((r) => r.listingId)}::uuid[], ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.views)}::int[])`.execute(
    db,
  )
}
