import { describe, expect, it } from 'vitest'
import type { TransactionStatus } from '../../db/schema.ts'
import { isPayoutDue, payoutBlocker, sellerMayBePaid } from './payouts.ts'

const STATUSES: TransactionStatus[] = ['pending_payment', 'failed', 'paid', 'delivered', 'disputed', 'completed', 'refunded']

describe('payout rules', () => {
  it('a payout is due only for a completed sale not yet paid out', () => {
    for (const status of STATUSES) {
      expect(isPayoutDue({ status, paidAt: null }), status).toBe(status === 'completed')
      expect(isPayoutDue({ status, paidAt: new Date() }), status).toBe(false)
    }
  })

  it('a payout can be recorded exactly when it is due and the bank details are approved', () => {
    for (const status of STATUSES) {
      for (const paidAt of [null, new Date()]) {
        for (const bank of [null, 'pending', 'approved', 'rejected'] as const) {
          const blocker = payoutBlocker({ status, paidAt }, bank)
          expect(blocker === null, `${status} ${paidAt} ${bank}`).toBe(isPayoutDue({ status, paidAt }) && bank === 'approved')
        }
      }
    }
    expect(payoutBlocker({ status: 'completed', paidAt: null }, 'pending')).toBe("The seller's bank details are pending, not approved")
  })

  it('a seller may be paid only with approved bank details (pending ones may sell, not be paid)', () => {
    expect([null, undefined, 'pending', 'approved', 'rejected'].map((s) => sellerMayBePaid(s as never))).toEqual([
      false,
      false,
      false,
      true,
      false,
    ])
  })
})
