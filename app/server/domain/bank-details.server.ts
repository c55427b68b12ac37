import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { isMaskedValue, maskLast4, type BankDetailsInput } from '~/lib/bank-details-schema'
import { isUuid } from '~/lib/ids'
import type { Country } from '~/lib/options'
import type { BankDetailsRow, BankDetailsStatus, DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { decryptSecret, encryptSecret } from '../infra/secret-box.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { notify } from './notifications.server.ts'

/**
 * Seller bank details (spec §3, §4): absent → pending → approved | rejected;
 * any change (a resubmission after a rejection, an edit of approved details)
 * goes back to pending. Account numbers and IBANs are stored encrypted
 * (AES-256-GCM) with their last four characters for display; only the admin's
 * approval and payout screens ever see them decrypted.
 */

/** What the seller (and any non-admin response) sees: numbers masked to their last four. */
export interface MaskedBankDetails {
  country: Country
  accountHolder: string
  bankName: string
  sortCode: string | null
  routingNumber: string | null
  swift: string | null
  accountNumber: string | null
  iban: string | null
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

    const values = {
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
      status: 'pending' as const,
      version: row ? row.version + 1 : 1,
      // Four eyes (issue 19): once details were approved, every later version needs two admins.
      requiresSecondApproval: row ? row.status === 'approved' || row.requiresSecondApproval : false,
      firstApprovedBy: null,
      firstApprovedAt: null,
      requestedAt: now,
      approvedAt: null,
      approvedBy: null,
      rejectedAt: null,
      rejectionReason: null,
      updatedAt: now,
    }
    const saved = await trx
      .insertInto('bankDetails')
      .values({ userId, ...values })
      .onConflict((oc) => oc.column('userId').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'seller',
      action: row ? 'bank_details.resubmit' : 'bank_details.submit',
      entityType: 'bank_details',
      entityId: userId,
      fromState: row?.status ?? null,
      toState: 'pending',
      metadata: { country: input.country },
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

/** Why an approve/reject did not happen: gone, no longer pending, or changed since the admin opened it. */
async function refusal(userId: string, version: number, action: 'approve' | 'reject'): Promise<AppError> {
  const row = await getBankDetailsRow(userId)
  if (!row) return new AppError(404, 'This user has no bank details on file')
  if (row.version !== version) return new AppError(409, BANK_DETAILS_CHANGED)
  const verb = action === 'approve' ? 'approved' : 'rejected'
  return new AppError(409, `These bank details are ${row.status}, not pending: only pending details can be ${verb}`)
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
  const now = input.now ?? new Date()
  if (!isUuid(input.userId)) throw new AppError(404, 'This user has no bank details on file')
  if (input.userId === input.adminId) throw new AppError(403, OWN_BANK_DETAILS)
  await ensureJobSchema() // notify() queues the mail's job in the transaction
  const updated = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('bankDetails')
      .selectAll()
      .where('userId', '=', input.userId)
      .where('status', '=', 'pending')
      .where('version', '=', input.version)
      .forUpdate()
      .executeTakeFirst()
    if (!current) return undefined
    if (current.requiresSecondApproval && current.firstApprovedBy === input.adminId) throw new AppError(403, SAME_FIRST_APPROVER)
    const first = current.requiresSecondApproval && !current.firstApprovedBy
    const row = await trx
      .updateTable('bankDetails')
      .set(
        first
          ? { firstApprovedBy: input.adminId, firstApprovedAt: now, updatedAt: now }
          : { status: 'approved', approvedAt: now, approvedBy: input.adminId, rejectedAt: null, rejectionReason: null, updatedAt: now },
      )
      .where('userId', '=', input.userId)
      .where('status', '=', 'pending')
      .where('version', '=', input.version)
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actorId: input.adminId,
      actorRole: 'admin',
      action: first ? 'bank_details.first_approve' : 'bank_details.approve',
      entityType: 'bank_details',
      entityId: input.userId,
      fromState: 'pending',
      toState: first ? 'pending' : 'approved',
      metadata: { version: input.version, ...(current.requiresSecondApproval ? { firstApprovedBy: row.firstApprovedBy } : {}) },
    })
    if (!first) {
      const kind = 'bank_details_approved'
      await notify(trx, { kind, userId: input.userId, dedupeKey: `${kind}:${input.userId}:v${input.version}`, data: {}, now })
    }
    return row
  })
  if (!updated) throw await refusal(input.userId, input.version, 'approve')
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
  const now = input.now ?? new Date()
  const reason = input.reason.trim()
  if (!reason) throw new AppError(400, 'Please provide a rejection reason')
  if (!isUuid(input.userId)) throw new AppError(404, 'This user has no bank details on file')
  await ensureJobSchema() // notify() queues the mail's job in the transaction
  const updated = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('bankDetails')
      .set({
        status: 'rejected',
        rejectedAt: now,
        rejectionReason: reason,
        approvedAt: null,
        approvedBy: null,
        firstApprovedBy: null,
        firstApprovedAt: null,
        updatedAt: now,
      })
      .where('userId', '=', input.userId)
      .where('status', '=', 'pending')
      .where('version', '=', input.version)
      .returningAll()
      .executeTakeFirst()
    if (row) {
      await recordAudit(trx, {
        actorId: input.adminId,
        actorRole: 'admin',
        action: 'bank_details.reject',
        entityType: 'bank_details',
        entityId: input.userId,
        fromState: 'pending',
        toState: 'rejected',
        reason,
        metadata: { version: input.version },
      })
      const kind = 'bank_details_rejected'
      await notify(trx, { kind, userId: input.userId, dedupeKey: `${kind}:${input.userId}:v${input.version}`, data: { reason }, now })
    }
    return row
  })
  if (!updated) throw await refusal(input.userId, input.version, 'reject')
  logEvent('info', 'bank_details_rejected', { category: 'security', adminId: input.adminId, userId: input.userId })
  return toMaskedBankDetails(updated)
}
