import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, pluralize } from './format'

describe('formatDate / formatDateTime', () => {
  it('shows the UTC calendar day, whatever the input form', () => {
    expect(formatDate(new Date('2026-11-03T23:30:00Z'))).toBe('Nov 3, 2026')
    expect(formatDate('2026-11-03T23:30:00.000Z')).toBe('Nov 3, 2026')
    // Just after midnight UTC is the next day, even where it is still the 3rd locally.
    expect(formatDate('2026-11-04T00:10:00-00:00')).toBe('Nov 4, 2026')
  })

  it('adds the time in UTC, saying so', () => {
    expect(formatDateTime('2026-11-03T16:05:00Z')).toBe('Nov 3, 2026, 4:05 PM UTC')
  })
})

describe('pluralize', () => {
  it('puts the noun in the number of its count (issue 26.16: no "1 stars", no "image(s)")', () => {
    expect(pluralize(1, 'star')).toBe('1 star')
    expect(pluralize(2, 'image')).toBe('2 images')
    expect(pluralize(0, 'sale')).toBe('0 sales')
    expect(pluralize(3, 'company', 'companies')).toBe('3 companies')
  })
})
