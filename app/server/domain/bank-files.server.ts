import { createHash } from 'node:crypto'
import { create } from 'xmlbuilder2'
import type { BankAccountDetails } from '../../lib/bank-details-schema.ts'
import { config, isProduction } from '../infra/env.server.ts'
import { csvCell } from './csv.server.ts'

/**
 * The files a payout batch is paid with (issue 19, docs/decisions/021):
 * - ISO 20022 pain.001.001.03 (customer credit transfer initiation) for the
 *   sellers paid to an IBAN, built with xmlbuilder2 and validated against the
 *   official XSD in tests (tests/fixtures/iso20022/);
 * - a CSV (the existing csvCell quoting) for the others: GB sort code and
 *   account number, US routing and account number.
 *
 * Both are pure functions of the frozen batch (its id, approval time, debtor
 * and payees): never `now()`, never the seller's current details, so the file
 * an admin re-exports is byte-identical to the one whose SHA-256 was recorded
 * at approval.
 */

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03'

export interface BankFileBatch {
  id: string
  currency: string
  approvedAt: Date
  debtorName: string
  debtorIban: string
  debtorBic: string
}

/** One seller of the batch with the numbers decrypted (admin only). */
export interface BankFilePayee extends BankAccountDetails {
  position: number
  sellerId: string
  amountCents: number
}

export interface Debtor {
  name: string
  iban: string
  bic: string
}

// The platform's own account in local development and tests (a published example IBAN).
const DEMO_DEBTOR: Debtor = { name: 'Forkmarket Ltd', iban: 'GB33BUKB20201555555555', bic: 'BUKBGB22' }

/** The account the transfers are paid from: PAYOUT_DEBTOR_* (required in production). */
export function payoutDebtor(): Debtor | null {
  const { PAYOUT_DEBTOR_NAME, PAYOUT_DEBTOR_IBAN, PAYOUT_DEBTOR_BIC } = config()
  if (PAYOUT_DEBTOR_NAME && PAYOUT_DEBTOR_IBAN && PAYOUT_DEBTOR_BIC) {
    return { name: PAYOUT_DEBTOR_NAME, iban: PAYOUT_DEBTOR_IBAN, bic: PAYOUT_DEBTOR_BIC }
  }
  return isProduction() ? null : DEMO_DEBTOR
}

/** Integer cents as the decimal a bank file states ("1234.05"): no floating point. */
export function centsToDecimal(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

/** The batch id as a message id (Max35Text): its 32 hex digits. */
const messageId = (batchId: string) => batchId.replaceAll('-', '')

/** One payee's end-to-end id, the same in the XML, the CSV and the seller's statement. */
export function endToEndId(batchId: string, position: number): string {
  return `FM-${messageId(batchId).slice(0, 12)}-${String(position).padStart(4, '0')}`
}

/** The text the seller's bank shows with the transfer (Max140Text). */
export function remittanceText(batchId: string, position: number): string {
  return `Forkmarket payout ${endToEndId(batchId, position)}`
}

/** Who is paid by the XML (an IBAN) and who by the CSV (GB / US account numbers). */
export function paidByIban(payee: Pick<BankFilePayee, 'iban'>): boolean {
  return Boolean(payee.iban)
}

// ISODateTime without fractions or zone, as banks' portals expect it; the batch's approval time (UTC).
const isoDateTime = (date: Date) => date.toISOString().slice(0, 19)
const isoDate = (date: Date) => date.toISOString().slice(0, 10)
// Max140Text / Max70Text and the XSD's character set: control characters out, length capped.
const text = (value: string, max: number) =>
  // eslint-disable-next-line no-control-regex
  value.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, max)

/** pain.001.001.03 for the batch's IBAN payees (null when it has none). */
export function buildPain001(batch: BankFileBatch, payees: BankFilePayee[]): string | null {
  const paid = payees.filter(paidByIban).sort((a, b) => a.position - b.position)
  if (paid.length === 0) return null
  const total = paid.reduce((sum, p) => sum + p.amountCents, 0)
  const id = messageId(batch.id)

  const doc = create({ version: '1.0', encoding: 'UTF-8' })
  const root = doc.ele(PAIN_001_NAMESPACE, 'Document').ele('CstmrCdtTrfInitn')
  const header = root.ele('GrpHdr')
  header.ele('MsgId').txt(id)
  header.ele('CreDtTm').txt(isoDateTime(batch.approvedAt))
  header.ele('NbOfTxs').txt(String(paid.length))
  header.ele('CtrlSum').txt(centsToDecimal(total))
  header.ele('InitgPty').ele('Nm').txt(text(batch.debtorName, 140))

  const info = root.ele('PmtInf')
  info.ele('PmtInfId').txt(id)
  info.ele('PmtMtd').txt('TRF')
  info.ele('BtchBookg').txt('false')
  info.ele('NbOfTxs').txt(String(paid.length))
  info.ele('CtrlSum').txt(centsToDecimal(total))
  info.ele('ReqdExctnDt').txt(isoDate(batch.approvedAt))
  info.ele('Dbtr').ele('Nm').txt(text(batch.debtorName, 140))
  info.ele('DbtrAcct').ele('Id').ele('IBAN').txt(batch.debtorIban)
  info.ele('DbtrAgt').ele('FinInstnId').ele('BIC').txt(batch.debtorBic)
  info.ele('ChrgBr').txt('SHAR')

  for (const payee of paid) {
    const tx = info.ele('CdtTrfTxInf')
    const ids = tx.ele('PmtId')
    ids.ele('InstrId').txt(endToEndId(batch.id, payee.position))
    ids.ele('EndToEndId').txt(endToEndId(batch.id, payee.position))
    tx.ele('Amt').ele('InstdAmt', { Ccy: batch.currency }).txt(centsToDecimal(payee.amountCents))
    if (payee.swift) tx.ele('CdtrAgt').ele('FinInstnId').ele('BIC').txt(payee.swift)
    tx.ele('Cdtr').ele('Nm').txt(text(payee.accountHolder, 140))
    tx.ele('CdtrAcct').ele('Id').ele('IBAN').txt(payee.iban!)
    tx.ele('RmtInf').ele('Ustrd').txt(remittanceText(batch.id, payee.position))
  }
  return `${doc.end({ prettyPrint: true, indent: '  ', newline: '\n' })}\n`
}

export const BANK_CSV_COLUMNS = [
  'batch_id',
  'end_to_end_id',
  'country',
  'account_holder',
  'bank_name',
  'sort_code',
  'account_number',
  'routing_number',
  'amount',
  'currency',
  'execution_date',
  'remittance',
] as const

/** The CSV for the payees without an IBAN (null when there are none). */
export function buildBankCsv(batch: BankFileBatch, payees: BankFilePayee[]): string | null {
  const paid = payees.filter((p) => !paidByIban(p)).sort((a, b) => a.position - b.position)
  if (paid.length === 0) return null
  const lines = [BANK_CSV_COLUMNS.map(csvCell).join(',')]
  for (const p of paid) {
    lines.push(
      [
        batch.id,
        endToEndId(batch.id, p.position),
        p.country,
        p.accountHolder,
        p.bankName,
        p.sortCode,
        p.accountNumber,
        p.routingNumber,
        centsToDecimal(p.amountCents),
        batch.currency,
        isoDate(batch.approvedAt),
        remittanceText(batch.id, p.position),
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}

export function sha256(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex')
}
