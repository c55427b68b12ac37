import type { Updateable } from 'kysely'
import type { BankDetailsRow, BankDetailsStatus, BankDetailsTable } from '../../../db/schema.ts'
import { AppError } from './errors.server.ts'
import { decide, UNCHANGED, type Rule } from './state-machine.server.ts'

/**
 * The bank details machine (spec §3, §4; issue 19's four eyes, docs/decisions/021): which event
 * moves a seller's details from which state to which, and what it writes. The runner
 * (`applyBankEvent` in bank-details.server.ts) locks the row, asks `decideBankDetails`, writes with
 * a `WHERE status = <from> AND version = <version>` guard, audits and tells the seller.
 *
 *   none ──submit──▶ pending ──approve──▶ approved
 *                      │  └──reject──▶ rejected
 *   any ──resubmit (a real change)──▶ pending (version + 1; once approved, two admins from then on)
 *   pending ──approve (the first of two, for changed details)──▶ pending
 *
 * Pure: unit-tested in bank-details-transitions.test.ts.
 */

/** `none`: no details on file yet (no row). */
export type BankState = BankDetailsStatus | 'none'
export type BankEvent = 'submit' | 'resubmit' | 'approve' | 'reject'

export interface BankEventData {
  now: Date
  /** approve, reject: the admin. */
  adminId?: string
  /** reject: the reason the seller sees. */
  reason?: string | null
  /** submit, resubmit: the details as they will be stored (numbers sealed). */
  details?: Omit<Updateable<BankDetailsTable>, 'userId' | 'status' | 'version'>
}

export interface BankTransition extends Rule<BankEvent, BankState, BankDetailsRow | undefined, BankEventData> {
  /** The audit row's action. */
  action: string
  set: (row: BankDetailsRow | undefined, data: BankEventData) => Updateable<BankDetailsTable>
}

/** Any real change goes back to pending: a new version, every approval and rejection cleared. */
const submission = (row: BankDetailsRow | undefined, data: BankEventData) => ({
  ...data.details,
  version: row ? row.version + 1 : 1,
  // Four eyes (issue 19): once details were approved, every later version needs two admins.
  requiresSecondApproval: row ? row.status === 'approved' || row.requiresSecondApproval : false,
  firstApprovedBy: null,
  firstApprovedAt: null,
  requestedAt: data.now,
  approvedAt: null,
  approvedBy: null,
  rejectedAt: null,
  rejectionReason: null,
})

const needsFirstApproval = (row: BankDetailsRow | undefined) =>
  row?.requiresSecondApproval && !row.firstApprovedBy ? null : 'Not the first of two approvals'

export const BANK_TRANSITIONS: readonly BankTransition[] = [
  { event: 'submit', from: ['none'], to: 'pending', action: 'bank_details.submit', set: submission },
  { event: 'resubmit', from: ['pending', 'approved', 'rejected'], to: 'pending', action: 'bank_details.resubmit', set: submission },
  // Changed details approved before: the first admin's approval is recorded, the details stay pending.
  {
    event: 'approve',
    from: ['pending'],
    to: UNCHANGED,
    guard: needsFirstApproval,
    action: 'bank_details.first_approve',
    set: (_, data) => ({ firstApprovedBy: data.adminId, firstApprovedAt: data.now }),
  },
  {
    event: 'approve',
    from: ['pending'],
    to: 'approved',
    action: 'bank_details.approve',
    set: (_, data) => ({ approvedAt: data.now, approvedBy: data.adminId, rejectedAt: null, rejectionReason: null }),
  },
  {
    event: 'reject',
    from: ['pending'],
    to: 'rejected',
    guard: (_, data) => (data.reason?.trim() ? null : 'Please provide a rejection reason'),
    action: 'bank_details.reject',
    set: (_, data) => ({
      rejectedAt: data.now,
      rejectionReason: data.reason,
      approvedAt: null,
      approvedBy: null,
      firstApprovedBy: null,
      firstApprovedAt: null,
    }),
  },
]

export type BankDecision = { rule: BankTransition; to: BankState }

const VERBS: Record<BankEvent, string> = { submit: 'submitted', resubmit: 'resubmitted', approve: 'approved', reject: 'rejected' }

/** The rule `event` follows for these details (undefined: none on file), or the 409 that refuses it. */
export function decideBankDetails(row: BankDetailsRow | undefined, event: BankEvent, data: BankEventData): BankDecision {
  const state: BankState = row?.status ?? 'none'
  const decision = decide(BANK_TRANSITIONS, event, state, row, data)
  if (decision.ok) return decision
  if (decision.reason === 'guard') throw new AppError(409, decision.message)
  throw new AppError(
    409,
    `These bank details are ${state}, not ${decision.allowed.join(' or ')}: only ${decision.allowed.join(' or ')} details can be ${VERBS[event]}`,
  )
}
