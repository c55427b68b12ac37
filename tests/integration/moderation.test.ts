import { describe, expect, it } from 'vitest'
import { MAX_REPORTS_PER_HOUR, REPORT_ALREADY_OPEN, TOO_MANY_REPORTS } from '../../app/lib/report-schema.ts'
import * as listingsApi from '../../app/routes/api/listings.ts'
import * as reportsApi from '../../app/routes/api/reports.ts'
import * as listingRoute from '../../app/routes/listing.tsx'
import { createApiKey } from '../../app/server/domain/api-keys.server.ts'
import { startCheckout } from '../../app/server/domain/checkout.server.ts'
import { setListingVisibility, TAKEN_DOWN_MESSAGE } from '../../app/server/domain/listings.server.ts'
import {
  fileCounterNotice,
  hiddenByModeration,
  moderationQueue,
  restoreListing,
  takedownInForce,
  takeDownListing,
  upholdTakedown,
} from '../../app/server/domain/moderation.server.ts'
import { dismissReports, fileReport } from '../../app/server/domain/reports.server.ts'
import { createReview, hideReview, listingReviews, restoreReview } from '../../app/server/domain/reviews.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

const unique = () => Math.random().toString(36).slice(2, 8)

async function setting() {
  const seller = await signUp(`seller-${unique()}@example.com`)
  await giveBankDetails(seller.id, 'approved')
  const reporter = await signUp(`reporter-${unique()}@example.com`)
  const admin = await signUp(`admin-${unique()}@example.com`, { admin: true })
  const title = `Moderated kit ${unique()}`
  const listing = await createListing(seller.id, { title })
  return { seller, reporter, admin, listing, title }
}

const report = (reporterId: string, targetId: string, targetType: 'listing' | 'review' | 'user' = 'listing') =>
  fileReport({ reporterId, report: { targetType, targetId, reason: 'copyright', details: 'This is my repository, copied.' } })

async function inSearch(title: string): Promise<boolean> {
  const response = await callRoute(listingsApi, apiRequest(`/api/listings?search=${encodeURIComponent(title)}`))
  const body = await response.json()
  return body.listings.some((l: { title: string }) => l.title === title)
}

async function audit(entityId: string) {
  return db
    .selectFrom('auditLog')
    .select(['action', 'actorRole', 'fromState', 'toState'])
    .where('entityId', '=', entityId)
    .orderBy('id')
    .execute()
}

describe('reports', () => {
  it('one open report per reporter and item; not one’s own; a limit an hour', async () => {
    const { seller, reporter, listing } = await setting()
    const first = await report(reporter.id, listing.id)
    expect(first.item).toMatchObject({ targetType: 'listing', label: listing.title, ownerId: seller.id })
    await expect(report(reporter.id, listing.id)).rejects.toMatchObject({ status: 409, message: REPORT_ALREADY_OPEN })
    await expect(report(seller.id, listing.id)).rejects.toMatchObject({ status: 403 })
    await expect(report(reporter.id, seller.id, 'user')).resolves.toBeTruthy()
    await expect(report(reporter.id, reporter.id, 'user')).rejects.toMatchObject({ status: 403 })
    await expect(report(reporter.id, crypto.randomUUID())).rejects.toMatchObject({ status: 404 })
    expect(await audit(listing.id)).toEqual([{ action: 'report.filed', actorRole: 'user', fromState: null, toState: 'open' }])

    // A hidden listing cannot be reported (the public does not see it).
    const hidden = await createListing(seller.id, { visible: false })
    await expect(report(reporter.id, hidden.id)).rejects.toMatchObject({ status: 404 })

    // The hourly limit counts every report of the reporter (two so far).
    for (let i = 2; i < MAX_REPORTS_PER_HOUR; i++) await report(reporter.id, (await createListing(seller.id)).id)
    const over = report(reporter.id, (await createListing(seller.id)).id)
    await expect(over).rejects.toMatchObject({ status: 429, message: TOO_MANY_REPORTS })
    await expect(over).rejects.toHaveProperty('headers.Retry-After')
  })

  it('a review is reported by anyone but its author and its seller; the queue shows it with the seller’s history', async () => {
    const { seller, reporter, listing } = await setting()
    const buyer = await signUp(`buyer-${unique()}@example.com`)
    const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 5000, status: 'completed' })
    const review = await createReview({
      saleId: sale.id,
      buyerId: buyer.id,
      review: { stars: 1, body: 'Buy the other kit instead, it is better' },
    })
    await expect(report(buyer.id, review.id, 'review')).rejects.toMatchObject({ status: 403 })
    await expect(report(seller.id, review.id, 'review')).rejects.toMatchObject({ status: 403 })
    await report(reporter.id, review.id, 'review')
    const queued = (await moderationQueue()).find((entry) => entry.item.targetId === review.id)
    expect(queued).toMatchObject({ item: { targetType: 'review', ownerId: seller.id, path: `/listing/${listing.slug}` }, openReports: 1 })
    // A suspension asked from a review's item is about its author, not the listing's seller.
    expect(queued!.accountable).toEqual({ id: buyer.id, username: expect.any(String) })
    expect(queued!.item.accountableId).toBe(buyer.id)
  })

  it('an admin hides a reported review from the queue (it leaves the listing page, with its reason) and restores it', async () => {
    const { seller, reporter, admin, listing } = await setting()
    const buyer = await signUp(`buyer-${unique()}@example.com`)
    const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 5000, status: 'completed' })
    const review = await createReview({ saleId: sale.id, buyerId: buyer.id, review: { stars: 1, body: 'Call 555-0100 for a better kit' } })
    await report(reporter.id, review.id, 'review')
    const rating = async () =>
      (await db.selectFrom('listings').select('ratingCount').where('id', '=', listing.id).executeTakeFirstOrThrow()).ratingCount
    expect((await listingReviews(listing.id)).reviews.map((r) => r.id)).toEqual([review.id])
    expect(await rating()).toBe(1)

    await hideReview({ reviewId: review.id, adminId: admin.id, reason: 'Advertises another product' })
    expect((await listingReviews(listing.id)).reviews).toEqual([])
    expect(await rating()).toBe(0)
    // Its reports are decided; the queue no longer asks about it; the hidden section offers it back, with the reason.
    expect(await db.selectFrom('reports').select('status').where('targetId', '=', review.id).execute()).toEqual([{ status: 'actioned' }])
    expect((await moderationQueue()).some((entry) => entry.item.targetId === review.id)).toBe(false)
    const hidden = (await hiddenByModeration()).find((entry) => entry.item.targetId === review.id)
    expect(hidden).toMatchObject({ openReports: 0, item: { targetType: 'review', hidden: { reason: 'Advertises another product' } } })
    // Hidden, it cannot be reported again.
    await expect(report(admin.id, review.id, 'review')).rejects.toMatchObject({ status: 404 })

    await restoreReview({ reviewId: review.id, adminId: admin.id, note: 'The number is the seller’s support line' })
    await expect(restoreReview({ reviewId: review.id, adminId: admin.id, note: 'again' })).rejects.toMatchObject({ status: 409 })
    expect((await listingReviews(listing.id)).reviews.map((r) => r.id)).toEqual([review.id])
    expect(await rating()).toBe(1)
    expect((await hiddenByModeration()).some((entry) => entry.item.targetId === review.id)).toBe(false)
    expect((await audit(review.id)).map((row) => [row.action, row.fromState, row.toState])).toEqual([
      ['report.filed', null, 'open'],
      ['review_hidden', 'visible', 'hidden'],
      ['review_restored', 'hidden', 'visible'],
    ])
  })

  it('an admin dismisses an item’s open reports; the reporter may report it again', async () => {
    const { reporter, admin, listing } = await setting()
    const other = await signUp(`other-${unique()}@example.com`)
    await report(reporter.id, listing.id)
    await report(other.id, listing.id)
    const queued = (await moderationQueue()).find((entry) => entry.item.targetId === listing.id)
    expect(queued).toMatchObject({ openReports: 2, takedown: null, seller: { listings: 1, takedowns: 0, reportsAgainst: 2 } })
    expect(queued!.reports.map((r) => r.reporter.username).sort()).toHaveLength(2)

    expect(await dismissReports({ targetType: 'listing', targetId: listing.id, adminId: admin.id, note: 'The seller owns it' })).toBe(2)
    await expect(dismissReports({ targetType: 'listing', targetId: listing.id, adminId: admin.id, note: 'again' })).rejects.toMatchObject({
      status: 409,
    })
    expect((await moderationQueue()).some((entry) => entry.item.targetId === listing.id)).toBe(false)
    await expect(report(reporter.id, listing.id)).resolves.toBeTruthy()
    expect((await audit(listing.id)).map((a) => a.action)).toEqual(['report.filed', 'report.filed', 'reports.dismissed', 'report.filed'])
  })
})

describe('POST /api/reports (the report form as JSON)', () => {
  it('files a report for a signed-in person with the form’s rules; refuses API keys, bad input and a second open report', async () => {
    const { seller, reporter, listing } = await setting()
    const post = (json: unknown, token?: string) => callRoute(reportsApi, apiRequest('/api/reports', { method: 'POST', json, token }))
    const body = { targetType: 'listing', targetId: listing.id, reason: 'copyright', details: 'Copied from my repository' }

    const filed = await post(body, reporter.token)
    expect(filed.status).toBe(201)
    const answer = await filed.json()
    expect(answer).toEqual({
      report: {
        id: expect.any(String),
        status: 'open',
        item: { targetType: 'listing', targetId: listing.id, label: listing.title, path: `/listing/${listing.slug}` },
      },
    })
    expect((await moderationQueue()).find((entry) => entry.item.targetId === listing.id)?.reports.map((r) => r.id)).toEqual([
      answer.report.id,
    ])

    // The form's refusals, as JSON.
    expect(await (await post(body, reporter.token)).json()).toEqual({ error: REPORT_ALREADY_OPEN })
    expect((await post(body, seller.token)).status).toBe(403)
    expect((await post(body)).status).toBe(401)
    const bad = await post({ ...body, reason: 'boring' }, reporter.token)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'Choose a reason', field: 'reason' })
    expect((await post({ ...body, targetId: crypto.randomUUID() }, reporter.token)).status).toBe(404)

    // An API key, whatever its scopes, may not report (no scope is declared for it).
    const other = await signUp(`keyed-${unique()}@example.com`)
    const { secret } = await createApiKey(other.id, { name: 'reports', scopes: ['listings:read', 'listings:write', 'sales:read'] })
    const keyed = await post(body, secret)
    expect(keyed.status).toBe(403)
    expect(await db.selectFrom('reports').select('id').where('reporterId', '=', other.id).execute()).toEqual([])
  })
})

describe('a takedown', () => {
  it('a report leads to a takedown, a counter-notice and a restore; the listing leaves every surface meanwhile', async () => {
    const { seller, reporter, admin, listing, title } = await setting()
    const buyer = await signUp(`buyer-${unique()}@example.com`)
    await report(reporter.id, listing.id)
    expect(await inSearch(title)).toBe(true)

    const takedown = await takeDownListing({
      listingId: listing.id,
      adminId: admin.id,
      category: 'copyright',
      reason: 'The code is from another author',
    })
    expect(takedown).toMatchObject({ status: 'hidden', reason: 'The code is from another author', category: 'copyright' })
    // Gone from search, GET /api/listings, the listing page for others, and checkout.
    expect(await inSearch(title)).toBe(false)
    const page = await callRoute(listingRoute, screenRequest(`/listing/${listing.slug}`, buyer.token), { slug: listing.slug })
    expect(page.status).toBe(404)
    const own = await callRoute(listingRoute, screenRequest(`/listing/${listing.slug}`, seller.token), { slug: listing.slug })
    expect(own.status).toBe(200)
    await expect(startCheckout({ listingId: listing.id, buyerId: buyer.id })).rejects.toMatchObject({ status: 409 })
    // Its reports are closed as actioned; the queue no longer lists it until the seller answers.
    const statuses = await db.selectFrom('reports').select('status').where('targetId', '=', listing.id).execute()
    expect(statuses).toEqual([{ status: 'actioned' }])
    expect((await moderationQueue()).some((entry) => entry.item.targetId === listing.id)).toBe(false)
    // It is listed under what moderation hid, where an admin can restore it without waiting for the seller.
    expect((await hiddenByModeration()).find((entry) => entry.item.targetId === listing.id)).toMatchObject({
      takedown: { status: 'hidden' },
    })

    // The seller cannot show it again: not by the button, nor by any write of the row (the trigger).
    await expect(setListingVisibility({ listingId: listing.id, sellerId: seller.id, visible: true })).rejects.toMatchObject({
      init: { status: 409 },
      data: { error: TAKEN_DOWN_MESSAGE },
    })
    await db.updateTable('listings').set({ visible: true }).where('id', '=', listing.id).execute()
    expect((await db.selectFrom('listings').select('visible').where('id', '=', listing.id).executeTakeFirstOrThrow()).visible).toBe(false)

    // Only the seller answers, once; then the admin decides again.
    await expect(fileCounterNotice({ listingId: listing.id, sellerId: reporter.id, counterNotice: 'Not mine' })).rejects.toMatchObject({
      status: 404,
    })
    await expect(upholdTakedown({ listingId: listing.id, adminId: admin.id, note: 'too early' })).rejects.toMatchObject({ status: 409 })
    const contested = await fileCounterNotice({ listingId: listing.id, sellerId: seller.id, counterNotice: 'I wrote it: see my commits.' })
    expect(contested).toMatchObject({ status: 'contested', counterNotice: 'I wrote it: see my commits.' })
    await expect(fileCounterNotice({ listingId: listing.id, sellerId: seller.id, counterNotice: 'Again' })).rejects.toMatchObject({
      status: 409,
    })
    const queued = (await moderationQueue()).find((entry) => entry.item.targetId === listing.id)
    expect(queued).toMatchObject({ openReports: 0, takedown: { status: 'contested' }, seller: { takedowns: 1 } })
    expect((await hiddenByModeration()).some((entry) => entry.item.targetId === listing.id)).toBe(false)

    const restored = await restoreListing({ listingId: listing.id, adminId: admin.id, note: 'The seller showed the history' })
    expect(restored.status).toBe('restored')
    expect(await takedownInForce(listing.id)).toBeUndefined()
    expect(await inSearch(title)).toBe(true)
    expect((await callRoute(listingRoute, screenRequest(`/listing/${listing.slug}`, buyer.token), { slug: listing.slug })).status).toBe(200)

    expect(await audit(listing.id)).toEqual([
      { action: 'report.filed', actorRole: 'user', fromState: null, toState: 'open' },
      { action: 'listing.take_down', actorRole: 'admin', fromState: 'none', toState: 'hidden' },
      { action: 'listing.counter_notice', actorRole: 'seller', fromState: 'hidden', toState: 'contested' },
      { action: 'listing.restore', actorRole: 'admin', fromState: 'contested', toState: 'restored' },
    ])
  })

  it('tells the seller of the takedown (with the reason) and of the restore, and the admins of the counter-notice, each once', async () => {
    const { seller, admin, listing } = await setting()
    const outbox = async (userId: string) =>
      db
        .selectFrom('notificationOutbox')
        .select(['kind', 'payload'])
        .where('userId', '=', userId)
        .where('kind', 'in', ['listing_taken_down', 'listing_restored', 'admin_counter_notice'])
        .orderBy('createdAt')
        .execute()
    const bell = async (userId: string) =>
      (
        await db.selectFrom('notifications').select(['title', 'body', 'link']).where('userId', '=', userId).orderBy('createdAt').execute()
      ).filter((row) => row.body.includes(listing.title))

    const takedown = await takeDownListing({
      listingId: listing.id,
      adminId: admin.id,
      category: 'copyright',
      reason: 'Copied from acme/kit',
    })
    expect(await outbox(seller.id)).toEqual([
      {
        kind: 'listing_taken_down',
        payload: expect.objectContaining({
          takedownId: takedown.id,
          reason: 'Copied from acme/kit',
          category: 'Copyright, or code the seller does not own',
        }),
      },
    ])
    expect(await bell(seller.id)).toEqual([
      {
        title: 'Forkmarket took your listing down',
        body: `${listing.title} left the marketplace: Copyright, or code the seller does not own.`,
        link: `/seller/takedowns/${takedown.id}`,
      },
    ])

    await fileCounterNotice({ listingId: listing.id, sellerId: seller.id, counterNotice: 'I wrote it: see my commits.' })
    const secondAdmin = await signUp(`admin-${unique()}@example.com`, { admin: true })
    expect((await outbox(admin.id)).map((row) => row.kind)).toEqual(['admin_counter_notice'])
    expect((await outbox(admin.id))[0]!.payload).toMatchObject({
      listingTitle: listing.title,
      counterNotice: 'I wrote it: see my commits.',
    })
    // An admin who joins later is not told of what came before.
    expect(await outbox(secondAdmin.id)).toEqual([])

    await restoreListing({ listingId: listing.id, adminId: admin.id, note: 'The history shows it' })
    // Each event told once (the keys name the takedown and the recipient).
    expect((await outbox(seller.id)).map((row) => row.kind)).toEqual(['listing_taken_down', 'listing_restored'])
    expect((await bell(seller.id)).at(-1)).toEqual({
      title: 'Your listing is back',
      body: `Forkmarket restored ${listing.title}: it is as visible as it was before the takedown.`,
      link: `/listing/${listing.slug}`,
    })
    // A second takedown is a new one: the seller hears of it too.
    await takeDownListing({ listingId: listing.id, adminId: admin.id, category: 'spam', reason: 'Spam' })
    expect((await outbox(seller.id)).map((row) => row.kind)).toEqual(['listing_taken_down', 'listing_restored', 'listing_taken_down'])
  })

  it('a restore gives back the visibility the listing had; an upheld takedown can still be restored', async () => {
    const { seller, admin } = await setting()
    const hidden = await createListing(seller.id, { visible: false })
    await takeDownListing({ listingId: hidden.id, adminId: admin.id, category: 'spam', reason: 'Spam' })
    await fileCounterNotice({ listingId: hidden.id, sellerId: seller.id, counterNotice: 'It is not spam' })
    expect(await upholdTakedown({ listingId: hidden.id, adminId: admin.id, note: 'It is' })).toMatchObject({ status: 'upheld' })
    await restoreListing({ listingId: hidden.id, adminId: admin.id, note: 'Appeal accepted' })
    expect((await db.selectFrom('listings').select('visible').where('id', '=', hidden.id).executeTakeFirstOrThrow()).visible).toBe(false)
    // A second takedown of the same listing is a new one, with its own counter-notice.
    const again = await takeDownListing({ listingId: hidden.id, adminId: admin.id, category: 'other', reason: 'Again' })
    expect(again.counterNotice).toBeNull()
    await expect(takeDownListing({ listingId: hidden.id, adminId: admin.id, category: 'other', reason: 'Twice' })).rejects.toMatchObject({
      status: 409,
    })
  })
})

describe('a takedown for copyright or malware', () => {
  it('sends the open sales to the dispute queue through the escrow machine and tells every buyer once', async () => {
    const { seller, admin, listing } = await setting()
    const buyers = await Promise.all(['paid', 'delivered', 'completed'].map((s) => signUp(`buyer-${s}-${unique()}@example.com`)))
    const sales = await Promise.all(
      (['paid', 'delivered', 'completed'] as const).map((status, i) =>
        createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyers[i]!.id, amountCents: 5000, status }),
      ),
    )
    await takeDownListing({ listingId: listing.id, adminId: admin.id, category: 'malware', reason: 'The install script steals tokens' })

    const after = await db
      .selectFrom('transactions')
      .select(['id', 'status', 'disputeReason'])
      .where('listingId', '=', listing.id)
      .execute()
    const byId = new Map(after.map((sale) => [sale.id, sale]))
    for (const open of [sales[0]!, sales[1]!]) {
      expect(byId.get(open.id)).toMatchObject({
        status: 'disputed',
        disputeReason: 'The listing was taken down (Malware or leaked secrets): The install script steals tokens',
      })
      expect(await audit(open.id)).toContainEqual({
        action: 'listing_taken_down',
        actorRole: 'admin',
        fromState: open.status,
        toState: 'disputed',
      })
    }
    expect(byId.get(sales[2]!.id)!.status).toBe('completed')

    // Each buyer hears once: a dispute opened for the open sales, the takedown for the completed one.
    const kinds = async (userId: string) =>
      (await db.selectFrom('notificationOutbox').select('kind').where('userId', '=', userId).execute()).map((row) => row.kind).sort()
    expect(await kinds(buyers[0]!.id)).toEqual(['dispute_opened'])
    expect(await kinds(buyers[1]!.id)).toEqual(['dispute_opened'])
    expect(await kinds(buyers[2]!.id)).toEqual(['purchase_taken_down'])
    expect(await kinds(admin.id)).toEqual(['admin_dispute_opened', 'admin_dispute_opened'])
    const inApp = await db.selectFrom('notifications').select(['title', 'body']).where('userId', '=', buyers[2]!.id).execute()
    expect(inApp).toEqual([
      { title: 'A listing you bought was taken down', body: `Forkmarket took ${listing.title} down: Malware or leaked secrets.` },
    ])
  })

  it('leaves the sales alone for other reasons', async () => {
    const { seller, admin, listing } = await setting()
    const buyer = await signUp(`buyer-${unique()}@example.com`)
    const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 5000, status: 'delivered' })
    await takeDownListing({
      listingId: listing.id,
      adminId: admin.id,
      category: 'misleading',
      reason: 'The screenshots are of another product',
    })
    expect((await db.selectFrom('transactions').select('status').where('id', '=', sale.id).executeTakeFirstOrThrow()).status).toBe(
      'delivered',
    )
    expect(await db.selectFrom('notificationOutbox').select('kind').where('userId', '=', buyer.id).execute()).toEqual([])
  })
})
