/**
 * Delivery through GitHub (issue 16; docs/decisions/ "GitHub delivery").
 *
 * CONTRACT for the screens (helper H) — these are the exports, their shapes are stable:
 *
 * Paths (GET, plain links/forms: they work without JavaScript; each takes `?returnTo=/a/local/path`):
 *   GITHUB_INSTALL_PATH   = '/github/install'     seller: install the App on an organization ("Connect GitHub", "Reconnect GitHub")
 *   GITHUB_AUTHORIZE_PATH = '/github/authorize'   buyer: connect a GitHub account through the App's OAuth ("Connect GitHub")
 *   githubPath(path, returnTo) → the href with the returnTo query.
 *
 * Seller (listing form, dashboard):
 *   listRepositoryChoices(sellerId) → Promise<RepositoryChoices>
 *       the seller's installations and every repository they grant, each `connectable` or with `reason`
 *       (personal repositories are never connectable: see ORGANIZATION_ONLY_HELP for the picker's help text).
 *   setListingRepository({ listingId, sellerId, repoId: number | null, now? }) → Promise<ListingRepository | null>
 *       call after saving the listing (form and API): connects the repository (records the default
 *       branch's head SHA now) or disconnects it (null). Throws AppError 400 { field: 'githubRepoId' }
 *       for a repository the seller cannot connect; 502 when GitHub cannot be reached.
 *   listingRepository(listingId) → Promise<ListingRepository | null>   (what the form shows as selected)
 *   sellerGithubStatus(sellerId) → Promise<SellerGithubStatus>
 *       installations, listings that lost access (hidden; the "Reconnect GitHub" alert) and
 *       invitations waiting (rate limit / 50-a-day limit: "queued, retried at …").
 *
 * Buyer / listing page / checkout:
 *   getGithubAccount(userId) → Promise<GithubAccount | null>   (null: not connected)
 *   listingDeliveryMethod({ githubRepoId, githubAccessLostAt }) → 'github' | 'manual'
 *       'github' → "Source verified on GitHub" (never show the repository's name to non-buyers);
 *       'manual' → "Delivered by the seller (not verified)".
 *   Checkout: checkoutSummary / startCheckout (checkout.server.ts) answer `{ kind: 'requiresGithub' }`
 *       for a GitHub listing when the buyer has no connected account (before any payment);
 *       POST /api/listings/:id/purchase answers 200 `{ requiresGithub: true, connectUrl }`.
 *   Purchases: escrow.server's listPurchases() items carry `github: PurchaseGithub | null`
 *       (state 'delivering': "Accept your invitation on GitHub" → invitationUrl; delivered:
 *       forkUrl ? "View Fork" : "Fork on GitHub" → repositoryUrl).
 *
 * Admin (dispute evidence):
 *   githubEvidence(transactionIds) → Promise<Map<transactionId, GithubEvidence>>
 *       listed SHA vs delivered SHA side by side, and `summary`: "The delivered code is the listed
 *       code" or "The code changed on <date>".
 *
 * Server-internal (the Stripe webhook, the jobs, the routes):
 *   beginGithubDelivery(trx, sale, now)  paid → delivering + the invitation job, in the webhook's transaction
 *   GITHUB_JOBS                         the invitation, revocation and sweep jobs (entry.server.tsx)
 *   processGithubWebhook(...)           POST /api/github/webhook
 *   completeInstallation / completeUserAuthorization   the two callbacks
 */
import type { GithubDeliveryState, GithubWaitingOn } from '../../db/schema.ts'

export const GITHUB_INSTALL_PATH = '/github/install'
export const GITHUB_AUTHORIZE_PATH = '/github/authorize'

export function githubPath(path: typeof GITHUB_INSTALL_PATH | typeof GITHUB_AUTHORIZE_PATH, returnTo: string): string {
  return `${path}?${new URLSearchParams({ returnTo })}`
}

/** The picker's help text for personal repositories (issue 16: organization repositories only). */
export const ORGANIZATION_ONLY_HELP =
  'Only repositories owned by an organization can be connected: on a personal repository GitHub gives every collaborator write access. Move the repository to an organization (Settings → General → Transfer ownership on GitHub), then connect that organization.'

export interface GithubAccount {
  githubUserId: number
  login: string
  connectedAt: Date
}

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
  waitingInvitations: Array<{ transactionId: string; listingTitle: string; waitingOn: GithubWaitingOn | null; nextAttemptAt: Date | null; message: string }>
}

export interface PurchaseGithub {
  state: GithubDeliveryState
  /** Where the buyer accepts the invitation (while delivering). */
  invitationUrl: string | null
  repositoryUrl: string
  forkUrl: string | null
  /** Re-sent once after GitHub expired the first invitation. */
  resent: boolean
  /** A sentence for the buyer while delivering ("Invitation queued: …", "Accept your invitation on GitHub"). */
  message: string
}

export interface GithubEvidence {
  repository: string
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
  forkUrl: string | null
  state: GithubDeliveryState
  lastError: string | null
  revokedAt: Date | null
}

export function listingDeliveryMethod(listing: { githubRepoId: number | null; githubAccessLostAt: Date | null }): 'github' | 'manual' {
  return listing.githubRepoId !== null && listing.githubAccessLostAt === null ? 'github' : 'manual'
}
