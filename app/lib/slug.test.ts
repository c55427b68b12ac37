import { describe, expect, it } from 'vitest'
import { slugify } from './slug'

describe('slugify', () => {
  it('makes URL-safe slugs the listings CHECK accepts', () => {
    expect(slugify('LaunchKit SaaS Starter')).toBe('launchkit-saas-starter')
    expect(slugify('  Café Crème — Été!! ')).toBe('cafe-creme-ete')
    expect(slugify('Next.js + Stripe')).toBe('next-js-stripe')
    expect(slugify('🚀')).toBe('')
    const long = slugify('word '.repeat(40))
    expect(long.length).toBeLessThanOrEqual(80)
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })
})
