/**
 * Updates after the sale (issue 30, docs/decisions/036): a listing's versions (listing_releases) and
 * telling the buyers who own it.
 *
 *   - A GitHub-delivered listing follows its repository's releases: the latest one is read when the
 *     listing is connected (`recordLatestReleaseAtConnection`, GitHub asked before any transaction) and
 *     each `release` webhook (`published`; `deleted` takes it off the changelog) is recorded for every
 *     listing connected to that repository through that installation (`handleReleaseWebhook`), then the
 *     listed commit's checks are read again (`recordListingChecks(…, { source: 'release' })`).
 *     Drafts and prereleases are not versions a buyer is told of: only full releases are recorded.
 *   - A seller without GitHub delivery publishes a version note by hand (`publishVersionNote`).
 *   - Either way, each buyer who owns the listing (UPDATE_RECIPIENT_STATUSES: delivered or completed —
 *     they have the code and the sale is not being contested; refunded, failed, still unpaid or
 *     undelivered sales are not told) gets one `listing_updated` notification per version: in the app,
 *     and by mail unless they turned "updates" off. The dedupe key is the version's row and the buyer,
 *     and a row is inserted once per listing and GitHub release id, so a redelivered webhook or a
 *     second read tells nobody twice. A release read at connection is history, not news: nobody is told.
 *   - `listings.last_updated_at` is the newest version's publication, else the listing's creation
 *     ("Updated 3 days ago", the "Recently updated" sort): `refreshLastUpdatedAt` in the same transaction.
 */
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import { sql, type Transaction as DbTransaction, type Expression, type ShallowDehydrateObject } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import type { UpdateNotice } from '~/emails/content'
import { UPDATE_RECIPIENT_STATUSES } from '~/lib/escrow'
import { listingDeliveryMethod } from '~/lib/github'
import { isUuid } from '~/lib/ids'
import { RELEASE_NOTES_MAX, type ListingVersion } from '~/lib/releases'
import type { DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled, githubFailure, githubId, installationOctokit, splitFullName } from '../infra/github.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { AppError } from './errors.server.ts'
import { recordListingChecks } from './github-checks.server.ts'
import type { Fresh, GithubWebhookResult } from './github-webhooks.server.ts'
import { takedownInForce } from './moderation.server.ts'
import { notify } from './notifications.server.ts'
import { sellerSuspendedSql } from './payouts.server.ts'

type Trx = DbTransaction<DB>

/** A release as the app keeps it (from GitHub's REST answer or webhook). */
export interface GithubRelease {
  id: number
  tagName: string
  name: string | null
  body: string | null
  htmlUrl: string
  publishedAt: Date
}

interface NewVersion {
  source: 'github' | 'manual'
  githubReleaseId: number | null
  version: string
  name: string | null
  notes: string
  htmlUrl: string | null
  publishedAt: Date
  authorId: string | null
}

/** Long release notes are cut (the listing page links to the release on GitHub for the rest). */
function clip(notes: string | null): string {
  const text = (notes ?? '').trim()
  return text.length > RELEASE_NOTES_MAX ? `${text.slice(0, RELEASE_NOTES_MAX - 1)}…` : text
}

function fromGithub(release: GithubRelease): NewVersion {
  const name = release.name?.trim() ? release.name.trim().slice(0, 200) : null
  return {
    source: 'github',
    githubReleaseId: release.id,
    version: release.tagName.slice(0, 100),
    name: name === release.tagName ? null : name,
    notes: clip(release.body),
    htmlUrl: /^https?:\/\//.test(release.htmlUrl) ? release.htmlUrl : null,
    publishedAt: release.publishedAt,
    authorId: null,
  }
}

/** The shape GitHub gives (REST or webhook) → ours; null for a draft, a prerelease or one without a date. */
export function githubReleaseOf(raw: {
  id: number
  tag_name: string
  name?: string | null
  body?: string | null
  html_url: string
  draft: boolean
  prerelease: boolean
  published_at: string | null
}): GithubRelease | null {
  const id = githubId(raw.id)
  if (!id || raw.draft || raw.prerelease || !raw.published_at || !raw.tag_name) return null
  const publishedAt = new Date(raw.published_at)
  if (Number.isNaN(publishedAt.getTime())) return null
  return { id, tagName: raw.tag_name, name: raw.name ?? null, body: raw.body ?? null, htmlUrl: raw.html_url, publishedAt }
}

/**
 * Inserts a version of a listing (once per GitHub release id, or per manual version) and, when it is
 * new and `tell`, notifies every buyer who owns the listing. Null when it was recorded before.
 */
async function insertVersion(trx: Trx, listingId: string, version: NewVersion, options: { tell: boolean; now: Date }) {
  const query = trx
    .insertInto('listingReleases')
    .values({ listingId, ...version, recordedAt: options.now })
    .onConflict((oc) =>
      version.source === 'github'
        ? oc.columns(['listingId', 'githubReleaseId']).where('githubReleaseId', 'is not', null).doNothing()
        : oc.columns(['listingId', 'version']).where('source', '=', 'manual').doNothing(),
    )
    .returning(['id'])
  const row = await query.executeTakeFirst()
  if (!row) return null
  await refreshLastUpdatedAt(trx, listingId)
  if (options.tell) await tellOwners(trx, listingId, row.id, version, options.now)
  return row.id
}

/** The newest version's publication, else the listing's creation. */
async function refreshLastUpdatedAt(trx: Trx, listingId: string): Promise<void> {
  await trx
    .updateTable('listings')
    .set({
      lastUpdatedAt: sql<Date>`coalesce((SELECT max(published_at) FROM listing_releases WHERE listing_id = ${listingId}), created_at)`,
    })
    .where('id', '=', listingId)
    .execute()
}

/**
 * A listing connected to another repository forgets the releases of the one it left: its changelog is its
 * repository's (the version notes by hand stay).
 */
export async function forgetGithubReleases(trx: Trx, listingId: string): Promise<void> {
  const removed = await trx
    .deleteFrom('listingReleases')
    .where('listingId', '=', listingId)
    .where('source', '=', 'github')
    .returning('id')
    .execute()
  if (removed.length) await refreshLastUpdatedAt(trx, listingId)
}

/** One `listing_updated` per buyer who owns the listing (UPDATE_RECIPIENT_STATUSES), keyed on the version and the buyer. */
async function tellOwners(trx: Trx, listingId: string, releaseId: string, version: NewVersion, now: Date): Promise<number> {
  const listing = await trx
    .selectFrom('listings')
    .select((eb) => [
      'title',
      'slug',
      eb
        .exists(
          eb
            .selectFrom('listingTakedowns')
            .select('listingTakedowns.id')
            .whereRef('listingTakedowns.listingId', '=', 'listings.id')
            .where('listingTakedowns.status', '<>', 'restored'),
        )
        .as('takenDown'),
      sellerSuspendedSql(eb.ref('listings.sellerId')).as('sellerSuspended'),
    ])
    .where('id', '=', listingId)
    .executeTakeFirstOrThrow()
  // A listing taken down, or a suspended seller's, keeps its changelog but tells nobody: no mail carries the
  // words of a seller the marketplace has stopped showing, nor links to a page its buyers cannot open.
  if (listing.takenDown || listing.sellerSuspended) return 0
  const buyers = await trx
    .selectFrom('transactions')
    .select('buyerId')
    .distinct()
    .where('listingId', '=', listingId)
    .where('status', 'in', [...UPDATE_RECIPIENT_STATUSES])
    .orderBy('buyerId')
    .execute()
  const data: UpdateNotice = {
    listingTitle: listing.title,
    listingSlug: listing.slug,
    version: version.version,
    name: version.name,
    notes: version.notes,
    publishedAt: version.publishedAt.toISOString(),
    source: version.source,
  }
  for (const { buyerId } of buyers) {
    await notify(trx, {
      kind: 'listing_updated',
      userId: buyerId,
      dedupeKey: `listing_updated:${releaseId}:${buyerId}`,
      data: { ...data },
      now,
    })
  }
  return buyers.length
}

// --- GitHub ---------------------------------------------------------------------------------

/** GitHub's latest release of a repository (not a draft, not a prerelease), or null — none, or GitHub could not say. */
export async function readLatestRelease(installationId: number, repoFullName: string, now = new Date()): Promise<GithubRelease | null> {
  if (!githubEnabled()) return null
  const { owner, repo } = splitFullName(repoFullName)
  try {
    const octokit = await installationOctokit(installationId)
    const { data } = await octokit.rest.repos.getLatestRelease({ owner, repo })
    return githubReleaseOf(data)
  } catch (error) {
    const failure = githubFailure(error, 1, now)
    // 404: the repository has no release yet — the common case, not a failure.
    if (failure.kind !== 'not_found') logEvent('warn', 'github_release_unavailable', { repository: repoFullName, message: failure.message })
    return null
  }
}

/** At connection: the repository's latest release becomes the listing's first version (nobody is told). */
export async function recordLatestReleaseAtConnection(listingId: string, now = new Date()): Promise<string | null> {
  const listing = await db
    .selectFrom('listings')
    .select(['githubInstallationId', 'githubRepoFullName'])
    .where('id', '=', listingId)
    .executeTakeFirst()
  if (!listing?.githubInstallationId || !listing.githubRepoFullName) return null
  const latest = await readLatestRelease(listing.githubInstallationId, listing.githubRepoFullName, now)
  if (!latest) return null
  return db.transaction().execute((trx) => insertVersion(trx, listingId, fromGithub(latest), { tell: false, now }))
}

type ReleasePayload = EmitterWebhookEvent<'release'>['payload']

/**
 * `release` published: recorded for every listing connected to the repository through the
 * installation, its owners told, then each listing's checks read (after the transaction: they call
 * GitHub). `deleted`: the release leaves those listings' changelogs. Other actions are ignored.
 */
export async function handleReleaseWebhook(payload: ReleasePayload, fresh: Fresh, now: Date): Promise<GithubWebhookResult> {
  const repoId = githubId(payload.repository?.id)
  const installationId = githubId(payload.installation?.id)
  const listings =
    repoId && installationId
      ? await db
          .selectFrom('listings')
          .select('id')
          .where('githubRepoId', '=', repoId)
          .where('githubInstallationId', '=', installationId)
          .where('githubAccessLostAt', 'is', null)
          .where('archivedAt', 'is', null)
          .orderBy('id')
          .execute()
      : []
  // A full release arrives as `published` and `released` (one row: the unique index); a prerelease made a
  // full release later, as `released` alone.
  const release = payload.action === 'published' || payload.action === 'released' ? githubReleaseOf(payload.release) : null
  const deletedId = payload.action === 'deleted' ? githubId(payload.release?.id) : null
  if (release || deletedId) await ensureJobSchema()
  const recorded: string[] = []
  const result = await db.transaction().execute(async (trx): Promise<GithubWebhookResult> => {
    if (!(await fresh(trx))) return 'duplicate'
    if (listings.length === 0 || (!release && !deletedId)) return 'ignored'
    for (const listing of listings) {
      if (release) {
        if (await insertVersion(trx, listing.id, fromGithub(release), { tell: true, now })) recorded.push(listing.id)
      } else {
        const removed = await trx
          .deleteFrom('listingReleases')
          .where('listingId', '=', listing.id)
          .where('githubReleaseId', '=', deletedId)
          .returning('id')
          .execute()
        if (removed.length) await refreshLastUpdatedAt(trx, listing.id)
      }
    }
    return 'processed'
  })
  // "At each release" the listed commit's checks are read again (decision 034), with no transaction open.
  for (const listingId of recorded) await recordListingChecks(listingId, { source: 'release', now })
  if (recorded.length)
    logEvent('info', 'listing_release_recorded', { repository: payload.repository?.full_name, listings: recorded.length })
  return result
}

// --- Version notes by hand ------------------------------------------------------------------

/**
 * A seller without GitHub delivery publishes a version (the listing's seller only: anyone else gets
 * 404, as for the listing's other management). 409 for a GitHub-delivered listing (its releases are
 * its versions); 400 with a field error for a version published before.
 */
export async function publishVersionNote(input: {
  listingId: string
  sellerId: string
  version: string
  notes: string
  now?: Date
}): Promise<{ id: string; told: number }> {
  const now = input.now ?? new Date()
  const listing = isUuid(input.listingId)
    ? await db
        .selectFrom('listings')
        .select(['id', 'sellerId', 'githubRepoId', 'githubAccessLostAt', 'archivedAt'])
        .where('id', '=', input.listingId)
        .executeTakeFirst()
    : undefined
  if (!listing || listing.sellerId !== input.sellerId || listing.archivedAt) throw new AppError(404, 'Listing not found')
  if (listingDeliveryMethod(listing) === 'github')
    throw new AppError(409, 'This listing follows its GitHub releases: publish a release on GitHub instead')
  if (await takedownInForce(listing.id))
    throw new AppError(409, 'This listing was taken down: answer the takedown before publishing a version')
  await ensureJobSchema()
  const version: NewVersion = {
    source: 'manual',
    githubReleaseId: null,
    version: input.version.trim(),
    name: null,
    notes: input.notes.trim(),
    htmlUrl: null,
    publishedAt: now,
    authorId: input.sellerId,
  }
  const written = await db.transaction().execute(async (trx) => {
    const id = await insertVersion(trx, listing.id, version, { tell: false, now })
    if (!id) return null
    return { id, told: await tellOwners(trx, listing.id, id, version, now) }
  })
  if (!written) {
    const message = `You published version ${version.version} already: use a new version number`
    throw new AppError(400, message, { fieldErrors: { version: [message] }, extra: { field: 'version' } })
  }
  logEvent('info', 'listing_version_note', { listingId: listing.id, told: written.told })
  return written
}

// --- Reading ---------------------------------------------------------------------------------

/** How many versions the listing page's Changelog shows (newest first). */
export const CHANGELOG_SHOWN = 20

/** The listing's versions, newest first (`listingId` a value, or the listing's column in a read that includes this one). */
function changelogQuery(listingId: string | Expression<string>, limit: number) {
  return db
    .selectFrom('listingReleases')
    .select(['id', 'source', 'version', 'name', 'notes', 'htmlUrl', 'publishedAt'])
    .where('listingId', '=', listingId)
    .orderBy('publishedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
}

/** The listing's versions, newest first: the first is its latest. */
export async function listingChangelog(listingId: string, limit = CHANGELOG_SHOWN): Promise<ListingVersion[]> {
  if (!isUuid(listingId)) return []
  return changelogQuery(listingId, limit).execute()
}

/**
 * The listing page's Changelog inside the listing's own read (issue 28: a statement fewer for every listing
 * page): the same versions as JSON, made ListingVersions again by `changelogFromJson`.
 */
export function changelogJson(listingId: Expression<string>) {
  return jsonArrayFrom(changelogQuery(listingId, CHANGELOG_SHOWN))
}

/** JSON has no dates: publishedAt comes back as its ISO text. */
export function changelogFromJson(rows: ShallowDehydrateObject<ListingVersion>[]): ListingVersion[] {
  return rows.map((row) => ({ ...row, publishedAt: new Date(row.publishedAt) }))
}
