import { describe, expect, it } from 'vitest'
import {
  BATCH_TRANSITIONS,
  decideBatch,
  type BatchEventData,
  type PayoutBatch,
  type PayoutBatchStatus,
} from './payout-batch-transitions.server.ts'
import { UNCHANGED } from './state-machine.server.ts'

const NOW = new Date('2026-03-01T12:00:00Z')
const ADMIN = '00000000-0000-4000-8000-00000000000a'
const ALL: PayoutBatchStatus[] = ['draft', 'approved', 'exported', 'sent', 'reconciled', 'cancelled']

function batch(status: PayoutBatchStatus, kind: PayoutBatch['kind'] = 'batch'): PayoutBatch {
  return { id: '00000000-0000-4000-8000-000000000001', kind, status, bankReference: null, totalCents: 100 } as PayoutBatch
}

const DATA: BatchEventData = { adminId: ADMIN, now: NOW, bankReference: 'BANK-1', reason: 'Wrong run' }

describe('the payout batch table (issue 27.4)', () => {
  for (const rule of BATCH_TRANSITIONS) {
    for (const from of rule.from) {
      const kind = rule.event === 'approve' && rule.to === 'sent' ? 'single' : 'batch'
      it(`${rule.event} (${kind}): ${from} → ${rule.to}`, () => {
        const decision = decideBatch(batch(from, kind), rule.event, DATA)
        expect(decision.rule).toBe(rule)
        expect(decision.to).toBe(rule.to === UNCHANGED ? from : rule.to)
        expect(rule.set(batch(from, kind), DATA)).not.toHaveProperty('status')
      })
    }
  }

  it('every other state refuses each event with the spec-era text', () => {
    for (const rule of BATCH_TRANSITIONS) {
      for (const state of ALL.filter((s) => !rule.from.includes(s))) {
        expect(() => decideBatch(batch(state), rule.event, DATA), `${rule.event} from ${state}`).toThrow(/^This payout batch is /)
      }
    }
    expect(() => decideBatch(batch('exported'), 'export', DATA)).toThrow(
      'This payout batch is exported: only an approved batch can be exported',
    )
    expect(() => decideBatch(batch('sent'), 'cancel', DATA)).toThrow(
      'This payout batch is sent: only a draft or approved batch can be cancelled',
    )
    expect(() => decideBatch(batch('approved'), 'send', DATA)).toThrow(
      'This payout batch is approved: only an exported batch can be marked as sent',
    )
  })

  it('a single payout is sent by its approval; a batch is approved, then exported and sent', () => {
    expect(decideBatch(batch('draft', 'single'), 'approve', DATA).to).toBe('sent')
    expect(decideBatch(batch('draft', 'batch'), 'approve', DATA).to).toBe('approved')
  })

  it('sending needs the bank reference', () => {
    expect(() => decideBatch(batch('exported'), 'send', { adminId: ADMIN, now: NOW })).toThrow('Payment reference is required')
  })
})
