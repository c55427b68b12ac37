import { describe, expect, it } from 'vitest'
import { decide, orList, UNCHANGED, type Rule } from './state-machine.server.ts'

type State = 'open' | 'shut' | 'gone'
type Lock = Rule<'close' | 'touch' | 'drop', State, { locked: boolean }, { force?: boolean }>

const RULES: Lock[] = [
  { event: 'close', from: ['open'], to: 'shut', guard: (row) => (row.locked ? 'Locked' : null) },
  { event: 'close', from: ['open'], to: 'gone', guard: (_, data) => (data.force ? null : 'Not forced') },
  { event: 'touch', from: ['open', 'shut'], to: UNCHANGED },
  { event: 'drop', from: ['shut', 'open'], to: 'gone' },
]

const run = (event: Lock['event'], state: State, row: { locked: boolean }, data: { force?: boolean }) =>
  decide(RULES, event, state, row, data)

describe('decide (the rule an event follows)', () => {
  it('takes the first rule from the state whose guard lets it through; UNCHANGED keeps the state', () => {
    expect(run('close', 'open', { locked: false }, {})).toEqual({ ok: true, rule: RULES[0], to: 'shut' })
    expect(run('close', 'open', { locked: true }, { force: true })).toEqual({ ok: true, rule: RULES[1], to: 'gone' })
    expect(run('touch', 'shut', { locked: false }, {})).toMatchObject({ ok: true, to: 'shut' })
  })

  it("refuses with the last guard's message, or with the states the event fires from", () => {
    expect(run('close', 'open', { locked: true }, {})).toEqual({ ok: false, reason: 'guard', message: 'Not forced' })
    expect(run('close', 'gone', { locked: false }, {})).toEqual({ ok: false, reason: 'state', allowed: ['open'] })
    expect(run('drop', 'gone', { locked: false }, {})).toEqual({ ok: false, reason: 'state', allowed: ['shut', 'open'] })
  })

  it('throws on an event the table does not have (a programming error, not a refusal)', () => {
    expect(() => run('melt' as 'drop', 'open', { locked: false }, {})).toThrow('Unknown event melt')
  })

  it('lists states as prose', () => {
    expect([orList(['paid']), orList(['a', 'b']), orList(['a', 'b', 'c'])]).toEqual(['paid', 'a or b', 'a, b or c'])
  })
})
