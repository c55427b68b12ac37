import { describe, expect, it } from 'vitest'
import {
  decodeCursor,
  DEFAULT_FILTERS,
  describeFilterError,
  encodeCursor,
  parseFilters,
  readFilterInputs,
  resultOrder,
  serializeFilters,
  type PageCursor,
} from './filters'

const parse = (query: string) => parseFilters(new URLSearchParams(query))

describe('parseFilters', () => {
  it('gives the defaults for an empty query or a blank GET form', () => {
    expect(parse('')).toEqual({ ok: true, filters: DEFAULT_FILTERS, cursor: null })
    const blankForm = 'search=&type=all&licence=all&minPrice=&maxPrice=&sortBy=newest'
    expect(parse(blankForm)).toEqual({ ok: true, filters: DEFAULT_FILTERS, cursor: null })
  })

  it('reads every field of the spec', () => {
    const result = parse(
      'search=%20react%20%20admin%20&type=template&licence=commercial&minPrice=9.99&maxPrice=100&languages=TypeScript,Go&frameworks=React&dependencies=Stripe&hasSetupCall=true&hasEmailSupport=true&hasBespokeDev=true&minRating=4&sortBy=price-high',
    )
    expect(result).toEqual({
      ok: true,
      cursor: null,
      filters: {
        type: 'template',
        licence: 'commercial',
        minPriceCents: 999,
        maxPriceCents: 10000,
        search: 'react admin',
        languages: ['TypeScript', 'Go'],
        frameworks: ['React'],
        dependencies: ['Stripe'],
        hasSetupCall: true,
        hasEmailSupport: true,
        hasBespokeDev: true,
        minRating: 4,
        sortBy: 'price-high',
      },
    })
  })

  it('takes multi-values comma-joined or repeated, trimmed and without duplicates', () => {
    const result = parse('languages=Go,%20Rust&languages=Go&languages=&frameworks=,')
    expect(result.ok && result.filters.languages).toEqual(['Go', 'Rust'])
    expect(result.ok && result.filters.frameworks).toEqual([])
  })

  it('converts dollars to cents exactly', () => {
    for (const [dollars, cents] of [
      ['0', 0],
      ['0.1', 10],
      ['0.29', 29],
      ['19.99', 1999],
      ['1000000', 100_000_000],
    ] as const) {
      const result = parse(`minPrice=${dollars}`)
      expect(result.ok && result.filters.minPriceCents, dollars).toBe(cents)
    }
  })

  it('names the field and the rule for each bad value', () => {
    expect(parse('minPrice=-1')).toEqual({ ok: false, error: { field: 'minPrice', message: 'minPrice must not be negative' } })
    expect(parse('maxPrice=Infinity')).toMatchObject({ ok: false, error: { field: 'maxPrice' } })
    expect(parse('minPrice=3&maxPrice=2')).toMatchObject({ ok: false, error: { message: 'minPrice must not be greater than maxPrice' } })
    expect(parse('sortBy=best')).toMatchObject({ ok: false, error: { field: 'sortBy' } })
    expect(parse('hasBespokeDev=1')).toMatchObject({ ok: false, error: { field: 'hasBespokeDev' } })
    expect(parse(`search=${'x'.repeat(201)}`)).toMatchObject({ ok: false, error: { field: 'search' } })
    expect(parse(`search=${'x'.repeat(200)}`).ok).toBe(true)
  })

  it('accepts a cursor only for the ordering it was made for', () => {
    const cursor = encodeCursor({
      direction: 'next',
      order: 'price-low',
      key: [500, '0b9d2f0e-8f38-4a8e-9a57-2f8f0e6f3c11'],
      correctedSearch: null,
    })
    expect(parse(`sortBy=price-low&cursor=${cursor}`)).toMatchObject({
      ok: true,
      cursor: { order: 'price-low', key: [500, expect.any(String)] },
    })
    expect(parse(`sortBy=price-high&cursor=${cursor}`)).toMatchObject({ ok: false, error: { field: 'cursor' } })
    const relevance = encodeCursor({
      direction: 'prev',
      order: 'relevance',
      key: [1, 0.1, '2026-01-01T00:00:00.123456Z', '0b9d2f0e-8f38-4a8e-9a57-2f8f0e6f3c11'],
      correctedSearch: 'react',
    })
    expect(parse(`search=recat&cursor=${relevance}`).ok).toBe(true)
    expect(parse(`cursor=${relevance}`).ok).toBe(false)
  })
})

describe('minimum rating and top-rated (issue 18)', () => {
  it('takes a whole number of stars from 1 to 4, or nothing', () => {
    for (const stars of [1, 2, 3, 4] as const)
      expect(parse(`minRating=${stars}`)).toMatchObject({ ok: true, filters: { minRating: stars } })
    expect(parse('minRating=')).toMatchObject({ ok: true, filters: { minRating: null } })
    for (const bad of ['0', '5', '4.5', '04', 'four', '-1']) {
      expect(parse(`minRating=${bad}`), bad).toMatchObject({ ok: false, error: { field: 'minRating' } })
    }
    expect(describeFilterError({ field: 'minRating', message: 'minRating must be one of: 1, 2, 3, 4' })).toBe(
      'Minimum rating must be one of: 1, 2, 3, 4',
    )
  })

  it('round-trips through the URL, and a top-rated cursor only for top-rated', () => {
    const result = parse('sortBy=top-rated&minRating=3')
    expect(result.ok && serializeFilters(result.filters)).toBe('minRating=3&sortBy=top-rated')
    const cursor = encodeCursor({
      direction: 'next',
      order: 'top-rated',
      key: [4_727_272, '2026-01-01T00:00:00.000001Z', '0b9d2f0e-8f38-4a8e-9a57-2f8f0e6f3c11'],
      correctedSearch: null,
    })
    expect(parse(`sortBy=top-rated&cursor=${cursor}`)).toMatchObject({ ok: true, cursor: { order: 'top-rated' } })
    expect(parse(`sortBy=newest&cursor=${cursor}`)).toMatchObject({ ok: false, error: { field: 'cursor' } })
    expect(readFilterInputs(new URLSearchParams('minRating=4')).minRating).toBe('4')
  })
})

describe('cursors', () => {
  const valid: PageCursor = {
    direction: 'next',
    order: 'newest',
    key: ['2026-01-01T00:00:00.000001Z', '0b9d2f0e-8f38-4a8e-9a57-2f8f0e6f3c11'],
    correctedSearch: null,
  }

  it('round-trip, non-ASCII corrected searches included', () => {
    expect(decodeCursor(encodeCursor(valid))).toEqual(valid)
    const withText = { ...valid, order: 'relevance' as const, key: [2, 0, ...valid.key], correctedSearch: 'café déjà vu' }
    expect(decodeCursor(encodeCursor(withText))).toEqual(withText)
  })

  it('reject anything malformed', () => {
    const bad = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '')
    for (const text of [
      '',
      '!!!',
      'x'.repeat(2000),
      bad({ d: 'next', o: 'newest', k: ['yesterday', valid.key[1]], c: null }),
      bad({ d: 'next', o: 'newest', k: ['2026-02-30T00:00:00Z', valid.key[1]], c: null }),
      bad({ d: 'next', o: 'newest', k: ['2026-01-01T24:00:00Z', valid.key[1]], c: null }),
      bad({ d: 'next', o: 'price-low', k: [2_147_483_648, valid.key[1]], c: null }),
      bad({ d: 'next', o: 'relevance', k: [1, 1e300, ...valid.key], c: null }),
      bad({ d: 'next', o: 'newest', k: [valid.key[0], "1'; DROP TABLE listings"], c: null }),
      bad({ d: 'sideways', o: 'newest', k: valid.key, c: null }),
      bad({ d: 'next', o: 'random', k: valid.key, c: null }),
      bad({ d: 'next', o: 'price-low', k: [1.5, valid.key[1]], c: null }),
      bad({ d: 'next', o: 'relevance', k: [3, 0, ...valid.key], c: null }),
      bad({ d: 'next', o: 'top-rated', k: [5_000_001, ...valid.key], c: null }),
      bad({ d: 'next', o: 'top-rated', k: [1.5, ...valid.key], c: null }),
      bad({ d: 'next', o: 'top-rated', k: valid.key, c: null }),
      bad({ d: 'next', o: 'newest', k: valid.key, c: 42 }),
      bad([1, 2, 3]),
    ]) {
      expect(decodeCursor(text), text.slice(0, 40)).toBeNull()
    }
  })
})

describe('serializeFilters', () => {
  it('writes the canonical query that parses back to the same filters', () => {
    const result = parse('sortBy=oldest&hasEmailSupport=true&languages=Go&languages=C%23&maxPrice=10.5&type=full_site&search=rust%20cli')
    if (!result.ok) throw new Error(result.error.message)
    const query = serializeFilters(result.filters)
    expect(query).toBe('search=rust+cli&type=full_site&maxPrice=10.50&languages=Go%2CC%23&hasEmailSupport=true&sortBy=oldest')
    expect(parse(query)).toEqual(result)
  })

  it('leaves defaults out, unless the sort is asked for', () => {
    expect(serializeFilters(DEFAULT_FILTERS)).toBe('')
    expect(serializeFilters(DEFAULT_FILTERS, { alwaysSort: true })).toBe('sortBy=newest')
    expect(serializeFilters(DEFAULT_FILTERS, { cursor: 'abc' })).toBe('cursor=abc')
  })
})

describe('helpers', () => {
  it('orders by relevance only for a search with the default sort', () => {
    expect(resultOrder({ search: 'react', sortBy: 'newest' })).toBe('relevance')
    expect(resultOrder({ search: 'react', sortBy: 'price-low' })).toBe('price-low')
    expect(resultOrder({ search: null, sortBy: 'newest' })).toBe('newest')
  })

  it('reads what the form shows, even from a bad link', () => {
    expect(readFilterInputs(new URLSearchParams('minPrice=abc&languages=Go,Rust&hasSetupCall=true&type=bogus'))).toMatchObject({
      minPrice: 'abc',
      languages: ['Go', 'Rust'],
      hasSetupCall: true,
      type: 'bogus',
      sortBy: 'newest',
    })
  })

  it('puts errors in words', () => {
    expect(describeFilterError({ field: 'minPrice', message: 'minPrice must not be greater than maxPrice' })).toBe(
      'Minimum price must not be greater than maximum price',
    )
  })
})
