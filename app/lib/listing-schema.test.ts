import { describe, expect, it } from 'vitest'
import { applyImageFlow, cleanList, flattenListingBody, ListingFormSchema, listingInputFromForm } from './listing-schema'

const url = (n: number) => `/uploads/${n.toString(16).padStart(32, '0')}/full.webp`

describe('image flow (spec §4)', () => {
  it('the first image becomes the thumbnail when none is set', () => {
    expect(applyImageFlow([url(1), url(2)], null)).toEqual({ screenshots: [url(1), url(2)], thumbnailUrl: url(1) })
    expect(applyImageFlow([], null)).toEqual({ screenshots: [], thumbnailUrl: null })
  })

  it('removing the main image promotes the first remaining one, or clears it', () => {
    const base = { title: 't', shortDescription: 's', type: 'template', licence: 'personal', price: '1' }
    const parse = (extra: Record<string, unknown>) => listingInputFromForm(ListingFormSchema.parse({ ...base, ...extra }))
    expect(parse({ screenshots: [url(1), url(2), url(3)], thumbnailUrl: url(2), removeImages: [url(2)] })).toMatchObject({
      screenshots: [url(1), url(3)],
      thumbnailUrl: url(1),
    })
    expect(parse({ screenshots: [url(1)], thumbnailUrl: url(1), removeImages: [url(1)] })).toMatchObject({
      screenshots: [],
      thumbnailUrl: null,
    })
  })

  it('uploaded URLs are appended to the screenshots', () => {
    const value = ListingFormSchema.parse({
      title: 't',
      shortDescription: 's',
      type: 'template',
      licence: 'personal',
      price: '1',
      screenshots: [url(1)],
    })
    expect(listingInputFromForm(value, [url(2)])).toMatchObject({ screenshots: [url(1), url(2)], thumbnailUrl: url(1) })
  })
})

describe('lists', () => {
  it('are trimmed, without blanks and case-insensitive duplicates', () => {
    expect(cleanList([' TypeScript ', 'typescript', '', '  ', 'Go'])).toEqual(['TypeScript', 'Go'])
  })

  it('the API accepts nested techStack/support and a single old language', () => {
    expect(
      flattenListingBody({ language: 'Go', techStack: { frameworks: ['Hono'] }, support: { setupCallAvailable: true }, title: 'x' }),
    ).toEqual({
      languages: ['Go'],
      frameworks: ['Hono'],
      setupCallAvailable: true,
      title: 'x',
    })
  })
})

describe('source repository (issue 16)', () => {
  const base = { title: 't', shortDescription: 's', type: 'template', licence: 'personal', price: '1' }

  it('the form posts the id as text; empty means none', () => {
    expect(ListingFormSchema.parse({ ...base, githubRepoId: '4242' }).githubRepoId).toBe(4242)
    expect(ListingFormSchema.parse({ ...base, githubRepoId: '' }).githubRepoId).toBeNull()
    expect(ListingFormSchema.parse(base).githubRepoId).toBeUndefined()
  })

  it('refuses anything but a positive whole id', () => {
    for (const bad of ['abc', '-3', '1.5', '0', '99999999999999999999']) {
      const result = ListingFormSchema.safeParse({ ...base, githubRepoId: bad })
      expect(result.success, bad).toBe(false)
      expect(result.error?.issues[0]?.message).toBe('Choose a repository from the list')
    }
  })

  it('instant delivery through a repository needs no private link, and drops one sent anyway', () => {
    expect(ListingFormSchema.safeParse({ ...base, deliveryTimeframe: 'instant' }).success).toBe(false)
    const value = ListingFormSchema.parse({
      ...base,
      deliveryTimeframe: 'instant',
      githubRepoId: '7',
      deliveryUrl: 'https://example.com/x',
    })
    expect(listingInputFromForm(value)).toMatchObject({ deliveryTimeframe: 'instant', deliveryUrl: null })
  })
})
