import { describe, expect, it } from 'vitest'
import { DEMO_LISTINGS, type DemoListing } from './demo-data.ts'
import { listingMockups, mockupKinds, mockupSvg, SCREENS_PER_LISTING } from './demo-mockups.ts'

const listing = (overrides: Partial<DemoListing>): DemoListing => ({
  seller: 0,
  title: 'Test Kit',
  short: 'A short description.',
  type: 'template',
  price: 1000,
  licence: 'personal',
  languages: ['TypeScript'],
  frameworks: ['React'],
  dependencies: ['Stripe'],
  tags: [],
  ...overrides,
})

describe('demo mockups', () => {
  it('pick screens from what the listing is: a store for a shop, phones for a mobile app, a terminal for an API', () => {
    expect(mockupKinds(listing({ tags: ['ecommerce', 'shop'] }))[0]).toBe('store')
    expect(mockupKinds(listing({ tags: ['fitness', 'mobile'] }))[0]).toBe('mobile')
    expect(mockupKinds(listing({ tags: ['api', 'backend'] }))[0]).toBe('terminal')
    expect(mockupKinds(listing({ tags: ['dashboard', 'admin'] }))[0]).toBe('dashboard')
    expect(mockupKinds(listing({ tags: ['saas'] }))).toEqual(['landing', 'dashboard', 'docs'])
  })

  it('give every demo listing three different screens, the same ones every time', () => {
    DEMO_LISTINGS.forEach((demo, index) => {
      const kinds = mockupKinds(demo)
      expect(kinds, demo.title).toHaveLength(SCREENS_PER_LISTING)
      expect(new Set(kinds).size).toBe(SCREENS_PER_LISTING)
      expect(listingMockups(demo, index)).toEqual(listingMockups(demo, index))
    })
    const all = DEMO_LISTINGS.flatMap((demo, index) => listingMockups(demo, index))
    expect(new Set(all).size).toBe(all.length)
  })

  it("draw the listing's own words, escaped for SVG", () => {
    const svg = mockupSvg(listing({ title: 'Q&A <Board>', short: 'Polls & "live" Q&A' }), 0, 'landing')
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1600" height="1000"/)
    expect(svg).toContain('Q&amp;A &lt;Board&gt;')
    expect(svg).toContain('Polls &amp; &quot;live&quot; Q&amp;A')
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/)
  })
})
