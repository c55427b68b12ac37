/**
 * The marketplace filter state (product spec §3 "Filter state", §7 GET /api/listings):
 * one parser from URL query parameters to validated filters (or one clear error),
 * and one serializer back to the canonical query string. Shared by /marketplace,
 * its client-side filter form and GET /api/listings, so a result page is a link.
 *
 * Plain functions rather than a Zod schema on purpose: this module ships in the
 * public marketplace bundle, and the JavaScript budget of public pages (issue 10)
 * has no room for a validation library.
 */
import { isUuid } from './ids.ts'
import { DEFAULT_SORT, SORT_OPTIONS, type SortOption } from './options'
import { MIN_RATING_OPTIONS, SCORE_SCALE, type MinRating } from './ratings'

export const TYPE_FILTERS = ['all', 'template', 'full_site'] as const
export type TypeFilter = (typeof TYPE_FILTERS)[number]
export const TYPE_FILTER_LABELS: Record<TypeFilter, string> = {
  all: 'All types',
  template: 'Template',
  full_site: 'Full Site',
}

// The spec's licence filter offers all/commercial/personal. The API also takes
// 'unlimited' (a real licence value) so a client can ask for exactly those.
export const LICENCE_FILTERS = ['all', 'commercial', 'personal', 'unlimited'] as const
export type LicenceFilter = (typeof LICENCE_FILTERS)[number]
export const LICENCE_FILTER_OPTIONS = ['all', 'commercial', 'personal'] as const
export const LICENCE_FILTER_LABELS: Record<LicenceFilter, string> = {
  all: 'All licences',
  commercial: 'Commercial',
  personal: 'Personal',
  unlimited: 'Unlimited',
}

/**
 * Which listing licences a licence filter admits. An unlimited licence allows
 * everything a commercial one does, so a buyer asking for "commercial" use
 * sees unlimited listings too; "personal" means personal-licence listings.
 */
export const LICENCES_FOR_FILTER: Record<Exclude<LicenceFilter, 'all'>, readonly ('personal' | 'commercial' | 'unlimited')[]> = {
  commercial: ['commercial', 'unlimited'],
  personal: ['personal'],
  unlimited: ['unlimited'],
}

export const MULTI_VALUE_FIELDS = ['languages', 'frameworks', 'dependencies'] as const
export type MultiValueField = (typeof MULTI_VALUE_FIELDS)[number]

export const FLAG_FIELDS = ['hasSetupCall', 'hasEmailSupport', 'hasBespokeDev'] as const
export type FlagField = (typeof FLAG_FIELDS)[number]

export const MAX_SEARCH_LENGTH = 200
export const MAX_VALUES_PER_FIELD = 20
export const MAX_VALUE_LENGTH = 60
/** Listing prices are int4 cents; a filter above this cannot match anything anyway. */
export const MAX_PRICE_DOLLARS = 1_000_000
const MAX_CURSOR_LENGTH = 1200

export interface MarketplaceFilters {
  type: TypeFilter
  licence: LicenceFilter
  /** Integer cents, inclusive. */
  minPriceCents: number | null
  /** Integer cents, inclusive. */
  maxPriceCents: number | null
  /** Trimmed, whitespace collapsed; null when empty. */
  search: string | null
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  hasSetupCall: boolean
  hasEmailSupport: boolean
  hasBespokeDev: boolean
  /** Issue 18: listings whose shown average is at least this many stars (reviewed listings only). */
  minRating: MinRating | null
  sortBy: SortOption
}

export const DEFAULT_FILTERS: MarketplaceFilters = {
  type: 'all',
  licence: 'all',
  minPriceCents: null,
  maxPriceCents: null,
  search: null,
  languages: [],
  frameworks: [],
  dependencies: [],
  hasSetupCall: false,
  hasEmailSupport: false,
  hasBespokeDev: false,
  minRating: null,
  sortBy: DEFAULT_SORT,
}

/** Where the next (or previous) page starts; opaque to clients (see encodeCursor). */
export interface PageCursor {
  direction: 'next' | 'prev'
  /** The ordering the cursor was made for; a cursor never crosses orderings. */
  order: ResultOrder
  /**
   * The sort key of the boundary row, id last: [createdAt, id], [priceCents, id],
   * [ratingScore, createdAt, id] (top-rated), [lastUpdatedAt, id] (recently-updated),
   * or for relevance [segment, rank, createdAt, id].
   */
  key: (string | number)[]
  /** The corrected search term the first page fell back to ('recat' → 'react'), if any. */
  correctedSearch: string | null
}

/** The ORDER BY of a result page: the sort, or relevance when a search ranks results. */
export type ResultOrder = SortOption | 'relevance'

export interface FilterError {
  field: string
  message: string
}

export type ParseResult = { ok: true; filters: MarketplaceFilters; cursor: PageCursor | null } | { ok: false; error: FilterError }

type ParamSource = URLSearchParams | FormData

// Postgres text cannot hold NUL; refuse it here rather than fail in the database.
const NUL = String.fromCharCode(0)

function textValues(params: ParamSource, name: string): string[] | FilterError {
  const values = params.getAll(name).filter((v): v is string => typeof v === 'string')
  return values.some((v) => v.includes(NUL)) ? { field: name, message: `${name} must not contain NUL characters` } : values
}

function single(params: ParamSource, name: string): string | FilterError {
  const values = textValues(params, name)
  if (isError(values)) return values
  const nonEmpty = values.map((v) => v.trim()).filter(Boolean)
  if (new Set(nonEmpty).size > 1) return { field: name, message: `${name} was given more than once` }
  return nonEmpty[0] ?? ''
}

function isError(value: unknown): value is FilterError {
  return typeof value === 'object' && value !== null && 'message' in value
}

function oneOf<const T extends readonly string[]>(
  params: ParamSource,
  name: string,
  allowed: T,
  fallback: T[number],
): T[number] | FilterError {
  const value = single(params, name)
  if (isError(value)) return value
  if (value === '') return fallback
  if ((allowed as readonly string[]).includes(value)) return value
  return { field: name, message: `${name} must be one of: ${allowed.join(', ')}` }
}

function price(params: ParamSource, name: 'minPrice' | 'maxPrice'): number | null | FilterError {
  const value = single(params, name)
  if (isError(value)) return value
  if (value === '') return null
  if (/^-\s*\d/.test(value)) return { field: name, message: `${name} must not be negative` }
  if (!/^\d+(\.\d{1,2})?$/.test(value)) {
    return { field: name, message: `${name} must be an amount in dollars, such as 25 or 9.99` }
  }
  const dollars = Number(value)
  if (dollars > MAX_PRICE_DOLLARS) return { field: name, message: `${name} must be at most ${MAX_PRICE_DOLLARS}` }
  // Integer arithmetic on the digits: 9.99 * 100 is not 999 in floating point.
  const [whole, fraction = ''] = value.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

function list(params: ParamSource, name: MultiValueField): string[] | FilterError {
  // Comma-joined (the API and shareable links) or repeated (a checkbox form without JavaScript).
  const raw = textValues(params, name)
  if (isError(raw)) return raw
  if (raw.join(',').length > MAX_VALUES_PER_FIELD * (MAX_VALUE_LENGTH + 1)) {
    return { field: name, message: `${name} is too long` }
  }
  const values = [
    ...new Set(
      raw
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ]
  if (values.length > MAX_VALUES_PER_FIELD) {
    return { field: name, message: `${name} accepts at most ${MAX_VALUES_PER_FIELD} values` }
  }
  const tooLong = values.find((v) => v.length > MAX_VALUE_LENGTH)
  if (tooLong) return { field: name, message: `Each value of ${name} must be at most ${MAX_VALUE_LENGTH} characters` }
  return values
}

function flag(params: ParamSource, name: FlagField): boolean | FilterError {
  const value = single(params, name)
  if (isError(value)) return value
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  return { field: name, message: `${name} must be 'true' when set` }
}

function minRating(params: ParamSource): MinRating | null | FilterError {
  const value = single(params, 'minRating')
  if (isError(value)) return value
  if (value === '') return null
  const stars = Number(value)
  if (!(MIN_RATING_OPTIONS as readonly number[]).includes(stars) || !/^\d$/.test(value)) {
    return { field: 'minRating', message: `minRating must be one of: ${[...MIN_RATING_OPTIONS].reverse().join(', ')}` }
  }
  return stars as MinRating
}

function searchTerm(params: ParamSource): string | null | FilterError {
  const value = single(params, 'search')
  if (isError(value)) return value
  const collapsed = value.replace(/\s+/g, ' ').trim()
  if (collapsed.length > MAX_SEARCH_LENGTH) {
    return { field: 'search', message: `search must be at most ${MAX_SEARCH_LENGTH} characters` }
  }
  return collapsed || null
}

/**
 * Parses a marketplace query (URL parameters, or the filter form's data) into
 * validated filters and the page cursor. Empty values mean "not set", as a GET
 * form without JavaScript sends every field. Unknown parameters are ignored.
 */
export function parseFilters(params: ParamSource): ParseResult {
  const type = oneOf(params, 'type', TYPE_FILTERS, 'all')
  const licence = oneOf(params, 'licence', LICENCE_FILTERS, 'all')
  const minPriceCents = price(params, 'minPrice')
  const maxPriceCents = price(params, 'maxPrice')
  const search = searchTerm(params)
  const languages = list(params, 'languages')
  const frameworks = list(params, 'frameworks')
  const dependencies = list(params, 'dependencies')
  const hasSetupCall = flag(params, 'hasSetupCall')
  const hasEmailSupport = flag(params, 'hasEmailSupport')
  const hasBespokeDev = flag(params, 'hasBespokeDev')
  const minRatingValue = minRating(params)
  const sortBy = oneOf(params, 'sortBy', SORT_OPTIONS, DEFAULT_SORT)
  const parts = [
    type,
    licence,
    minPriceCents,
    maxPriceCents,
    search,
    languages,
    frameworks,
    dependencies,
    hasSetupCall,
    hasEmailSupport,
    hasBespokeDev,
    minRatingValue,
    sortBy,
  ]
  const firstError = parts.find(isError)
  if (firstError) return { ok: false, error: firstError }

  const filters: MarketplaceFilters = {
    type: type as TypeFilter,
    licence: licence as LicenceFilter,
    minPriceCents: minPriceCents as number | null,
    maxPriceCents: maxPriceCents as number | null,
    search: search as string | null,
    languages: languages as string[],
    frameworks: frameworks as string[],
    dependencies: dependencies as string[],
    hasSetupCall: hasSetupCall as boolean,
    hasEmailSupport: hasEmailSupport as boolean,
    hasBespokeDev: hasBespokeDev as boolean,
    minRating: minRatingValue as MinRating | null,
    sortBy: sortBy as SortOption,
  }
  if (filters.minPriceCents !== null && filters.maxPriceCents !== null && filters.minPriceCents > filters.maxPriceCents) {
    return { ok: false, error: { field: 'minPrice', message: 'minPrice must not be greater than maxPrice' } }
  }

  const rawCursor = single(params, 'cursor')
  if (isError(rawCursor)) return { ok: false, error: rawCursor }
  let cursor: PageCursor | null = null
  if (rawCursor) {
    cursor = decodeCursor(rawCursor)
    if (!cursor) return { ok: false, error: { field: 'cursor', message: 'cursor is invalid or expired; start again from the first page' } }
    if (cursor.order !== resultOrder(filters) || (cursor.correctedSearch !== null && filters.search === null)) {
      return {
        ok: false,
        error: { field: 'cursor', message: 'cursor belongs to a different sort or search; start again from the first page' },
      }
    }
  }
  return { ok: true, filters, cursor }
}

/** Relevance first when a search term is given and the sort is the default (newest breaks ties). */
export function resultOrder(filters: Pick<MarketplaceFilters, 'search' | 'sortBy'>): ResultOrder {
  return filters.search !== null && filters.sortBy === DEFAULT_SORT ? 'relevance' : filters.sortBy
}

function centsToParam(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)
}

/**
 * The canonical query string of a filter state (without '?'): defaults left
 * out, multi-values comma-joined, flags as 'true'. `sortBy` is always written
 * when `alwaysSort` is set (the spec's API client always sends it).
 */
export function serializeFilters(filters: MarketplaceFilters, options: { cursor?: string | null; alwaysSort?: boolean } = {}): string {
  const params = new URLSearchParams()
  if (filters.search) params.set('search', filters.search)
  if (filters.type !== 'all') params.set('type', filters.type)
  if (filters.licence !== 'all') params.set('licence', filters.licence)
  if (filters.minPriceCents !== null) params.set('minPrice', centsToParam(filters.minPriceCents))
  if (filters.maxPriceCents !== null) params.set('maxPrice', centsToParam(filters.maxPriceCents))
  for (const field of MULTI_VALUE_FIELDS) {
    if (filters[field].length) params.set(field, filters[field].join(','))
  }
  for (const field of FLAG_FIELDS) {
    if (filters[field]) params.set(field, 'true')
  }
  if (filters.minRating !== null) params.set('minRating', String(filters.minRating))
  if (options.alwaysSort || filters.sortBy !== DEFAULT_SORT) params.set('sortBy', filters.sortBy)
  if (options.cursor) params.set('cursor', options.cursor)
  return params.toString()
}

// --- Page cursors ------------------------------------------------------------
// A cursor is base64url JSON: { d: direction, o: order, k: key, c: corrected search }.

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text)
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return null
  }
}

export function encodeCursor(cursor: PageCursor): string {
  return toBase64Url(JSON.stringify({ d: cursor.direction, o: cursor.order, k: cursor.key, c: cursor.correctedSearch }))
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?Z$/
const MAX_INT4 = 2_147_483_647

// Every value is checked to be one Postgres accepts for its cast (timestamptz,
// integer, real, uuid): a forged cursor must give a 400, never a database error.
function isTimestamp(value: unknown): boolean {
  const match = typeof value === 'string' ? TIMESTAMP.exec(value) : null
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  )
}

function isValidKey(order: ResultOrder, key: unknown[]): boolean {
  const id = key[key.length - 1]
  if (typeof id !== 'string' || !isUuid(id)) return false
  switch (order) {
    case 'newest':
    case 'oldest':
    case 'recently-updated':
      return key.length === 2 && isTimestamp(key[0])
    case 'price-low':
    case 'price-high':
      return key.length === 2 && Number.isInteger(key[0]) && (key[0] as number) >= 0 && (key[0] as number) <= MAX_INT4
    case 'top-rated':
      return (
        key.length === 3 &&
        Number.isInteger(key[0]) &&
        (key[0] as number) >= 0 &&
        (key[0] as number) <= 5 * SCORE_SCALE &&
        isTimestamp(key[1])
      )
    case 'relevance':
      return (
        key.length === 4 && (key[0] === 1 || key[0] === 2) && typeof key[1] === 'number' && Math.abs(key[1]) < 1e30 && isTimestamp(key[2])
      )
  }
}

export function decodeCursor(text: string): PageCursor | null {
  if (text.length > MAX_CURSOR_LENGTH) return null
  const json = fromBase64Url(text)
  if (json === null) return null
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { d, o, k, c } = value as Record<string, unknown>
  if (d !== 'next' && d !== 'prev') return null
  if (o !== 'relevance' && !(SORT_OPTIONS as readonly unknown[]).includes(o)) return null
  if (!Array.isArray(k) || !isValidKey(o as ResultOrder, k)) return null
  if (c !== null && (typeof c !== 'string' || !c.trim() || c.length > MAX_SEARCH_LENGTH)) return null
  return { direction: d, order: o as ResultOrder, key: k, correctedSearch: c }
}

// --- Filter form state ---------------------------------------------------------

/** What the filter form shows for a query, read leniently (an invalid URL still fills the form as typed). */
export interface FilterInputs {
  search: string
  type: string
  licence: string
  minPrice: string
  maxPrice: string
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  hasSetupCall: boolean
  hasEmailSupport: boolean
  hasBespokeDev: boolean
  minRating: string
  sortBy: string
}

export function readFilterInputs(params: URLSearchParams): FilterInputs {
  const text = (name: string) => params.get(name)?.trim() ?? ''
  const values = (name: MultiValueField) => [
    ...new Set(
      params
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ]
  return {
    search: params.get('search') ?? '',
    type: text('type') || 'all',
    licence: text('licence') || 'all',
    minPrice: text('minPrice'),
    maxPrice: text('maxPrice'),
    languages: values('languages'),
    frameworks: values('frameworks'),
    dependencies: values('dependencies'),
    hasSetupCall: params.get('hasSetupCall') === 'true',
    hasEmailSupport: params.get('hasEmailSupport') === 'true',
    hasBespokeDev: params.get('hasBespokeDev') === 'true',
    minRating: text('minRating'),
    sortBy: text('sortBy') || DEFAULT_SORT,
  }
}

/** How many filters (not search or sort) the form has set: each chosen value counts. */
export function countActiveFilters(inputs: FilterInputs): number {
  return (
    Number(inputs.type !== 'all') +
    Number(inputs.licence !== 'all') +
    Number(inputs.minPrice !== '') +
    Number(inputs.maxPrice !== '') +
    inputs.languages.length +
    inputs.frameworks.length +
    inputs.dependencies.length +
    Number(inputs.hasSetupCall) +
    Number(inputs.hasEmailSupport) +
    Number(inputs.hasBespokeDev) +
    Number(inputs.minRating !== '')
  )
}

const FIELD_NAMES: Record<string, string> = {
  minPrice: 'minimum price',
  maxPrice: 'maximum price',
  sortBy: 'sort',
  hasSetupCall: 'setup call',
  hasEmailSupport: 'email support',
  hasBespokeDev: 'bespoke development',
  cursor: 'page link',
  minRating: 'minimum rating',
}

/** A parse error in words for the filter form ('minPrice must …' → 'Minimum price must …'). */
export function describeFilterError(error: FilterError): string {
  const text = error.message.replace(
    /\b(minPrice|maxPrice|sortBy|hasSetupCall|hasEmailSupport|hasBespokeDev|cursor|minRating)\b/g,
    (name) => FIELD_NAMES[name]!,
  )
  return text.charAt(0).toUpperCase() + text.slice(1)
}
