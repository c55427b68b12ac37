import type { Selectable, Updateable } from 'kysely'
import type { PayoutBatches } from '../../../db/schema.generated.ts'
import { AppError } from './errors.server.ts'
import { decide, type Rule } from './state-machine.server.ts'

/**
 * The payout batch machine (issue 19, docs/decisions/021): which event moves a batch from which
 * state to which, and what it writes. The runner (`applyBatchEvent` in payout-batches.server.ts)
 * locks the batch, asks `decideBatch`, writes with a `WHERE status = <from>` guard, audits and runs
 * the entry effects (a sent batch pays its sellers; a cancelled one frees its sales).
 *
 *   draft ──approve (another admin)──▶ approved ──export──▶ exported ──send (bank reference)──▶ sent ──reconcile──▶ reconciled
 *     │  └── a single payout (Mark as Paid): approve ──▶ sent
 *     └──────────── cancel ◀───────────────┘ (draft or approved; never after export)
 *
 * A batch is born draft when an admin prepares it (an INSERT, audited as payout_batch.prepare).
 * Pure: unit-tested in payout-batch-transitions.test.ts.
 */

export type PayoutBatch = Selectable<PayoutBatches>
export type PayoutBatchStatus = PayoutBatch['status']
export type BatchEvent = 'approve' | 'export' | 'send' | 'reconcile' | 'cancel'

export interface BatchEventData {
  adminId: string
  now: Date
  reason?: string | null
  /** send: the bank's reference for the transfer. */
  bankReference?: string
  /** approve (a batch with a file): who pays, and the SHA-256 of the files approved. */
  approval?: { debtorName: string; debtorIban: string; debtorBic: string; xmlSha256: string | null; csvSha256: string | null }
}

export interface BatchTransition extends Rule<BatchEvent, PayoutBatchStatus, PayoutBatch, BatchEventData> {
  /** The audit row's action. */
  action: string
  /** The refusal's verb: "only a draft batch can be <verb>". */
  verb: string
  set: (batch: PayoutBatch, data: BatchEventData) => Updateable<PayoutBatches>
}

const kindIs = (kind: PayoutBatch['kind']) => (batch: PayoutBatch) => (batch.kind === kind ? null : `Not a ${kind} payout`)

export const BATCH_TRANSITIONS: readonly BatchTransition[] = [
  // A single payout carries its reference from the first admin: the second admin's approval sends it.
  {
    event: 'approve',
    from: ['draft'],
    to: 'sent',
    guard: kindIs('single'),
    action: 'payout_batch.approve',
    verb: 'approved',
    set: (_, data) => ({ approvedBy: data.adminId, approvedAt: data.now, sentBy: data.adminId, sentAt: data.now }),
  },
  {
    event: 'approve',
    from: ['draft'],
    to: 'approved',
    guard: kindIs('batch'),
    action: 'payout_batch.approve',
    verb: 'approved',
    set: (_, data) => ({ approvedBy: data.adminId, approvedAt: data.now, ...data.approval }),
  },
  {
    event: 'export',
    from: ['approved'],
    to: 'exported',
    action: 'payout_batch.export',
    verb: 'exported',
    set: (_, data) => ({ exportedBy: data.adminId, exportedAt: data.now }),
  },
  {
    event: 'send',
    from: ['exported'],
    to: 'sent',
    guard: (_, data) => (data.bankReference ? null : 'Payment reference is required'),
    action: 'payout_batch.sent',
    verb: 'marked as sent',
    set: (_, data) => ({ bankReference: data.bankReference, sentBy: data.adminId, sentAt: data.now }),
  },
  {
    event: 'reconcile',
    from: ['sent'],
    to: 'reconciled',
    action: 'payout_batch.reconcile',
    verb: 'reconciled',
    set: (_, data) => ({ reconciledBy: data.adminId, reconciledAt: data.now }),
  },
  {
    event: 'cancel',
    from: ['draft', 'approved'],
    to: 'cancelled',
    action: 'payout_batch.cancel',
    verb: 'cancelled',
    set: (_, data) => ({ cancelledBy: data.adminId, cancelledAt: data.now, cancelReason: data.reason ?? null }),
  },
]

export type BatchDecision = { rule: BatchTransition; to: PayoutBatchStatus }

/** The rule `event` follows for this batch, or the 409 that refuses it. */
export function decideBatch(batch: PayoutBatch, event: BatchEvent, data: BatchEventData): BatchDecision {
  const decision = decide(BATCH_TRANSITIONS, event, batch.status, batch, data)
  if (decision.ok) return decision
  if (decision.reason === 'guard') throw new AppError(409, decision.message)
  const { allowed } = decision
  const verb = BATCH_TRANSITIONS.find((rule) => rule.event === event)!.verb
  // "an approved", "an exported" (it said "a exported" before issue 27.4), "a draft or approved".
  const article = /^[aeiou]/.test(allowed[0]!) ? 'an' : 'a'
  throw new AppError(409, `This payout batch is ${batch.status}: only ${article} ${allowed.join(' or ')} batch can be ${verb}`)
}
