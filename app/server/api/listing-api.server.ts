import {
  fieldErrors,
  flattenListingBody,
  ListingApiSchema,
  listingInputFromApi,
  MAX_IMAGES,
  TOO_MANY_IMAGES_MESSAGE,
} from '~/lib/listing-schema'
import { AppError } from '../domain/errors.server.ts'
import { listingRepository, setListingRepository } from '../domain/github-listing-sources.server.ts'
import type { IdempotentCreate } from '../domain/idempotency.server.ts'
import { chosenFiles, ImageRejectedError, uploadImages } from '../domain/images.server.ts'
import {
  canViewListing,
  checkListingOwner,
  createListingOnce,
  deleteListing,
  getListingById,
  getListingBySlug,
  getOwnedListing,
  listSellerListingViews,
  setListingVisibility,
  updateListing,
  type ListingView,
  type OwnedListing,
} from '../domain/listings.server.ts'
import type { PublicUser } from '../domain/users.server.ts'
import { logSecurityEvent } from '../infra/log.server.ts'

/**
 * The listings JSON API of spec §7 on top of listings.server.ts, for the
 * resource routes under app/routes/api/listing*.ts (api-route.server.ts reads
 * the body and maps the AppErrors thrown here: `{ error }`, 400 adds `fields`).
 */

/** The fields the spec's nested techStack and support objects are built from. */
type SpecFields = Pick<
  ListingView,
  | 'languages'
  | 'frameworks'
  | 'dependencies'
  | 'setupCallAvailable'
  | 'setupCallDetails'
  | 'emailSupportAvailable'
  | 'emailSupportDuration'
  | 'deliveryTimeframe'
  | 'bespokeDevelopmentAvailable'
  | 'bespokeDevelopmentRateCents'
  | 'additionalNotes'
>

/**
 * The spec §3 entity's nested `techStack` and `support` objects, for every
 * listing the API returns (one listing, a seller's list, search results), so
 * clients written against the spec find the fields where they expect them.
 * The flat fields stay beside them for existing clients.
 */
export function specObjects(listing: SpecFields) {
  return {
    techStack: { languages: listing.languages, frameworks: listing.frameworks, dependencies: listing.dependencies },
    support: {
      setupCallAvailable: listing.setupCallAvailable,
      setupCallDetails: listing.setupCallDetails,
      emailSupportAvailable: listing.emailSupportAvailable,
      emailSupportDuration: listing.emailSupportDuration,
      deliveryTimeframe: listing.deliveryTimeframe,
      bespokeDevelopmentAvailable: listing.bespokeDevelopmentAvailable,
      // Spec: dollars per hour; the flat field carries cents.
      bespokeDevelopmentRate: listing.bespokeDevelopmentRateCents === null ? null : listing.bespokeDevelopmentRateCents / 100,
      additionalNotes: listing.additionalNotes,
    },
  }
}

/** The read view plus the spec's nested objects. */
export function toApiListing(listing: ListingView) {
  return { ...listing, ...specObjects(listing) }
}

function parseListingBody(body: Record<string, unknown>) {
  const parsed = ListingApiSchema.safeParse(body)
  if (!parsed.success) throw new AppError(400, 'Invalid listing', { fieldErrors: fieldErrors(parsed.error) })
  return { input: listingInputFromApi(parsed.data), githubRepoId: parsed.data.githubRepoId }
}

/** A stored listing as an API body, the base a PATCH is applied to. */
function asApiBody(listing: OwnedListing): Record<string, unknown> {
  const { id: _id, sellerId: _s, slug: _slug, createdAt: _c, updatedAt: _u, archivedAt: _a, currency: _cur, ...fields } = listing
  return fields
}

/**
 * POST /api/listings: a new listing for the signed-in user (visible unless the body says otherwise).
 * With an Idempotency-Key, a retry answers the listing the first request made
 * (as it is now) and `replayed`; a retry of a GitHub listing's create that stopped before its
 * repository was connected (the instance died, GitHub failed) connects it and shows it, as the
 * first request would have.
 */
export async function createApiListing(userId: string, body: Record<string, unknown>, idempotent?: IdempotentCreate) {
  const { input, githubRepoId } = parseListingBody({ visible: true, ...flattenListingBody(body) })
  const viaGithub = typeof githubRepoId === 'number'
  // Delivered through GitHub (issue 16): created hidden, shown once its repository is connected.
  const { listing, replayed } = await createListingOnce(userId, viaGithub ? { ...input, visible: false } : input, idempotent)
  if (!viaGithub || (replayed && (await listingRepository(listing.id)))) return { listing: toApiListing(listing), replayed }
  try {
    await setListingRepository({ listingId: listing.id, sellerId: userId, repoId: githubRepoId })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    throw new AppError(error.status, `The listing was saved hidden, without its source repository: ${error.message}`, {
      fieldErrors: error.fieldErrors,
      extra: { ...error.extra, listingId: listing.id },
    })
  }
  if (!input.visible) return { listing: toApiListing(listing), replayed }
  const shown = await setListingVisibility({ listingId: listing.id, sellerId: userId, visible: true })
  return { listing: toApiListing({ ...listing, ...shown }), replayed }
}

async function requireOwnListing(request: Request, userId: string, listingId: string) {
  const outcome = await checkListingOwner(listingId, userId)
  if (outcome === 'not_found') throw new AppError(404, 'Listing not found')
  if (outcome === 'forbidden') {
    logSecurityEvent('forbidden', request, { userId, listingId, reason: 'not the listing owner' })
    throw new AppError(403, 'You can only change your own listings')
  }
}

/**
 * GET /api/listings/:slug (the path is shared with PATCH/DELETE by id, so a GET
 * by id is answered too) and GET /api/listings/id/:id: a public listing,
 * hidden ones only for their seller.
 */
export async function getApiListing(slugOrId: string, viewer: PublicUser | null, { bySlug }: { bySlug: boolean }) {
  const listing = (bySlug ? await getListingBySlug(slugOrId) : undefined) ?? (await getListingById(slugOrId))
  if (!listing || !canViewListing(listing, viewer?.id)) throw new AppError(404, 'Listing not found')
  return toApiListing(listing)
}

/** PATCH /api/listings/:id: fields not sent keep their value. */
export async function patchApiListing(request: Request, userId: string, listingId: string, patch: Record<string, unknown>) {
  await requireOwnListing(request, userId, listingId)
  const body = flattenListingBody(patch)
  const current = await getOwnedListing(listingId, userId)
  if (!current) throw new AppError(404, 'Listing not found')
  const base = asApiBody(current)
  // A rate in dollars replaces the stored one in cents.
  if (body.bespokeDevelopmentRate !== undefined && body.bespokeDevelopmentRateCents === undefined) {
    delete base.bespokeDevelopmentRateCents
  }
  const { input, githubRepoId } = parseListingBody({ ...base, ...body })
  const updated = await updateListing(listingId, userId, input)
  if (!updated) throw new AppError(404, 'Listing not found')
  // Issue 16: `githubRepoId` connects (recording the head commit now) or, null, disconnects; absent leaves it.
  if (githubRepoId !== undefined) await setListingRepository({ listingId, sellerId: userId, repoId: githubRepoId })
  return toApiListing(updated)
}

/** DELETE /api/listings/:id: a listing with sales is archived instead (buyers keep their purchases). */
export async function deleteApiListing(request: Request, userId: string, listingId: string) {
  await requireOwnListing(request, userId, listingId)
  const result = await deleteListing(listingId, userId)
  if (result.outcome === 'not_found') throw new AppError(404, 'Listing not found')
  return { message: 'Your listing has been deleted successfully.', archived: result.outcome === 'archived' }
}

/**
 * POST /api/listings/upload-images: multipart, repeated `images`. Answers
 * `{ images: [urls], rejected: [{ name, error }] }`: the valid files are stored
 * even when others are refused; 400 when none could be stored.
 */
export async function uploadApiImages(ownerId: string, form: FormData) {
  const files = chosenFiles(form.getAll('images'))
  if (files.length === 0) throw new AppError(400, 'No images were uploaded')
  if (files.length > MAX_IMAGES) throw new AppError(400, TOO_MANY_IMAGES_MESSAGE)
  try {
    const { images, rejected } = await uploadImages(ownerId, files)
    if (images.length === 0) throw new AppError(400, rejected.map((r) => r.error).join('. '), { extra: { rejected } })
    return { images, rejected }
  } catch (error) {
    if (error instanceof ImageRejectedError) throw new AppError(400, error.message)
    throw error
  }
}

/** GET /api/seller/listings: the signed-in seller's listings (archived ones excluded), newest first. */
export async function sellerApiListings(userId: string) {
  return (await listSellerListingViews(userId)).map(toApiListing)
}
