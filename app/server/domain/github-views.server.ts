import type { SaleChecksView } from '~/lib/commit-checks'
import type { GithubDelivery, GithubDeliveryState, GithubWaitingOn } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled, githubWebUrl } from '../infra/github.server.ts'
import { salesChecksViews } from './github-checks.server.ts'

/**
 * What the screens read about GitHub deliveries (issue 16): the buyer's view of
 * a purchase and the admin's evidence. Kept apart from the delivery modules
 * (which fire escrow events) so purchases.server.ts can list purchases with it.
 */

export interface PurchaseGithub {
  state: GithubDeliveryState
  /** Where the buyer accepts the invitation (while delivering). */
  invitationUrl: string | null
  repositoryUrl: string
  forkUrl: string | null
  /** Re-sent once after GitHub expired the first invitation. */
  resent: boolean
  waitingOn: GithubWaitingOn | null
  nextAttemptAt: Date | null
  /** A sentence for the buyer ("Accept your invitation on GitHub", "Invitation queued: …"). */
  message: string
}

export interface GithubEvidence {
  repository: string
  repositoryUrl: string
  listedSha: string | null
  listedAt: Date | null
  deliveredSha: string | null
  deliveredShaDate: Date | null
  /** "The delivered code is the listed code" / "The code changed on <date>" / "Not delivered yet". */
  summary: string
  buyerGithubId: number | null
  buyerLogin: string | null
  invitedAt: Date | null
  acceptedAt: Date | null
  resentAt: Date | null
  forkUrl: string | null
  state: GithubDeliveryState
  waitingOn: GithubWaitingOn | null
  lastError: string | null
  revokedAt: Date | null
  revocation: GithubDelivery['revocation']
  /** What GitHub's checks said at the listed commit and at the delivered commit (issue 30), as read then. */
  checks: SaleChecksView
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })

export function repositoryWebUrl(fullName: string): string {
  return `${githubWebUrl()}/${fullName}`
}

/** Where GitHub shows the buyer their pending invitation to a repository (the html_url GitHub gives every invitation). */
export function invitationsWebUrl(fullName: string): string {
  return `${repositoryWebUrl(fullName)}/invitations`
}

/**
 * Whether a paid sale of this listing is delivered by invitation to its repository (issue 16) rather than
 * by its seller: the one rule behind beginGithubDelivery and what the receipt says comes next (issue 26.9).
 */
export function deliversThroughGithub<
  T extends { githubRepoId: number | null; githubInstallationId: number | null; githubRepoFullName: string | null },
>(listing: T): listing is T & { githubRepoId: number; githubInstallationId: number; githubRepoFullName: string } {
  return githubEnabled() && listing.githubRepoId !== null && listing.githubInstallationId !== null && listing.githubRepoFullName !== null
}

/** What the buyer reads while the invitation is on its way, and after. */
export function purchaseGithubMessage(delivery: Pick<GithubDelivery, 'state' | 'waitingOn' | 'resendCount' | 'nextAttemptAt'>): string {
  switch (delivery.state) {
    case 'queued':
      switch (delivery.waitingOn) {
        case 'buyer_github':
          return 'Connect your GitHub account to receive your invitation to the repository.'
        case 'invitation_limit':
          return "The repository has reached GitHub's limit of 50 invitations a day: your invitation is queued and will be sent automatically."
        case 'rate_limit':
        case 'github_error':
          return 'GitHub is not answering right now: your invitation will be sent automatically.'
        default:
          return 'Your invitation to the repository is being sent.'
      }
    case 'invited':
      return delivery.resendCount > 0
        ? 'Your first invitation expired, so we sent a new one: accept your invitation on GitHub.'
        : 'Accept your invitation on GitHub to receive the code.'
    case 'accepted':
      return 'Access confirmed on GitHub.'
    case 'revoked':
      return 'Your access to the repository ended with the refund.'
    case 'failed':
      return 'The invitation could not be delivered: an admin is looking into it.'
  }
}

export function toPurchaseGithub(delivery: GithubDelivery): PurchaseGithub {
  const repositoryUrl = repositoryWebUrl(delivery.repoFullName)
  return {
    state: delivery.state,
    invitationUrl: delivery.state === 'invited' ? (delivery.invitationUrl ?? `${repositoryUrl}/invitations`) : null,
    repositoryUrl,
    forkUrl: delivery.state === 'revoked' ? null : delivery.forkUrl,
    resent: delivery.resendCount > 0,
    waitingOn: delivery.waitingOn,
    nextAttemptAt: delivery.nextAttemptAt,
    message: purchaseGithubMessage(delivery),
  }
}

async function deliveriesOf(transactionIds: readonly string[]): Promise<GithubDelivery[]> {
  if (transactionIds.length === 0) return []
  return db
    .selectFrom('githubDeliveries')
    .selectAll()
    .where('transactionId', 'in', [...transactionIds])
    .execute()
}

/** The buyer's view of each GitHub-delivered purchase among `transactionIds`. */
export async function purchaseGithubViews(transactionIds: readonly string[]): Promise<Map<string, PurchaseGithub>> {
  return new Map((await deliveriesOf(transactionIds)).map((delivery) => [delivery.transactionId, toPurchaseGithub(delivery)]))
}

/** "The delivered code is the listed code", or when it changed. */
export function evidenceSummary(delivery: Pick<GithubDelivery, 'listedSha' | 'deliveredSha' | 'deliveredShaDate'>): string {
  if (!delivery.deliveredSha) return 'Not delivered yet'
  if (!delivery.listedSha) return 'No commit was recorded when the listing was saved'
  if (delivery.listedSha === delivery.deliveredSha) return 'The delivered code is the listed code'
  return delivery.deliveredShaDate
    ? `The code changed on ${dateFormat.format(delivery.deliveredShaDate)} UTC (the delivered commit's date)`
    : 'The code changed after the listing was saved'
}

export function toGithubEvidence(delivery: GithubDelivery, checks: SaleChecksView = { listed: null, delivered: null }): GithubEvidence {
  return {
    repository: delivery.repoFullName,
    repositoryUrl: repositoryWebUrl(delivery.repoFullName),
    listedSha: delivery.listedSha,
    listedAt: delivery.listedAt,
    deliveredSha: delivery.deliveredSha,
    deliveredShaDate: delivery.deliveredShaDate,
    summary: evidenceSummary(delivery),
    buyerGithubId: delivery.buyerGithubId,
    buyerLogin: delivery.buyerLogin,
    invitedAt: delivery.invitedAt,
    acceptedAt: delivery.acceptedAt,
    resentAt: delivery.resentAt,
    forkUrl: delivery.forkUrl,
    state: delivery.state,
    waitingOn: delivery.waitingOn,
    lastError: delivery.lastError,
    revokedAt: delivery.revokedAt,
    revocation: delivery.revocation,
    checks,
  }
}

/** The admin's evidence for each GitHub-delivered sale among `transactionIds` (disputes show it). */
export async function githubEvidence(transactionIds: readonly string[]): Promise<Map<string, GithubEvidence>> {
  const [deliveries, checks] = await Promise.all([deliveriesOf(transactionIds), salesChecksViews(transactionIds)])
  return new Map(deliveries.map((delivery) => [delivery.transactionId, toGithubEvidence(delivery, checks.get(delivery.transactionId))]))
}
