import { data } from 'react-router'
import { isUuid } from '~/lib/ids'
import type { ListingInput } from '~/lib/listing-schema'
import type { ListingVersion } from '~/lib/releases'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { slugify } from '~/lib/slug'
import type {
  BankDetailsStatus,
  Listing,
  ListingGithubColumns,
  ListingIdempotencyColumns,
  ListingRatingColumns,
  User,
} from '../../../db/schema.ts'
import { compileOnce } from '../infra/compiled-query.server.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { cancelStaleCheckouts } from './checkout.server.ts'
import { checkReplay, type IdempotentCreate } from './idempotency.server.ts'
import { assertOwnImages, deleteUnusedImages } from './images.server.ts'
import { changelogFromJson, changelogJson } from './listing-releases.server.ts'
import { takedownInForce } from './moderation.server.ts'
import {
  firstReviewsJson,
  reviewPageFromJson,
  viewerRelationFromJson,
  viewerSalesJson,
  type ReviewPage,
  type ViewerListingRelation,
} from './reviews.server.ts'

export type ListingSeller = Pick<User, 'id' | 'username' | 'displayName' | 'avatarUrl' | 'bio'>

/** Every public listing field; `deliveryUrl` is private (released to buyers only), the GitHub source too (github-listing-sources.server.ts). */
export type ListingRow = Omit<
  Listing,
  'deliveryUrl' | 'searchVector' | ListingGithubColumns | ListingRatingColumns | ListingIdempotencyColumns
>
export type ListingView = ListingRow & { seller: ListingSeller }

export interface SellerListingSummary {
  id: string
  title: string
  slug: string
  priceCents: number
  visible: boolean
  thumbnailUrl: string | null
  createdAt: Date
}

const LISTING_COLUMNS = [
  'listings.id',
  'listings.sellerId',
  'listings.title',
  'listings.slug',
  'listings.shortDescription',
  'listings.longDescription',
  'listings.type',
  'listings.priceCents',
  'listings.currency',
  'listings.licence',
  'listings.languages',
  'listings.frameworks',
  'listings.dependencies',
  'listings.setupCallAvailable',
  'listings.setupCallDetails',
  'listings.emailSupportAvailable',
  'listings.emailSupportDuration',
  'listings.deliveryTimeframe',
  'listings.bespokeDevelopmentAvailable',
  'listings.bespokeDevelopmentRateCents',
  'listings.additionalNotes',
  'listings.demoUrl',
  'listings.thumbnailUrl',
  'listings.screenshots',
  'listings.tags',
  'listings.visible',
  'listings.archivedAt',
  'listings.createdAt',
  'listings.updatedAt',
  'listings.lastUpdatedAt',
] as const

function listingViewQuery() {
  return db
    .selectFrom('listings')
    .innerJoin('users', 'users.id', 'listings.sellerId')
    .select(LISTING_COLUMNS)
    .select([
      'users.username as sellerUsername',
      'users.displayName as sellerDisplayName',
      'users.avatarUrl as sellerAvatarUrl',
      'users.bio as sellerBio',
    ])
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof listingViewQuery>['executeTakeFirstOrThrow']>>

function toView(row: ViewRow): ListingView {
  const { sellerUsername, sellerDisplayName, sellerAvatarUrl, sellerBio, ...listing } = row
  return {
    ...listing,
    seller: {
      id: listing.sellerId,
      username: sellerUsername,
      displayName: sellerDisplayName,
      avatarUrl: sellerAvatarUrl,
      bio: sellerBio,
    },
  }
}

/** Hidden and archived listings are returned too: callers decide who may see them. */
export async function getListingById(id: string): Promise<ListingView | undefined> {
  if (!isUuid(id)) return undefined
  const row = await listingViewQuery().where('listings.id', '=', id).executeTakeFirst()
  return row ? toView(row) : undefined
}

/** Hidden and archived listings are returned too: callers decide who may see them. */
export async function getListingBySlug(slug: string): Promise<ListingView | undefined> {
  if (typeof slug !== 'string' || slug.length === 0 || slug.length > 200) return undefined
  const row = await listingViewQuery().where('listings.slug', '=', slug).executeTakeFirst()
  return row ? toView(row) : undefined
}

/** The listing's GitHub source columns (github-listing-sources.server.ts's toListingRepository says what they mean). */
export const LISTING_SOURCE_COLUMNS = [
  'githubInstallationId',
  'githubRepoId',
  'githubRepoFullName',
  'githubDefaultBranch',
  'githubListedSha',
  'githubListedAt',
  'githubAccessLostAt',
  'githubAccessLostReason',
] as const satisfies readonly ListingGithubColumns[]
/** The same columns as the listing page's join names them (built once, not per request). */
const LISTING_SOURCE_SELECTION = LISTING_SOURCE_COLUMNS.map((column) => `listings.${column}` as const)

/** Moves `keys` of `row` into an object of their own: [those columns, the rest]. */
function splitColumns<T extends object, K extends keyof T>(row: T, keys: readonly K[]): [Pick<T, K>, Omit<T, K>] {
  const rest: Partial<T> = { ...row }
  const taken = {} as Pick<T, K>
  for (const key of keys) {
    taken[key] = row[key]
    delete rest[key]
  }
  return [taken, rest as Omit<T, K>]
}

function listingPageQuery(slug: string) {
  return (
    listingViewQuery()
      .leftJoin('bankDetails', 'bankDetails.userId', 'listings.sellerId')
      .select('bankDetails.status as sellerBankStatus')
      .select(LISTING_SOURCE_SELECTION)
      .select(['listings.ratingCount', 'listings.ratingAverageTenths'])
      // Its Changelog and first page of reviews too (listing-releases.server.ts, reviews.server.ts), which the page
      // used to read in statements of their own.
      .select((eb) => changelogJson(eb.ref('listings.id')).as('versions'))
      .select((eb) => firstReviewsJson(eb.ref('listings.id')).as('reviews'))
      .where('listings.slug', '=', slug)
  )
}

// getListingPageBySlug's statements, compiled once per process (compiled-query.server.ts): for anybody, and with
// a signed-in visitor's sales of the listing (their review, the sale they may review, the copy they own).
const listingPageRead = compileOnce(1, listingPageQuery)
const listingPageForViewerRead = compileOnce(2, (slug: string, viewerId: string) =>
  listingPageQuery(slug).select((eb) => viewerSalesJson(eb.ref('listings.id'), viewerId).as('viewerSales')),
)

/**
 * The listing page in one read: the listing, whether its seller can take
 * payments (`sellerCanTakePayments`), its source repository's columns
 * (github-listing-sources.server.ts's toListingRepository reads them), its stored
 * rating, its Changelog, its first page of reviews and, for a signed-in visitor,
 * their relation to it — the page used to read the same row three more times, and
 * each of the others in statements of their own. The seller's bank-details state
 * and the repository are private: callers show them to the seller only.
 */
export async function getListingPageBySlug(
  slug: string,
  viewerId?: string | null,
): Promise<
  | {
      listing: ListingView
      purchasable: boolean
      sellerBankStatus: BankDetailsStatus | null
      source: Pick<Listing, ListingGithubColumns>
      rating: Pick<Listing, 'ratingCount' | 'ratingAverageTenths'>
      versions: ListingVersion[]
      /** The first page of its visible reviews (reviews.server.ts). */
      reviews: ReviewPage
      /** The signed-in visitor's own review, the sale they may review and the copy they own; null for nobody. */
      viewer: ViewerListingRelation | null
    }
  | undefined
> {
  if (typeof slug !== 'string' || slug.length === 0 || slug.length > 200) return undefined
  const withViewer = typeof viewerId === 'string' && isUuid(viewerId)
  const [row] = withViewer ? await listingPageForViewerRead(slug, viewerId) : await listingPageRead(slug)
  if (!row) return undefined
  const { viewerSales, ...page } = row as typeof row & { viewerSales?: Parameters<typeof viewerRelationFromJson>[0] }
  const [source, { sellerBankStatus, ratingCount, ratingAverageTenths, versions, reviews, ...view }] = splitColumns(
    page,
    LISTING_SOURCE_COLUMNS,
  )
  return {
    listing: toView(view),
    purchasable: sellerCanTakePayments(sellerBankStatus),
    sellerBankStatus,
    source,
    rating: { ratingCount, ratingAverageTenths },
    versions: changelogFromJson(versions),
    reviews: reviewPageFromJson(reviews),
    viewer: viewerSales ? viewerRelationFromJson(viewerSales) : null,
  }
}

/** May `viewerId` see this listing's page? Hidden/archived ones only to their seller. */
export function canViewListing(listing: Pick<ListingRow, 'visible' | 'archivedAt' | 'sellerId'>, viewerId: string | null | undefined) {
  if (listing.archivedAt) return false
  return listing.visible || listing.sellerId === viewerId
}

/** The seller's listings for their dashboard (archived ones are gone from it), newest first. */
export async function listSellerListings(sellerId: string): Promise<SellerListingSummary[]> {
  if (!isUuid(sellerId)) return []
  return db
    .selectFrom('listings')
    .select(['id', 'title', 'slug', 'priceCents', 'visible', 'thumbnailUrl', 'createdAt'])
    .where('sellerId', '=', sellerId)
    .where('archivedAt', 'is', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** The seller's live listings in full (GET /api/seller/listings), newest first. */
export async function listSellerListingViews(sellerId: string): Promise<ListingView[]> {
  if (!isUuid(sellerId)) return []
  const rows = await listingViewQuery()
    .where('listings.sellerId', '=', sellerId)
    .where('listings.archivedAt', 'is', null)
    .orderBy('listings.createdAt', 'desc')
    .orderBy('listings.id', 'desc')
    .execute()
  return rows.map(toView)
}

function notFound(): never {
  throw data({ error: 'Listing not found' }, { status: 404 })
}

export const TAKEN_DOWN_MESSAGE = 'This listing was taken down by Forkmarket: it stays hidden until an admin restores it.'

/**
 * Show or hide a listing; 404 (thrown) unless it is the seller's own, live listing; 409 to show one
 * taken down (issue 30). Its other edits (updateListing) stay open to the seller, who may fix what
 * was reported: the database keeps it hidden while the takedown is in force (migration 0020).
 */
export async function setListingVisibility(input: { listingId: string; sellerId: string; visible: boolean }): Promise<ListingRow> {
  if (!isUuid(input.listingId) || !isUuid(input.sellerId)) notFound()
  if (input.visible && (await takedownInForce(input.listingId))) throw data({ error: TAKEN_DOWN_MESSAGE }, { status: 409 })
  const row = await db
    .updateTable('listings')
    .set({ visible: input.visible, updatedAt: new Date() })
    .where('id', '=', input.listingId)
    .where('sellerId', '=', input.sellerId)
    .where('archivedAt', 'is', null)
    .returning(LISTING_COLUMNS)
    .executeTakeFirst()
  if (!row) notFound()
  await cancelStaleCheckouts(row.id)
  return row
}

/** The private instant-delivery link (design.md §5), for fulfilment code only. */
export async function getDeliveryUrl(listingId: string): Promise<string | null> {
  if (!isUuid(listingId)) return null
  const row = await db.selectFrom('listings').select('deliveryUrl').where('id', '=', listingId).executeTakeFirst()
  return row?.deliveryUrl ?? null
}

// ---------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------

/** Slug base for a title; titles without a Latin letter or digit get 'listing'. */
function slugBase(title: string): string {
  return slugify(title).slice(0, 70).replace(/-+$/g, '') || 'listing'
}

/** The first of base, base-2, base-3… no listing uses yet. */
async function nextFreeSlug(base: string): Promise<string> {
  const taken = await db
    .selectFrom('listings')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute()
  const used = new Set(taken.map((t) => t.slug))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!used.has(candidate)) return candidate
  }
}

function columnsFrom(input: ListingInput) {
  return {
    title: input.title,
    shortDescription: input.shortDescription,
    longDescription: input.longDescription,
    type: input.type,
    priceCents: input.priceCents,
    licence: input.licence,
    languages: input.languages,
    frameworks: input.frameworks,
    dependencies: input.dependencies,
    setupCallAvailable: input.setupCallAvailable,
    setupCallDetails: input.setupCallDetails,
    emailSupportAvailable: input.emailSupportAvailable,
    emailSupportDuration: input.emailSupportDuration,
    deliveryTimeframe: input.deliveryTimeframe,
    deliveryUrl: input.deliveryUrl,
    bespokeDevelopmentAvailable: input.bespokeDevelopmentAvailable,
    bespokeDevelopmentRateCents: input.bespokeDevelopmentRateCents,
    additionalNotes: input.additionalNotes,
    demoUrl: input.demoUrl,
    thumbnailUrl: input.thumbnailUrl,
    screenshots: input.screenshots,
    tags: input.tags,
    visible: input.visible,
  }
}

/**
 * Creates a listing with a unique slug made from its title. Two sellers racing
 * for the same slug both compute the same candidate; the unique index refuses
 * the second insert and it retries with the next free one.
 */
export async function createListing(sellerId: string, input: ListingInput): Promise<ListingView> {
  return (await createListingOnce(sellerId, input)).listing
}

/**
 * Creates a listing; with an Idempotency-Key, at most one per key and seller: a retry of the same
 * request answers the listing the first one made (`replayed`, as it is now), a different request
 * with a used key is a 422. Two retries at once: the unique index lets one INSERT through.
 */
export async function createListingOnce(
  sellerId: string,
  input: ListingInput,
  idempotent?: IdempotentCreate,
): Promise<{ listing: ListingView; replayed: boolean }> {
  if (idempotent) {
    const earlier = await listingCreatedWith(sellerId, idempotent)
    if (earlier) return { listing: earlier, replayed: true }
  }
  await assertOwnImages(sellerId, [input.thumbnailUrl, ...input.screenshots])
  const base = slugBase(input.title)
  for (let attempt = 0; attempt < 8; attempt++) {
    const slug = await nextFreeSlug(base)
    try {
      const row = await db
        .insertInto('listings')
        .values({ ...columnsFrom(input), sellerId, slug, idempotencyKey: idempotent?.key, idempotencyHash: idempotent?.hash })
        .returning('id')
        .executeTakeFirstOrThrow()
      logEvent('info', 'listing_created', { listingId: row.id, sellerId })
      return { listing: (await getListingById(row.id))!, replayed: false }
    } catch (error) {
      if (idempotent && isUniqueViolation(error, 'listings_seller_idempotency_key')) {
        const earlier = await listingCreatedWith(sellerId, idempotent)
        if (earlier) return { listing: earlier, replayed: true }
        continue // the listing that held the key was deleted meanwhile: the key is free again
      }
      if (!isUniqueViolation(error, 'listings_slug_key')) throw error
    }
  }
  throw new Error('Could not allocate a unique slug')
}

/** The listing this seller created with this key (as it is now), or undefined; a 422 when the request differed. */
async function listingCreatedWith(sellerId: string, idempotent: IdempotentCreate): Promise<ListingView | undefined> {
  const row = await db
    .selectFrom('listings')
    .select(['id', 'idempotencyHash'])
    .where('sellerId', '=', sellerId)
    .where('idempotencyKey', '=', idempotent.key)
    .executeTakeFirst()
  if (!row) return undefined
  checkReplay(row, idempotent)
  return getListingById(row.id)
}

export type OwnedListing = ListingRow & { deliveryUrl: string | null }

/**
 * The seller's own live listing, with its private delivery link (for the edit
 * form). Missing, archived or someone else's → undefined.
 */
export async function getOwnedListing(listingId: string, sellerId: string): Promise<OwnedListing | undefined> {
  if (!isUuid(listingId) || !isUuid(sellerId)) return undefined
  return db
    .selectFrom('listings')
    .select([...LISTING_COLUMNS, 'listings.deliveryUrl'])
    .where('listings.id', '=', listingId)
    .where('listings.sellerId', '=', sellerId)
    .where('listings.archivedAt', 'is', null)
    .executeTakeFirst()
}

export type WriteOutcome = 'ok' | 'not_found' | 'forbidden'

/**
 * The one ownership rule for writing to a listing, on every surface (the edit
 * and listing screens, the API): 'ok' for the seller's own live listing;
 * 'forbidden' (403) for a listing the caller can see but is not theirs;
 * 'not_found' (404) for a missing or archived listing or someone else's hidden
 * one (no hint that it exists).
 */
export async function checkListingOwner(listingId: string, userId: string): Promise<WriteOutcome> {
  if (!isUuid(listingId)) return 'not_found'
  const row = await db.selectFrom('listings').select(['sellerId', 'archivedAt', 'visible']).where('id', '=', listingId).executeTakeFirst()
  if (!row || row.archivedAt) return 'not_found'
  if (row.sellerId === userId) return 'ok'
  return row.visible ? 'forbidden' : 'not_found'
}

/** Best effort: a leftover file costs storage, a failed request would cost the seller's edit. */
async function removeImages(urls: string[]) {
  try {
    await deleteUnusedImages(urls)
  } catch (error) {
    logEvent('warn', 'listing_image_cleanup_failed', { reason: error instanceof Error ? error.message : String(error) })
  }
}

/**
 * Replaces the editable fields of the seller's listing. The slug stays as it
 * was (links keep working after a title change). Images dropped from the
 * listing are removed from storage when nothing else uses them. Images new to the listing must be
 * the seller's own uploads (a 400 otherwise).
 */
export async function updateListing(listingId: string, sellerId: string, input: ListingInput): Promise<ListingView | undefined> {
  const before = await getOwnedListing(listingId, sellerId)
  if (!before) return undefined
  await assertOwnImages(sellerId, [input.thumbnailUrl, ...input.screenshots], [before.thumbnailUrl, ...before.screenshots])
  const row = await db
    .updateTable('listings')
    .set({ ...columnsFrom(input), updatedAt: new Date() })
    .where('id', '=', listingId)
    .where('sellerId', '=', sellerId)
    .where('archivedAt', 'is', null)
    .returning('id')
    .executeTakeFirst()
  if (!row) return undefined
  await cancelStaleCheckouts(listingId)
  const kept = new Set([input.thumbnailUrl, ...input.screenshots])
  await removeImages([before.thumbnailUrl, ...before.screenshots].filter((u): u is string => !!u && !kept.has(u)))
  logEvent('info', 'listing_updated', { listingId, sellerId })
  return getListingById(listingId)
}

export type DeleteResult = { outcome: 'deleted' | 'archived'; title: string } | { outcome: 'not_found' }

/**
 * Deletes the seller's listing, or archives it when it has sales (any
 * transaction row, design.md §5): it leaves the marketplace and the seller's
 * list, and buyers keep their purchases. The check and the delete run in one
 * transaction holding the listing's row lock, so a checkout that starts
 * meanwhile (its insert needs the row via the foreign key) cannot slip between.
 */
export async function deleteListing(listingId: string, sellerId: string): Promise<DeleteResult> {
  if (!isUuid(listingId) || !isUuid(sellerId)) return { outcome: 'not_found' }
  const result = await db.transaction().execute(async (trx) => {
    const listing = await trx
      .selectFrom('listings')
      .select(['id', 'title', 'thumbnailUrl', 'screenshots'])
      .where('id', '=', listingId)
      .where('sellerId', '=', sellerId)
      .where('archivedAt', 'is', null)
      .forUpdate()
      .executeTakeFirst()
    if (!listing) return undefined
    const sale = await trx.selectFrom('transactions').select('id').where('listingId', '=', listingId).limit(1).executeTakeFirst()
    if (sale) {
      await trx.updateTable('listings').set({ archivedAt: new Date(), updatedAt: new Date() }).where('id', '=', listingId).execute()
      return { outcome: 'archived' as const, listing }
    }
    await trx.deleteFrom('listings').where('id', '=', listingId).execute()
    return { outcome: 'deleted' as const, listing }
  })
  if (!result) return { outcome: 'not_found' }
  if (result.outcome === 'archived') await cancelStaleCheckouts(listingId)
  if (result.outcome === 'deleted') {
    await removeImages([result.listing.thumbnailUrl, ...result.listing.screenshots].filter((u): u is string => !!u))
  }
  logEvent('info', `listing_${result.outcome}`, { listingId, sellerId })
  return { outcome: result.outcome, title: result.listing.title }
}
