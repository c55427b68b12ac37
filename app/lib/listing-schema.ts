import { z } from '~/lib/zod'
import { DECIMAL_TEXT, dollarsToCents, formatCents, parseDollarsToCents } from './money'
import { DELIVERY_TIMEFRAMES, EMAIL_SUPPORT_DURATIONS, LICENCES, LISTING_TYPES } from './options'

/**
 * THE listing schema (product spec §5), shared by the form (browser and
 * action, through Conform with auto-coercion off) and the JSON API. Inputs
 * arrive as form strings or JSON values; each field normalises both itself,
 * so the rules and messages live in one place.
 *
 * - The form sends the price in dollars (`price`); the API in cents (`priceCents`).
 * - Conditional fields are dropped when their switch is off (and the delivery
 *   link unless delivery is instant and no source repository is chosen),
 *   whatever the client sent.
 * - Fields the client must not set (id, sellerId, slug, createdAt, …) are not
 *   in the schema, so they are stripped.
 */

export const MAX_IMAGES = 10
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const IMAGE_HINT = '5MB each, JPG, PNG or WebP'
/** The most a card payment can be: Stripe's maximum charge in USD is $999,999.99. */
export const MAX_PRICE_CENTS = 99_999_999
/** The least a card payment can be: Stripe's minimum charge in USD is $0.50. */
export const MIN_CARD_PRICE_CENTS = 50
export const MAX_BESPOKE_RATE_DOLLARS = 100_000
export const MAX_TECH_ITEMS = 20
export const MAX_TECH_VALUE_LENGTH = 50
export const MAX_TAGS = 20

export const PRICE_MIN_MESSAGE = 'Price must be at least $0.01'
export const PRICE_CARD_MIN_MESSAGE = `Card payments start at ${formatCents(MIN_CARD_PRICE_CENTS)}: the price must be at least ${formatCents(MIN_CARD_PRICE_CENTS)}`
export const PRICE_MAX_MESSAGE = `Price must be at most ${formatCents(MAX_PRICE_CENTS)}, the largest card payment`
export const PRICE_NUMBER_MESSAGE = 'Price must be a number'

/** Longest text per field: one list for the schema, the form's counters and its hints. */
export const TEXT_LIMITS = {
  title: 120,
  shortDescription: 300,
  longDescription: 20_000,
  setupCallDetails: 1000,
  additionalNotes: 2000,
} as const
export const TOO_MANY_IMAGES_MESSAGE = `You can upload a maximum of ${MAX_IMAGES} images`

/** Where our storage serves a re-encoded upload: /uploads/<32 hex key>/full.webp. */
export const UPLOADED_IMAGE_URL = /^\/uploads\/[a-f0-9]{32}\/full\.webp$/

// ---------------------------------------------------------------------------
// Value normalisers (form strings and JSON values alike)
// ---------------------------------------------------------------------------

/** Trimmed text, or undefined for missing/blank (so `optional()` means "may be empty"). */
function blankToUndefined(value: unknown) {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') {
    const trimmed = value.trim()
    return trimmed === '' ? undefined : trimmed
  }
  return value
}

/** Text in plain decimal notation becomes a number; anything else (`0x10`, `1e3`, `abc`) stays text and fails as "must be a number". */
function toNumber(value: unknown) {
  const v = blankToUndefined(value)
  if (typeof v === 'string') return DECIMAL_TEXT.test(v) ? Number(v) : v
  return v
}

/** A checkbox sends 'on' when checked and nothing otherwise; JSON sends a boolean. */
function toBoolean(value: unknown) {
  if (typeof value === 'boolean') return value
  if (value === undefined || value === null || value === '') return false
  if (typeof value === 'string') {
    if (['on', 'true', '1', 'yes'].includes(value.toLowerCase())) return true
    if (['off', 'false', '0', 'no'].includes(value.toLowerCase())) return false
  }
  return value
}

function toList(value: unknown): unknown {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value : [value]
}

/** Trimmed, non-empty, without case-insensitive duplicates, in the order given. */
export function cleanList(values: readonly string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const raw of values) {
    const value = raw.replace(/\s+/g, ' ').trim()
    const key = value.toLowerCase()
    if (!value || seen.has(key)) continue
    seen.add(key)
    out.push(value)
  }
  return out
}

/** Tags are free text: "saas, billing" in the form, a list (or that text) in the API. */
export function splitTags(value: unknown): unknown {
  if (typeof value === 'string') return value.split(',')
  return toList(value)
}

const requiredText = (max: number, what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: (issue) => (issue.input === undefined ? 'Required' : `${what} must be text`) })
      .max(max, `${what} must be at most ${max} characters`),
  )

const optionalText = (max: number, what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${what} must be text` })
      .max(max, `${what} must be at most ${max} characters`)
      .optional(),
  )

const switchField = z.preprocess(toBoolean, z.boolean({ error: 'Must be on or off' }))

function textList(max: number, what: string, plural: string, itemMax: number, split: (v: unknown) => unknown = toList) {
  return z.preprocess(
    split,
    z
      .array(z.string({ error: `Each ${what} must be text` }).max(itemMax, `Each ${what} must be at most ${itemMax} characters`))
      .transform(cleanList)
      .pipe(z.array(z.string()).max(max, `Choose at most ${max} ${plural}`)),
  )
}

const webUrl = (message: string, protocol: RegExp) =>
  z.preprocess(
    blankToUndefined,
    z
      .url({ protocol, error: message })
      .max(2048, 'That link is too long')
      .refine((v) => !/\s/.test(v), message)
      .optional(),
  )

/** A GitHub repository id is a positive whole number (GitHub's are far below 2^53). */
const REPOSITORY_CHOICE_MESSAGE = 'Choose a repository from the list'

/**
 * The listing's source repository (issue 16), by GitHub's id: empty text or
 * null disconnects it; absent (a PATCH without it) leaves it as it is.
 */
const githubRepoId = z.preprocess(
  (value) => (value === null || (typeof value === 'string' && value.trim() === '') ? null : toNumber(value)),
  z
    .number({ error: REPOSITORY_CHOICE_MESSAGE })
    .int(REPOSITORY_CHOICE_MESSAGE)
    .positive(REPOSITORY_CHOICE_MESSAGE)
    .max(Number.MAX_SAFE_INTEGER, REPOSITORY_CHOICE_MESSAGE)
    .nullable()
    .optional(),
)

/** True when the value names a repository (the listing is delivered through GitHub, not by a link). */
function namesRepository(value: unknown): boolean {
  return value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '')
}

const imageUrl = z.string({ error: 'Not an uploaded image' }).regex(UPLOADED_IMAGE_URL, 'Not an uploaded image')

const enumField = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    blankToUndefined,
    z.enum(values, { error: (issue) => (issue.input === undefined ? 'Required' : 'Choose one of the options') }),
  )

const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(blankToUndefined, z.enum(values, { error: 'Choose one of the options' }).optional())

// ---------------------------------------------------------------------------
// Fields shared by the form and the API
// ---------------------------------------------------------------------------

const sharedShape = {
  title: requiredText(TEXT_LIMITS.title, 'Title'),
  shortDescription: requiredText(TEXT_LIMITS.shortDescription, 'Short description'),
  longDescription: optionalText(TEXT_LIMITS.longDescription, 'Long description'),
  type: enumField(LISTING_TYPES),
  licence: enumField(LICENCES),
  tags: textList(MAX_TAGS, 'tag', 'tags', 40, splitTags),
  languages: textList(MAX_TECH_ITEMS, 'language', 'languages', MAX_TECH_VALUE_LENGTH),
  frameworks: textList(MAX_TECH_ITEMS, 'framework', 'frameworks', MAX_TECH_VALUE_LENGTH),
  dependencies: textList(MAX_TECH_ITEMS, 'dependency', 'dependencies', MAX_TECH_VALUE_LENGTH),
  demoUrl: webUrl('Enter a valid URL (http:// or https://)', /^https?$/),
  setupCallAvailable: switchField,
  setupCallDetails: optionalText(TEXT_LIMITS.setupCallDetails, 'Setup call details'),
  emailSupportAvailable: switchField,
  emailSupportDuration: optionalEnum(EMAIL_SUPPORT_DURATIONS),
  deliveryTimeframe: optionalEnum(DELIVERY_TIMEFRAMES),
  deliveryUrl: webUrl('Enter a private link that starts with https://', /^https$/),
  githubRepoId,
  bespokeDevelopmentAvailable: switchField,
  additionalNotes: optionalText(TEXT_LIMITS.additionalNotes, 'Additional notes'),
  thumbnailUrl: z.preprocess(blankToUndefined, imageUrl.optional()),
  screenshots: z.preprocess(
    toList,
    z.array(imageUrl).transform((urls) => [...new Set(urls)]),
  ),
  visible: switchField,
}

const bespokeRateDollars = z.preprocess(
  toNumber,
  z
    .number({ error: 'Hourly rate must be a number' })
    .min(0, 'Hourly rate must be at least $0')
    .max(MAX_BESPOKE_RATE_DOLLARS, `Hourly rate must be at most $${MAX_BESPOKE_RATE_DOLLARS.toLocaleString('en-US')}`)
    .optional(),
)

/** What is wrong with a price in cents (one message, the most useful first), or null. */
export function priceProblem(cents: number): string | null {
  if (cents < 1) return PRICE_MIN_MESSAGE
  if (cents > MAX_PRICE_CENTS) return PRICE_MAX_MESSAGE
  if (!Number.isInteger(cents)) return 'Price must be a whole number of cents'
  if (cents < MIN_CARD_PRICE_CENTS) return PRICE_CARD_MIN_MESSAGE
  return null
}

/**
 * The price rules, in cents, for the form and the API alike: at least 1 cent
 * (spec §5), and a price a card can be charged — from $0.50 to $999,999.99
 * (Stripe's limits for USD), so a listing never shows a Buy Now that fails.
 */
const priceInCents = z
  .number({ error: (issue) => (issue.input === undefined ? 'Required' : PRICE_NUMBER_MESSAGE) })
  .superRefine((cents, ctx) => {
    const message = priceProblem(cents)
    if (message) ctx.addIssue({ code: 'custom', message })
  })

/** The form's price: dollars as typed, converted to cents by rounding (spec §5), exactly. */
const priceDollars = z.preprocess((value) => {
  const v = blankToUndefined(value)
  if (typeof v === 'number') return Number.isFinite(v) ? dollarsToCents(v) : v
  return typeof v === 'string' ? (parseDollarsToCents(v) ?? v) : v
}, priceInCents)

/** The API's price: `priceCents`, a whole number (JSON number or decimal text). */
const priceCents = z.preprocess(toNumber, priceInCents)

type Shared = z.output<z.ZodObject<typeof sharedShape>>

/**
 * Cross-field rules; `when: () => true` runs them even when a field above
 * failed, so the form shows every problem at once (values may be partial).
 */
function checkConditionalFields(value: Partial<Shared>, ctx: z.RefinementCtx) {
  if (value.emailSupportAvailable === true && !value.emailSupportDuration) {
    ctx.addIssue({ code: 'custom', path: ['emailSupportDuration'], message: 'Required' })
  }
  // A listing with a source repository is delivered by invitation: it needs no link.
  if (value.deliveryTimeframe === 'instant' && !value.deliveryUrl && !namesRepository(value.githubRepoId)) {
    ctx.addIssue({ code: 'custom', path: ['deliveryUrl'], message: 'Instant delivery needs a private delivery link' })
  }
  const screenshots = Array.isArray(value.screenshots) ? value.screenshots : []
  const withThumbnail = value.thumbnailUrl && !screenshots.includes(value.thumbnailUrl) ? 1 : 0
  if (screenshots.length + withThumbnail > MAX_IMAGES) {
    ctx.addIssue({ code: 'custom', path: ['screenshots'], message: TOO_MANY_IMAGES_MESSAGE })
  }
}
const ALWAYS = { when: () => true } as const

/**
 * Conditional fields whose switch is off are ignored entirely: not stored and
 * not validated (without JavaScript every field is posted, whatever it holds).
 */
function dropSwitchedOffFields(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw
  const value: Record<string, unknown> = { ...(raw as Record<string, unknown>) }
  const isOn = (name: string) => toBoolean(value[name]) === true
  if (!isOn('setupCallAvailable')) delete value.setupCallDetails
  if (!isOn('emailSupportAvailable')) delete value.emailSupportDuration
  if (!isOn('bespokeDevelopmentAvailable')) {
    delete value.bespokeDevelopmentRate
    delete value.bespokeDevelopmentRateCents
  }
  if (blankToUndefined(value.deliveryTimeframe) !== 'instant' || namesRepository(value.githubRepoId)) delete value.deliveryUrl
  return value
}

/** The form as the browser sends it (Conform). `removeImages` is the no-JavaScript "remove" checkbox. */
export const ListingFormSchema = z.preprocess(
  dropSwitchedOffFields,
  z
    .object({
      ...sharedShape,
      // Typed in dollars; the parsed value is in cents.
      price: priceDollars,
      bespokeDevelopmentRate: bespokeRateDollars,
      removeImages: z.preprocess(toList, z.array(z.string())),
    })
    .superRefine(checkConditionalFields, ALWAYS),
)

/** The JSON body of POST/PATCH /api/listings (spec §7: priceCents in cents). */
export const ListingApiSchema = z.preprocess(
  dropSwitchedOffFields,
  z
    .object({
      ...sharedShape,
      priceCents,
      // Spec: support.bespokeDevelopmentRate is dollars per hour; the read view carries cents.
      bespokeDevelopmentRate: bespokeRateDollars,
      bespokeDevelopmentRateCents: z.preprocess(
        toNumber,
        z
          .number({ error: 'Hourly rate must be a number' })
          .int('Hourly rate must be a whole number of cents')
          .min(0, 'Hourly rate must be at least $0')
          .max(MAX_BESPOKE_RATE_DOLLARS * 100, 'Hourly rate is too high')
          .optional(),
      ),
    })
    .superRefine(checkConditionalFields, ALWAYS),
)

export type ListingFormValue = z.output<typeof ListingFormSchema>
export type ListingApiValue = z.output<typeof ListingApiSchema>

/** What the listings module stores: normalised, conditional fields applied. */
export interface ListingInput {
  title: string
  shortDescription: string
  longDescription: string
  type: (typeof LISTING_TYPES)[number]
  priceCents: number
  licence: (typeof LICENCES)[number]
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  tags: string[]
  setupCallAvailable: boolean
  setupCallDetails: string | null
  emailSupportAvailable: boolean
  emailSupportDuration: string | null
  deliveryTimeframe: string | null
  deliveryUrl: string | null
  bespokeDevelopmentAvailable: boolean
  bespokeDevelopmentRateCents: number | null
  additionalNotes: string | null
  demoUrl: string | null
  thumbnailUrl: string | null
  screenshots: string[]
  visible: boolean
}

/**
 * Spec §4 image flow: the main image (thumbnail) is one of the images, the
 * first one when none is chosen (or the chosen one was removed); none when
 * there are no images.
 */
export function applyImageFlow(screenshots: readonly string[], thumbnailUrl: string | null | undefined) {
  const images = [...new Set(screenshots)]
  if (thumbnailUrl && !images.includes(thumbnailUrl)) images.unshift(thumbnailUrl)
  return { screenshots: images, thumbnailUrl: thumbnailUrl ?? images[0] ?? null }
}

function fromShared(
  value: Shared,
  priceCentsValue: number,
  rateCents: number | undefined,
  images: { screenshots: string[]; thumbnailUrl: string | null },
): ListingInput {
  return {
    title: value.title,
    shortDescription: value.shortDescription,
    longDescription: value.longDescription ?? '',
    type: value.type,
    priceCents: priceCentsValue,
    licence: value.licence,
    languages: value.languages,
    frameworks: value.frameworks,
    dependencies: value.dependencies,
    tags: value.tags,
    // A switched-off option carries no details, whatever else was posted (e.g. without JavaScript).
    setupCallAvailable: value.setupCallAvailable,
    setupCallDetails: value.setupCallAvailable ? (value.setupCallDetails ?? null) : null,
    emailSupportAvailable: value.emailSupportAvailable,
    emailSupportDuration: value.emailSupportAvailable ? (value.emailSupportDuration ?? null) : null,
    deliveryTimeframe: value.deliveryTimeframe ?? null,
    deliveryUrl: value.deliveryTimeframe === 'instant' ? (value.deliveryUrl ?? null) : null,
    bespokeDevelopmentAvailable: value.bespokeDevelopmentAvailable,
    bespokeDevelopmentRateCents: value.bespokeDevelopmentAvailable && rateCents !== undefined ? rateCents : null,
    additionalNotes: value.additionalNotes ?? null,
    demoUrl: value.demoUrl ?? null,
    ...images,
    visible: value.visible,
  }
}

/**
 * The form's value as stored, with the images uploaded in the same (no-JS)
 * post appended. Removed images leave the list; if the main one went, the
 * first remaining image becomes the thumbnail.
 */
export function listingInputFromForm(value: ListingFormValue, uploadedUrls: readonly string[] = []): ListingInput {
  const removed = new Set(value.removeImages)
  const kept = value.screenshots.filter((url) => !removed.has(url))
  const thumbnail = value.thumbnailUrl && !removed.has(value.thumbnailUrl) ? value.thumbnailUrl : null
  const images = applyImageFlow([...kept, ...uploadedUrls], thumbnail)
  const rate = value.bespokeDevelopmentRate
  return fromShared(value, value.price, rate === undefined ? undefined : dollarsToCents(rate), images)
}

export function listingInputFromApi(value: ListingApiValue): ListingInput {
  const rateCents =
    value.bespokeDevelopmentRateCents ??
    (value.bespokeDevelopmentRate === undefined ? undefined : dollarsToCents(value.bespokeDevelopmentRate))
  return fromShared(value, value.priceCents, rateCents, applyImageFlow(value.screenshots, value.thumbnailUrl))
}

/**
 * Spec §3 nests techStack and support; older clients send a single language
 * or framework. The API accepts those shapes and flattens them first.
 */
export function flattenListingBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
  const { techStack, support, language, framework, ...rest } = body as Record<string, unknown>
  const flat: Record<string, unknown> = {}
  if (typeof language === 'string' && language.trim()) flat.languages = [language]
  if (typeof framework === 'string' && framework.trim()) flat.frameworks = [framework]
  for (const nested of [techStack, support]) {
    if (nested && typeof nested === 'object' && !Array.isArray(nested)) Object.assign(flat, nested)
  }
  return { ...flat, ...rest }
}

/** Zod issues as `{ "field.path": ["message", …] }` for API 400 bodies. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_form'
    ;(fields[key] ??= []).push(issue.message)
  }
  return fields
}

/** The form's starting values: empty for a new listing, the stored ones when editing. */
export interface ListingFormDefaults {
  title: string
  shortDescription: string
  longDescription: string
  type: string
  price: string
  licence: string
  tags: string
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  demoUrl: string
  setupCallAvailable: boolean
  setupCallDetails: string
  emailSupportAvailable: boolean
  emailSupportDuration: string
  deliveryTimeframe: string
  deliveryUrl: string
  /** The connected GitHub repository's id, '' for none (set by the edit screen from github-listing-sources.server). */
  githubRepoId: string
  bespokeDevelopmentAvailable: boolean
  bespokeDevelopmentRate: string
  additionalNotes: string
  screenshots: string[]
  thumbnailUrl: string
  visible: boolean
}

type StoredListingFields = Omit<ListingInput, 'type' | 'licence'> & { type: string; licence: string }

export function listingFormDefaults(listing?: StoredListingFields): ListingFormDefaults {
  return {
    title: listing?.title ?? '',
    shortDescription: listing?.shortDescription ?? '',
    longDescription: listing?.longDescription ?? '',
    type: listing?.type ?? 'template',
    price: listing ? (listing.priceCents / 100).toFixed(2) : '',
    licence: listing?.licence ?? 'personal',
    tags: listing?.tags.join(', ') ?? '',
    languages: listing?.languages ?? [],
    frameworks: listing?.frameworks ?? [],
    dependencies: listing?.dependencies ?? [],
    demoUrl: listing?.demoUrl ?? '',
    setupCallAvailable: listing?.setupCallAvailable ?? false,
    setupCallDetails: listing?.setupCallDetails ?? '',
    emailSupportAvailable: listing?.emailSupportAvailable ?? false,
    emailSupportDuration: listing?.emailSupportDuration ?? '',
    deliveryTimeframe: listing?.deliveryTimeframe ?? '',
    deliveryUrl: listing?.deliveryUrl ?? '',
    githubRepoId: '',
    bespokeDevelopmentAvailable: listing?.bespokeDevelopmentAvailable ?? false,
    bespokeDevelopmentRate:
      listing?.bespokeDevelopmentRateCents === null || listing?.bespokeDevelopmentRateCents === undefined
        ? ''
        : String(listing.bespokeDevelopmentRateCents / 100),
    additionalNotes: listing?.additionalNotes ?? '',
    screenshots: listing?.screenshots ?? [],
    thumbnailUrl: listing?.thumbnailUrl ?? '',
    visible: listing?.visible ?? true,
  }
}
