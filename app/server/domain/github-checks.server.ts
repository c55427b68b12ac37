/**
 * The code host's checks as evidence (issue 30, docs/decisions/034): what GitHub's Checks and Statuses
 * APIs say about a commit, read with the installation's token (the App asks checks: read and
 * statuses: read) and kept as a reading (github_check_readings) — of the listed commit when a listing
 * is connected, on each check webhook for it (and, later, at each release: `recordListingChecks` is the
 * hook), and of the delivered commit when GitHub confirmed the buyer's access (`headOf` reads it, the
 * confirmation's transaction stores it). GitHub is always asked before any transaction opens (028).
 */
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import type { Transaction as DbTransaction, Kysely } from 'kysely'
import {
  checkRunResult,
  commitStatusResult,
  summarizeChecks,
  type CheckDetail,
  type ChecksReadingSummary,
  type ChecksReadingView,
  type ChecksSummary,
  type SaleChecksView,
} from '~/lib/commit-checks'
import type { DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubFailure, githubId, installationOctokit, splitFullName } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import type { Octo } from './github-delivery-steps.server.ts'
import type { Fresh, GithubWebhookResult } from './github-webhooks.server.ts'

export type CheckReadingSource = 'listing' | 'webhook' | 'release' | 'delivery'

export interface ChecksReading extends ChecksReadingSummary {
  repoFullName: string
  sha: string
  readAt: Date
}

/** At most this many check runs and statuses are read per commit (GitHub pages by 100). */
const MAX_PER_KIND = 300

/** Reads a commit's check runs (latest per name) and combined status. Never throws: a failure is an `unavailable` reading. */
export async function readCommitChecks(octokit: Octo, repoFullName: string, sha: string, now = new Date()): Promise<ChecksReading> {
  const { owner, repo } = splitFullName(repoFullName)
  try {
    const runs = await octokit.paginate(
      octokit.rest.checks.listForRef,
      { owner, repo, ref: sha, filter: 'latest', per_page: 100 },
      (response, done) => {
        if (response.data.length >= MAX_PER_KIND) done()
        return response.data
      },
    )
    const combined = await octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100 })
    const details: CheckDetail[] = [
      ...runs.slice(0, MAX_PER_KIND).map((run) => ({
        kind: 'check_run' as const,
        name: run.name,
        by: run.app?.name ?? null,
        outcome: run.conclusion ?? run.status,
        result: checkRunResult(run),
      })),
      ...combined.data.statuses.map((status) => ({
        kind: 'status' as const,
        name: status.context,
        by: null,
        outcome: status.state,
        result: commitStatusResult(status.state),
      })),
    ]
    return { ...summarizeChecks(details), repoFullName, sha, readAt: now }
  } catch (error) {
    logEvent('warn', 'github_checks_unavailable', { repository: repoFullName, sha, message: githubFailure(error, 1, now).message })
    return { summary: 'unavailable', passed: 0, failed: 0, pending: 0, details: [], repoFullName, sha, readAt: now }
  }
}

/** Stores a reading (a plain insert: callable inside the confirmation's transaction, GitHub having been read before it). */
export async function insertChecksReading(
  executor: Kysely<DB> | DbTransaction<DB>,
  subject: { listingId: string; source: Exclude<CheckReadingSource, 'delivery'> } | { transactionId: string; source: 'delivery' },
  reading: ChecksReading,
): Promise<void> {
  await executor
    .insertInto('githubCheckReadings')
    .values({
      listingId: 'listingId' in subject ? subject.listingId : null,
      transactionId: 'transactionId' in subject ? subject.transactionId : null,
      source: subject.source,
      repoFullName: reading.repoFullName,
      commitSha: reading.sha,
      readAt: reading.readAt,
      summary: reading.summary,
      passed: reading.passed,
      failed: reading.failed,
      pending: reading.pending,
      details: JSON.stringify(reading.details),
    })
    .execute()
}

/**
 * Reads and stores the checks of a listing's listed commit now: at connection, and the hook for "at
 * each release" (source 'release'). Nothing for a listing without a repository. Not inside a transaction.
 */
export async function recordListingChecks(
  listingId: string,
  options: { source: 'listing' | 'release'; now?: Date },
): Promise<ChecksReading | null> {
  const listing = await db
    .selectFrom('listings')
    .select(['githubInstallationId', 'githubRepoFullName', 'githubListedSha'])
    .where('id', '=', listingId)
    .executeTakeFirst()
  if (!listing?.githubInstallationId || !listing.githubRepoFullName || !listing.githubListedSha) return null
  const now = options.now ?? new Date()
  const reading = await readWithInstallation(listing.githubInstallationId, listing.githubRepoFullName, listing.githubListedSha, now)
  await insertChecksReading(db, { listingId, source: options.source }, reading)
  return reading
}

async function readWithInstallation(installationId: number, repoFullName: string, sha: string, now: Date): Promise<ChecksReading> {
  let octokit: Octo
  try {
    octokit = await installationOctokit(installationId)
  } catch (error) {
    logEvent('warn', 'github_checks_unavailable', { repository: repoFullName, sha, message: githubFailure(error, 1, now).message })
    return { summary: 'unavailable', passed: 0, failed: 0, pending: 0, details: [], repoFullName, sha, readAt: now }
  }
  return readCommitChecks(octokit, repoFullName, sha, now)
}

type CheckPayload =
  EmitterWebhookEvent<'check_run'>['payload'] | EmitterWebhookEvent<'check_suite'>['payload'] | EmitterWebhookEvent<'status'>['payload']

/** The commit a check webhook is about. */
function webhookSha(event: string, payload: CheckPayload): string | null {
  if (event === 'check_run' && 'check_run' in payload) return payload.check_run.head_sha
  if (event === 'check_suite' && 'check_suite' in payload) return payload.check_suite.head_sha
  if (event === 'status' && 'sha' in payload) return payload.sha
  return null
}

/**
 * `check_run`, `check_suite`, `status`: when the commit is a listing's listed commit, read its checks
 * afresh (the webhook's one run is not the whole picture) and store the reading with the delivery id.
 */
export async function handleChecksWebhook(
  event: 'check_run' | 'check_suite' | 'status',
  payload: CheckPayload,
  fresh: Fresh,
  now: Date,
): Promise<GithubWebhookResult> {
  const repoId = githubId(payload.repository?.id)
  const sha = webhookSha(event, payload)
  const installationId = githubId(payload.installation?.id)
  const listings =
    repoId && sha && installationId
      ? await db
          .selectFrom('listings')
          .select(['id', 'githubRepoFullName', 'githubListedSha'])
          .where('githubRepoId', '=', repoId)
          .where('githubInstallationId', '=', installationId)
          .where('githubListedSha', '=', sha)
          .execute()
      : []
  const readings = new Map<string, ChecksReading>()
  for (const listing of listings) {
    const key = listing.githubRepoFullName!
    if (!readings.has(key)) readings.set(key, await readWithInstallation(installationId!, key, sha!, now))
  }
  return db.transaction().execute(async (trx) => {
    if (!(await fresh(trx))) return 'duplicate'
    for (const listing of listings) {
      await insertChecksReading(trx, { listingId: listing.id, source: 'webhook' }, readings.get(listing.githubRepoFullName!)!)
    }
    return listings.length > 0 ? 'processed' : 'ignored'
  })
}

export interface StoredChecksReading {
  summary: ChecksSummary
  passed: number
  failed: number
  pending: number
  details: CheckDetail[]
  sha: string
  repoFullName: string
  readAt: Date
  source: CheckReadingSource
}

function stored(row: {
  summary: ChecksSummary
  passed: number
  failed: number
  pending: number
  details: unknown
  commitSha: string
  repoFullName: string
  readAt: Date
  source: CheckReadingSource
}): StoredChecksReading {
  return {
    summary: row.summary,
    passed: row.passed,
    failed: row.failed,
    pending: row.pending,
    details: (Array.isArray(row.details) ? row.details : []) as CheckDetail[],
    sha: row.commitSha,
    repoFullName: row.repoFullName,
    readAt: row.readAt,
    source: row.source,
  }
}

const READING_COLUMNS = ['summary', 'passed', 'failed', 'pending', 'details', 'commitSha', 'repoFullName', 'readAt', 'source'] as const

/** The latest reading of a listing's listed commit (what the listing page shows), or null. */
export async function latestListingChecks(listingId: string, listedSha: string | null, before?: Date): Promise<StoredChecksReading | null> {
  if (!listedSha) return null
  let query = db
    .selectFrom('githubCheckReadings')
    .select(READING_COLUMNS)
    .where('listingId', '=', listingId)
    .where('commitSha', '=', listedSha)
  if (before) query = query.where('readAt', '<=', before)
  const row = await query.orderBy('readAt', 'desc').limit(1).executeTakeFirst()
  return row ? stored(row) : null
}

export interface SaleChecksReadings {
  listing: StoredChecksReading | null
  delivery: StoredChecksReading | null
}

/**
 * Each sale's two readings side by side: the listed commit's (the latest before delivery, else the
 * latest) and the delivered commit's (the latest). Sales without a GitHub delivery are left out.
 */
export async function salesChecksReadings(transactionIds: readonly string[]): Promise<Map<string, SaleChecksReadings>> {
  if (transactionIds.length === 0) return new Map()
  const sales = await db
    .selectFrom('transactions')
    .innerJoin('githubDeliveries', 'githubDeliveries.transactionId', 'transactions.id')
    .select(['transactions.id', 'transactions.listingId', 'transactions.deliveredAt', 'githubDeliveries.listedSha'])
    .where('transactions.id', 'in', [...transactionIds])
    .execute()
  if (sales.length === 0) return new Map()
  const listedShas = sales.flatMap((sale) => (sale.listedSha ? [sale.listedSha] : []))
  const [deliveryRows, listingRows] = await Promise.all([
    db
      .selectFrom('githubCheckReadings')
      .select(['transactionId', ...READING_COLUMNS])
      .where(
        'transactionId',
        'in',
        sales.map((sale) => sale.id),
      )
      .orderBy('readAt', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    listedShas.length === 0
      ? []
      : db
          .selectFrom('githubCheckReadings')
          .select(['listingId', ...READING_COLUMNS])
          .where('listingId', 'in', [...new Set(sales.map((sale) => sale.listingId))])
          .where('commitSha', 'in', [...new Set(listedShas)])
          .orderBy('readAt', 'desc')
          .orderBy('id', 'desc')
          .execute(),
  ])
  const result = new Map<string, SaleChecksReadings>()
  for (const sale of sales) {
    const delivery = deliveryRows.find((row) => row.transactionId === sale.id)
    const ofListing = listingRows.filter((row) => row.listingId === sale.listingId && row.commitSha === sale.listedSha)
    const listing = (sale.deliveredAt ? ofListing.find((row) => row.readAt <= sale.deliveredAt!) : undefined) ?? ofListing[0]
    result.set(sale.id, { listing: listing ? stored(listing) : null, delivery: delivery ? stored(delivery) : null })
  }
  return result
}

/** One sale's two readings (`salesChecksReadings` for one). */
export async function saleChecksReadings(transactionId: string): Promise<SaleChecksReadings> {
  return (await salesChecksReadings([transactionId])).get(transactionId) ?? { listing: null, delivery: null }
}

/** A reading as a screen receives it. */
export function checksView(reading: StoredChecksReading | null): ChecksReadingView | null {
  if (!reading) return null
  const { summary, passed, failed, pending } = reading
  return { summary, passed, failed, pending, readAt: reading.readAt.toISOString() }
}

/** Each sale's two readings as screens receive them, by transaction id (the dispute's evidence for the buyer, the seller, the admins). */
export async function salesChecksViews(transactionIds: readonly string[]): Promise<Map<string, SaleChecksView>> {
  const readings = await salesChecksReadings(transactionIds)
  return new Map([...readings].map(([id, both]) => [id, { listed: checksView(both.listing), delivered: checksView(both.delivery) }]))
}
