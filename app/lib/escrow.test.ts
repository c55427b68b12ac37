import { describe, expect, it } from 'vitest'
import { isValidForkUrl, isWindowOpen, msLeft, timeLeft, windowEndsAt } from './escrow'

const HOUR = 3600_000
const delivered = new Date('2026-03-01T12:00:00Z')
const after = (ms: number) => new Date(delivered.getTime() + ms)

describe('the 72-hour window', () => {
  it('ends exactly 72 hours after delivery and is open strictly before that', () => {
    expect(windowEndsAt(delivered).toISOString()).toBe('2026-03-04T12:00:00.000Z')
    expect(isWindowOpen(delivered, after(72 * HOUR - 1))).toBe(true)
    expect(isWindowOpen(delivered, after(72 * HOUR))).toBe(false)
    expect(msLeft(delivered, after(73 * HOUR))).toBe(0)
  })

  it('says how long is left in words', () => {
    expect(timeLeft(delivered, delivered)).toBe('3 days left')
    expect(timeLeft(delivered, after(1 * HOUR))).toBe('2 days 23 hours left')
    expect(timeLeft(delivered, after(70 * HOUR + 30 * 60_000))).toBe('1 hour 30 minutes left')
    expect(timeLeft(delivered, after(71 * HOUR + 59 * 60_000))).toBe('1 minute left')
    expect(timeLeft(delivered, after(72 * HOUR - 1))).toBe('1 minute left')
    expect(timeLeft(delivered, after(72 * HOUR))).toBe('Window closed')
  })
})

describe('isValidForkUrl', () => {
  it('accepts absolute https URLs only', () => {
    expect(isValidForkUrl('https://github.com/buyer/kit')).toBe(true)
    expect(isValidForkUrl('  https://gitlab.com/a/b  ')).toBe(true)
    for (const bad of ['http://github.com/a/b', 'github.com/a/b', 'javascript:alert(1)', 'https://user:pw@github.com/a', '']) {
      expect(isValidForkUrl(bad), bad).toBe(false)
    }
  })
})
