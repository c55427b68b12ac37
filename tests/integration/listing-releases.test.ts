import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import * as versionsRoute from '../../app/routes/listing-versions.tsx'
import { setListingRepository } from '../../app/server/domain/github-listing-sources.server.ts'
import { listingChangelog, publishVersionNote } from '../../app/server/domain/listing-releases.server.ts'
import { getListingPageBySlug } from '../../app/server/domain/listings.server.ts'
import { takeDownListing } from '../../app/server/domain/moderation.server.ts'
import { saveNotificationSettings } from '../../app/server/domain/notification-inbox.server.ts'
import { sendOne } from '../../app/server/domain/notification-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { TransactionStatus } from '../../db/schema.ts'
import { callRoute } from '../support/call-route.ts'
import { githubEmulator as gh, githubWebhookAnswers } from '../support/github.ts'
import { insertSale, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { formRequest, signUp as signUpAs } from './admin-fixtures.ts'

/*
 * Updates after the sale (issue 30): real PostgreSQL, the GitHub emulator's Releases API read by the
 * real @octokit clients, its `release` webhooks through the app's real route, the version-note screen.
 */

let n = 0
const unique = () => `${++n}${Math.random().toString(36).slice(2, 6)}`

/** A seller's organization with the App installed and a private repository; the listing not yet connected. */
async function sellerRepository() {
  const id = unique()
  const { seller, listing } = await sellerWithListing()
  const login = `release-seller-${id}`
  gh.createUser({ login })
  const org = gh.createOrganization({ login: `releases-${id}`, owners: [login] })
  const repo = gh.createRepository({ owner: org.login, name: 'kit', private: true })
  const installation = gh.install({ account: org.login })
  await db
    .insertInto('githubInstallations')
    .values({ id: installation.id, userId: seller.id, accountId: org.id, accountLogin: org.login, accountType: 'Organization' })
    .execute()
  return { seller, listing, login, repo }
}

/** One buyer per sale state. */
async function buyers(listing: { id: string; sellerId: string }, statuses: TransactionStatus[]) {
  const out: Record<string, string> = {}
  for (const status of statuses) {
    const buyer = await signUp(`buyer-${status}`)
    await insertSale({ listingId: listing.id, sellerId: listing.sellerId, buyerId: buyer.id, status })
    out[status] = buyer.id
  }
  return out
}

async function told(listingTitle: string) {
  const rows = await db
    .selectFrom('notificationOutbox')
    .select(['userId', 'payload', 'id'])
    .where('kind', '=', 'listing_updated')
    .where(sql<string>`payload->>'listingTitle'`, '=', listingTitle)
    .execute()
  return rows
}

async function inApp(userId: string) {
  return db
    .selectFrom('notifications')
    .select(['title', 'body', 'link'])
    .where('userId', '=', userId)
    .where('kind', '=', 'listing_updated')
    .execute()
}

const lastUpdatedAt = async (listingId: string) =>
  await db.selectFrom('listings').select(['lastUpdatedAt', 'createdAt']).where('id', '=', listingId).executeTakeFirstOrThrow()

describe('a GitHub-delivered listing follows its releases', () => {
  it('reads the latest release when the listing is connected (not a prerelease), and tells nobody', async () => {
    const w = await sellerRepository()
    const owners = await buyers(w.listing, ['completed'])
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v1.0.0', name: 'First', body: 'It works.', login: w.login })
    gh.advanceClock({ ms: 1000 })
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v1.1.0-rc.1', prerelease: true, login: w.login })
    await gh.idle()
    const before = await lastUpdatedAt(w.listing.id)
    expect(before.lastUpdatedAt).toEqual(before.createdAt)

    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    const versions = await listingChangelog(w.listing.id)
    expect(versions.map((v) => [v.source, v.version, v.name, v.notes])).toEqual([['github', 'v1.0.0', 'First', 'It works.']])
    expect((await lastUpdatedAt(w.listing.id)).lastUpdatedAt).toEqual(versions[0]!.publishedAt)
    expect(await told(w.listing.title)).toEqual([])
    expect(await inApp(owners.completed!)).toEqual([])

    // Connecting again (a second read) records it once.
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    expect(await listingChangelog(w.listing.id)).toHaveLength(1)
  })

  it('connects a repository without releases (GitHub answers 404): no version', async () => {
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    expect(await listingChangelog(w.listing.id)).toEqual([])
  })

  it('records a release from the webhook, tells each buyer who owns it once (not refunded, unpaid or disputed ones), reads checks; a redelivery does nothing', async () => {
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    const owners = await buyers(w.listing, ['completed', 'delivered', 'refunded', 'paid', 'delivering', 'disputed', 'failed'])
    const readingsBefore = await db
      .selectFrom('githubCheckReadings')
      .select('id')
      .where('listingId', '=', w.listing.id)
      .where('source', '=', 'release')
      .execute()
    expect(readingsBefore).toEqual([])

    gh.publishRelease({ repository: w.repo.fullName, tag: 'v2.0.0', name: 'Two', body: 'Faster builds.', login: w.login })
    await gh.idle()
    const versions = await listingChangelog(w.listing.id)
    expect(versions.map((v) => [v.version, v.notes])).toEqual([['v2.0.0', 'Faster builds.']])
    expect((await lastUpdatedAt(w.listing.id)).lastUpdatedAt).toEqual(versions[0]!.publishedAt)

    const mails = await told(w.listing.title)
    expect(mails.map((row) => row.userId).sort()).toEqual([owners.completed, owners.delivered].sort())
    expect(await inApp(owners.completed!)).toEqual([
      {
        title: `${w.listing.title} has a new version`,
        body: expect.stringContaining(`${w.listing.title} v2.0.0 (Two) was published`),
        link: `/listing/${w.listing.slug}#changelog`,
      },
    ])
    for (const status of ['refunded', 'paid', 'delivering', 'disputed', 'failed']) expect(await inApp(owners[status]!)).toEqual([])
    // "At each release" the listed commit's checks are read again.
    const readings = await db
      .selectFrom('githubCheckReadings')
      .select('id')
      .where('listingId', '=', w.listing.id)
      .where('source', '=', 'release')
      .execute()
    expect(readings).toHaveLength(1)

    // GitHub redelivers `published`: nothing new.
    const published = gh.deliveries.filter((d) => d.event === 'release' && d.action === 'published').at(-1)!
    await gh.redeliver({ guid: published.guid })
    await gh.idle()
    expect(githubWebhookAnswers.filter((a) => a.event === 'release').at(-1)!.body).toContain('duplicate')
    expect(await told(w.listing.title)).toHaveLength(2)
    expect(await listingChangelog(w.listing.id)).toHaveLength(1)
    expect(
      await db
        .selectFrom('githubCheckReadings')
        .select('id')
        .where('listingId', '=', w.listing.id)
        .where('source', '=', 'release')
        .execute(),
    ).toHaveLength(1)
  })

  it('skips the mail (keeps the in-app row) for a buyer who turned update mails off; a deleted release leaves the changelog', async () => {
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    const owners = await buyers(w.listing, ['completed'])
    await saveNotificationSettings(owners.completed!, { reminders: true, updates: false, digests: true, timeZone: null })
    const release = gh.publishRelease({ repository: w.repo.fullName, tag: 'v3.0.0', login: w.login })
    await gh.idle()
    const [row] = await told(w.listing.title)
    expect(await sendOne(row!.id)).toBe('skipped')
    const outbox = await db.selectFrom('notificationOutbox').select('skipReason').where('id', '=', row!.id).executeTakeFirstOrThrow()
    expect(outbox.skipReason).toBe('The recipient turned updates off')
    expect(await inApp(owners.completed!)).toHaveLength(1)

    gh.deleteRelease({ repository: w.repo.fullName, id: release.id, login: w.login })
    await gh.idle()
    expect(await listingChangelog(w.listing.id)).toEqual([])
    const after = await lastUpdatedAt(w.listing.id)
    expect(after.lastUpdatedAt).toEqual(after.createdAt)
  })

  it('forgets the releases of the repository it left when connected to another one (review)', async () => {
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v1.0.0', login: w.login })
    await gh.idle()
    expect((await listingChangelog(w.listing.id)).map((v) => v.version)).toEqual(['v1.0.0'])
    const other = gh.createRepository({ owner: w.repo.fullName.split('/')[0]!, name: 'other-kit', private: true })
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: other.id })
    expect(await listingChangelog(w.listing.id)).toEqual([])
    const after = await lastUpdatedAt(w.listing.id)
    expect(after.lastUpdatedAt).toEqual(after.createdAt)
  })

  it('ignores a release of a repository no listing is connected to, drafts and prereleases', async () => {
    const w = await sellerRepository()
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v0.1.0', login: w.login })
    await gh.idle()
    expect(githubWebhookAnswers.filter((a) => a.event === 'release').at(-1)!.body).toContain('ignored')
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v0.2.0-beta', prerelease: true, login: w.login })
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v0.3.0', draft: true, login: w.login })
    await gh.idle()
    expect((await listingChangelog(w.listing.id)).map((v) => v.version)).toEqual(['v0.1.0'])
  })
})

describe('a taken-down listing (issue 30, review)', () => {
  it('keeps recording its releases but tells no buyer, and refuses a version note by hand', async () => {
    const admin = await signUpAs(`admin-${unique()}@example.com`, { admin: true })
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    await buyers(w.listing, ['completed'])
    await takeDownListing({ listingId: w.listing.id, adminId: admin.id, category: 'misleading', reason: 'Not what it says' })
    gh.publishRelease({ repository: w.repo.fullName, tag: 'v5.0.0', login: w.login })
    await gh.idle()
    expect((await listingChangelog(w.listing.id)).map((v) => v.version)).toEqual(['v5.0.0'])
    expect(await told(w.listing.title)).toEqual([])

    const { seller, listing } = await sellerWithListing()
    await takeDownListing({ listingId: listing.id, adminId: admin.id, category: 'malware', reason: 'A postinstall script' })
    await expect(
      publishVersionNote({ listingId: listing.id, sellerId: seller.id, version: '2.0.0', notes: 'Fixed' }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'This listing was taken down: answer the takedown before publishing a version',
    })
    expect(await listingChangelog(listing.id)).toEqual([])
  })
})

describe('a version note by hand (no GitHub delivery)', () => {
  const post = (listingId: string, fields: Record<string, string>, token: string) =>
    callRoute(versionsRoute, formRequest(`/seller/edit/${listingId}/versions`, fields, token), { id: listingId })

  it("is published by the listing's seller, tells its owners once, and refuses bad input with the form's messages", async () => {
    const { seller, listing } = await sellerWithListing()
    const owners = await buyers(listing, ['delivered', 'refunded'])

    const empty = await post(listing.id, { version: '', notes: '' }, seller.token)
    expect(empty.status).toBe(400)
    const emptyText = await empty.text()
    expect(emptyText).toContain('Enter the version, e.g. 1.2.0')
    expect(emptyText).toContain('Say what changed in this version')
    const bad = await post(listing.id, { version: '1.0 final', notes: 'x' }, seller.token)
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Use letters, digits, dots, dashes, underscores or plus signs')

    const ok = await post(listing.id, { version: '1.1.0', notes: 'Dark mode.\r\nSmaller bundle.' }, seller.token)
    expect(ok.status).toBe(302)
    const versions = await listingChangelog(listing.id)
    expect(versions.map((v) => [v.source, v.version, v.notes])).toEqual([['manual', '1.1.0', 'Dark mode.\nSmaller bundle.']])
    expect((await told(listing.title)).map((row) => row.userId)).toEqual([owners.delivered])
    expect(await inApp(owners.refunded!)).toEqual([])

    // The listing page reads the same Changelog inside the listing's own read (JSON), dates and order as they are.
    await post(listing.id, { version: '1.2.0', notes: 'Faster.' }, seller.token)
    const page = await getListingPageBySlug(listing.slug)
    expect(page?.versions).toEqual(await listingChangelog(listing.id))
    expect(page?.versions.map((v) => v.version)).toEqual(['1.2.0', '1.1.0'])
    expect(page?.versions[0]!.publishedAt).toBeInstanceOf(Date)

    const again = await post(listing.id, { version: '1.1.0', notes: 'Again' }, seller.token)
    expect(again.status).toBe(400)
    expect(await again.text()).toContain('You published version 1.1.0 already: use a new version number')
    expect(await told(listing.title)).toHaveLength(2)
  })

  it("is refused to anyone but the listing's seller (403 for a visible listing), and for a GitHub-delivered listing (409)", async () => {
    const { listing } = await sellerWithListing()
    const stranger = await signUp('stranger')
    const refused = await post(listing.id, { version: '9.9.9', notes: 'Not mine' }, stranger.token)
    expect(refused.status).toBe(403)
    expect(await listingChangelog(listing.id)).toEqual([])

    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    await expect(
      publishVersionNote({ listingId: w.listing.id, sellerId: w.seller.id, version: '1.0.0', notes: 'By hand' }),
    ).rejects.toMatchObject({
      status: 409,
    })
    const viaForm = await post(w.listing.id, { version: '1.0.0', notes: 'By hand' }, w.seller.token)
    expect(viaForm.status).toBe(409)
    expect(await viaForm.text()).toContain('This listing follows its GitHub releases')
  })
})
