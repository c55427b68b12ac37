import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import {
  fieldErrors,
  flattenListingBody,
  ListingApiSchema,
  listingInputFromApi,
  MAX_IMAGES,
  TOO_MANY_IMAGES_MESSAGE,
} from '~/lib/listing-schema'
import { getOptionalUser, requireUser } from './auth.server.ts'
import { readBodyText, readFormData } from './form-data.server.ts'
import { chosenFiles, ImageRejectedError, uploadImages } from './images.server.ts'
import {
  canViewListing,
  checkListingOwner,
  createListing,
  deleteListing,
  getListingById,
  getListingBySlug,
  getOwnedListing,
  listSellerListingViews,
  updateListing,
  type ListingView,
  type OwnedListing,
} from './listings.server.ts'
import { logSecurityEvent } from './log.server.ts'
import { apiError } from './responses.server.ts'

/**
 * The listings JSON API of spec §7 on top of listings.server.ts. Every error
 * is `{ error }` JSON with a 4xx (400 adds `fields`), never HTML or a 500.
 */

const MAX_JSON_BYTES = 256 * 1024

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

async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers.get('Content-Type') ?? '')) {
    throw apiError(415, 'Send the listing as JSON (Content-Type: application/json)')
  }
  const text = await readBodyText(request, MAX_JSON_BYTES)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw apiError(400, 'The request body is not valid JSON')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw apiError(400, 'Expected a JSON object')
  return flattenListingBody(body)
}

function parseListingBody(body: Record<string, unknown>) {
  const parsed = ListingApiSchema.safeParse(body)
  if (!parsed.success) throw apiError(400, 'Invalid listing', { fields: fieldErrors(parsed.error) })
  return listingInputFromApi(parsed.data)
}

/** A stored listing as an API body, the base a PATCH is applied to. */
function asApiBody(listing: OwnedListing): Record<string, unknown> {
  const { id: _id, sellerId: _s, slug: _slug, createdAt: _c, updatedAt: _u, archivedAt: _a, currency: _cur, ...fields } = listing
  return fields
}

/** POST /api/listings: create a listing for the signed-in user. */
export async function createListingApiAction({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  const body = await readJsonBody(request)
  // A new listing is visible unless the client says otherwise.
  const input = parseListingBody({ visible: true, ...body })
  const listing = await createListing(user.id, input)
  return data(toApiListing(listing), { status: 201 })
}

async function requireOwnListing(request: Request, userId: string, listingId: string) {
  const outcome = await checkListingOwner(listingId, userId)
  if (outcome === 'not_found') throw apiError(404, 'Listing not found')
  if (outcome === 'forbidden') {
    logSecurityEvent('forbidden', request, { userId, listingId, reason: 'not the listing owner' })
    throw apiError(403, 'You can only change your own listings')
  }
}

/** GET /api/listings/:slug: a public listing (hidden ones only for their seller). */
export async function listingBySlugApiLoader({ params, context }: LoaderFunctionArgs) {
  const slugOrId = params.slugOrId ?? ''
  // The path is shared with PATCH/DELETE by id, so a GET by id is answered too.
  const listing = (await getListingBySlug(slugOrId)) ?? (await getListingById(slugOrId))
  const viewer = await getOptionalUser(context)
  if (!listing || !canViewListing(listing, viewer?.id)) return apiError(404, 'Listing not found')
  return data(toApiListing(listing))
}

/** GET /api/listings/id/:id (edit mode, checkout). */
export async function listingByIdApiLoader({ params, context }: LoaderFunctionArgs) {
  const listing = await getListingById(params.id ?? '')
  const viewer = await getOptionalUser(context)
  if (!listing || !canViewListing(listing, viewer?.id)) return apiError(404, 'Listing not found')
  return data(toApiListing(listing))
}

/** PATCH /api/listings/:id (fields not sent keep their value) and DELETE /api/listings/:id. */
export async function listingApiAction({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'PATCH' && request.method !== 'DELETE') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  const listingId = params.slugOrId ?? params.id ?? ''
  await requireOwnListing(request, user.id, listingId)

  if (request.method === 'DELETE') {
    const result = await deleteListing(listingId, user.id)
    if (result.outcome === 'not_found') return apiError(404, 'Listing not found')
    return data({
      message: 'Your listing has been deleted successfully.',
      // A listing with sales is archived instead (buyers keep their purchases).
      archived: result.outcome === 'archived',
    })
  }

  const body = await readJsonBody(request)
  const current = await getOwnedListing(listingId, user.id)
  if (!current) return apiError(404, 'Listing not found')
  const base = asApiBody(current)
  // A rate in dollars replaces the stored one in cents.
  if (body.bespokeDevelopmentRate !== undefined && body.bespokeDevelopmentRateCents === undefined) {
    delete base.bespokeDevelopmentRateCents
  }
  const input = parseListingBody({ ...base, ...body })
  const updated = await updateListing(listingId, user.id, input)
  if (!updated) return apiError(404, 'Listing not found')
  return data(toApiListing(updated))
}

/**
 * POST /api/listings/upload-images: multipart, repeated `images`. Answers
 * `{ images: [urls], rejected: [{ name, error }] }`: the valid files are stored
 * even when others are refused; 400 when none could be stored.
 */
export async function uploadImagesApiAction({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  await requireUser(request, context)
  if (!/^multipart\/form-data\b/i.test(request.headers.get('Content-Type') ?? '')) {
    return apiError(400, 'Send the images as multipart/form-data in the field "images"')
  }
  const form = await readFormData(request)
  const files = chosenFiles(form.getAll('images'))
  if (files.length === 0) return apiError(400, 'No images were uploaded')
  if (files.length > MAX_IMAGES) return apiError(400, TOO_MANY_IMAGES_MESSAGE)
  try {
    const { images, rejected } = await uploadImages(files)
    if (images.length === 0) return apiError(400, rejected.map((r) => r.error).join('. '), { rejected })
    return data({ images, rejected })
  } catch (error) {
    if (error instanceof ImageRejectedError) return apiError(400, error.message)
    throw error
  }
}

/** GET /api/seller/listings: the signed-in seller's listings (archived ones excluded), newest first. */
export async function sellerListingsApiLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const listings = await listSellerListingViews(user.id)
  return data(listings.map(toApiListing))
}
