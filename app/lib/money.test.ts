import { describe, expect, it } from 'vitest'
import { dollarsToCents, formatCents, splitFee } from './money.ts'

describe('splitFee', () => {
  it.each([
    [1, 0, 1],
    [3, 0, 3],
    [7, 1, 6],
    [10, 2, 8],
    [33, 5, 28],
    [99999, 15000, 84999],
    [4900, 735, 4165],
  ])('%i cents → fee %i, seller %i', (amount, fee, seller) => {
    expect(splitFee(amount)).toEqual({ amountCents: amount, applicationFeeCents: fee, sellerShareCents: seller })
  })

  it('refuses amounts that are not positive integers', () => {
    expect(() => splitFee(0)).toThrow(RangeError)
    expect(() => splitFee(1.5)).toThrow(RangeError)
  })
})

describe('formatting', () => {
  it('shows dollars with two decimals', () => {
    expect(formatCents(4900)).toBe('$49.00')
    expect(formatCents(1)).toBe('$0.01')
  })
  it('rounds typed dollars to cents', () => {
    expect(dollarsToCents(0.01)).toBe(1)
    expect(dollarsToCents(19.999)).toBe(2000)
    expect(dollarsToCents(12.34)).toBe(1234)
    expect(dollarsToCents(0.1 + 0.2)).toBe(30)
  })
})
