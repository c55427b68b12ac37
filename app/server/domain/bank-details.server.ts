import type { Transaction as DbTransaction, Insertable, Kysely } from 'kysely'
import { isMaskedValue, maskLast4, type BankAccountDetails, type BankDetailsInput } from '~/lib/bank-details-schema'
import { isUuid } from '~/lib/ids'
import type { Country } from '~/lib/options'
import type { BankDetailsRow, BankDetailsStatus, BankDetailsTable, DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { decryptSecret, encryptSecret } from '../infra/secret-box.server.ts'
import { recordAudit } from './audit.server.ts'
import { decideBankDetails, type BankEvent, type BankEventData, type BankState } from './bank-details-transitions.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'

/**
 * Seller bank details (spec §3, §4): absent → pending → approved | rejected;
 * any change (a resubmission after a rejection, an edit of approved details)
 * goes back to pending. Account numbers and IBANs are stored encrypted
 * (AES-256-GCM) with their last four characters for display; only the admin's
 * approval and payout screens ever see them decrypted.
 */

/**
 * What the seller (and any non-admin response) sees: the account (`BankAccountDetails`, with a
 * country we serve) with the numbers masked to their last four, and where its review stands.
 */
export interface MaskedBankDetails extends Omit<BankAccountDetails, 'country'> {
  country: Country
  status: BankDetailsStatus
  /** Spec §3: true once approved, false while pending or rejected. */
  approved: boolean
  approvedAt: Date | null
  rejectedAt: Date | null
  rejectionReason: string | null
  requestedAt: Date
  /** The version an admin's approve/reject must name (bumped by every change). */
  version: number
  /**
   * Issue 19, four eyes: details that were approved once need two different admins when
   * changed (a first approval, then the approval). True while such a change is pending.
   */
  needsTwoApprovals: boolean
  /** When the first of those two approvals was given (null before it). */
  firstApprovedAt: Date | null
}

/** The admin's view: the same with the full account number / IBAN, and who gave the first approval. */
export interface FullBankDetails extends MaskedBankDetails {
  firstApprovedBy: string | null
}

type Executor = Kysely<DB> | DbTransaction<DB>

function base(row: BankDetailsRow) {
  return {
    country: row.country as Country,
    accountHolder: row.accountHolder,
    bankName: row.bankName,
    sortCode: row.sortCode,
    routingNumber: row.routingNumber,
    swift: row.swift,
    status: row.status,
    approved: row.status === 'approved',
    approvedAt: row.approvedAt,
    rejectedAt: row.rejectedAt,
    rejectionReason: row.rejectionReason,
    requestedAt: row.requestedAt,
    version: row.version,
    needsTwoApprovals: row.status === 'pending' && row.requiresSecondApproval,
    firstApprovedAt: row.status === 'pending' ? row.firstApprovedAt : null,
  }
}

export function toMaskedBankDetails(row: BankDetailsRow): MaskedBankDetails {
  return { ...base(row), accountNumber: maskLast4(row.accountNumberLast4), iban: maskLast4(row.ibanLast4) }
}

/** Decrypts the numbers: admin screens only (approval, Mark as Paid, the payouts CSV). */
export function toFullBankDetails(row: BankDetailsRow): FullBankDetails {
  return {
    ...base(row),
    accountNumber: row.accountNumberEncrypted ? decryptSecret(row.accountNumberEncrypted) : null,
    iban: row.ibanEncrypted ? decryptSecret(row.ibanEncrypted) : null,
    firstApprovedBy: row.status === 'pending' ? row.firstApprovedBy : null,
  }
}

export async function getBankDetailsRow(userId: string, executor: Executor = db): Promise<BankDetailsRow | undefined> {
  if (!isUuid(userId)) return undefined
  return executor.selectFrom('bankDetails').selectAll().where('userId', '=', userId).executeTakeFirst()
}

export async function getMaskedBankDetails(userId: string): Promise<MaskedBankDetails | null> {
  const row = await getBankDetailsRow(userId)
  return row ? toMaskedBankDetails(row) : null
}

export async function getBankDetailsStatus(userId: string): Promise<BankDetailsStatus | null> {
  const row = await db.selectFrom('bankDetails').select('status').where('userId', '=', userId).executeTakeFirst()
  return row?.status ?? null
}

interface SealedNumber {
  encrypted: string | null
  last4: string | null
  plaintext: string | null
}

/**
 * A submitted account number or IBAN: a new one is encrypted; the masked value
 * we sent out keeps the stored one (no re-typing), but only if it still
 * matches what is stored for that field.
 */
function resolveNumber(
  field: 'accountNumber' | 'iban',
  submitted: string | null,
  stored: { encrypted: string | null; last4: string | null },
): SealedNumber {
  if (!submitted) return { encrypted: null, last4: null, plaintext: null }
  if (isMaskedValue(submitted)) {
    if (stored.encrypted && stored.last4 && submitted === maskLast4(stored.last4)) {
      return { encrypted: stored.encrypted, last4: stored.last4, plaintext: decryptSecret(stored.encrypted) }
    }
    const label = field === 'iban' ? 'IBAN' : 'account number'
    throw new AppError(400, 'Please check the highlighted fields', { fieldErrors: { [field]: [`Please enter the full ${label}`] } })
  }
  return { encrypted: encryptSecret(submitted), last4: submitted.slice(-4), plaintext: submitted }
}

function sameDetails(row: BankDetailsRow, input: BankDetailsInput, account: SealedNumber, iban: SealedNumber): boolean {
  const storedAccount = row.accountNumberEncrypted ? decryptSecret(row.accountNumberEncrypted) : null
  const storedIban = row.ibanEncrypted ? decryptSecret(row.ibanEncrypted) : null
  return (
    row.country === input.country &&
    row.accountHolder === input.accountHolder &&
    row.bankName === input.bankName &&
    row.sortCode === input.sortCode &&
    row.routingNumber === input.routingNumber &&
    row.swift === input.swift &&
    storedAccount === account.plaintext &&
    storedIban === iban.plaintext
  )
}

export interface SaveResult {
  bankDetails: MaskedBankDetails
  message: string
  changed: boolean
}

/**
 * Saves the seller's details and (re)queues them for approval. Status,
 * approval and rejection fields never come from the client: every real
 * change resets them to pending. Saving approved details unchanged is a no-op,
 * so pressing Save again does not cost the seller their approval.
 */
export async function saveBankDetails(userId: string, input: BankDetailsInput, now = new Date()): Promise<SaveResult> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('bankDetails').selectAll().where('userId', '=', userId).forUpdate().executeTakeFirst()
    const account = resolveNumber('accountNumber', input.accountNumber, {
      encrypted: row?.accountNumberEncrypted ?? null,
      last4: row?.accountNumberLast4 ?? null,
    })
    const iban = resolveNumber('iban', input.iban, { encrypted: row?.ibanEncrypted ?? null, last4: row?.ibanLast4 ?? null })

    if (row?.status === 'approved' && sameDetails(row, input, account, iban)) {
      return { bankDetails: toMaskedBankDetails(row), message: 'Your bank details are unchanged.', changed: false }
    }

    const details = {
      country: input.country,
      accountHolder: input.accountHolder,
      bankName: input.bankName,
      sortCode: input.sortCode,
      routingNumber: input.routingNumber,
      swift: input.swift,
      accountNumberEncrypted: account.encrypted,
      accountNumberLast4: account.last4,
      ibanEncrypted: iban.encrypted,
      ibanLast4: iban.last4,
    }
    const saved = await applyBankEvent(trx, userId, row, row ? 'resubmit' : 'submit', {
      by: { id: userId, role: 'seller' },
      data: { now, details },
      metadata: () => ({ country: input.country }),
    })
    const message =
      row?.status === 'approved'
        ? 'Your changes were saved and need admin approval again (1-2 business days).'
        : 'Your bank details were submitted for approval (1-2 business days).'
    return { bankDetails: toMaskedBankDetails(saved), message, changed: true }
  })
}

/**
 * The account payouts go to, to tell when two sellers name the same one: the IBAN, or the country,
 * bank code and account number (spaces, dashes and case ignored). Null without a number.
 */
export function bankAccountIdentity(details: {
  country: string
  sortCode: string | null
  routingNumber: string | null
  accountNumber: string | null
  iban: string | null
}): string | null {
  const clean = (value: string | null) => (value ?? '').replace(/[\s-]/g, '').toUpperCase()
  if (details.iban) return `IBAN ${clean(details.iban)}`
  if (details.accountNumber) return `${details.country} ${clean(details.sortCode ?? details.routingNumber)} ${clean(details.accountNumber)}`
  return null
}

/**
 * For each of these accounts (by the seller who names it; answers in the same order), the e-mails of the other sellers whose
 * approved bank details name the same account (issue 26.5): two sellers paid into one account is
 * worth a look before an approval or a payout. The numbers are encrypted with random IVs, so the
 * approved details are decrypted here to compare them (admin screens only).
 */
export async function sellersSharingAccount(accounts: { userId: string; identity: string | null }[]): Promise<string[][]> {
  if (!accounts.some((account) => account.identity)) return accounts.map(() => [])
  const approved = await db
    .selectFrom('bankDetails')
    .innerJoin('users', 'users.id', 'bankDetails.userId')
    .selectAll('bankDetails')
    .select('users.email')
    .where('bankDetails.status', '=', 'approved')
    .orderBy('users.email')
    .execute()
  const byIdentity = new Map<string, { userId: string; email: string }[]>()
  for (const { email, ...row } of approved) {
    const identity = bankAccountIdentity(toFullBankDetails(row))
    if (identity) byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), { userId: row.userId, email }])
  }
  return accounts.map(({ userId, identity }) => {
    const others = identity ? (byIdentity.get(identity) ?? []).filter((seller) => seller.userId !== userId) : []
    return [...new Set(others.map((seller) => seller.email))]
  })
}

export interface PendingBankDetailsEntry {
  id: string
  email: string
  bankDetails: FullBankDetails
  /** Other sellers whose approved details name the same account (a warning for the approving admin). */
  sharedAccountWith: string[]
}

/** Pending entries for the admin, oldest request first, with the full numbers (spec §3 "Pending bank entry"). */
export async function listPendingBankDetails(): Promise<PendingBankDetailsEntry[]> {
  const rows = await db
    .selectFrom('bankDetails')
    .innerJoin('users', 'users.id', 'bankDetails.userId')
    .selectAll('bankDetails')
    .select('users.email')
    .where('bankDetails.status', '=', 'pending')
    .orderBy('bankDetails.requestedAt', 'asc')
    .execute()
  const entries = rows.map(({ email, ...row }) => ({ id: row.userId, email, bankDetails: toFullBankDetails(row) }))
  const shared = await sellersSharingAccount(
    entries.map((entry) => ({ userId: entry.id, identity: bankAccountIdentity(entry.bankDetails) })),
  )
  return entries.map((entry, i) => ({ ...entry, sharedAccountWith: shared[i]! }))
}

export async function countPendingBankDetails(): Promise<number> {
  const row = await db
    .selectFrom('bankDetails')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Full details of several sellers at once (Mark as Paid dialogs), keyed by user id. */
export async function getFullBankDetailsFor(userIds: string[]): Promise<Map<string, FullBankDetails>> {
  if (userIds.length === 0) return new Map()
  const rows = await db.selectFrom('bankDetails').selectAll().where('userId', 'in', userIds).execute()
  return new Map(rows.map((row) => [row.userId, toFullBankDetails(row)]))
}

export const BANK_DETAILS_CHANGED = 'These bank details changed since you opened them'

export const OWN_BANK_DETAILS = 'You cannot approve your own bank details'
export const SAME_FIRST_APPROVER = 'A different admin must give the second approval of changed bank details'

/**
 * pending → approved. Guarded on the status and on the version the admin
 * reviewed, so details the seller changed after the admin opened them are
 * never approved unseen (409 instead). Four eyes (issue 19, decision 021):
 * a change of details approved before needs two different admins — the first
 * approval is recorded and the details stay pending until a second admin
 * approves; nobody approves their own details. The database checks both
 * (bank_details_four_eyes, bank_details_not_own_approval).
 */
export async function approveBankDetails(input: {
  userId: string
  adminId: string
  version: number
  now?: Date
}): Promise<MaskedBankDetails> {
  const data: BankEventData = { now: input.now ?? new Date(), adminId: input.adminId }
  if (!isUuid(input.userId)) throw new AppError(404, NO_BANK_DETAILS)
  if (input.userId === input.adminId) throw new AppError(403, OWN_BANK_DETAILS)
  await ensureJobSchema() // notify() queues the mail's job in the transaction
  const updated = await db.transaction().execute(async (trx) => {
    const current = await lockReviewed(trx, input.userId, input.version)
    decideBankDetails(current, 'approve', data)
    if (current.requiresSecondApproval && current.firstApprovedBy === input.adminId) throw new AppError(403, SAME_FIRST_APPROVER)
    return applyBankEvent(trx, input.userId, current, 'approve', {
      by: { id: input.adminId, role: 'admin' },
      data,
      metadata: (row) => ({ version: input.version, ...(current.requiresSecondApproval ? { firstApprovedBy: row.firstApprovedBy } : {}) }),
    })
  })
  logEvent('info', updated.status === 'approved' ? 'bank_details_approved' : 'bank_details_first_approval', {
    category: 'security',
    adminId: input.adminId,
    userId: input.userId,
  })
  return toMaskedBankDetails(updated)
}

/** pending → rejected with the reason the seller will see on /profile. */
export async function rejectBankDetails(input: {
  userId: string
  adminId: string
  reason: string
  version: number
  now?: Date
}): Promise<MaskedBankDetails> {
  const reason = input.reason.trim()
  if (!reason) throw new AppError(400, 'Please provide a rejection reason')
  if (!isUuid(input.userId)) throw new AppError(404, NO_BANK_DETAILS)
  const data: BankEventData = { now: input.now ?? new Date(), adminId: input.adminId, reason }
  await ensureJobSchema() // notify() queues the mail's job in the transaction
  const updated = await db.transaction().execute(async (trx) => {
    const current = await lockReviewed(trx, input.userId, input.version)
    return applyBankEvent(trx, input.userId, current, 'reject', {
      by: { id: input.adminId, role: 'admin' },
      data,
      metadata: () => ({ version: input.version }),
    })
  })
  logEvent('info', 'bank_details_rejected', { category: 'security', adminId: input.adminId, userId: input.userId })
  return toMaskedBankDetails(updated)
}

// --- The runner ------------------------------------------------------------------------

const NO_BANK_DETAILS = 'This user has no bank details on file'

/** The details an admin reviewed, locked: 404 when there are none, 409 when they changed since (another version). */
async function lockReviewed(trx: Executor, userId: string, version: number): Promise<BankDetailsRow> {
  const row = await trx.selectFrom('bankDetails').selectAll().where('userId', '=', userId).forUpdate().executeTakeFirst()
  if (!row) throw new AppError(404, NO_BANK_DETAILS)
  if (row.version !== version) throw new AppError(409, BANK_DETAILS_CHANGED)
  return row
}

/** The seller is told of the admins' decision, once per version. */
const ON_ENTER: Partial<Record<BankState, (trx: Executor, row: BankDetailsRow, data: BankEventData) => Promise<void>>> = {
  approved: async (trx, row, data) => {
    const kind = 'bank_details_approved'
    await notify(trx, { kind, userId: row.userId, dedupeKey: `${kind}:${row.userId}:v${row.version}`, data: {}, now: data.now })
  },
  rejected: async (trx, row, data) => {
    const kind = 'bank_details_rejected'
    const notice = { reason: row.rejectionReason }
    await notify(trx, { kind, userId: row.userId, dedupeKey: `${kind}:${row.userId}:v${row.version}`, data: notice, now: data.now })
  },
}

/**
 * Applies `event` to the seller's details locked by the caller (`row`; undefined: none on file):
 * writes the rule's fields and state, guarded by the state and version it was in (a first submission
 * is an INSERT that two racing submissions cannot both make), audits, and tells the seller.
 */
async function applyBankEvent(
  trx: Executor,
  userId: string,
  row: BankDetailsRow | undefined,
  event: BankEvent,
  input: { by: { id: string; role: 'seller' | 'admin' }; data: BankEventData; metadata: (row: BankDetailsRow) => Record<string, unknown> },
): Promise<BankDetailsRow> {
  const { data } = input
  const { rule, to } = decideBankDetails(row, event, data)
  const values = { ...rule.set(row, data), status: to === 'none' ? undefined : to, updatedAt: data.now }
  const written = row
    ? await trx
        .updateTable('bankDetails')
        .set(values)
        .where('userId', '=', userId)
        .where('status', '=', row.status)
        .where('version', '=', row.version)
        .returningAll()
        .executeTakeFirst()
    : await trx
        .insertInto('bankDetails')
        .values({ ...(values as Insertable<BankDetailsTable>), userId })
        .onConflict((oc) => oc.column('userId').doNothing())
        .returningAll()
        .executeTakeFirst()
  if (!written) throw new AppError(409, BANK_DETAILS_CHANGED)
  await recordAudit(trx, {
    actorId: input.by.id,
    actorRole: input.by.role,
    action: rule.action,
    entityType: 'bank_details',
    entityId: userId,
    fromState: row?.status ?? null,
    toState: written.status,
    reason: data.reason ?? null,
    metadata: input.metadata(written),
  })
  if (written.status !== row?.status) await ON_ENTER[written.status]?.(trx, written, data)
  return written
}
