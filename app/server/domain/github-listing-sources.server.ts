/**
 * A listing's source repository on GitHub (issue 16): the seller's repository picker, connecting a
 * listing to a repository (its listed commit), and the seller's GitHub status (installations,
 * listings that lost access, invitations waiting).
 *
 *   listRepositoryChoices(sellerId) → the seller's installations and every repository they grant,
 *       each `connectable` or with `reason` (personal repositories never are: ORGANIZATION_ONLY_HELP).
 *   setListingRepository({ listingId, sellerId, repoId: number | null, now? }) → after saving the
 *       listing (form and API): connects the repository (records the default branch's head SHA now)
 *       or disconnects it (null). AppError 400 { field: 'githubRepoId' } for a repository the seller
 *       cannot connect; 502 when GitHub cannot be reached.
 *   listingRepository(listingId) → what the form shows as selected.
 *   sellerGithubStatus(sellerId) → installations, listings that lost access (the "Reconnect GitHub"
 *       alert) and invitations waiting (rate limit / 50-a-day limit: "queued, retried at …").
 *   listingDeliveryMethod(ById) → 'github' ("Source verified on GitHub"; never show the repository's
 *       name to non-buyers) | 'manual' ("Delivered by the seller (not verified)").
 */
import { listingDeliveryMethod, ORGANIZATION_ONLY_REASON, PERSONAL_REPOSITORY_NOTE } from '~/lib/github'
import { isUuid } from '~/lib/ids'
import type { GithubWaitingOn, Listing, ListingGithubColumns } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled, githubFailure, githubId, installationOctokit, splitFullName } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { AppError } from './errors.server.ts'
import { recordListingChecks } from './github-checks.server.ts'
import { installationLost } from './github-repository-access.server.ts'
import { forgetGithubReleases, recordLatestReleaseAtConnection } from './listing-releases.server.ts'
import { LISTING_SOURCE_COLUMNS } from './listings.server.ts'

type Octo = Awaited<ReturnType<typeof installationOctokit>>

/** The refusal of a personal repository (issue 16: organization repositories only): why, then what to do. */
export const ORGANIZATION_ONLY_HELP = `${ORGANIZATION_ONLY_REASON} Move the repository to an organization (on GitHub: Settings → General → Transfer ownership), then connect that organization.`

// --- Shapes for the screens ----------------------------------------------------------------

export interface InstallationSummary {
  id: number
  accountLogin: string
  accountType: 'Organization' | 'User'
  /** Uninstalled or suspended on GitHub: "Reconnect GitHub". */
  active: boolean
}

export interface RepositoryChoice {
  installationId: number
  id: number
  fullName: string
  private: boolean
  defaultBranch: string
  ownerType: 'Organization' | 'User'
  connectable: boolean
  /** Why it cannot be connected (a personal repository). */
  reason: string | null
}

export interface RepositoryChoices {
  installations: InstallationSummary[]
  repositories: RepositoryChoice[]
  /** GitHub could not be asked just now (the form still saves; the picker says so). */
  unavailable: boolean
}

export interface ListingRepository {
  installationId: number
  repoId: number
  fullName: string
  defaultBranch: string
  listedSha: string
  listedAt: Date
  accessLostAt: Date | null
  accessLostReason: string | null
}

export interface SellerGithubStatus {
  installations: InstallationSummary[]
  /** Listings hidden because the App lost access to their repository: the "Reconnect GitHub" alert. */
  lostAccess: Array<{ listingId: string; title: string; reason: string; at: Date }>
  /** Invitations not sent yet and why (rate limit, the 50-a-day limit, GitHub errors). */
  waitingInvitations: Array<{
    transactionId: string
    listingTitle: string
    waitingOn: GithubWaitingOn | null
    nextAttemptAt: Date | null
    message: string
  }>
}

export { listingDeliveryMethod }

/** The same, by listing id (the listing page's loader: the public listing view carries no GitHub columns). */
export async function listingDeliveryMethodById(listingId: string): Promise<'github' | 'manual'> {
  if (!isUuid(listingId)) return 'manual'
  const row = await db.selectFrom('listings').select(['githubRepoId', 'githubAccessLostAt']).where('id', '=', listingId).executeTakeFirst()
  return row ? listingDeliveryMethod(row) : 'manual'
}

export function summaryOf(row: {
  id: number
  accountLogin: string
  accountType: 'Organization' | 'User'
  removedAt: Date | null
  suspendedAt: Date | null
}): InstallationSummary {
  return { id: row.id, accountLogin: row.accountLogin, accountType: row.accountType, active: !row.removedAt && !row.suspendedAt }
}

export function requireGithub(): void {
  if (!githubEnabled()) throw new AppError(503, 'GitHub delivery is not available on this site')
}

// --- The seller's repositories and listings ----------------------------------------------------

async function sellerInstallations(sellerId: string) {
  return db.selectFrom('githubInstallations').selectAll().where('userId', '=', sellerId).orderBy('accountLogin').execute()
}

export async function listRepositoryChoices(sellerId: string): Promise<RepositoryChoices> {
  const installations = isUuid(sellerId) ? await sellerInstallations(sellerId) : []
  const result: RepositoryChoices = { installations: installations.map(summaryOf), repositories: [], unavailable: false }
  if (!githubEnabled()) return result
  for (const installation of installations) {
    if (installation.removedAt || installation.suspendedAt) continue
    try {
      const octokit = await installationOctokit(installation.id)
      const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })
      for (const repo of repos) {
        const ownerType = repo.owner.type === 'User' ? 'User' : 'Organization'
        result.repositories.push({
          installationId: installation.id,
          id: repo.id,
          fullName: repo.full_name,
          private: repo.private,
          defaultBranch: repo.default_branch,
          ownerType,
          connectable: ownerType === 'Organization',
          reason: ownerType === 'Organization' ? null : PERSONAL_REPOSITORY_NOTE,
        })
      }
    } catch (error) {
      const failure = githubFailure(error, 1, new Date())
      if (failure.kind === 'not_found')
        await installationLost(installation.id, new Date(), 'The Forkmarket GitHub App is no longer installed')
      else result.unavailable = true
      logEvent('warn', 'github_repositories_unavailable', { installationId: installation.id, message: failure.message })
    }
  }
  result.repositories.sort((a, b) => a.fullName.localeCompare(b.fullName))
  return result
}

/** The source repository a listing's GitHub columns describe (LISTING_SOURCE_COLUMNS), or null when it has none. */
export function toListingRepository(row: Pick<Listing, ListingGithubColumns>): ListingRepository | null {
  if (!row.githubRepoId) return null
  return {
    installationId: row.githubInstallationId!,
    repoId: row.githubRepoId,
    fullName: row.githubRepoFullName!,
    defaultBranch: row.githubDefaultBranch!,
    listedSha: row.githubListedSha!,
    listedAt: row.githubListedAt!,
    accessLostAt: row.githubAccessLostAt,
    accessLostReason: row.githubAccessLostReason,
  }
}

export async function listingRepository(listingId: string): Promise<ListingRepository | null> {
  if (!isUuid(listingId)) return null
  const row = await db.selectFrom('listings').select(LISTING_SOURCE_COLUMNS).where('id', '=', listingId).executeTakeFirst()
  return row ? toListingRepository(row) : null
}

const REPO_FIELD = 'githubRepoId'
const repoError = (status: 400 | 502, message: string) =>
  new AppError(status, message, { fieldErrors: { [REPO_FIELD]: [message] }, extra: { field: REPO_FIELD } })

/**
 * Connects (or, with `repoId: null`, disconnects) the listing's source
 * repository, after the listing is saved. The repository must be one the
 * seller's installation grants, owned by an organization; the head of its
 * default branch is recorded now (the listed commit).
 */
export async function setListingRepository(input: {
  listingId: string
  sellerId: string
  repoId: number | null
  now?: Date
}): Promise<ListingRepository | null> {
  const now = input.now ?? new Date()
  const listing = isUuid(input.listingId)
    ? await db.selectFrom('listings').select(['id', 'sellerId', 'githubRepoId']).where('id', '=', input.listingId).executeTakeFirst()
    : undefined
  if (!listing || listing.sellerId !== input.sellerId) throw new AppError(404, 'Listing not found')
  if (input.repoId === null) {
    await db
      .updateTable('listings')
      .set({
        githubInstallationId: null,
        githubRepoId: null,
        githubRepoFullName: null,
        githubDefaultBranch: null,
        githubListedSha: null,
        githubListedAt: null,
        githubAccessLostAt: null,
        githubAccessLostReason: null,
      })
      .where('id', '=', listing.id)
      .execute()
    return null
  }
  const repoId = githubId(input.repoId)
  if (!repoId) throw repoError(400, 'Choose a repository from the list')
  requireGithub()
  const installations = (await sellerInstallations(input.sellerId)).filter((i) => !i.removedAt && !i.suspendedAt)
  if (installations.length === 0) throw repoError(400, 'Connect GitHub first')
  for (const installation of installations) {
    let octokit: Octo
    let repos
    try {
      octokit = await installationOctokit(installation.id)
      repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })
    } catch (error) {
      logEvent('warn', 'github_unavailable', { step: 'listing_repository', message: githubFailure(error, 1, now).message })
      throw repoError(502, 'GitHub could not be reached to check the repository. Please try again.')
    }
    const repo = repos.find((candidate) => candidate.id === repoId)
    if (!repo) continue
    if (repo.owner.type !== 'Organization') throw repoError(400, ORGANIZATION_ONLY_HELP)
    let sha: string
    try {
      const { owner, repo: name } = splitFullName(repo.full_name)
      const { data: branch } = await octokit.rest.repos.getBranch({ owner, repo: name, branch: repo.default_branch })
      sha = branch.commit.sha
    } catch (error) {
      logEvent('warn', 'github_unavailable', { step: 'listing_head', message: githubFailure(error, 1, now).message })
      throw repoError(502, 'GitHub could not be reached to read the repository. Please try again.')
    }
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('listings')
        .set({
          githubInstallationId: installation.id,
          githubRepoId: repo.id,
          githubRepoFullName: repo.full_name,
          githubDefaultBranch: repo.default_branch,
          githubListedSha: sha,
          githubListedAt: now,
          githubAccessLostAt: null,
          githubAccessLostReason: null,
        })
        .where('id', '=', listing.id)
        .execute()
      if (listing.githubRepoId !== null && listing.githubRepoId !== repo.id) await forgetGithubReleases(trx, listing.id)
    })
    // The listed commit's checks as evidence, and the repository's latest release as the listing's
    // version (issue 30): read now, with no transaction open.
    await recordListingChecks(listing.id, { source: 'listing', now })
    await recordLatestReleaseAtConnection(listing.id, now)
    return listingRepository(listing.id)
  }
  throw repoError(400, 'That repository is not one the Forkmarket GitHub App can reach: choose one from the list')
}

export async function sellerGithubStatus(sellerId: string): Promise<SellerGithubStatus> {
  if (!isUuid(sellerId)) return { installations: [], lostAccess: [], waitingInvitations: [] }
  const [installations, lost, waiting] = await Promise.all([
    sellerInstallations(sellerId),
    db
      .selectFrom('listings')
      .select(['id', 'title', 'githubAccessLostAt', 'githubAccessLostReason'])
      .where('sellerId', '=', sellerId)
      .where('githubAccessLostAt', 'is not', null)
      .where('archivedAt', 'is', null)
      .orderBy('githubAccessLostAt', 'desc')
      .execute(),
    db
      .selectFrom('githubDeliveries')
      .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
      .innerJoin('listings', 'listings.id', 'transactions.listingId')
      .select([
        'transactions.id',
        'listings.title',
        'githubDeliveries.waitingOn',
        'githubDeliveries.nextAttemptAt',
        'githubDeliveries.lastError',
      ])
      .where('transactions.sellerId', '=', sellerId)
      .where('transactions.status', '=', 'delivering')
      .where('githubDeliveries.state', '=', 'queued')
      .orderBy('githubDeliveries.createdAt')
      .execute(),
  ])
  return {
    installations: installations.map(summaryOf),
    lostAccess: lost.map((row) => ({
      listingId: row.id,
      title: row.title,
      reason: row.githubAccessLostReason ?? 'GitHub access was lost',
      at: row.githubAccessLostAt!,
    })),
    waitingInvitations: waiting.map((row) => ({
      transactionId: row.id,
      listingTitle: row.title,
      waitingOn: row.waitingOn,
      nextAttemptAt: row.nextAttemptAt,
      message: sellerWaitingMessage(row.waitingOn, row.nextAttemptAt, row.lastError),
    })),
  }
}

function sellerWaitingMessage(waitingOn: GithubWaitingOn | null, at: Date | null, lastError: string | null): string {
  const when = at ? ` Next attempt: ${at.toISOString().replace('T', ' ').slice(0, 16)} UTC.` : ''
  switch (waitingOn) {
    case 'invitation_limit':
      return `GitHub's limit of 50 invitations a day on this repository was reached: the invitation is queued.${when}`
    case 'rate_limit':
      return `GitHub's rate limit was reached: the invitation is queued.${when}`
    case 'github_error':
      return `GitHub did not answer${lastError ? ` (${lastError})` : ''}: the invitation will be retried.${when}`
    case 'buyer_github':
      return 'Waiting for the buyer to connect a GitHub account.'
    default:
      return `The invitation is being sent.${when}`
  }
}
