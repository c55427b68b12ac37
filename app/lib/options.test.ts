import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  brandSlug,
  COUNTRIES,
  COUNTRY_LABELS,
  DARK_TECH_ICON_SLUGS,
  DELIVERY_TIMEFRAME_LABELS,
  DELIVERY_TIMEFRAMES,
  EMAIL_SUPPORT_DURATION_LABELS,
  EMAIL_SUPPORT_DURATIONS,
  GENERIC_ICON_NAMES,
  GENERIC_TECH_ICON_URL,
  hasTechIcon,
  isOneOf,
  LICENCE_LABELS,
  LICENCES,
  LISTING_TYPE_LABELS,
  LISTING_TYPES,
  SORT_LABELS,
  SORT_OPTIONS,
  TECH_ICON_SLUGS,
  techIconSlug,
  techIconUrl,
} from './options'
import { CATEGORIES, DEPENDENCIES, FRAMEWORKS, LANGUAGES } from './tech-stack'

const ICON_DIR = path.resolve(__dirname, '../../public/tech-icons')
const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' })

const LISTS = { LANGUAGES, FRAMEWORKS, DEPENDENCIES, CATEGORIES } as const
const TECH_NAMES: string[] = [...LANGUAGES, ...FRAMEWORKS, ...DEPENDENCIES]

describe('option lists', () => {
  it('have the sizes given by the spec', () => {
    expect(LANGUAGES).toHaveLength(17)
    expect(FRAMEWORKS).toHaveLength(28)
    expect(DEPENDENCIES.length).toBeGreaterThanOrEqual(55)
    expect(DEPENDENCIES.length).toBeLessThanOrEqual(65)
    expect(CATEGORIES).toHaveLength(32)
  })

  it.each(Object.entries(LISTS))('%s is sorted alphabetically (case-insensitive)', (_name, list) => {
    expect([...list]).toEqual([...list].sort(byName))
  })

  it.each(Object.entries(LISTS))('%s has no duplicates or blank entries', (_name, list) => {
    const lower = list.map((item) => item.toLowerCase())
    expect(new Set(lower).size).toBe(list.length)
    for (const item of list) expect(item.trim()).toBe(item)
    for (const item of list) expect(item).not.toBe('')
  })
})

describe('business enums', () => {
  it('match spec §9', () => {
    expect(LISTING_TYPES).toEqual(['template', 'full_site'])
    expect(LICENCES).toEqual(['personal', 'commercial', 'unlimited'])
    expect(DELIVERY_TIMEFRAMES).toEqual(['instant', '1-hour', '24-hours', '1-3-days', '3-5-days'])
    expect(EMAIL_SUPPORT_DURATIONS).toEqual(['7-days', '30-days', '90-days', '6-months', '1-year', 'lifetime'])
    // The spec's four, issue 18's top-rated (docs/decisions/018) and issue 30's recently-updated (036).
    expect(SORT_OPTIONS).toEqual(['newest', 'oldest', 'price-low', 'price-high', 'top-rated', 'recently-updated'])
    expect(COUNTRIES).toEqual(['GB', 'US', 'FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'OTHER'])
  })

  it('label every value, and only those', () => {
    const pairs: [readonly string[], Record<string, string>][] = [
      [LISTING_TYPES, LISTING_TYPE_LABELS],
      [LICENCES, LICENCE_LABELS],
      [DELIVERY_TIMEFRAMES, DELIVERY_TIMEFRAME_LABELS],
      [EMAIL_SUPPORT_DURATIONS, EMAIL_SUPPORT_DURATION_LABELS],
      [SORT_OPTIONS, SORT_LABELS],
      [COUNTRIES, COUNTRY_LABELS],
    ]
    for (const [values, labels] of pairs) {
      expect(Object.keys(labels).sort()).toEqual([...values].sort())
      for (const value of values) expect(labels[value]).toMatch(/\S/)
    }
    expect(LISTING_TYPE_LABELS.full_site).toBe('Full Site')
    expect(SORT_LABELS['price-low']).toBe('Price: Low to High')
    expect(COUNTRY_LABELS.GB).toBe('United Kingdom')
    expect(COUNTRY_LABELS.OTHER).toBe('Other')
  })

  it('isOneOf narrows only members', () => {
    expect(isOneOf(LICENCES, 'commercial')).toBe(true)
    expect(isOneOf(LICENCES, 'Commercial')).toBe(false)
    expect(isOneOf(LICENCES, undefined)).toBe(false)
  })
})

describe('tech icons', () => {
  const files = readdirSync(ICON_DIR).filter((file) => file.endsWith('.svg'))

  it('has a generic fallback icon', () => {
    expect(existsSync(path.join(ICON_DIR, 'generic.svg'))).toBe(true)
    expect(GENERIC_TECH_ICON_URL).toBe('/tech-icons/generic.svg')
  })

  it('TECH_ICON_SLUGS matches the files in public/tech-icons', () => {
    const onDisk = files.filter((file) => file !== 'generic.svg').map((file) => file.replace(/\.svg$/, ''))
    expect([...TECH_ICON_SLUGS].sort()).toEqual(onDisk.sort())
  })

  it.each(TECH_NAMES)('%s has an icon file or a documented generic fallback', (name) => {
    const file = path.join(ICON_DIR, `${techIconSlug(name)}.svg`)
    expect(existsSync(file)).toBe(true)
    if (hasTechIcon(name)) {
      expect(GENERIC_ICON_NAMES).not.toContain(name)
      expect(techIconSlug(name)).not.toBe('generic')
    } else {
      expect(GENERIC_ICON_NAMES).toContain(name)
      expect(techIconSlug(name)).toBe('generic')
    }
  })

  it('documents only real option names as generic', () => {
    for (const name of GENERIC_ICON_NAMES) {
      expect(TECH_NAMES).toContain(name)
      expect(hasTechIcon(name)).toBe(false)
    }
  })

  it('every brand icon is a single-path SVG with a brand colour and a title', () => {
    for (const file of files.filter((f) => f !== 'generic.svg')) {
      const svg = readFileSync(path.join(ICON_DIR, file), 'utf8')
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 24 24"[^>]*fill="#[0-9A-F]{6}"/)
      expect(svg).toMatch(/<title>[^<]+<\/title>/)
      expect(svg.match(/<path /g)).toHaveLength(1)
    }
  })

  it('DARK_TECH_ICON_SLUGS lists exactly the black or near-black brand icons', () => {
    const nearBlack = files
      .filter((file) => file !== 'generic.svg')
      .filter((file) => {
        const hex = readFileSync(path.join(ICON_DIR, file), 'utf8').match(/fill="#([0-9A-F]{6})"/)![1]
        const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))
        return Math.max(r, g, b) <= 0x28
      })
      .map((file) => file.replace(/\.svg$/, ''))
    expect([...DARK_TECH_ICON_SLUGS].sort()).toEqual(nearBlack.sort())
  })

  it('follows Simple Icons slugs', () => {
    expect(brandSlug('Next.js')).toBe('nextdotjs')
    expect(brandSlug('C#')).toBe('csharp')
    expect(brandSlug('Tailwind CSS')).toBe('tailwindcss')
    expect(brandSlug('Socket.IO')).toBe('socketdotio')
    expect(brandSlug('shadcn/ui')).toBe('shadcnui')
    expect(techIconSlug('Next.js')).toBe('nextdotjs')
    expect(techIconSlug('HTML')).toBe('html5')
    expect(techIconSlug('React Native')).toBe('react')
    expect(techIconSlug('C#')).toBe('generic')
    expect(techIconSlug('Java')).toBe('generic')
    expect(techIconSlug('AWS S3')).toBe('generic')
  })

  it('falls back to generic for unknown custom values', () => {
    expect(techIconSlug('My Internal Lib')).toBe('generic')
    expect(techIconSlug('')).toBe('generic')
    expect(techIconUrl('Something Custom')).toBe('/tech-icons/generic.svg')
    expect(techIconUrl('  Stripe ')).toBe('/tech-icons/stripe.svg')
  })
})
