import { isUuid } from '~/lib/ids'
import { AppError } from '../domain/errors.server.ts'
import { canViewListing, getListingById, getListingBySlug } from '../domain/listings.server.ts'
import { decodeReviewCursor, listingReviews, REVIEWS_PAGE_SIZE } from '../domain/reviews.server.ts'
import type { PublicUser } from '../domain/users.server.ts'
import { db } from '../infra/db.server.ts'

const MAX_LIMIT = 50

/**
 * GET /api/listings/{id or slug}/reviews — a listing's visible reviews, newest
 * first: `{ rating: { average, count }, reviews, pagination: { limit, nextCursor } }`.
 * Keyset pages: pass `cursor` = nextCursor for older reviews. Bad values → 400 `{ error, field }`.
 */
export async function listingReviewsApi(idOrSlug: string, params: URLSearchParams, user: PublicUser | null) {
  const listing = isUuid(idOrSlug) ? await getListingById(idOrSlug) : await getListingBySlug(idOrSlug)
  if (!listing || !canViewListing(listing, user?.id)) throw new AppError(404, 'Listing not found')

  const rawLimit = params.get('limit')?.trim() || ''
  let limit = REVIEWS_PAGE_SIZE
  if (rawLimit) {
    if (!/^\d{1,2}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) {
      throw new AppError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}`, { extra: { field: 'limit' } })
    }
    limit = Number(rawLimit)
  }
  const rawCursor = params.get('cursor')?.trim() || ''
  const cursor = rawCursor ? decodeReviewCursor(rawCursor) : null
  if (rawCursor && !cursor) throw new AppError(400, 'cursor is invalid; start again from the first page', { extra: { field: 'cursor' } })

  const [rating, page] = await Promise.all([
    db.selectFrom('listings').select(['ratingCount', 'ratingAverageTenths']).where('id', '=', listing.id).executeTakeFirstOrThrow(),
    listingReviews(listing.id, { cursor, limit }),
  ])
  return {
    rating: { average: rating.ratingCount > 0 ? rating.ratingAverageTenths / 10 : null, count: rating.ratingCount },
    reviews: page.reviews.map(({ hidden: _hidden, ...review }) => review),
    pagination: { limit, hasNextPage: page.nextCursor !== null, nextCursor: page.nextCursor },
  }
}
