import { describe, expect, it } from 'vitest'
import {
  averageTenths,
  bayesianScore,
  describeRating,
  formatAverage,
  meetsMinRating,
  PRIOR_MEAN,
  PRIOR_WEIGHT,
  ratingSummary,
} from './ratings'

describe('rating math (decision 018)', () => {
  it('shows the plain mean rounded half up to a tenth, in integers', () => {
    expect(averageTenths({ count: 0, sum: 0 })).toBe(0)
    expect(averageTenths({ count: 1, sum: 5 })).toBe(50)
    expect(averageTenths({ count: 3, sum: 13 })).toBe(43) // 4.333…
    expect(averageTenths({ count: 4, sum: 19 })).toBe(48) // 4.75 rounds up
    expect(averageTenths({ count: 6, sum: 25 })).toBe(42) // 4.1666…
    expect(formatAverage(48)).toBe('4.8')
    expect(formatAverage(50)).toBe('5.0')
  })

  it('one 5-star review does not outrank fifty 4.8s', () => {
    const single = bayesianScore({ count: 1, sum: 5 })
    const fifty = bayesianScore({ count: 50, sum: 240 }) // mean 4.8
    expect(single).toBeLessThan(fifty)
    expect(single).toBe(Math.floor(((PRIOR_WEIGHT * PRIOR_MEAN + 5) * 1_000_000) / (PRIOR_WEIGHT + 1)))
    expect(fifty).toBe(4_727_272)
    // Ten perfect reviews still rank below fifty 4.8s; a hundred 4.9s above them.
    expect(bayesianScore({ count: 10, sum: 50 })).toBeLessThan(fifty)
    expect(bayesianScore({ count: 100, sum: 490 })).toBeGreaterThan(fifty)
  })

  it('moves from the prior towards the listing’s own mean as reviews accumulate', () => {
    const scores = [1, 2, 5, 20, 200].map((count) => bayesianScore({ count, sum: count * 5 }))
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeGreaterThan(scores[i - 1]!)
    expect(scores[0]).toBeGreaterThan(PRIOR_MEAN * 1_000_000)
    expect(bayesianScore({ count: 200, sum: 200 })).toBeGreaterThan(1_000_000)
    expect(bayesianScore({ count: 1, sum: 1 })).toBeLessThan(PRIOR_MEAN * 1_000_000)
  })

  it('puts a listing without reviews after every reviewed one', () => {
    expect(bayesianScore({ count: 0, sum: 0 })).toBe(0)
    expect(bayesianScore({ count: 1000, sum: 1000 })).toBeGreaterThan(0)
    expect(ratingSummary({ count: 0, sum: 0 })).toEqual({ count: 0, averageTenths: 0, score: 0 })
  })

  it('refuses totals no set of 1–5 star reviews can have', () => {
    expect(() => bayesianScore({ count: 2, sum: 11 })).toThrow(RangeError)
    expect(() => averageTenths({ count: 2, sum: 1 })).toThrow(RangeError)
    expect(() => averageTenths({ count: -1, sum: 0 })).toThrow(RangeError)
  })

  it('filters on the average people see', () => {
    expect(meetsMinRating(40, 3, 4)).toBe(true)
    expect(meetsMinRating(39, 3, 4)).toBe(false)
    expect(meetsMinRating(0, 0, 1)).toBe(false)
    expect(describeRating(47, 12)).toBe('4.7 out of 5 stars from 12 reviews')
    expect(describeRating(50, 1)).toBe('5.0 out of 5 stars from 1 review')
    expect(describeRating(0, 0)).toBe('No reviews yet')
  })
})
