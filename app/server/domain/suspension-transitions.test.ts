import { describe, expect, it } from 'vitest'
import { decideSuspension } from './suspension-transitions.server.ts'

const now = new Date('2026-12-01T10:00:00Z')

describe('the suspension machine', () => {
  it('needs a reason to request, and a second admin to approve', () => {
    expect(decideSuspension(undefined, 'request', { now, adminId: 'a', reason: 'Fraud' }).to).toBe('requested')
    expect(() => decideSuspension(undefined, 'request', { now, adminId: 'a', reason: ' ' })).toThrow('Write the reason')
    const requested = { status: 'requested' as const, requestedBy: 'a' }
    expect(() => decideSuspension(requested, 'approve', { now, adminId: 'a' })).toThrow(
      'A second admin must approve a suspension you requested',
    )
    expect(decideSuspension(requested, 'approve', { now, adminId: 'b' }).to).toBe('active')
    expect(() => decideSuspension(requested, 'request', { now, adminId: 'b', reason: 'x' })).toThrow(/awaiting a second admin/)
  })

  it('lifts an active suspension, cancels a request; a lifted one is no longer open', () => {
    const active = { status: 'active' as const, requestedBy: 'a' }
    expect(decideSuspension(active, 'lift', { now, adminId: 'a', reason: 'Appeal' }).to).toBe('none')
    expect(() => decideSuspension(active, 'cancel', { now, adminId: 'a', reason: 'x' })).toThrow(/suspended, not awaiting/)
    expect(decideSuspension({ status: 'requested', requestedBy: 'a' }, 'cancel', { now, adminId: 'a', reason: 'Mistake' }).to).toBe('none')
    expect(() => decideSuspension({ status: 'lifted', requestedBy: 'a' }, 'lift', { now, adminId: 'a', reason: 'x' })).toThrow(
      /not suspended/,
    )
  })
})
