import type { Transaction as DbTransaction, Kysely, Selectable } from 'kysely'
import type { PayoutBatchPayees } from '../../../db/schema.generated.ts'
import type { DB } from '../../../db/schema.ts'
import { decryptSecret } from '../infra/secret-box.server.ts'
import { buildBankCsv, buildPain001, sha256, type BankFileBatch, type BankFilePayee } from './bank-files.server.ts'
import { AppError } from './errors.server.ts'
import type { PayoutBatch } from './payout-batch-transitions.server.ts'

/**
 * A payout batch's bank files (issue 19, docs/decisions/021): built from the frozen batch and its
 * payees only (bank-files.server.ts writes the pain.001 and the CSV), fingerprinted when a second
 * admin approves it, and checked against those fingerprints whenever they are built again.
 */

type Executor = Kysely<DB> | DbTransaction<DB>

/** A payee of the bank files from what a payee row keeps (the batches, and the demo's payout): account numbers decrypted. */
export function toPayee(
  row: Pick<
    Selectable<PayoutBatchPayees>,
    | 'position'
    | 'sellerId'
    | 'amountCents'
    | 'country'
    | 'accountHolder'
    | 'bankName'
    | 'sortCode'
    | 'routingNumber'
    | 'swift'
    | 'accountNumberEncrypted'
    | 'ibanEncrypted'
  >,
): BankFilePayee {
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
export async function buildFiles(executor: Executor, batch: PayoutBatch): Promise<BankFiles> {
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

/** Files whose bytes must equal the ones approved: a difference (a changed key, a bug) refuses. */
export function verifyFiles(batch: PayoutBatch, files: BankFiles): void {
  const xml = files.xml ? sha256(files.xml) : null
  const csv = files.csv ? sha256(files.csv) : null
  if (xml !== batch.xmlSha256 || csv !== batch.csvSha256) {
    throw new AppError(409, 'The bank file no longer matches the one approved (SHA-256): cancel this batch and prepare a new one')
  }
}
