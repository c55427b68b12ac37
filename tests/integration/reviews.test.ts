import { describe, expect, it } from 'vitest'
import { bayesianScore } from '../../app/lib/ratings.ts'
import { REVIEW_LINK_MESSAGE, REVIEW_TOO_LONG_MESSAGE } from '../../app/lib/review-schema.ts'
import { USERNAME_RESERVED_MESSAGE, USERNAME_TAKEN_MESSAGE } from '../../app/lib/seller-profile-schema.ts'
import * as listingReviewsApiRoute from '../../app/routes/api/listing-reviews.ts'
import * as listingRoute from '../../app/routes/listing.tsx'
import * as profileAvatarRoute from '../../app/routes/profile-avatar.ts'
import * as profileRoute from '../../app/routes/profile.tsx'
import * as purchasesRoute from '../../app/routes/purchases.tsx'
import * as sellerPageRoute from '../../app/routes/seller-page.tsx'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { getListingPageBySlug } from '../../app/server/domain/listings.server.ts'
import {
  createReview,
  hideReview,
  listingReviews,
  REPLY_ALREADY,
  replyToReview,
  REVIEW_ALREADY,
  REVIEW_NOT_COMPLETED,
  REVIEW_REFUNDED,
  REVIEW_TOO_LATE,
} from '../../app/server/domain/reviews.server.ts'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, formRequest, screenRequest, signUp } from './admin-fixtures.ts'
import { file, formPost, makeImage, storedFiles, useTemporaryUploads } from './listings-support.ts'

const DAY = 24 * 60 * 60 * 1000

async function party() {
  const seller = await signUp(`seller-${Math.random().toString(36).slice(2, 8)}@example.com`)
  const buyer = await signUp(`buyer-${Math.random().toString(36).slice(2, 8)}@example.com`)
  const listing = await createListing(seller.id, { priceCents: 5000 })
  return { seller, buyer, listing }
}

async function sale(p: Awaited<ReturnType<typeof party>>, status: TransactionStatus = 'completed', createdAt?: Date) {
  return createSale({ listingId: p.listing.id, sellerId: p.seller.id, buyerId: p.buyer.id, amountCents: 5000, status, createdAt })
}

async function listingRating(id: string) {
  return db
    .selectFrom('listings')
    .select(['ratingCount', 'ratingAverageTenths', 'ratingScore'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

async function postReview(slug: string, token: string, fields: Record<string, string>) {
  return callRoute(listingRoute, formRequest(`/listing/${slug}`, { intent: 'review', ...fields }, token), { slug })
}

describe('who may review', () => {
  it('only the buyer of a completed sale, once; the listing page form and the rating follow', async () => {
    const p = await party()
    const other = await signUp('other@example.com')
    const completed = await sale(p)

    // My Purchases links to the listing's review form while the sale can be reviewed.
    const purchases = async () => (await (await callRoute(purchasesRoute, screenRequest('/purchases', p.buyer.token))).json()).toReview
    expect(await purchases()).toEqual([{ saleId: completed.id, listingTitle: p.listing.title, listingSlug: p.listing.slug }])

    // The buyer sees the form on the listing page; nobody else does.
    const page = await (
      await callRoute(listingRoute, screenRequest(`/listing/${p.listing.slug}`, p.buyer.token), { slug: p.listing.slug })
    ).json()
    expect(page.reviews.reviewableSaleId).toBe(completed.id)
    const otherPage = await (
      await callRoute(listingRoute, screenRequest(`/listing/${p.listing.slug}`, other.token), { slug: p.listing.slug })
    ).json()
    expect(otherPage.reviews.reviewableSaleId).toBeNull()

    // Another user and the seller cannot review this sale (not found: it is not theirs).
    for (const who of [other, p.seller]) {
      const response = await postReview(p.listing.slug, who.token, { saleId: completed.id, stars: '1', body: 'Not mine' })
      expect(response.status).toBe(404)
    }
    const posted = await postReview(p.listing.slug, p.buyer.token, { saleId: completed.id, stars: '4', body: 'Clean code, good docs.' })
    expect(posted.status).toBe(302)
    expect(posted.headers.get('Location')).toBe(`/listing/${p.listing.slug}#reviews`)

    const again = await postReview(p.listing.slug, p.buyer.token, { saleId: completed.id, stars: '5', body: 'Changed my mind' })
    expect(again.status).toBe(409)
    expect(JSON.stringify(await again.json())).toContain(REVIEW_ALREADY)
    expect(await purchases()).toEqual([])
    await expect(createReview({ saleId: completed.id, buyerId: p.buyer.id, review: { stars: 5, body: 'Race' } })).rejects.toMatchObject({
      status: 409,
    })

    expect(await listingRating(p.listing.id)).toEqual({
      ratingCount: 1,
      ratingAverageTenths: 40,
      ratingScore: bayesianScore({ count: 1, sum: 4 }),
    })
    const after = await (await callRoute(listingRoute, screenRequest(`/listing/${p.listing.slug}`), { slug: p.listing.slug })).json()
    expect(after.reviews.rating).toEqual({ average: 4, count: 1 })
    expect(after.reviews.page.reviews).toMatchObject([{ stars: 4, body: 'Clean code, good docs.', verifiedPurchase: true, hidden: null }])

    // The seller is told once (issue 17), with a link to reply.
    const told = await db.selectFrom('notifications').select(['kind', 'userId', 'link']).where('kind', '=', 'new_review').execute()
    expect(told).toEqual([{ kind: 'new_review', userId: p.seller.id, link: `/listing/${p.listing.slug}#reviews` }])
  })

  it('refuses sales that are not completed, refunded ones and reviews after a year', async () => {
    const p = await party()
    for (const status of ['paid', 'delivered', 'disputed'] as const) {
      const s = await sale(p, status)
      await expect(createReview({ saleId: s.id, buyerId: p.buyer.id, review: { stars: 5, body: 'Early' } })).rejects.toMatchObject({
        status: 409,
        message: REVIEW_NOT_COMPLETED,
      })
      await db.deleteFrom('transactions').where('id', '=', s.id).execute()
    }
    const refunded = await sale(p, 'refunded')
    await expect(createReview({ saleId: refunded.id, buyerId: p.buyer.id, review: { stars: 1, body: 'Refunded' } })).rejects.toMatchObject({
      message: REVIEW_REFUNDED,
    })
    const old = await sale(p, 'completed', new Date(Date.now() - 366 * DAY))
    await expect(createReview({ saleId: old.id, buyerId: p.buyer.id, review: { stars: 5, body: 'Late' } })).rejects.toMatchObject({
      status: 409,
      message: REVIEW_TOO_LATE,
    })
    // One day inside the year is fine.
    await expect(
      createReview({
        saleId: old.id,
        buyerId: p.buyer.id,
        review: { stars: 5, body: 'Just in time' },
        now: new Date(Date.now() - 2 * DAY),
      }),
    ).resolves.toMatchObject({ stars: 5 })
  })

  it('refuses a link or a text over the limit with its message, as the form error', async () => {
    const p = await party()
    const s = await sale(p)
    for (const [body, message] of [
      ['Great, see https://spam.example/deal', REVIEW_LINK_MESSAGE],
      ['Get it cheaper at cheap-templates.com', REVIEW_LINK_MESSAGE],
      ['x'.repeat(2001), REVIEW_TOO_LONG_MESSAGE],
    ] as const) {
      const response = await postReview(p.listing.slug, p.buyer.token, { saleId: s.id, stars: '5', body })
      expect(response.status).toBe(400)
      expect((await response.json()).result.error.body).toEqual([message])
    }
    expect(await db.selectFrom('reviews').select('id').execute()).toHaveLength(0)
  })
})

describe('refunds, replies and hiding', () => {
  it('a refund through the escrow machine removes the review and its stars', async () => {
    const p = await party()
    const s = await sale(p)
    await createReview({ saleId: s.id, buyerId: p.buyer.id, review: { stars: 2, body: 'Did not work for me' } })
    expect((await listingRating(p.listing.id)).ratingCount).toBe(1)

    await fire({ saleId: s.id, event: 'refunded', by: { id: null, role: 'provider' }, refundId: 're_test_1' })

    expect(await db.selectFrom('reviews').select('id').where('transactionId', '=', s.id).execute()).toHaveLength(0)
    expect(await listingRating(p.listing.id)).toEqual({ ratingCount: 0, ratingAverageTenths: 0, ratingScore: 0 })
    const audit = await db.selectFrom('auditLog').selectAll().where('action', '=', 'review_removed').execute()
    expect(audit).toMatchObject([{ actorRole: 'system', reason: 'The purchase was refunded' }])
  })

  it('the seller replies once; nobody else can', async () => {
    const p = await party()
    const review = await createReview({ saleId: (await sale(p)).id, buyerId: p.buyer.id, review: { stars: 3, body: 'OK' } })
    await expect(replyToReview({ reviewId: review.id, sellerId: p.buyer.id, reply: 'Me too' })).rejects.toMatchObject({ status: 403 })
    const reply = await callRoute(
      listingRoute,
      formRequest(`/listing/${p.listing.slug}`, { intent: 'reply', reviewId: review.id, reply: 'Thanks, fixed in v2.' }, p.seller.token),
      { slug: p.listing.slug },
    )
    expect(reply.status).toBe(302)
    await expect(replyToReview({ reviewId: review.id, sellerId: p.seller.id, reply: 'Again' })).rejects.toMatchObject({
      status: 409,
      message: REPLY_ALREADY,
    })
    const api = await (
      await callRoute(listingReviewsApiRoute, apiRequest(`/api/listings/${p.listing.id}/reviews`), { id: p.listing.id })
    ).json()
    expect(api.reviews[0].sellerReply).toMatchObject({ body: 'Thanks, fixed in v2.' })
  })

  it('an admin hides a review with a reason: audited, out of the average, shown to its author only', async () => {
    const p = await party()
    const admin = await signUp('admin@example.com', { admin: true })
    const review = await createReview({ saleId: (await sale(p)).id, buyerId: p.buyer.id, review: { stars: 1, body: 'Rude words' } })

    const notAdmin = await callRoute(
      listingRoute,
      formRequest(`/listing/${p.listing.slug}`, { intent: 'hide-review', reviewId: review.id, reason: 'Abuse' }, p.seller.token),
      { slug: p.listing.slug },
    )
    expect(notAdmin.status).toBe(403)
    const noReason = await callRoute(
      listingRoute,
      formRequest(`/listing/${p.listing.slug}`, { intent: 'hide-review', reviewId: review.id, reason: ' ' }, admin.token),
      { slug: p.listing.slug },
    )
    expect(noReason.status).toBe(400)
    const hidden = await callRoute(
      listingRoute,
      formRequest(`/listing/${p.listing.slug}`, { intent: 'hide-review', reviewId: review.id, reason: 'Personal insults' }, admin.token),
      { slug: p.listing.slug },
    )
    expect(hidden.status).toBe(302)
    await expect(hideReview({ reviewId: review.id, adminId: admin.id, reason: 'Again' })).rejects.toMatchObject({ status: 409 })

    expect(await db.selectFrom('auditLog').selectAll().where('action', '=', 'review_hidden').execute()).toMatchObject([
      { actorId: admin.id, actorRole: 'admin', entityType: 'review', entityId: review.id, reason: 'Personal insults' },
    ])
    expect(await listingRating(p.listing.id)).toMatchObject({ ratingCount: 0 })
    const publicPage = await (await callRoute(listingRoute, screenRequest(`/listing/${p.listing.slug}`), { slug: p.listing.slug })).json()
    expect(publicPage.reviews.page.reviews).toEqual([])
    const authorPage = await (
      await callRoute(listingRoute, screenRequest(`/listing/${p.listing.slug}`, p.buyer.token), { slug: p.listing.slug })
    ).json()
    expect(authorPage.reviews.ownReview).toMatchObject({ body: 'Rude words', hidden: { reason: 'Personal insults' } })
    const api = await (
      await callRoute(listingReviewsApiRoute, apiRequest(`/api/listings/${p.listing.slug}/reviews`), { id: p.listing.slug })
    ).json()
    expect(api).toMatchObject({ rating: { average: null, count: 0 }, reviews: [] })
  })
})

describe('averages and pages', () => {
  it('stores the shown average and the Bayesian score from fixed data; one 5-star stays below fifty 4.8s', async () => {
    const single = await party()
    await createReview({ saleId: (await sale(single)).id, buyerId: single.buyer.id, review: { stars: 5, body: 'Perfect' } })

    const popular = await party()
    const buyers = await Promise.all(Array.from({ length: 50 }, (_, i) => signUp(`b${i}@example.com`)))
    // Forty 5s and ten 4s: a mean of 4.8.
    for (const [i, buyer] of buyers.entries()) {
      const s = await createSale({
        listingId: popular.listing.id,
        sellerId: popular.seller.id,
        buyerId: buyer.id,
        amountCents: 5000,
        status: 'completed',
      })
      await createReview({ saleId: s.id, buyerId: buyer.id, review: { stars: i < 40 ? 5 : 4, body: `Review ${i}` } })
    }
    const one = await listingRating(single.listing.id)
    const fifty = await listingRating(popular.listing.id)
    expect(one).toEqual({ ratingCount: 1, ratingAverageTenths: 50, ratingScore: 4_166_666 })
    expect(fifty).toEqual({ ratingCount: 50, ratingAverageTenths: 48, ratingScore: 4_727_272 })
    expect(fifty.ratingScore).toBeGreaterThan(one.ratingScore)

    // Newest first, ten a page, keyset: every review once.
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `?cursor=${cursor}&limit=7` : '?limit=7'
      const response = await callRoute(listingReviewsApiRoute, apiRequest(`/api/listings/${popular.listing.id}/reviews${query}`), {
        id: popular.listing.id,
      })
      expect(response.status).toBe(200)
      const body = await response.json()
      seen.push(...body.reviews.map((r: { body: string }) => r.body))
      cursor = body.pagination.nextCursor
    } while (cursor)
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `Review ${49 - i}`))
    // The listing page reads its first page with the listing (as JSON inside its one read): the same reviews,
    // dates as dates, and the same cursor to the next page.
    const newest = await db
      .selectFrom('reviews')
      .select('id')
      .where('listingId', '=', popular.listing.id)
      .where('body', '=', 'Review 49')
      .executeTakeFirstOrThrow()
    await replyToReview({ reviewId: newest.id, sellerId: popular.seller.id, reply: 'Thank you!' })
    const first = (await getListingPageBySlug(popular.listing.slug))!.reviews
    expect(first).toEqual(await listingReviews(popular.listing.id))
    expect(first.reviews).toHaveLength(10)
    expect(first.reviews[0]!.sellerReply?.createdAt).toBeInstanceOf(Date)
    expect(first.nextCursor).not.toBeNull()
    const bad = await callRoute(listingReviewsApiRoute, apiRequest(`/api/listings/${popular.listing.id}/reviews?cursor=bogus`), {
      id: popular.listing.id,
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ field: 'cursor' })
  })
})

describe('seller pages and the public profile', () => {
  it('shows the seller with completed sales, average, verified organization and visible listings only', async () => {
    const p = await party()
    await db.updateTable('users').set({ username: 'launchkit', bio: 'Templates that ship.' }).where('id', '=', p.seller.id).execute()
    await createListing(p.seller.id, { title: 'Hidden one', visible: false })
    await db
      .insertInto('githubInstallations')
      .values([
        { id: 101, userId: p.seller.id, accountId: 1, accountLogin: 'launchkit-labs', accountType: 'Organization' },
        { id: 102, userId: p.seller.id, accountId: 2, accountLogin: 'gone-org', accountType: 'Organization', removedAt: new Date() },
      ])
      .execute()
    await createReview({ saleId: (await sale(p)).id, buyerId: p.buyer.id, review: { stars: 4, body: 'Good' } })
    await sale(p, 'refunded')

    const response = await callRoute(sellerPageRoute, screenRequest('/sellers/launchkit'), { username: 'launchkit' })
    expect(response.status).toBe(200)
    const { seller, cards } = await response.json()
    // Issue 30: the cards say when each listing was last updated, worded by the loader as the marketplace's are.
    expect(cards).toMatchObject([{ title: p.listing.title, updated: expect.stringMatching(/^Updated (just now|\d+ minutes? ago)$/) }])
    expect(seller).toMatchObject({
      username: 'launchkit',
      bio: 'Templates that ship.',
      completedSales: 1,
      rating: { average: 4, count: 1 },
      githubOrganizations: ['launchkit-labs'],
    })
    expect(seller.listings.map((l: { title: string }) => l.title)).toEqual([p.listing.title])
    expect(seller.recentReviews).toMatchObject([{ stars: 4, body: 'Good', listing: { slug: p.listing.slug }, verifiedPurchase: true }])
    expect((await callRoute(sellerPageRoute, screenRequest('/sellers/nobody-here'), { username: 'nobody-here' })).status).toBe(404)
    // A buyer who never listed anything has no seller page.
    const buyerName = (await db.selectFrom('users').select('username').where('id', '=', p.buyer.id).executeTakeFirstOrThrow()).username
    expect((await callRoute(sellerPageRoute, screenRequest(`/sellers/${buyerName}`), { username: buyerName })).status).toBe(404)
  })

  it('edits username, display name and bio on /profile: validated, unique, reserved words refused; sign-in keeps them', async () => {
    const ada = await signUp('ada@example.com')
    const lin = await signUp('lin@example.com')
    await db.updateTable('users').set({ username: 'lin-studio' }).where('id', '=', lin.id).execute()
    const save = (fields: Record<string, string>) =>
      callRoute(profileRoute, formRequest('/profile', { intent: 'public-profile', displayName: 'Ada L.', bio: '', ...fields }, ada.token))

    const taken = await save({ username: 'lin-studio' })
    expect(taken.status).toBe(409)
    expect((await taken.json()).publicProfile.error.username).toEqual([USERNAME_TAKEN_MESSAGE])
    const reserved = await save({ username: 'admin' })
    expect(reserved.status).toBe(400)
    expect((await reserved.json()).publicProfile.error.username).toEqual([USERNAME_RESERVED_MESSAGE])
    for (const bad of ['a', 'has space', '-dash-first', 'x'.repeat(40), 'émile']) {
      expect((await save({ username: bad })).status, bad).toBe(400)
    }
    const ok = await save({ username: 'Ada-Builds', bio: 'I build dashboards.' })
    expect(ok.status).toBe(302)
    const row = await db.selectFrom('users').select(['username', 'displayName', 'bio']).where('id', '=', ada.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ username: 'ada-builds', displayName: 'Ada L.', bio: 'I build dashboards.' })

    // The next sign-in brings the provider's name: the edited profile wins.
    await syncUser({ id: ada.id, email: 'ada@example.com', displayName: 'ada', avatarUrl: 'https://provider.example/a.png' })
    expect(await db.selectFrom('users').select(['displayName', 'avatarUrl']).where('id', '=', ada.id).executeTakeFirstOrThrow()).toEqual({
      displayName: 'Ada L.',
      avatarUrl: null,
    })
  })

  it('uploads an avatar through the image checks (re-encoded, the old one deleted) and removes it', async () => {
    const bucket = useTemporaryUploads()
    const ada = await signUp('ada-avatar@example.com')
    const upload = async (part: File) => {
      const form = new FormData()
      form.append('avatar', part)
      return callRoute(profileAvatarRoute, formPost('/profile/avatar', form, ada.token))
    }
    const avatarUrl = async () =>
      (await db.selectFrom('users').select('avatarUrl').where('id', '=', ada.id).executeTakeFirstOrThrow()).avatarUrl

    // Not an image: refused with the reason (a toast on /profile), nothing stored.
    const refused = await upload(file('<svg onload="alert(1)"></svg>', 'me.svg', 'image/svg+xml'))
    expect(refused.status).toBe(302)
    const toast = /fm_toast=([^.;]+)\./.exec(refused.headers.get('Set-Cookie') ?? '')?.[1] ?? ''
    expect(Buffer.from(toast, 'base64').toString('utf8')).toContain('only JPG, PNG or WebP images are accepted')
    expect(storedFiles(bucket)).toEqual([])
    expect(await avatarUrl()).toBeNull()

    expect((await upload(file(await makeImage('png'), 'me.png'))).status).toBe(302)
    const first = await avatarUrl()
    expect(first).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
    expect(await upload(file(await makeImage('jpeg'), 'me.jpg', 'image/jpeg'))).toMatchObject({ status: 302 })
    const second = await avatarUrl()
    expect(second).not.toBe(first)
    // The first avatar's renditions are gone; only the new one is stored.
    expect(storedFiles(bucket).sort()).toEqual([`${second!.split('/')[2]}/card.webp`, `${second!.split('/')[2]}/full.webp`])

    const removed = await callRoute(profileAvatarRoute, formRequest('/profile/avatar', { intent: 'remove' }, ada.token))
    expect(removed.status).toBe(302)
    expect(await avatarUrl()).toBeNull()
    expect(storedFiles(bucket)).toEqual([])
  })
})
