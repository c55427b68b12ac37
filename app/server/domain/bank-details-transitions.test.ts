import { describe, expect, it } from 'vitest'
import type { BankDetailsRow, BankDetailsStatus } from '../../../db/schema.ts'
import { BANK_TRANSITIONS, decideBankDetails, type BankEventData, type BankState } from './bank-details-transitions.server.ts'
import { UNCHANGED } from './state-machine.server.ts'

const NOW = new Date('2026-03-01T12:00:00Z')
const ADMIN = '00000000-0000-4000-8000-00000000000a'
const OTHER_ADMIN = '00000000-0000-4000-8000-00000000000b'

function row(status: BankDetailsStatus, fields: Partial<BankDetailsRow> = {}): BankDetailsRow {
  return {
    userId: '00000000-0000-4000-8000-000000000001',
    status,
    version: 3,
    requiresSecondApproval: false,
    firstApprovedBy: null,
    ...fields,
  } as BankDetailsRow
}

const rowIn = (state: BankState, fields: Partial<BankDetailsRow> = {}) => (state === 'none' ? undefined : row(state, fields))
const DATA: BankEventData = {
  now: NOW,
  adminId: ADMIN,
  reason: 'Name does not match',
  details: { country: 'GB', accountHolder: 'Ada', bankName: 'Monzo' },
}

/** Rows whose guard needs a particular row: the first of two approvals needs changed, not yet first-approved details. */
const FIELDS: Record<string, Partial<BankDetailsRow>> = { 'bank_details.first_approve': { requiresSecondApproval: true } }

describe('the bank details table (issue 27.4)', () => {
  for (const rule of BANK_TRANSITIONS) {
    for (const from of rule.from) {
      it(`${rule.action}: ${from} → ${rule.to === UNCHANGED ? from : rule.to}`, () => {
        const decision = decideBankDetails(rowIn(from, FIELDS[rule.action]), rule.event, DATA)
        expect(decision.rule).toBe(rule)
        expect(decision.to).toBe(rule.to === UNCHANGED ? from : rule.to)
      })
    }
  }

  it('refuses an approval or rejection of details that are not pending, with the spec-era text', () => {
    expect(() => decideBankDetails(row('approved'), 'approve', DATA)).toThrow(
      'These bank details are approved, not pending: only pending details can be approved',
    )
    expect(() => decideBankDetails(row('rejected'), 'reject', DATA)).toThrow(
      'These bank details are rejected, not pending: only pending details can be rejected',
    )
    expect(() => decideBankDetails(undefined, 'resubmit', DATA)).toThrow(/^These bank details are none/)
  })

  it('changed details that were approved need two approvals: the first keeps them pending, the second approves', () => {
    const changed = row('pending', { requiresSecondApproval: true })
    expect(decideBankDetails(changed, 'approve', DATA)).toMatchObject({ to: 'pending', rule: { action: 'bank_details.first_approve' } })
    const firstGiven = row('pending', { requiresSecondApproval: true, firstApprovedBy: OTHER_ADMIN })
    expect(decideBankDetails(firstGiven, 'approve', DATA)).toMatchObject({ to: 'approved', rule: { action: 'bank_details.approve' } })
    expect(decideBankDetails(row('pending'), 'approve', DATA).to).toBe('approved')
  })

  it('a submission starts at version 1; a change bumps the version, clears the decisions and, once approved, asks for two admins', () => {
    const [submit, resubmit] = [BANK_TRANSITIONS[0]!, BANK_TRANSITIONS[1]!]
    expect(submit.set(undefined, DATA)).toMatchObject({ version: 1, requiresSecondApproval: false, requestedAt: NOW, country: 'GB' })
    expect(resubmit.set(row('approved'), DATA)).toMatchObject({
      version: 4,
      requiresSecondApproval: true,
      approvedAt: null,
      rejectedAt: null,
    })
    expect(resubmit.set(row('rejected'), DATA)).toMatchObject({ version: 4, requiresSecondApproval: false, rejectionReason: null })
  })

  it('a rejection needs its reason', () => {
    expect(() => decideBankDetails(row('pending'), 'reject', { now: NOW, adminId: ADMIN, reason: ' ' })).toThrow(
      'Please provide a rejection reason',
    )
  })
})
