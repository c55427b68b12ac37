import { describe, expect, it } from 'vitest'
import { decideTakedown, type TakedownRow } from './moderation-transitions.server.ts'

const now = new Date('2026-12-01T10:00:00Z')
const row = (status: TakedownRow['status'], counterNotice: string | null = null): TakedownRow => ({ id: 't1', status, counterNotice })

describe('the takedown machine', () => {
  it('takes a listing down only when no takedown is in force, with a category and a reason', () => {
    expect(decideTakedown(undefined, 'take_down', { now, actorId: 'a', category: 'copyright', reason: 'Copied from X' }).to).toBe('hidden')
    expect(() => decideTakedown(undefined, 'take_down', { now, actorId: 'a', category: 'copyright', reason: '  ' })).toThrow(
      'Write the reason the seller will see',
    )
    expect(() => decideTakedown(row('hidden'), 'take_down', { now, actorId: 'a', category: 'spam', reason: 'x' })).toThrow(
      'This listing is taken down, not not taken down or restored',
    )
  })

  it('lets the seller answer once, and the admin decide again', () => {
    const notice = { now, actorId: 's', counterNotice: 'I wrote it; here is the commit history.' }
    expect(decideTakedown(row('hidden'), 'counter_notice', notice).to).toBe('contested')
    expect(() => decideTakedown(row('contested', 'first'), 'counter_notice', notice)).toThrow(/not taken down$/)
    expect(() => decideTakedown(row('upheld', 'first'), 'counter_notice', notice)).toThrow(/upheld/)
    expect(decideTakedown(row('contested', 'first'), 'uphold', { now, actorId: 'a', reason: 'Still infringing' }).to).toBe('upheld')
    expect(() => decideTakedown(row('hidden'), 'uphold', { now, actorId: 'a', reason: 'x' })).toThrow(/answered by its seller/)
    for (const status of ['hidden', 'contested', 'upheld'] as const) {
      expect(decideTakedown(row(status, 'n'), 'restore', { now, actorId: 'a', reason: 'Licence shown' }).to).toBe('restored')
    }
    expect(() => decideTakedown(undefined, 'restore', { now, actorId: 'a', reason: 'x' })).toThrow(/not taken down/)
  })
})
