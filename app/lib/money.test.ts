import { describe, expect, it } from 'vitest'
import { dollarsToCents, formatCents, parseDollarsToCents, splitFee } from './money.ts'

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

describe('dollar text to cents', () => {
  it('reads plain decimals exactly, rounding half up on the third decimal', () => {
    expect(parseDollarsToCents('49')).toBe(4900)
    expect(parseDollarsToCents(' 49.9 ')).toBe(4990)
    expect(parseDollarsToCents('12.345')).toBe(1235)
    expect(parseDollarsToCents('0.004')).toBe(0)
    expect(parseDollarsToCents('0.005')).toBe(1)
    expect(parseDollarsToCents('.5')).toBe(50)
    expect(parseDollarsToCents('7.')).toBe(700)
    expect(parseDollarsToCents('-1.5')).toBe(-150)
    expect(parseDollarsToCents('999999.99')).toBe(99_999_999)
  })
  it('is not fooled by what Number() accepts (issue 14.8)', () => {
    for (const text of ['0x10', '1e3', 'Infinity', '', ' ', '1,000', '$5', '0b11', '12.3.4', '--1']) {
      expect(parseDollarsToCents(text), text).toBeNull()
    }
  })
})
