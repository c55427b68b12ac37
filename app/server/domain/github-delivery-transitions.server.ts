import type { Selectable, Updateable } from 'kysely'
import type { GithubDeliveriesTable, GithubDelivery, GithubDeliveryState, GithubWaitingOn } from '../../../db/schema.ts'
import { decide, UNCHANGED, type Rule } from './state-machine.server.ts'

/**
 * The GitHub delivery machine (issue 16, docs/decisions/015-github-delivery.md): which event moves
 * a sale's delivery row from which state to which, and what it writes. The sale's own state moves
 * through the escrow table (github_delivery_started, access_confirmed, delivery_failed); this row
 * keeps GitHub's side of it. The runner (`applyDeliveryEvent` in github-delivery-steps.server.ts)
 * locks the row, asks `decideDelivery`, writes with a `WHERE state = <from>` guard; a refusal writes
 * nothing (the step that asked finds the delivery moved on, as a guarded UPDATE affecting no row).
 * The audit rows are the sale's: the escrow events, and the steps' own (invitation sent, queued,
 * access revoked) written beside the event.
 *
 *   queued ──invitation_sent──▶ invited ──access_confirmed──▶ accepted
 *     │  └────────────── access_confirmed (the buyer already had access) ──────────▲
 *     └──▶ delivery_failed (14 days, GitHub refused, repository lost) ◀── invited
 *   queued, invited, accepted, failed ──revoked (refund before completion)──▶ revoked
 *   recorded beside the state: invitation_waiting, buyer_connected, attempt_failed (queued), invitation_resent (invited),
 *   fork_recorded (invited, accepted), error_recorded (any but revoked)
 *
 * A delivery is born queued at payment (the INSERT in `beginGithubDelivery`, github-delivery.server.ts).
 * Pure: unit-tested in github-delivery-transitions.test.ts.
 */

export type DeliveryEvent =
  | 'invitation_sent'
  | 'invitation_resent'
  | 'invitation_waiting'
  | 'buyer_connected'
  | 'attempt_failed'
  | 'error_recorded'
  | 'access_confirmed'
  | 'fork_recorded'
  | 'delivery_failed'
  | 'revoked'

export interface DeliveryEventData {
  now: Date
  /** invitation_sent, attempt_failed, invitation_waiting, access_confirmed: the attempts made so far. */
  attempts?: number
  /** invitation_sent, invitation_resent: the buyer's current login and the invitation GitHub created. */
  login?: string
  invitation?: { id: number; html_url: string }
  /** invitation_sent, access_confirmed: the buyer's GitHub account. */
  buyerGithubId?: number | null
  /** invitation_waiting: what the invitation waits on, until when. */
  waitingOn?: GithubWaitingOn
  retryAt?: Date
  /** What went wrong (attempt_failed: kept as it was when absent). */
  error?: string
  /** access_confirmed: the buyer as GitHub knows them, when they were invited, the head of the default branch now. */
  buyerLogin?: string | null
  invitedAt?: Date
  head?: { sha: string; date: Date | null }
  /** fork_recorded: the buyer's fork. */
  forkUrl?: string
  /** revoked: what was done on GitHub. */
  revocation?: NonNullable<Selectable<GithubDeliveriesTable>['revocation']>
}

export interface DeliveryTransition extends Rule<DeliveryEvent, GithubDeliveryState, GithubDelivery, DeliveryEventData> {
  /** What it writes besides the state (the runner adds `updatedAt`). */
  set: (delivery: GithubDelivery, data: DeliveryEventData) => Updateable<GithubDeliveriesTable>
}

/** Waiting on nothing any more: the invitation left the queue. */
const OUT_OF_QUEUE = { waitingOn: null, nextAttemptAt: null } as const

/** An invitation GitHub created (sent, or sent again): who, and which invitation. */
const invitationOf = (data: DeliveryEventData) => ({
  buyerLogin: data.login,
  invitationId: data.invitation!.id,
  invitationUrl: data.invitation!.html_url,
  lastError: null,
})

export const DELIVERY_TRANSITIONS: readonly DeliveryTransition[] = [
  {
    event: 'invitation_sent',
    from: ['queued'],
    to: 'invited',
    set: (_, data) => ({
      ...invitationOf(data),
      buyerGithubId: data.buyerGithubId,
      invitedAt: data.now,
      attempts: data.attempts,
      ...OUT_OF_QUEUE,
    }),
  },
  // An invitation GitHub expired (7 days), or the buyer declined: sent again, once (the sweep).
  {
    event: 'invitation_resent',
    from: ['invited'],
    to: UNCHANGED,
    set: (delivery, data) => ({ ...invitationOf(data), resendCount: delivery.resendCount + 1, resentAt: data.now }),
  },
  // GitHub's limits, or the buyer without a GitHub account: the invitation job tries again at `retryAt`.
  {
    event: 'invitation_waiting',
    from: ['queued'],
    to: UNCHANGED,
    set: (_, data) => ({ attempts: data.attempts, waitingOn: data.waitingOn, nextAttemptAt: data.retryAt, lastError: data.error }),
  },
  // The buyer connected the GitHub account the invitation waited on (`connectGithubAccount`): it goes now.
  {
    event: 'buyer_connected',
    from: ['queued'],
    to: UNCHANGED,
    guard: (delivery) => (delivery.waitingOn === 'buyer_github' ? null : 'The delivery does not wait on the buyer’s GitHub account'),
    set: (_, data) => ({ nextAttemptAt: data.now }),
  },
  // An attempt that ends the delivery (delivery_failed, or the repository lost) still counts.
  {
    event: 'attempt_failed',
    from: ['queued'],
    to: UNCHANGED,
    set: (delivery, data) => ({ attempts: data.attempts, lastError: data.error ?? delivery.lastError }),
  },
  // A GitHub error while polling or revoking, tried again later.
  {
    event: 'error_recorded',
    from: ['queued', 'invited', 'accepted', 'failed'],
    to: UNCHANGED,
    set: (_, data) => ({ lastError: data.error }),
  },
  // The escrow machine's access_confirmed moved the sale to delivered first: this is its proof.
  {
    event: 'access_confirmed',
    from: ['queued', 'invited'],
    to: 'accepted',
    set: (_, data) => ({
      buyerGithubId: data.buyerGithubId,
      buyerLogin: data.buyerLogin,
      invitedAt: data.invitedAt,
      acceptedAt: data.now,
      deliveredSha: data.head!.sha,
      deliveredShaDate: data.head!.date,
      attempts: data.attempts,
      ...OUT_OF_QUEUE,
      lastError: null,
    }),
  },
  {
    event: 'fork_recorded',
    from: ['invited', 'accepted'],
    to: UNCHANGED,
    set: (_, data) => ({ forkUrl: data.forkUrl, forkedAt: data.now }),
  },
  // The escrow machine's delivery_failed moved the sale to the admin's queue first.
  {
    event: 'delivery_failed',
    from: ['queued', 'invited'],
    to: 'failed',
    set: (_, data) => ({ lastError: data.error, ...OUT_OF_QUEUE }),
  },
  // A refund before completion; after completion access is never revoked (github-revocation.server.ts).
  {
    event: 'revoked',
    from: ['queued', 'invited', 'accepted', 'failed'],
    to: 'revoked',
    set: (_, data) => ({ revokedAt: data.now, revocation: data.revocation, ...OUT_OF_QUEUE }),
  },
]

export type DeliveryDecision = { ok: true; rule: DeliveryTransition; to: GithubDeliveryState } | { ok: false }

/** The rule `event` follows for this delivery, or a refusal (the delivery is not in a state the event fires from). */
export function decideDelivery(delivery: GithubDelivery, event: DeliveryEvent, data: DeliveryEventData): DeliveryDecision {
  const decision = decide(DELIVERY_TRANSITIONS, event, delivery.state, delivery, data)
  return decision.ok ? decision : { ok: false }
}
