/**
 * Seller pages (issue 18): the public page at /sellers/{username} and the
 * "Public profile" section of /profile that edits it.
 *
 * Once a user edits their profile (profile_edited_at), signing in no longer
 * overwrites the display name and avatar from the identity provider
 * (users.server.ts syncUser).
 */
import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { ratingSummary } from '~/lib/ratings'
import { USERNAME_PATTERN, USERNAME_TAKEN_MESSAGE, usernameProblem, type SellerProfileInput } from '~/lib/seller-profile-schema'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { AppError } from './errors.server.ts'
import { deleteUnusedImages, ImageRejectedError, prepareImage, storePreparedImages } from './images.server.ts'
import { sellerRatingTotals, sellerRecentReviews, type ReviewView } from './reviews.server.ts'

export interface EditableProfile {
  username: string
  displayName: string
  bio: string
  avatarUrl: string | null
}

export async function getEditableProfile(userId: string): Promise<EditableProfile | null> {
  if (!isUuid(userId)) return null
  const row = await db
    .selectFrom('users')
    .select(['username', 'displayName', 'bio', 'avatarUrl'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return row ? { ...row, bio: row.bio ?? '' } : null
}

/** Saves username, display name and bio; a taken username is a 409 on the username field. */
export async function updateSellerProfile(userId: string, input: SellerProfileInput): Promise<EditableProfile> {
  const current = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst()
  if (!current) throw new AppError(404, 'User not found')
  const problem = input.username === current.username ? null : usernameProblem(input.username)
  if (problem) throw new AppError(400, problem, { fieldErrors: { username: [problem] }, extra: { field: 'username' } })
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', input.username)
    .where('id', '<>', userId)
    .executeTakeFirst()
  const takenError = new AppError(409, USERNAME_TAKEN_MESSAGE, {
    fieldErrors: { username: [USERNAME_TAKEN_MESSAGE] },
    extra: { field: 'username' },
  })
  if (taken) throw takenError
  try {
    const row = await db
      .updateTable('users')
      .set({
        username: input.username,
        displayName: input.displayName,
        bio: input.bio || null,
        profileEditedAt: new Date(),
        updatedAt: new Date(),
      })
      .where('id', '=', userId)
      .returning(['username', 'displayName', 'bio', 'avatarUrl'])
      .executeTakeFirst()
    if (!row) throw new AppError(404, 'User not found')
    return { ...row, bio: row.bio ?? '' }
  } catch (error) {
    // Two users racing for the same name: the unique index decides.
    if (isUniqueViolation(error)) throw takenError
    throw error
  }
}

/** Stores a new avatar through the listing images' path (checked, re-encoded to WebP) and drops the old one unless a listing shows it. */
export async function setAvatar(userId: string, file: File): Promise<string> {
  let url: string
  try {
    const prepared = await prepareImage(file.name, new Uint8Array(await file.arrayBuffer()))
    ;[url] = (await storePreparedImages(userId, [prepared])) as [string]
  } catch (error) {
    if (error instanceof ImageRejectedError) throw new AppError(400, error.message, { extra: { field: 'avatar' } })
    throw error
  }
  const previous = await db.selectFrom('users').select('avatarUrl').where('id', '=', userId).executeTakeFirst()
  await db
    .updateTable('users')
    .set({ avatarUrl: url, profileEditedAt: new Date(), updatedAt: new Date() })
    .where('id', '=', userId)
    .execute()
  await deleteUnusedImages([previous?.avatarUrl]).catch(() => undefined)
  logEvent('info', 'avatar_updated', { userId })
  return url
}

export async function removeAvatar(userId: string): Promise<void> {
  const previous = await db.selectFrom('users').select('avatarUrl').where('id', '=', userId).executeTakeFirst()
  await db
    .updateTable('users')
    .set({ avatarUrl: null, profileEditedAt: new Date(), updatedAt: new Date() })
    .where('id', '=', userId)
    .execute()
  await deleteUnusedImages([previous?.avatarUrl]).catch(() => undefined)
}

export interface SellerPageListing {
  id: string
  slug: string
  title: string
  shortDescription: string
  priceCents: number
  type: 'template' | 'full_site'
  languages: string[]
  frameworks: string[]
  thumbnailUrl: string | null
  rating: { average: number | null; count: number }
  /** Issue 30: the newest version's date, else the listing's creation (the cards' "Updated …"). */
  lastUpdatedAt: Date
}

export interface SellerPage {
  /** Issue 30: the report form names the user by id. */
  id: string
  username: string
  displayName: string
  bio: string | null
  avatarUrl: string | null
  memberSince: Date
  completedSales: number
  rating: { average: number | null; count: number }
  /** Organizations where the seller installed the GitHub App (verified by GitHub at install). */
  githubOrganizations: string[]
  listings: SellerPageListing[]
  /** The latest visible reviews of the seller's listings. */
  recentReviews: (ReviewView & { listing: { title: string; slug: string } })[]
}

export const SELLER_PAGE_LISTINGS = 48

/** The public page of a seller: null for an unknown username or a user who never listed anything. */
export async function getSellerPage(username: string): Promise<SellerPage | null> {
  const name = username.toLowerCase()
  if (!USERNAME_PATTERN.test(name)) return null
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'displayName', 'bio', 'avatarUrl', 'createdAt'])
    .where('username', '=', name)
    .executeTakeFirst()
  if (!user) return null
  const [listings, hasListed, sales, totals, organizations, recentReviews] = await Promise.all([
    db
      .selectFrom('listings')
      .select([
        'id',
        'slug',
        'title',
        'shortDescription',
        'priceCents',
        'type',
        'languages',
        'frameworks',
        'thumbnailUrl',
        'ratingCount',
        'ratingAverageTenths',
        'lastUpdatedAt',
      ])
      .where('sellerId', '=', user.id)
      .where('visible', '=', true)
      .where('archivedAt', 'is', null)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(SELLER_PAGE_LISTINGS)
      .execute(),
    db.selectFrom('listings').select('id').where('sellerId', '=', user.id).limit(1).executeTakeFirst(),
    db
      .selectFrom('transactions')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('sellerId', '=', user.id)
      .where('status', '=', 'completed')
      .executeTakeFirstOrThrow(),
    sellerRatingTotals(user.id),
    db
      .selectFrom('githubInstallations')
      .select('accountLogin')
      .where('userId', '=', user.id)
      .where('accountType', '=', 'Organization')
      .where('removedAt', 'is', null)
      .where('suspendedAt', 'is', null)
      .orderBy('accountLogin')
      .execute(),
    sellerRecentReviews(user.id),
  ])
  if (!hasListed) return null
  const summary = ratingSummary(totals)
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    avatarUrl: user.avatarUrl,
    memberSince: user.createdAt,
    completedSales: sales.count,
    rating: { average: summary.count > 0 ? summary.averageTenths / 10 : null, count: summary.count },
    githubOrganizations: organizations.map((o) => o.accountLogin),
    recentReviews,
    listings: listings.map(({ ratingCount, ratingAverageTenths, ...listing }) => ({
      ...listing,
      rating: { average: ratingCount > 0 ? ratingAverageTenths / 10 : null, count: ratingCount },
    })),
  }
}
