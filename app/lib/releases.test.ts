import { describe, expect, it } from 'vitest'
import { timeAgo, updatedAgo } from './releases'
import { VersionNoteSchema } from './version-note'

const NOW = new Date('2026-12-06T12:00:00Z')
const before = (ms: number) => new Date(NOW.getTime() - ms)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('"Updated …" (issue 30)', () => {
  it('says the largest whole unit, rounded down', () => {
    expect(updatedAgo(before(3 * DAY + 5 * HOUR), NOW)).toBe('Updated 3 days ago')
    expect(updatedAgo(before(DAY + HOUR), NOW)).toBe('Updated yesterday')
    expect(updatedAgo(before(2 * HOUR + 59 * MINUTE), NOW)).toBe('Updated 2 hours ago')
    expect(updatedAgo(before(45 * MINUTE), NOW)).toBe('Updated 45 minutes ago')
    expect(updatedAgo(before(13 * DAY), NOW)).toBe('Updated last week')
    expect(updatedAgo(before(20 * DAY), NOW)).toBe('Updated 2 weeks ago')
    expect(updatedAgo(before(65 * DAY), NOW)).toBe('Updated 2 months ago')
    expect(updatedAgo(before(362 * DAY), NOW)).toBe('Updated 11 months ago')
    expect(updatedAgo(before(400 * DAY), NOW)).toBe('Updated last year')
    expect(updatedAgo(before(3 * 365 * DAY), NOW)).toBe('Updated 3 years ago')
  })

  it('says "just now" under a minute, and for a time slightly ahead of the clock (never "in …")', () => {
    expect(timeAgo(before(30_000), NOW)).toBe('just now')
    expect(timeAgo(new Date(NOW.getTime() + 5 * MINUTE), NOW)).toBe('just now')
    expect(timeAgo(NOW.toISOString(), NOW)).toBe('just now')
  })
})

describe('a version note', () => {
  it('takes a version and notes, trimmed; refuses spaces, an empty note and over-long text with the clear messages', () => {
    expect(VersionNoteSchema.parse({ version: ' 1.2.0 ', notes: ' Faster.\r\n' })).toEqual({ version: '1.2.0', notes: 'Faster.' })
    const errors = (input: Record<string, string>) => VersionNoteSchema.safeParse(input).error?.issues.map((issue) => issue.message)
    expect(errors({ version: '', notes: '' })).toEqual(['Enter the version, e.g. 1.2.0', 'Say what changed in this version'])
    expect(errors({ version: '1.0 final', notes: 'x' })).toEqual([
      'Use letters, digits, dots, dashes, underscores or plus signs, e.g. 1.2.0 or v2-beta',
    ])
    expect(errors({ version: 'v'.repeat(51), notes: 'x' })).toEqual(['Versions must be at most 50 characters'])
    expect(errors({ version: '1', notes: 'x'.repeat(5001) })).toEqual(['Notes must be at most 5,000 characters'])
  })
})
