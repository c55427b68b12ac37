import { describe, expect, it } from 'vitest'
import type { TransactionStatus } from '../../db/schema.ts'
import { isPayoutDue, payoutBlocker, PAYOUTS_HELD_MESSAGE, sellerMayBePaid } from './payouts.ts'

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
          for (const suspended of [false, true]) {
            const blocker = payoutBlocker({ status, paidAt }, { bankStatus: bank, suspended })
            expect(blocker === null, `${status} ${paidAt} ${bank} ${suspended}`).toBe(
              isPayoutDue({ status, paidAt }) && bank === 'approved' && !suspended,
            )
          }
        }
      }
    }
    expect(payoutBlocker({ status: 'completed', paidAt: null }, { bankStatus: 'pending', suspended: false })).toBe(
      "The seller's bank details are pending, not approved",
    )
    expect(payoutBlocker({ status: 'completed', paidAt: null }, { bankStatus: 'approved', suspended: true })).toBe(PAYOUTS_HELD_MESSAGE)
  })

  it('a seller may be paid only with approved bank details (pending ones may sell, not be paid)', () => {
    expect(
      [null, undefined, 'pending', 'approved', 'rejected'].map((s) => sellerMayBePaid({ bankStatus: s as never, suspended: false })),
    ).toEqual([false, false, false, true, false])
    // Issue 30: a suspended seller is not paid, approved details or not.
    expect(sellerMayBePaid({ bankStatus: 'approved', suspended: true })).toBe(false)
  })
})
