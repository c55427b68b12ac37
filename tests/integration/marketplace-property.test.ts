import fc from 'fast-check'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { db } from '../../app/server/infra/db.server.ts'
import { getListings, insertListings, listingRow, makeSeller, walkPages } from './marketplace-fixtures.ts'

// Small value domains, so random listings collide on sort keys and filters hit.
const LANGS = ['TypeScript', 'Python', 'Go', 'Rust']
const FRAMEWORKS = ['React', 'Django', 'Vue.js']
const DEPS = ['PostgreSQL', 'Stripe', 'Redis']
const PRICES = [100, 499, 500, 999, 1000, 2500, 10000]
const DATES = ['2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000001Z', '2026-01-02T12:30:00.250000Z', '2026-02-01T08:00:00.999999Z']
const DOLLARS = ['0', '1', '4.99', '5', '9.99', '10', '25', '100']

interface GeneratedListing {
  type: 'template' | 'full_site'
  licence: 'personal' | 'commercial' | 'unlimited'
  priceCents: number
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  setupCallAvailable: boolean
  emailSupportAvailable: boolean
  bespokeDevelopmentAvailable: boolean
  visible: boolean
  archived: boolean
  createdAt: string
}

const subset = (values: string[]) => fc.subarray(values)

const listingArb: fc.Arbitrary<GeneratedListing> = fc.record({
  type: fc.constantFrom('template' as const, 'full_site' as const),
  licence: fc.constantFrom('personal' as const, 'commercial' as const, 'unlimited' as const),
  priceCents: fc.constantFrom(...PRICES),
  languages: subset(LANGS),
  frameworks: subset(FRAMEWORKS),
  dependencies: subset(DEPS),
  setupCallAvailable: fc.boolean(),
  emailSupportAvailable: fc.boolean(),
  bespokeDevelopmentAvailable: fc.boolean(),
  visible: fc.integer({ min: 0, max: 7 }).map((n) => n !== 0),
  archived: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  createdAt: fc.constantFrom(...DATES),
})

/** A filter that is usually absent, so result sets stay big enough for ties across page boundaries. */
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })

const filterArb = fc.record({
  type: sometimes(fc.constantFrom('all', 'template', 'full_site')),
  licence: sometimes(fc.constantFrom('all', 'commercial', 'personal', 'unlimited')),
  minPrice: sometimes(fc.constantFrom(...DOLLARS)),
  maxPrice: sometimes(fc.constantFrom(...DOLLARS)),
  languages: sometimes(subset([...LANGS, 'Elixir'])),
  frameworks: sometimes(subset(FRAMEWORKS)),
  dependencies: sometimes(subset(DEPS)),
  hasSetupCall: sometimes(fc.boolean()),
  hasEmailSupport: sometimes(fc.boolean()),
  hasBespokeDev: sometimes(fc.boolean()),
  sortBy: fc.constantFrom('newest', 'oldest', 'price-low', 'price-high'),
})
type GeneratedFilters = typeof filterArb extends fc.Arbitrary<infer T> ? T : never

function toQuery(filters: Partial<GeneratedFilters>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(filters)) {
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','))
    } else if (typeof value === 'boolean') {
      if (value) params.set(key, 'true')
    } else if (value !== undefined) params.set(key, value)
  }
  return params.toString()
}

const cents = (dollars: string | undefined) => (dollars === undefined ? null : Math.round(Number(dollars) * 100))

/** The rules of the README, written plainly over an array. */
function referenceResults(rows: (GeneratedListing & { id: string })[], f: Partial<GeneratedFilters>): string[] {
  const min = cents(f.minPrice)
  const max = cents(f.maxPrice)
  const anyOf = (have: string[], wanted: string[] | undefined) => !wanted?.length || wanted.some((w) => have.includes(w))
  const licenceOk = (licence: string) =>
    !f.licence || f.licence === 'all' || licence === f.licence || (f.licence === 'commercial' && licence === 'unlimited')
  const matches = rows.filter(
    (r) =>
      r.visible &&
      !r.archived &&
      (!f.type || f.type === 'all' || r.type === f.type) &&
      licenceOk(r.licence) &&
      (min === null || r.priceCents >= min) &&
      (max === null || r.priceCents <= max) &&
      anyOf(r.languages, f.languages) &&
      anyOf(r.frameworks, f.frameworks) &&
      anyOf(r.dependencies, f.dependencies) &&
      (!f.hasSetupCall || r.setupCallAvailable) &&
      (!f.hasEmailSupport || r.emailSupportAvailable) &&
      (!f.hasBespokeDev || r.bespokeDevelopmentAvailable),
  )
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  // ISO strings of one format compare like the instants they denote.
  const byDate = (a: { createdAt: string }, b: { createdAt: string }) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0
  const ascending = {
    newest: (a: GeneratedListing & { id: string }, b: GeneratedListing & { id: string }) => byDate(a, b) || byId(a, b),
    oldest: (a: GeneratedListing & { id: string }, b: GeneratedListing & { id: string }) => byDate(a, b) || byId(a, b),
    'price-low': (a: GeneratedListing & { id: string }, b: GeneratedListing & { id: string }) => a.priceCents - b.priceCents || byId(a, b),
    'price-high': (a: GeneratedListing & { id: string }, b: GeneratedListing & { id: string }) => a.priceCents - b.priceCents || byId(a, b),
  }[f.sortBy ?? 'newest']
  const sorted = [...matches].sort(ascending)
  if (f.sortBy === undefined || f.sortBy === 'newest' || f.sortBy === 'price-high') sorted.reverse()
  return sorted.map((r) => r.id)
}

describe('GET /api/listings against an in-memory reference', () => {
  it('returns exactly the reference result set, in the reference order, on every page size', async () => {
    const seller = await makeSeller()
    await fc.assert(
      fc.asyncProperty(
        fc.array(listingArb, { maxLength: 40, size: 'max' }),
        filterArb,
        fc.integer({ min: 1, max: 7 }),
        async (generated, filters, limit) => {
          await sql`DELETE FROM listings`.execute(db)
          const inserted = await insertListings(
            generated.map((g, i) =>
              listingRow(seller.id, {
                title: `Listing ${i}`,
                type: g.type,
                licence: g.licence,
                priceCents: g.priceCents,
                languages: g.languages,
                frameworks: g.frameworks,
                dependencies: g.dependencies,
                setupCallAvailable: g.setupCallAvailable,
                emailSupportAvailable: g.emailSupportAvailable,
                bespokeDevelopmentAvailable: g.bespokeDevelopmentAvailable,
                visible: g.visible,
                archivedAt: g.archived ? new Date() : null,
                createdAt: g.createdAt,
              }),
            ),
          )
          const rows = generated.map((g, i) => ({ ...g, id: inserted[i]!.id }))
          // Swap an inverted price range: minPrice > maxPrice is a 400, tested elsewhere.
          const f = { ...filters }
          if (f.minPrice !== undefined && f.maxPrice !== undefined && Number(f.minPrice) > Number(f.maxPrice)) {
            ;[f.minPrice, f.maxPrice] = [f.maxPrice, f.minPrice]
          }
          const expected = referenceResults(rows, f)
          const { forward, backward } = await walkPages(`${toQuery(f)}&limit=${limit}`)
          expect(forward).toEqual(expected)
          expect(backward).toEqual(expected)
        },
      ),
      { numRuns: 80 },
    )
  }, 120_000)
})

describe('GET /api/listings with arbitrary input', () => {
  it('answers 200 or a 400 with an error, never a server error', async () => {
    const seller = await makeSeller('fuzz-seller')
    await insertListings([listingRow(seller.id, { title: 'React Fuzz Target', languages: ['Go'] })])
    const names = [
      'type',
      'licence',
      'minPrice',
      'maxPrice',
      'search',
      'languages',
      'frameworks',
      'dependencies',
      'hasSetupCall',
      'hasEmailSupport',
      'hasBespokeDev',
      'sortBy',
      'cursor',
      'limit',
    ]
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(
        '',
        'true',
        'all',
        '-1',
        '1e999',
        '0.001',
        'NaN',
        '12.50',
        'price-low',
        "'; DROP TABLE listings; --",
        'a,b,,c',
        '%',
        '"quoted phrase"',
        '-react or (vue',
        '!!',
        '<->',
      ),
      fc.base64String({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 6 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString()
        const { status, body } = await getListings(query)
        expect([200, 400], query).toContain(status)
        if (status === 400) expect(typeof body.error, query).toBe('string')
        else expect(Array.isArray(body.listings), query).toBe(true)
      }),
      { numRuns: 150 },
    )
  }, 120_000)
})
