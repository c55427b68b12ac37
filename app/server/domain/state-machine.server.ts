/**
 * The shape every state machine of the app shares (design.md §5; style.md "Modules, machines and
 * transactions"): a table of rules — the event, the states it may fire from, its next state (or
 * UNCHANGED: the row changes, its state does not), a guard on the locked row — and `decide`, which
 * picks the rule an event follows. Each machine's runner (escrow.server.ts, payout-batches.server.ts,
 * bank-details.server.ts) locks its row, asks `decide`, writes the row with a `WHERE state = <from>`
 * guard, audits and runs its effects; the refusal texts are each machine's own.
 *
 * Nothing here touches the database, so each table is unit-tested on its own.
 */

/** The row's state stays as it is; only its other fields change (or nothing does: a recorded fact). */
export const UNCHANGED = 'unchanged'

export interface Rule<E extends string, S extends string, Row, Data> {
  event: E
  from: readonly S[]
  to: S | typeof UNCHANGED
  /** Checked after the state, on the locked row: null lets the event through, a message refuses it. */
  guard?: (row: Row, data: Data) => string | null
}

export type Decision<R, S extends string> =
  | { ok: true; rule: R; to: S }
  /** No rule of the event fires from this state; `allowed` are the states it fires from. */
  | { ok: false; reason: 'state'; allowed: S[] }
  /** A rule fires from this state, but its guard (the last one tried) refused. */
  | { ok: false; reason: 'guard'; message: string }

/**
 * The rule `event` follows from `state`: the first of its rules from that state whose guard lets
 * it through (an event may have several, e.g. a payment that matches the sale and one that does not).
 */
export function decide<E extends string, S extends string, Row, Data, R extends Rule<E, S, Row, Data>>(
  rules: readonly R[],
  event: E,
  state: S,
  row: Row,
  data: Data,
): Decision<R, S> {
  const ofEvent = rules.filter((rule) => rule.event === event)
  if (ofEvent.length === 0) throw new Error(`Unknown event ${event}`)
  const candidates = ofEvent.filter((rule) => rule.from.includes(state))
  if (candidates.length === 0) return { ok: false, reason: 'state', allowed: [...new Set(ofEvent.flatMap((rule) => rule.from))] }
  let message = ''
  for (const rule of candidates) {
    const refusal = rule.guard?.(row, data) ?? null
    if (refusal === null) return { ok: true, rule, to: rule.to === UNCHANGED ? state : rule.to }
    message = refusal
  }
  return { ok: false, reason: 'guard', message }
}

/** "paid", "disputed or paid", "disputed, paid or held". */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}
