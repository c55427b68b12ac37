import { describe, expect, it } from 'vitest'
import { containsLink, REVIEW_LINK_MESSAGE, REVIEW_TOO_LONG_MESSAGE, ReviewSchema } from './review-schema'

describe('review schema', () => {
  it('accepts 1–5 stars and up to 2,000 characters', () => {
    expect(ReviewSchema.parse({ stars: '5', body: '  Great template, clean code.  ' })).toEqual({
      stars: 5,
      body: 'Great template, clean code.',
    })
    expect(ReviewSchema.safeParse({ stars: 4, body: 'x'.repeat(2000) }).success).toBe(true)
  })

  it('refuses a review over the limit, with the message', () => {
    const result = ReviewSchema.safeParse({ stars: 4, body: 'x'.repeat(2001) })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(REVIEW_TOO_LONG_MESSAGE)
  })

  it('refuses stars outside 1–5 and an empty text', () => {
    for (const stars of ['0', '6', '4.5', 'five', '']) expect(ReviewSchema.safeParse({ stars, body: 'Fine' }).success).toBe(false)
    expect(ReviewSchema.safeParse({ stars: 3, body: '   ' }).success).toBe(false)
  })

  it('refuses links in any usual form, with the message', () => {
    for (const body of [
      'see https://evil.test/x',
      'go to www.example',
      'visit example.com now',
      'bit.ly/abc',
      'ftp://host/file',
      'Buy at SHOP.IO',
    ]) {
      expect(containsLink(body), body).toBe(true)
      const result = ReviewSchema.safeParse({ stars: 5, body })
      expect(result.error?.issues[0]?.message).toBe(REVIEW_LINK_MESSAGE)
    }
    for (const body of ['Works with Next.js and Node.js', 'Version 2.0 is great', 'e.g. the README', 'Rated 4.5/5']) {
      expect(containsLink(body), body).toBe(false)
    }
  })
})
