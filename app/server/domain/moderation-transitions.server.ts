import type { Updateable } from 'kysely'
import type { ReportReason } from '~/lib/report-schema'
import type { DB } from '../../../db/schema.ts'
import { AppError } from './errors.server.ts'
import { decide, orList, type Rule } from './state-machine.server.ts'

/**
 * The takedown machine (issue 30, docs/decisions/030): which event moves a listing's takedown from
 * which state to which, who fires it and what it writes. The runner (`applyTakedownEvent` in
 * moderation.server.ts) locks the listing and its takedown in force, asks `decideTakedown`, writes
 * with a `WHERE status = <from>` guard, sets the listing's visibility, audits and closes the reports.
 *
 *   none ──take_down (admin, a reason the seller sees)──▶ hidden
 *   hidden ──counter_notice (the seller, once)──▶ contested ──uphold (admin)──▶ upheld
 *   hidden | contested | upheld ──restore (admin)──▶ restored (the listing as visible as before)
 *
 * `none`: no takedown of the listing is in force (never taken down, or restored). Pure: unit-tested
 * in moderation-transitions.test.ts.
 */
export type TakedownStatus = 'hidden' | 'contested' | 'upheld' | 'restored'
export type TakedownState = Exclude<TakedownStatus, 'restored'> | 'none' | 'restored'
export type TakedownEvent = 'take_down' | 'counter_notice' | 'uphold' | 'restore'

/** The columns the machine writes (the generated row type, narrowed to what the table holds). */
export type TakedownWrite = Omit<Updateable<DB['listingTakedowns']>, 'id' | 'listingId' | 'status'>

export interface TakedownRow {
  id: string
  status: TakedownStatus
  counterNotice: string | null
}

export interface TakedownEventData {
  now: Date
  actorId: string
  /** take_down: why, in the report reasons' terms. */
  category?: ReportReason
  /** take_down: the reason the seller sees; uphold, restore: the admin's note. */
  reason?: string
  /** counter_notice: the seller's answer. */
  counterNotice?: string
}

export interface TakedownTransition extends Rule<TakedownEvent, TakedownState, TakedownRow | undefined, TakedownEventData> {
  who: 'admin' | 'seller'
  /** The audit row's action. */
  action: string
  set: (data: TakedownEventData) => TakedownWrite
}

const needs = (field: keyof TakedownEventData, message: string) => (_: unknown, data: TakedownEventData) =>
  typeof data[field] === 'string' && (data[field] as string).trim() ? null : message

export const TAKEDOWN_TRANSITIONS: readonly TakedownTransition[] = [
  {
    event: 'take_down',
    from: ['none', 'restored'],
    to: 'hidden',
    who: 'admin',
    action: 'listing.take_down',
    guard: (row, data) => needs('reason', 'Write the reason the seller will see')(row, data) ?? (data.category ? null : 'Choose a reason'),
    set: (data) => ({ category: data.category, reason: data.reason, takenDownBy: data.actorId, takenDownAt: data.now }),
  },
  {
    event: 'counter_notice',
    from: ['hidden'],
    to: 'contested',
    who: 'seller',
    action: 'listing.counter_notice',
    // Once per takedown: a contested or decided takedown already has its answer.
    guard: (row, data) =>
      row?.counterNotice
        ? 'You have already answered this takedown'
        : needs('counterNotice', 'Explain why the listing should be restored')(row, data),
    set: (data) => ({ counterNotice: data.counterNotice, counterNoticedAt: data.now }),
  },
  {
    event: 'uphold',
    from: ['contested'],
    to: 'upheld',
    who: 'admin',
    action: 'listing.takedown_upheld',
    guard: needs('reason', 'Write a short note for the record'),
    set: (data) => ({ decidedBy: data.actorId, decidedAt: data.now, decisionReason: data.reason }),
  },
  {
    event: 'restore',
    from: ['hidden', 'contested', 'upheld'],
    to: 'restored',
    who: 'admin',
    action: 'listing.restore',
    guard: needs('reason', 'Write a short note for the record'),
    set: (data) => ({ decidedBy: data.actorId, decidedAt: data.now, decisionReason: data.reason }),
  },
]

export type TakedownDecision = { rule: TakedownTransition; to: TakedownState }

const STATE_WORDS: Record<TakedownState, string> = {
  none: 'not taken down',
  hidden: 'taken down',
  contested: 'answered by its seller',
  upheld: 'upheld',
  restored: 'restored',
}

/** The rule `event` follows for the listing's takedown in force (undefined: none), or the 409 that refuses it. */
export function decideTakedown(row: TakedownRow | undefined, event: TakedownEvent, data: TakedownEventData): TakedownDecision {
  const state: TakedownState = row?.status ?? 'none'
  const decision = decide(TAKEDOWN_TRANSITIONS, event, state, row, data)
  if (decision.ok) return decision
  if (decision.reason === 'guard') throw new AppError(decision.message.startsWith('You have already') ? 409 : 400, decision.message)
  throw new AppError(409, `This listing is ${STATE_WORDS[state]}, not ${orList(decision.allowed.map((s) => STATE_WORDS[s]))}`)
}
