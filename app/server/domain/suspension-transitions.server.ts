import type { Updateable } from 'kysely'
import type { DB } from '../../../db/schema.ts'
import { AppError } from './errors.server.ts'
import { decide, orList, type Rule } from './state-machine.server.ts'

/**
 * The suspension machine (issue 30, docs/decisions/030): one admin requests, a different admin
 * approves (four eyes, as payout batches: also a CHECK in migration 0021), any admin lifts an
 * active suspension or cancels a request. The runner (`applySuspensionEvent` in
 * suspensions.server.ts) locks the user's open suspension, asks `decideSuspension`, writes with a
 * `WHERE status = <from>` guard, hides or shows the user's listings and audits.
 *
 *   none ──request (admin, a reason)──▶ requested ──approve (another admin)──▶ active ──lift──▶ lifted
 *                                          └──cancel──▶ cancelled
 *
 * Pure: unit-tested in suspension-transitions.test.ts.
 */
export type SuspensionStatus = 'requested' | 'active' | 'lifted' | 'cancelled'
export type SuspensionState = 'none' | 'requested' | 'active'
export type SuspensionEvent = 'request' | 'approve' | 'cancel' | 'lift'

export interface SuspensionRow {
  status: SuspensionStatus
  requestedBy: string
}

export interface SuspensionEventData {
  now: Date
  adminId: string
  /** request: why (kept, shown to the second admin); cancel, lift: the admin's note. */
  reason?: string
}

export interface SuspensionTransition extends Rule<SuspensionEvent, SuspensionState, SuspensionRow | undefined, SuspensionEventData> {
  action: string
  set: (data: SuspensionEventData) => Omit<Updateable<DB['userSuspensions']>, 'id' | 'userId' | 'status'>
}

const needsReason = (_: unknown, data: SuspensionEventData) => (data.reason?.trim() ? null : 'Write the reason')

export const SUSPENSION_TRANSITIONS: readonly SuspensionTransition[] = [
  {
    event: 'request',
    from: ['none'],
    to: 'requested',
    action: 'user.suspension_requested',
    guard: needsReason,
    set: (data) => ({ reason: data.reason, requestedBy: data.adminId, requestedAt: data.now }),
  },
  {
    event: 'approve',
    from: ['requested'],
    to: 'active',
    action: 'user.suspended',
    guard: (row, data) => (row?.requestedBy === data.adminId ? 'A second admin must approve a suspension you requested' : null),
    set: (data) => ({ approvedBy: data.adminId, approvedAt: data.now }),
  },
  {
    event: 'cancel',
    from: ['requested'],
    to: 'none',
    action: 'user.suspension_cancelled',
    guard: needsReason,
    set: (data) => ({ endedBy: data.adminId, endedAt: data.now, endReason: data.reason }),
  },
  {
    event: 'lift',
    from: ['active'],
    to: 'none',
    action: 'user.suspension_lifted',
    guard: needsReason,
    set: (data) => ({ endedBy: data.adminId, endedAt: data.now, endReason: data.reason }),
  },
]

const WORDS: Record<SuspensionState, string> = { none: 'not suspended', requested: 'awaiting a second admin', active: 'suspended' }

/** The rule `event` follows for the user's open suspension (undefined: none), or the 409 that refuses it. */
export function decideSuspension(row: SuspensionRow | undefined, event: SuspensionEvent, data: SuspensionEventData) {
  const state: SuspensionState = row && (row.status === 'requested' || row.status === 'active') ? row.status : 'none'
  const decision = decide(SUSPENSION_TRANSITIONS, event, state, row, data)
  if (decision.ok) return { ...decision, from: state }
  if (decision.reason === 'guard') throw new AppError(decision.message.startsWith('A second admin') ? 409 : 400, decision.message)
  throw new AppError(409, `This user is ${WORDS[state]}, not ${orList(decision.allowed.map((s) => WORDS[s]))}`)
}
