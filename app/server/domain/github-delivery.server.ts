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
 *   listingDeliveryMethodById(listingId) → Promise<'github' | 'manual'>   (the public listing view has no GitHub columns)
 *       'github' → "Source verified on GitHub" (never show the repository's name to non-buyers);
 *       'manual' → "Delivered by the seller (not verified)".
 *   Checkout: checkoutSummary / startCheckout (checkout.server.ts) answer `{ kind: 'requiresGithub' }`
 *       for a GitHub listing when the buyer has no connected account (before any payment);
 *       POST /api/listings/:id/purchase answers 200 `{ requiresGithub: true, connectUrl }`.
 *   Purchases: escrow.server's listPurchases() items carry `github: PurchaseGithub | null`
 *       (state 'delivering': "Accept your invitation on GitHub" → invitationUrl; delivered:
 *       forkUrl ? "View Fork" : "Fork on GitHub" → repositoryUrl; `message` is the sentence to show).
 *       purchaseGithubViews(transactionIds) → Map<transactionId, PurchaseGithub> for other lists.
 *
 * Admin (dispute evidence):
 *   githubEvidence(transactionIds) → Promise<Map<transactionId, GithubEvidence>>
 *       listed SHA vs delivered SHA side by side, and `summary`: "The delivered code is the listed
 *       code" or "The code changed on <date>".
 *
 * Server-internal (the Stripe webhook, the jobs, the routes):
 *   beginGithubDelivery(trx, sale, now)  paid → delivering + the invitation job, in the webhook's transaction
 *   GITHUB_JOBS                         the invitation, revocation and sweep jobs (entry.server.tsx)
 *   sweepGithubDeliveries(now)          polling fallback, expired invitations re-sent once, the 14-day deadline
 *   runInvitation / pollInvitation / revokeGithubAccess / repositoryLost   (the jobs' steps; tests call them)
 *   recordProviderGithubIdentity(userId, identities)   the sign-in callback (a `github` identity)
 *   processGithubWebhook(...)           POST /api/github/webhook
 *   installUrl / authorizeUrl / completeInstallation / completeUserAuthorization   the flows and their callbacks
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import type { Task } from 'graphile-worker'
import type { Transaction as DbTransaction, Kysely, Updateable } from 'kysely'
import { ORGANIZATION_ONLY_REASON, PERSONAL_REPOSITORY_NOTE } from '~/lib/github'
import { isUuid } from '~/lib/ids'
import type {
  DB,
  DeliveryProof,
  GithubDeliveriesTable,
  GithubDelivery,
  GithubDeliveryProof,
  GithubDeliveryState,
  GithubWaitingOn,
  Listing,
  ListingGithubColumns,
  Transaction,
} from '../../../db/schema.ts'
import type { RateLimit } from '../http/rate-limit.server.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { appUrl, config } from '../infra/env.server.ts'
import { githubApp, githubEnabled, githubFailure, installationOctokit, userOctokit, type GithubFailure } from '../infra/github.server.ts'
import { queueJob, type JobDefinition } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { cancelStaleCheckouts } from './checkout.server.ts'
import { AppError } from './errors.server.ts'
import { applyEvent, GITHUB_REVOKE_TASK, prepareEscrow, type Actor } from './escrow.server.ts'
import { deliversThroughGithub } from './github-views.server.ts'
import { LISTING_SOURCE_COLUMNS } from './listings.server.ts'
import { notifyGithubInvitation } from './notification-sender.server.ts'

export { githubEvidence, purchaseGithubViews, type GithubEvidence, type PurchaseGithub } from './github-views.server.ts'

type Executor = Kysely<DB> | DbTransaction<DB>
type Octo = Awaited<ReturnType<typeof installationOctokit>>

const SYSTEM: Actor = { id: null, role: 'system' }
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

/** An invitation not accepted this long after payment sends the sale to the admin's dispute queue. */
export const ACCEPT_DEADLINE_DAYS = 14
export const ACCEPT_DEADLINE_MS = ACCEPT_DEADLINE_DAYS * DAY
/** A buyer without a GitHub account (disconnected after paying) is looked at again this often. */
const BUYER_GITHUB_RETRY_MS = HOUR

export const GITHUB_PATHS = {
  install: '/github/install',
  installCallback: '/github/install/callback',
  authorize: '/github/authorize',
  oauthCallback: '/github/oauth/callback',
  webhook: '/api/github/webhook',
} as const
/** The connect flows' pages (each asks GitHub something): per client address, views included. */
export const GITHUB_FLOW_RATE_LIMIT: RateLimit = { name: 'github-connect', limit: 20, windowMs: 60_000, counts: 'all' }

export const GITHUB_INSTALL_PATH = GITHUB_PATHS.install
export const GITHUB_AUTHORIZE_PATH = GITHUB_PATHS.authorize

export function githubPath(path: typeof GITHUB_INSTALL_PATH | typeof GITHUB_AUTHORIZE_PATH, returnTo: string): string {
  return `${path}?${new URLSearchParams({ returnTo })}`
}

/** The refusal of a personal repository (issue 16: organization repositories only): why, then what to do. */
export const ORGANIZATION_ONLY_HELP = `${ORGANIZATION_ONLY_REASON} Move the repository to an organization (on GitHub: Settings → General → Transfer ownership), then connect that organization.`

// --- Shapes for the screens ----------------------------------------------------------------

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
  waitingInvitations: Array<{
    transactionId: string
    listingTitle: string
    waitingOn: GithubWaitingOn | null
    nextAttemptAt: Date | null
    message: string
  }>
}

export function listingDeliveryMethod(listing: { githubRepoId: number | null; githubAccessLostAt: Date | null }): 'github' | 'manual' {
  return listing.githubRepoId !== null && listing.githubAccessLostAt === null ? 'github' : 'manual'
}

/** The same, by listing id (the listing page's loader: the public listing view carries no GitHub columns). */
export async function listingDeliveryMethodById(listingId: string): Promise<'github' | 'manual'> {
  if (!isUuid(listingId)) return 'manual'
  const row = await db.selectFrom('listings').select(['githubRepoId', 'githubAccessLostAt']).where('id', '=', listingId).executeTakeFirst()
  return row ? listingDeliveryMethod(row) : 'manual'
}

function summaryOf(row: {
  id: number
  accountLogin: string
  accountType: 'Organization' | 'User'
  removedAt: Date | null
  suspendedAt: Date | null
}): InstallationSummary {
  return { id: row.id, accountLogin: row.accountLogin, accountType: row.accountType, active: !row.removedAt && !row.suspendedAt }
}

// --- GitHub ids ------------------------------------------------------------------------------

/** A GitHub numeric id from a payload or an API answer (exact as a JS number below 2^53). */
function githubId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null
}

function splitFullName(fullName: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = fullName.split('/')
  return { owner, repo }
}

// --- The buyer's GitHub account --------------------------------------------------------------

export async function getGithubAccount(userId: string): Promise<GithubAccount | null> {
  if (!isUuid(userId)) return null
  const row = await db
    .selectFrom('users')
    .select(['githubUserId', 'githubLogin', 'githubConnectedAt'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row?.githubUserId || !row.githubLogin || !row.githubConnectedAt) return null
  return { githubUserId: row.githubUserId, login: row.githubLogin, connectedAt: row.githubConnectedAt }
}

const ACCOUNT_TAKEN = 'This GitHub account is already connected to another Forkmarket account'

/**
 * Stores the user's GitHub account (numeric id; the login is a cache). One
 * GitHub account belongs to one Forkmarket user: 409 when another has it.
 */
export async function connectGithubAccount(
  userId: string,
  account: { id: number; login: string },
  now: Date = new Date(),
): Promise<GithubAccount> {
  const id = githubId(account.id)
  if (!id || !/^[A-Za-z0-9_.-]{1,100}$/.test(account.login)) throw new AppError(400, 'GitHub returned an account we cannot use')
  const taken = await db.selectFrom('users').select('id').where('githubUserId', '=', id).where('id', '!=', userId).executeTakeFirst()
  if (taken) throw new AppError(409, ACCOUNT_TAKEN)
  try {
    const row = await db
      .updateTable('users')
      .set({ githubUserId: id, githubLogin: account.login, githubConnectedAt: now, updatedAt: now })
      .where('id', '=', userId)
      .returning(['githubUserId', 'githubLogin', 'githubConnectedAt'])
      .executeTakeFirst()
    if (!row) throw new AppError(404, 'User not found')
    // Deliveries still waiting for the buyer's account can go now.
    await db
      .updateTable('githubDeliveries')
      .set({ nextAttemptAt: now, updatedAt: now })
      .where('waitingOn', '=', 'buyer_github')
      .where('state', '=', 'queued')
      .where('transactionId', 'in', db.selectFrom('transactions').select('id').where('buyerId', '=', userId))
      .execute()
    return { githubUserId: row.githubUserId!, login: row.githubLogin!, connectedAt: row.githubConnectedAt! }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, ACCOUNT_TAKEN)
    throw error
  }
}

/**
 * Records an invitation GitHub created (sent, or sent again): the delivery row
 * (who, which invitation, what else the caller changes) and its audit row.
 */
async function recordInvitation(
  trx: Executor,
  transactionId: string,
  input: {
    set: Updateable<GithubDeliveriesTable>
    login: string
    invitation: { id: number; html_url: string }
    action: 'github_invitation_sent' | 'github_invitation_resent'
    reason: string
    metadata: Record<string, unknown>
    now: Date
  },
): Promise<void> {
  await trx
    .updateTable('githubDeliveries')
    .set({
      ...input.set,
      buyerLogin: input.login,
      invitationId: input.invitation.id,
      invitationUrl: input.invitation.html_url,
      lastError: null,
      updatedAt: input.now,
    })
    .where('transactionId', '=', transactionId)
    .execute()
  await recordAudit(trx, {
    actorId: null,
    actorRole: 'system',
    action: input.action,
    entityType: 'transaction',
    entityId: transactionId,
    fromState: 'delivering',
    toState: 'delivering',
    reason: input.reason,
    metadata: { invitationId: input.invitation.id, login: input.login, ...input.metadata },
  })
  await notifyGithubInvitation(trx, transactionId, { id: input.invitation.id, resent: input.action === 'github_invitation_resent' })
}

/** A later sighting of an account's login (webhooks, lookups): logins change, the id does not. */
async function refreshLogin(executor: Executor, id: number, login: string): Promise<void> {
  await executor.updateTable('users').set({ githubLogin: login }).where('githubUserId', '=', id).where('githubLogin', '!=', login).execute()
}

export interface ProviderIdentity {
  provider: string
  id?: string | null
  identity_data?: Record<string, unknown> | null
}

/**
 * At sign-in with GitHub (the identity provider's `github` identity): the
 * numeric id and login are recorded, so the buyer needs no separate connection.
 * Never fails the sign-in (an account taken by another user is only logged).
 */
export async function recordProviderGithubIdentity(
  userId: string,
  identities: readonly ProviderIdentity[] | null | undefined,
): Promise<void> {
  const identity = identities?.find((candidate) => candidate.provider === 'github')
  if (!identity) return
  const data = identity.identity_data ?? {}
  const id = githubId(data.provider_id ?? data.sub ?? identity.id)
  const login =
    typeof data.user_name === 'string' ? data.user_name : typeof data.preferred_username === 'string' ? data.preferred_username : null
  if (!id || !login) return
  try {
    const current = await getGithubAccount(userId)
    if (current?.githubUserId === id && current.login === login) return
    await connectGithubAccount(userId, { id, login })
  } catch (error) {
    logEvent('warn', 'github_identity_not_recorded', { userId, message: error instanceof Error ? error.message : String(error) })
  }
}

// --- Install and OAuth flows (state signed for the signed-in user) ---------------------------

type FlowPurpose = 'install' | 'connect'
interface FlowState {
  /** The Forkmarket user who started the flow. */
  u: string
  /** Where to go afterwards (a local path). */
  r: string
  p: FlowPurpose
  /** The installation being verified (install flows that came back without a code). */
  i?: number
  /** The origin the install flow began at, when it may differ from the App's one Setup URL (local, issue 26.19). */
  o?: string
  exp: number
  n: string
}

const STATE_TTL_MS = 30 * 60 * 1000

function stateKey(): Buffer {
  return createHmac('sha256', config().SESSION_SECRET).update('github-flow-state').digest()
}

export function signFlowState(state: Omit<FlowState, 'exp' | 'n'>, now: Date = new Date()): string {
  const body = Buffer.from(JSON.stringify({ ...state, exp: now.getTime() + STATE_TTL_MS, n: randomBytes(8).toString('hex') })).toString(
    'base64url',
  )
  const mac = createHmac('sha256', stateKey()).update(body).digest('base64url')
  return `${body}.${mac}`
}

/** The state if it is ours and unexpired, whoever started it; else a 400 naming the problem. */
function verifyFlowState(value: string | null, now: Date): FlowState {
  const [body, mac] = (value ?? '').split('.')
  const expected = body ? createHmac('sha256', stateKey()).update(body).digest() : Buffer.alloc(0)
  const given = Buffer.from(mac ?? '', 'base64url')
  if (!body || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AppError(400, 'This GitHub link is not valid: please start again')
  const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as FlowState
  if (state.exp < now.getTime()) throw new AppError(400, 'This GitHub link has expired: please start again')
  return state
}

/** The state if it is ours, unexpired and started by `userId`; else a 400 naming the problem. */
export function readFlowState(value: string | null, userId: string, now: Date = new Date()): FlowState {
  const state = verifyFlowState(value, now)
  if (state.u !== userId) throw new AppError(403, 'This GitHub connection was started by another account')
  return state
}

/**
 * Locally the app answers at http://localhost:PORT and http://127.0.0.1:PORT, each with cookies of its
 * own, while GitHub sends every installation back to the App's one Setup URL: a flow begun at the other
 * address goes back there (same path and query) before the session is read, else the seller would
 * arrive signed out (issue 26.19). Only between origins `appUrl` answers at — none once APP_URL is set —
 * and only for a state we signed.
 */
export function flowOriginRedirect(request: Request, now: Date = new Date()): string | null {
  const url = new URL(request.url)
  if (appUrl(request) !== url.origin) return null
  let state: FlowState
  try {
    state = verifyFlowState(url.searchParams.get('state'), now)
  } catch {
    return null
  }
  if (!state.o || state.o === url.origin || appUrl(new Request(state.o)) !== state.o) return null
  return `${state.o}${url.pathname}${url.search}`
}

function requireGithub(): void {
  if (!githubEnabled()) throw new AppError(503, 'GitHub delivery is not available on this site')
}

/**
 * Where "Connect GitHub" sends a seller: the App's installation page (GitHub, or the emulator's consent
 * page). `origin`: the address the seller is at (`appUrl(request)`), where the flow returns to.
 */
export async function installUrl(userId: string, returnTo: string, origin?: string): Promise<string> {
  requireGithub()
  try {
    return await githubApp().getInstallationUrl({
      state: signFlowState({ u: userId, r: returnTo, p: 'install', ...(origin ? { o: origin } : {}) }),
    })
  } catch (error) {
    logEvent('error', 'github_unavailable', { step: 'install_url', message: error instanceof Error ? error.message : String(error) })
    throw new AppError(502, 'GitHub could not be reached. Please try again.')
  }
}

/** Where "Connect GitHub" sends a buyer (and a seller whose installation must be verified): the App's user authorization. */
export function authorizeUrl(input: {
  userId: string
  returnTo: string
  redirectUrl: string
  purpose?: FlowPurpose
  installationId?: number
}): string {
  requireGithub()
  const state = signFlowState({
    u: input.userId,
    r: input.returnTo,
    p: input.purpose ?? 'connect',
    ...(input.installationId ? { i: input.installationId } : {}),
  })
  return githubApp().oauth.getWebFlowAuthorizationUrl({ state, redirectUrl: input.redirectUrl }).url
}

/** A user-to-server token for an OAuth code, and the account it belongs to. */
async function exchangeCode(code: string, redirectUrl: string) {
  try {
    const { authentication } = await githubApp().oauth.createToken({ code, redirectUrl })
    const octokit = userOctokit(authentication.token)
    const { data: user } = await octokit.rest.users.getAuthenticated()
    return { octokit, user: { id: user.id, login: user.login } }
  } catch (error) {
    const status = (error as { status?: number }).status
    logEvent('warn', 'github_oauth_failed', { status, message: error instanceof Error ? error.message : String(error) })
    if (status && status < 500) throw new AppError(400, 'GitHub did not accept this authorization: please start again')
    throw new AppError(502, 'GitHub could not be reached. Please try again.')
  }
}

/** Installations the user can see (GitHub: `GET /user/installations`), to check one they claim. */
async function userCanSeeInstallation(octokit: ReturnType<typeof userOctokit>, installationId: number): Promise<boolean> {
  const installations = await octokit.paginate(octokit.rest.apps.listInstallationsForAuthenticatedUser, { per_page: 100 })
  return installations.some((installation) => installation.id === installationId)
}

/** Records a verified installation for the seller; listings of its repositories that had lost access get it back. */
async function storeInstallation(userId: string, installationId: number, now: Date): Promise<InstallationSummary> {
  const app = githubApp()
  const { data } = await app.octokit.request('GET /app/installations/{installation_id}', { installation_id: installationId })
  const account = data.account as { id?: number; login?: string; slug?: string; type?: string } | null
  const accountId = githubId(account?.id)
  const accountLogin = account?.login ?? account?.slug
  if (!accountId || !accountLogin) throw new AppError(400, 'This installation has no account')
  const accountType = account?.type === 'User' ? 'User' : 'Organization'
  const existing = await db.selectFrom('githubInstallations').select(['userId']).where('id', '=', installationId).executeTakeFirst()
  if (existing && existing.userId !== userId) throw new AppError(409, `${accountLogin} is already connected by another Forkmarket seller`)
  const row = await db
    .insertInto('githubInstallations')
    .values({ id: installationId, userId, accountId, accountLogin, accountType, createdAt: now, updatedAt: now })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        accountId,
        accountLogin,
        accountType,
        removedAt: null,
        suspendedAt: data.suspended_at ? now : null,
        updatedAt: now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
  await restoreAccess(userId, installationId, now)
  return summaryOf(row)
}

/**
 * The seller reconnected: every listing of theirs whose repository this
 * installation grants is pointed at it, and one that lost access (hidden by us)
 * is shown again with the alert cleared.
 */
async function restoreAccess(userId: string, installationId: number, now: Date): Promise<void> {
  const octokit = await installationOctokit(installationId)
  const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })
  await restoreListings(
    userId,
    installationId,
    repos.map((repo) => repo.id),
    now,
  )
}

/** The seller's listings of these repositories (reachable again through `installationId`). */
async function restoreListings(userId: string, installationId: number, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return
  const restored = await db
    .updateTable('listings')
    .set({ githubInstallationId: installationId, githubAccessLostAt: null, githubAccessLostReason: null, visible: true, updatedAt: now })
    .where('sellerId', '=', userId)
    .where('githubRepoId', 'in', ids)
    .where('githubAccessLostAt', 'is not', null)
    .where('archivedAt', 'is', null)
    .returning(['id'])
    .execute()
  await db
    .updateTable('listings')
    .set({ githubInstallationId: installationId })
    .where('sellerId', '=', userId)
    .where('githubRepoId', 'in', ids)
    .execute()
  for (const listing of restored) {
    await recordAudit(db, {
      actorId: userId,
      actorRole: 'seller',
      action: 'listing_github_access_restored',
      entityType: 'listing',
      entityId: listing.id,
      reason: 'The seller reconnected GitHub: the listing is visible again',
      metadata: { installationId },
    })
  }
}

export type CallbackOutcome = { kind: 'done'; returnTo: string; message: string } | { kind: 'redirect'; url: string }

/**
 * GitHub's setup URL after an installation (`?installation_id&setup_action&state`, and `code`
 * when the App asks for user authorization during installation). The installation id in the
 * address proves nothing: it is recorded only once the signed-in seller's own GitHub token
 * shows it (`GET /user/installations`); without a code the seller is sent through the
 * App's user authorization first.
 */
export async function completeInstallation(input: {
  userId: string
  params: URLSearchParams
  redirectUrl: string
  now?: Date
}): Promise<CallbackOutcome> {
  requireGithub()
  const now = input.now ?? new Date()
  const state = readFlowState(input.params.get('state'), input.userId, now)
  if (state.p !== 'install') throw new AppError(400, 'This GitHub link is not valid: please start again')
  const installationId = githubId(input.params.get('installation_id'))
  if (input.params.get('setup_action') === 'request') {
    return { kind: 'done', returnTo: state.r, message: 'The organization owner was asked to approve the Forkmarket GitHub App' }
  }
  if (!installationId) throw new AppError(400, 'GitHub did not say which installation was made')
  const code = input.params.get('code')
  if (!code) {
    return {
      kind: 'redirect',
      url: authorizeUrl({ userId: input.userId, returnTo: state.r, redirectUrl: input.redirectUrl, purpose: 'install', installationId }),
    }
  }
  return verifyAndStoreInstallation(input.userId, installationId, code, input.redirectUrl, state.r, now)
}

async function verifyAndStoreInstallation(
  userId: string,
  installationId: number,
  code: string,
  redirectUrl: string,
  returnTo: string,
  now: Date,
): Promise<CallbackOutcome> {
  const { octokit, user } = await exchangeCode(code, redirectUrl)
  let visible: boolean
  try {
    visible = await userCanSeeInstallation(octokit, installationId)
  } catch {
    throw new AppError(502, 'GitHub could not be reached. Please try again.')
  }
  if (!visible) throw new AppError(403, 'Your GitHub account cannot see this installation')
  // The seller's own GitHub account, when it is not another user's.
  await connectGithubAccount(userId, user, now).catch(() => undefined)
  let installation: InstallationSummary
  try {
    installation = await storeInstallation(userId, installationId, now)
  } catch (error) {
    if (error instanceof AppError) throw error
    logEvent('error', 'github_unavailable', { step: 'store_installation', message: error instanceof Error ? error.message : String(error) })
    throw new AppError(502, 'GitHub could not be reached. Please try again.')
  }
  await recordAudit(db, {
    actorId: userId,
    actorRole: 'seller',
    action: 'github_connected',
    entityType: 'github_installation',
    entityId: String(installationId),
    metadata: { account: installation.accountLogin, accountType: installation.accountType, githubUserId: user.id },
  })
  return { kind: 'done', returnTo, message: `GitHub connected: ${installation.accountLogin}` }
}

/** The App's user authorization came back (`?code&state`): a buyer connecting GitHub, or a seller's installation being verified. */
export async function completeUserAuthorization(input: {
  userId: string
  params: URLSearchParams
  redirectUrl: string
  now?: Date
}): Promise<CallbackOutcome> {
  requireGithub()
  const now = input.now ?? new Date()
  const state = readFlowState(input.params.get('state'), input.userId, now)
  const code = input.params.get('code')
  if (!code) throw new AppError(400, input.params.get('error_description') ?? 'GitHub authorization was not given')
  if (state.p === 'install') {
    // Back from the authorization we asked for (state.i), or straight from an installation when the App
    // requests user authorization during installation (GitHub then sends installation_id here with the code).
    const installationId = state.i ?? githubId(input.params.get('installation_id'))
    if (!installationId) throw new AppError(400, 'GitHub did not say which installation was made')
    return verifyAndStoreInstallation(input.userId, installationId, code, input.redirectUrl, state.r, now)
  }
  const { user } = await exchangeCode(code, input.redirectUrl)
  const account = await connectGithubAccount(input.userId, user, now)
  await recordAudit(db, {
    actorId: input.userId,
    actorRole: 'buyer',
    action: 'github_account_connected',
    entityType: 'user',
    entityId: input.userId,
    metadata: { githubUserId: account.githubUserId, login: account.login },
  })
  return { kind: 'done', returnTo: state.r, message: `GitHub connected as ${account.login}` }
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
    ? await db.selectFrom('listings').select(['id', 'sellerId']).where('id', '=', input.listingId).executeTakeFirst()
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
    await db
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

// --- Losing access (uninstalled, repository removed, 404) --------------------------------------

/**
 * The App can no longer reach these repositories: their listings are hidden
 * with the "Reconnect GitHub" alert, open checkouts on them closed, and sales
 * still waiting for access go to the admin's queue. With both an installation
 * and repositories, only that installation's listings and deliveries of those
 * repositories (an installation's event speaks for itself alone, issue 26.4).
 */
export async function repositoryLost(input: { installationId?: number; repoIds?: number[]; reason: string; now: Date }): Promise<void> {
  await prepareEscrow()
  const repoIds = input.repoIds ?? []
  if (input.installationId === undefined && repoIds.length === 0) return
  const hidden = await db
    .updateTable('listings')
    .set({ visible: false, githubAccessLostAt: input.now, githubAccessLostReason: input.reason, updatedAt: input.now })
    .where((eb) =>
      eb.and([
        ...(input.installationId !== undefined ? [eb('githubInstallationId', '=', input.installationId)] : []),
        ...(repoIds.length > 0 ? [eb('githubRepoId', 'in', repoIds)] : []),
      ]),
    )
    .where('githubAccessLostAt', 'is', null)
    .returning(['id', 'sellerId'])
    .execute()
  for (const listing of hidden) {
    await recordAudit(db, {
      actorId: null,
      actorRole: 'system',
      action: 'listing_github_access_lost',
      entityType: 'listing',
      entityId: listing.id,
      reason: input.reason,
      metadata: { installationId: input.installationId ?? null, repoIds },
    })
    logEvent('warn', 'github_access_lost', { listingId: listing.id, sellerId: listing.sellerId, reason: input.reason })
    await cancelStaleCheckouts(listing.id)
  }
  const open = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select('githubDeliveries.transactionId')
    .where('transactions.status', '=', 'delivering')
    .where((eb) =>
      eb.and([
        ...(input.installationId !== undefined ? [eb('githubDeliveries.installationId', '=', input.installationId)] : []),
        ...(repoIds.length > 0 ? [eb('githubDeliveries.repoId', 'in', repoIds)] : []),
      ]),
    )
    .execute()
  for (const { transactionId } of open) {
    await failDelivery(transactionId, `The seller's GitHub repository can no longer be reached: ${input.reason}`, input.now)
  }
}

async function installationLost(installationId: number, now: Date, reason: string): Promise<void> {
  await db
    .updateTable('githubInstallations')
    .set({ removedAt: now, updatedAt: now })
    .where('id', '=', installationId)
    .where('removedAt', 'is', null)
    .execute()
  await repositoryLost({ installationId, reason, now })
}

/** delivering → disputed (the admin's queue), the delivery marked failed; once. */
async function failDelivery(transactionId: string, reason: string, now: Date, executor?: DbTransaction<DB>): Promise<boolean> {
  const run = async (trx: DbTransaction<DB>) => {
    const outcome = await applyEvent(trx, { saleId: transactionId, event: 'delivery_failed', by: SYSTEM, reason, now })
    if (!outcome.applied) return false
    await trx
      .updateTable('githubDeliveries')
      .set({ state: 'failed', lastError: reason, waitingOn: null, nextAttemptAt: null, updatedAt: now })
      .where('transactionId', '=', transactionId)
      .where('state', 'in', ['queued', 'invited'])
      .execute()
    logEvent('warn', 'github_delivery_failed', { transactionId, reason })
    return true
  }
  if (executor) return run(executor)
  await prepareEscrow()
  return db.transaction().execute(run)
}

// --- Payment → invitation ------------------------------------------------------------------------

export const GITHUB_INVITE_TASK = 'github-invite'
export const GITHUB_SWEEP_TASK = 'github-sweep'
export function inviteJobKey(transactionId: string): string {
  return `${GITHUB_INVITE_TASK}:${transactionId}`
}

/**
 * At payment (the Stripe webhook's transaction): a sale of a listing with a
 * connected repository goes paid → delivering, its delivery row is written
 * (one per sale) and the invitation job queued (one per sale: its job key).
 * False when the listing has no repository (manual delivery, as before).
 */
export async function beginGithubDelivery(trx: DbTransaction<DB>, sale: Transaction, now: Date): Promise<boolean> {
  if (!githubEnabled()) return false
  const listing = await trx
    .selectFrom('listings')
    .select(['githubInstallationId', 'githubRepoId', 'githubRepoFullName', 'githubListedSha', 'githubListedAt'])
    .where('id', '=', sale.listingId)
    .executeTakeFirst()
  if (!listing || !deliversThroughGithub(listing)) return false
  const started = await applyEvent(trx, {
    saleId: sale.id,
    event: 'github_delivery_started',
    by: SYSTEM,
    now,
    metadata: { repository: listing.githubRepoFullName },
  })
  if (!started.applied) return false
  const buyer = await trx.selectFrom('users').select(['githubUserId', 'githubLogin']).where('id', '=', sale.buyerId).executeTakeFirst()
  await trx
    .insertInto('githubDeliveries')
    .values({
      transactionId: sale.id,
      installationId: listing.githubInstallationId,
      repoId: listing.githubRepoId,
      repoFullName: listing.githubRepoFullName,
      buyerGithubId: buyer?.githubUserId ?? null,
      buyerLogin: buyer?.githubLogin ?? null,
      listedSha: listing.githubListedSha,
      listedAt: listing.githubListedAt,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) => oc.column('transactionId').doNothing())
    .execute()
  await queueJob(trx, GITHUB_INVITE_TASK, { transactionId: sale.id }, { runAt: now, jobKey: inviteJobKey(sale.id), maxAttempts: 25 })
  return true
}

export type InvitationOutcome =
  | { result: 'invited' | 'delivered' | 'failed' | 'skipped' }
  | { result: 'waiting'; retryAt: Date; waitingOn: GithubWaitingOn; message: string }

/** Locks the sale's delivery row for one step (SKIP LOCKED: another instance is on it → undefined). */
async function lockDelivery(trx: DbTransaction<DB>, transactionId: string) {
  const delivery = await trx
    .selectFrom('githubDeliveries')
    .selectAll()
    .where('transactionId', '=', transactionId)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst()
  if (!delivery) return undefined
  const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', transactionId).executeTakeFirstOrThrow()
  return { delivery, sale }
}

class StepError extends Error {
  constructor(
    readonly step: 'installation' | 'buyer' | 'repository',
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

async function step<T>(name: StepError['step'], run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new StepError(name, error)
  }
}

/** The installation's client; a 404 creating its token means the App was uninstalled. */
async function clientFor(installationId: number): Promise<Octo> {
  const octokit = await step('installation', () => installationOctokit(installationId))
  // Creating the token is lazy: ask for it now so its failure is told apart from the repository's.
  await step('installation', () => octokit.auth({ type: 'installation' }))
  return octokit
}

/** The buyer's current login, from their numeric id (logins change; the id does not). */
async function currentLogin(octokit: Octo, buyerGithubId: number): Promise<string> {
  const { data } = await step('buyer', () => octokit.request('GET /user/{account_id}', { account_id: buyerGithubId }))
  const login = (data as { login?: unknown }).login
  if (typeof login !== 'string') throw new StepError('buyer', new Error('GitHub returned no login'))
  return login
}

/**
 * The invitation job's step: invite the buyer (by id → current login) as a
 * `pull` collaborator. At most one invitation per sale: the delivery row is
 * locked for the call, only a `queued` delivery is invited, and GitHub answers
 * a repeated PUT with the same pending invitation.
 */
export async function runInvitation(transactionId: string, now: Date = new Date()): Promise<InvitationOutcome> {
  await prepareEscrow()
  const lost: Lost[] = []
  return db
    .transaction()
    .execute(async (trx): Promise<InvitationOutcome> => {
      const locked = await lockDelivery(trx, transactionId)
      if (!locked) return { result: 'skipped' }
      const { delivery, sale } = locked
      if (sale.status !== 'delivering' || delivery.state !== 'queued') return { result: 'skipped' }
      const attempt = delivery.attempts + 1

      let buyerGithubId = delivery.buyerGithubId
      if (!buyerGithubId) {
        const buyer = await trx.selectFrom('users').select('githubUserId').where('id', '=', sale.buyerId).executeTakeFirst()
        buyerGithubId = buyer?.githubUserId ?? null
      }
      if (!buyerGithubId) {
        return wait(
          trx,
          delivery,
          attempt,
          {
            kind: 'retry',
            retryAt: new Date(now.getTime() + BUYER_GITHUB_RETRY_MS),
            waitingOn: 'buyer_github',
            message: 'The buyer has no connected GitHub account',
          },
          now,
        )
      }

      const { owner, repo } = splitFullName(delivery.repoFullName)
      try {
        const octokit = await clientFor(delivery.installationId)
        const login = await currentLogin(octokit, buyerGithubId)
        await refreshLogin(trx, buyerGithubId, login)
        const response = await step('repository', () =>
          octokit.rest.repos.addCollaborator({ owner, repo, username: login, permission: 'pull' }),
        )
        if (response.status === 201 && response.data) {
          const invitation = response.data
          await recordInvitation(trx, transactionId, {
            set: { state: 'invited', buyerGithubId, invitedAt: now, attempts: attempt, waitingOn: null, nextAttemptAt: null },
            login,
            invitation,
            action: 'github_invitation_sent',
            reason: `Invited ${login} to ${delivery.repoFullName} (read access)`,
            metadata: { buyerGithubId, repository: delivery.repoFullName, attempt },
            now,
          })
          return { result: 'invited' }
        }
        // 204: the buyer already has access (an organization member, or accepted before): delivered now.
        const fresh = { ...delivery, buyerGithubId, buyerLogin: login, invitedAt: delivery.invitedAt ?? now, attempts: attempt }
        await confirmInTransaction(trx, fresh, octokit, { via: 'poll', now })
        return { result: 'delivered' }
      } catch (error) {
        const failure = error instanceof StepError ? githubFailure(error.cause, attempt, now) : githubFailure(error, attempt, now)
        if (failure.kind === 'retry') return wait(trx, delivery, attempt, failure, now)
        const stepName = error instanceof StepError ? error.step : 'repository'
        if (failure.kind === 'not_found' && stepName !== 'buyer') {
          // The installation or the repository is gone: hidden listing, alert, admin queue (after this transaction).
          await trx
            .updateTable('githubDeliveries')
            .set({ attempts: attempt, lastError: failure.message, updatedAt: now })
            .where('transactionId', '=', transactionId)
            .execute()
          lost.push({ installationId: stepName === 'installation' ? delivery.installationId : undefined, repoIds: [delivery.repoId], now })
          return { result: 'failed' }
        }
        const reason =
          stepName === 'buyer' && failure.kind === 'not_found'
            ? "The buyer's GitHub account no longer exists"
            : `GitHub refused the invitation: ${failure.message}`
        await trx.updateTable('githubDeliveries').set({ attempts: attempt }).where('transactionId', '=', transactionId).execute()
        await failDelivery(transactionId, reason, now, trx)
        return { result: 'failed' }
      }
    })
    .finally(() => flushLost(lost))
}

/** Losses found inside a locked step are handled after its transaction (they lock other rows). */
interface Lost {
  installationId?: number
  repoIds: number[]
  now: Date
}
async function flushLost(pending: Lost[]): Promise<void> {
  for (const lost of pending.splice(0)) {
    if (lost.installationId !== undefined) {
      await installationLost(
        lost.installationId,
        lost.now,
        "The Forkmarket GitHub App is no longer installed on the repository's organization",
      )
    } else {
      await repositoryLost({
        repoIds: lost.repoIds,
        reason: 'The repository was not found on GitHub (deleted, renamed away or removed from the App)',
        now: lost.now,
      })
    }
  }
}

async function wait(
  trx: DbTransaction<DB>,
  delivery: GithubDelivery,
  attempt: number,
  failure: Extract<GithubFailure, { kind: 'retry' }> | { kind: 'retry'; retryAt: Date; waitingOn: 'buyer_github'; message: string },
  now: Date,
): Promise<InvitationOutcome> {
  await trx
    .updateTable('githubDeliveries')
    .set({ attempts: attempt, waitingOn: failure.waitingOn, nextAttemptAt: failure.retryAt, lastError: failure.message, updatedAt: now })
    .where('transactionId', '=', delivery.transactionId)
    .execute()
  if (delivery.waitingOn !== failure.waitingOn) {
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'system',
      action: 'github_invitation_queued',
      entityType: 'transaction',
      entityId: delivery.transactionId,
      fromState: 'delivering',
      toState: 'delivering',
      reason: failure.message,
      metadata: { waitingOn: failure.waitingOn, retryAt: failure.retryAt.toISOString(), attempt },
    })
  }
  logEvent('warn', 'github_invitation_waiting', {
    transactionId: delivery.transactionId,
    waitingOn: failure.waitingOn,
    retryAt: failure.retryAt.toISOString(),
    message: failure.message,
  })
  return { result: 'waiting', retryAt: failure.retryAt, waitingOn: failure.waitingOn, message: failure.message }
}

// --- Access confirmed ------------------------------------------------------------------------------

/** The head of the default branch now (the delivered commit) and the repository's address. */
async function headOf(octokit: Octo, fullName: string) {
  const { owner, repo } = splitFullName(fullName)
  const { data: repository } = await step('repository', () => octokit.rest.repos.get({ owner, repo }))
  const { data: branch } = await step('repository', () => octokit.rest.repos.getBranch({ owner, repo, branch: repository.default_branch }))
  const date = branch.commit.commit.committer?.date ?? branch.commit.commit.author?.date ?? null
  return { sha: branch.commit.sha, date: date ? new Date(date) : null, htmlUrl: repository.html_url, fullName: repository.full_name }
}

/**
 * delivering → delivered with the proof: the repository, the buyer's id and
 * login, invitation and acceptance times, the head SHA now. The 72-hour window
 * starts here (the machine's entry hook schedules the auto-confirm).
 */
async function confirmInTransaction(
  trx: DbTransaction<DB>,
  delivery: GithubDelivery,
  octokit: Octo,
  options: { via: 'webhook' | 'poll'; now: Date },
): Promise<boolean> {
  const head = await headOf(octokit, delivery.repoFullName)
  const proof: GithubDeliveryProof = {
    repository: head.fullName,
    repositoryId: delivery.repoId,
    repositoryUrl: head.htmlUrl,
    buyerGithubId: delivery.buyerGithubId!,
    buyerLogin: delivery.buyerLogin!,
    invitedAt: (delivery.invitedAt ?? options.now).toISOString(),
    acceptedAt: options.now.toISOString(),
    headSha: head.sha,
    headShaDate: head.date?.toISOString() ?? null,
    listedSha: delivery.listedSha,
    confirmedBy: options.via,
    forkUrl: delivery.forkUrl,
  }
  const deliveryProof: DeliveryProof = { forkUrl: delivery.forkUrl ?? head.htmlUrl, github: proof }
  const outcome = await applyEvent(trx, {
    saleId: delivery.transactionId,
    event: 'access_confirmed',
    by: SYSTEM,
    deliveryProof,
    now: options.now,
    reason:
      options.via === 'webhook'
        ? `${proof.buyerLogin} accepted the invitation to ${proof.repository} (GitHub's member webhook)`
        : `${proof.buyerLogin} has access to ${proof.repository} (checked on GitHub)`,
    metadata: { ...proof },
  })
  if (!outcome.applied) return false
  await trx
    .updateTable('githubDeliveries')
    .set({
      state: 'accepted',
      buyerGithubId: delivery.buyerGithubId,
      buyerLogin: delivery.buyerLogin,
      invitedAt: delivery.invitedAt ?? options.now,
      acceptedAt: options.now,
      deliveredSha: head.sha,
      deliveredShaDate: head.date,
      attempts: delivery.attempts,
      waitingOn: null,
      nextAttemptAt: null,
      lastError: null,
      updatedAt: options.now,
    })
    .where('transactionId', '=', delivery.transactionId)
    .execute()
  return true
}

// --- Polling (the fallback for lost webhooks), expiry and the 14-day deadline -----------------

export interface SweepReport {
  invited: number
  delivered: number
  resent: number
  failed: number
  waiting: number
}

/**
 * The sweep (every 10 minutes, and at start-up; tests call it with a moved
 * clock): queued invitations that are due are sent, invited buyers are checked
 * on GitHub (collaborator → delivered; the invitation expired or gone → sent
 * again, once), and deliveries still not accepted 14 days after payment go to
 * the admin's dispute queue.
 */
export async function sweepGithubDeliveries(now: Date = new Date()): Promise<SweepReport> {
  const report: SweepReport = { invited: 0, delivered: 0, resent: 0, failed: 0, waiting: 0 }
  if (!githubEnabled()) return report
  await prepareEscrow()
  const open = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select(['githubDeliveries.transactionId', 'githubDeliveries.state', 'githubDeliveries.nextAttemptAt', 'githubDeliveries.createdAt'])
    .where('transactions.status', '=', 'delivering')
    .where('githubDeliveries.state', 'in', ['queued', 'invited'])
    .orderBy('githubDeliveries.createdAt')
    .limit(500)
    .execute()
  for (const row of open) {
    try {
      if (row.state === 'queued') {
        if (row.nextAttemptAt && row.nextAttemptAt > now) continue
        const outcome = await runInvitation(row.transactionId, now)
        if (outcome.result === 'invited') report.invited++
        else if (outcome.result === 'delivered') report.delivered++
        else if (outcome.result === 'failed') report.failed++
        else if (outcome.result === 'waiting') report.waiting++
      } else {
        const outcome = await pollInvitation(row.transactionId, now)
        if (outcome === 'delivered') report.delivered++
        else if (outcome === 'resent') report.resent++
        else if (outcome === 'failed') report.failed++
      }
    } catch (error) {
      logEvent('warn', 'github_sweep_step_failed', {
        transactionId: row.transactionId,
        message: error instanceof Error ? error.message : String(error),
      })
    }
  }
  // Not accepted within 14 days of payment: the admin decides (refund, or release).
  const overdue = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select('githubDeliveries.transactionId')
    .where('transactions.status', '=', 'delivering')
    .where('githubDeliveries.state', 'in', ['queued', 'invited'])
    .where('githubDeliveries.createdAt', '<=', new Date(now.getTime() - ACCEPT_DEADLINE_MS))
    .execute()
  for (const { transactionId } of overdue) {
    if (await failDelivery(transactionId, `The buyer did not accept the GitHub invitation within ${ACCEPT_DEADLINE_DAYS} days`, now))
      report.failed++
  }
  return report
}

type PollOutcome = 'delivered' | 'resent' | 'pending' | 'failed' | 'skipped'

/** One invited buyer, checked on GitHub. */
export async function pollInvitation(transactionId: string, now: Date = new Date()): Promise<PollOutcome> {
  await prepareEscrow()
  const lost: Lost[] = []
  return db
    .transaction()
    .execute(async (trx): Promise<PollOutcome> => {
      const locked = await lockDelivery(trx, transactionId)
      if (!locked || locked.sale.status !== 'delivering' || locked.delivery.state !== 'invited') return 'skipped'
      const { delivery } = locked
      const { owner, repo } = splitFullName(delivery.repoFullName)
      try {
        const octokit = await clientFor(delivery.installationId)
        const login = await currentLogin(octokit, delivery.buyerGithubId!)
        const current = { ...delivery, buyerLogin: login }
        if (login !== delivery.buyerLogin) await refreshLogin(trx, delivery.buyerGithubId!, login)
        const isCollaborator = await step('repository', () =>
          octokit.rest.repos.checkCollaborator({ owner, repo, username: login }).then(
            () => true,
            (error: { status?: number }) => {
              if (error.status === 404) return false
              throw error
            },
          ),
        )
        if (isCollaborator) return (await confirmInTransaction(trx, current, octokit, { via: 'poll', now })) ? 'delivered' : 'skipped'
        const invitations = await step('repository', () =>
          octokit.paginate(octokit.rest.repos.listInvitations, { owner, repo, per_page: 100 }),
        )
        const pending = invitations.find((invitation) => invitation.invitee?.id === delivery.buyerGithubId)
        if (pending && !pending.expired) return 'pending'
        if (delivery.resendCount >= 1) return 'pending' // sent twice: the 14-day deadline decides
        // Expired (GitHub: after 7 days), or declined/deleted: sent again, once, and the buyer told.
        const response = await step('repository', () =>
          octokit.rest.repos.addCollaborator({ owner, repo, username: login, permission: 'pull' }),
        )
        if (response.status !== 201 || !response.data) {
          return (await confirmInTransaction(trx, current, octokit, { via: 'poll', now })) ? 'delivered' : 'skipped'
        }
        await recordInvitation(trx, transactionId, {
          set: { resendCount: delivery.resendCount + 1, resentAt: now },
          login,
          invitation: response.data,
          action: 'github_invitation_resent',
          reason: pending
            ? 'The invitation expired on GitHub: sent again (once)'
            : 'The invitation was no longer pending on GitHub: sent again (once)',
          metadata: { previousInvitationId: delivery.invitationId },
          now,
        })
        return 'resent'
      } catch (error) {
        const failure = githubFailure(error instanceof StepError ? error.cause : error, delivery.attempts + 1, now)
        const stepName = error instanceof StepError ? error.step : 'repository'
        if (failure.kind === 'not_found' && stepName !== 'buyer') {
          lost.push({ installationId: stepName === 'installation' ? delivery.installationId : undefined, repoIds: [delivery.repoId], now })
          return 'failed'
        }
        await trx
          .updateTable('githubDeliveries')
          .set({ lastError: failure.message, updatedAt: now })
          .where('transactionId', '=', transactionId)
          .execute()
        if (failure.kind === 'refused' || (failure.kind === 'not_found' && stepName === 'buyer')) {
          await failDelivery(
            transactionId,
            stepName === 'buyer' ? "The buyer's GitHub account no longer exists" : `GitHub refused: ${failure.message}`,
            now,
            trx,
          )
          return 'failed'
        }
        return 'pending'
      }
    })
    .finally(() => flushLost(lost))
}

// --- Refund → revocation ---------------------------------------------------------------------------

export type RevokeOutcome =
  | { result: 'revoked'; revocation: 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke' }
  | { result: 'skipped'; why: string }
  | { result: 'retry'; retryAt: Date; message: string }

/**
 * A refunded sale's access is revoked (before completion only): the pending
 * invitation canceled, or the collaborator removed. Audited; once.
 */
export async function revokeGithubAccess(transactionId: string, now: Date = new Date()): Promise<RevokeOutcome> {
  return db.transaction().execute(async (trx): Promise<RevokeOutcome> => {
    const locked = await lockDelivery(trx, transactionId)
    if (!locked) return { result: 'skipped', why: 'no delivery, or another instance is revoking it' }
    const { delivery, sale } = locked
    if (delivery.state === 'revoked') return { result: 'skipped', why: 'already revoked' }
    if (sale.status !== 'refunded') return { result: 'skipped', why: `the sale is ${sale.status}` }
    if (sale.completedAt) {
      await recordAudit(trx, {
        actorId: null,
        actorRole: 'system',
        action: 'github_access_kept',
        entityType: 'transaction',
        entityId: transactionId,
        fromState: sale.status,
        toState: sale.status,
        reason: 'Refunded after completion: access on GitHub is never revoked after completion',
      })
      return { result: 'skipped', why: 'completed before the refund' }
    }
    let revocation: 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke' = 'nothing_to_revoke'
    const { owner, repo } = splitFullName(delivery.repoFullName)
    const buyerId = delivery.buyerGithubId
    let note: string | null = null
    if (buyerId) {
      try {
        const octokit = await clientFor(delivery.installationId)
        const invitations = await step('repository', () =>
          octokit.paginate(octokit.rest.repos.listInvitations, { owner, repo, per_page: 100 }),
        )
        const pending = invitations.filter((invitation) => invitation.invitee?.id === buyerId)
        for (const invitation of pending) {
          await step('repository', () => octokit.rest.repos.deleteInvitation({ owner, repo, invitation_id: invitation.id }))
          revocation = 'invitation_canceled'
        }
        const login = await currentLogin(octokit, buyerId)
        const isCollaborator = await step('repository', () =>
          octokit.rest.repos.checkCollaborator({ owner, repo, username: login }).then(
            () => true,
            (error: { status?: number }) => {
              if (error.status === 404) return false
              throw error
            },
          ),
        )
        if (isCollaborator) {
          await step('repository', () => octokit.rest.repos.removeCollaborator({ owner, repo, username: login }))
          revocation = 'collaborator_removed'
        }
      } catch (error) {
        const failure = githubFailure(error instanceof StepError ? error.cause : error, delivery.attempts + 1, now)
        if (failure.kind === 'retry') {
          await trx
            .updateTable('githubDeliveries')
            .set({ lastError: failure.message, updatedAt: now })
            .where('transactionId', '=', transactionId)
            .execute()
          return { result: 'retry', retryAt: failure.retryAt, message: failure.message }
        }
        if (failure.kind === 'refused') {
          await trx
            .updateTable('githubDeliveries')
            .set({ lastError: failure.message, updatedAt: now })
            .where('transactionId', '=', transactionId)
            .execute()
          logEvent('error', 'github_revoke_refused', { transactionId, message: failure.message })
          return { result: 'retry', retryAt: new Date(now.getTime() + HOUR), message: failure.message }
        }
        // 404: the repository or the installation is gone, and with it the buyer's access.
        note = `Nothing to revoke: ${failure.message}`
      }
    }
    await trx
      .updateTable('githubDeliveries')
      .set({ state: 'revoked', revokedAt: now, revocation, waitingOn: null, nextAttemptAt: null, updatedAt: now })
      .where('transactionId', '=', transactionId)
      .execute()
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'system',
      action: 'github_access_revoked',
      entityType: 'transaction',
      entityId: transactionId,
      fromState: sale.status,
      toState: sale.status,
      reason:
        note ??
        (revocation === 'invitation_canceled'
          ? `Refund: the pending invitation to ${delivery.repoFullName} was canceled`
          : revocation === 'collaborator_removed'
            ? `Refund: ${delivery.buyerLogin ?? 'the buyer'} was removed from ${delivery.repoFullName}`
            : 'Refund: the buyer had no invitation or access to revoke'),
      metadata: { revocation, repository: delivery.repoFullName, buyerGithubId: buyerId },
    })
    return { result: 'revoked', revocation }
  })
}

// --- Webhooks ----------------------------------------------------------------------------------------

export type GithubWebhookResult = 'processed' | 'duplicate' | 'ignored'

type Payload<E extends 'member' | 'fork' | 'installation' | 'installation_repositories'> = EmitterWebhookEvent<E>['payload']

/**
 * One verified webhook delivery (`X-GitHub-Delivery` id, `X-GitHub-Event`
 * name, parsed body). Each delivery id is recorded in processed_events in the
 * same transaction as its effect: a redelivery does nothing.
 */
export async function processGithubWebhook(input: {
  deliveryId: string
  event: string
  payload: unknown
  now?: Date
}): Promise<GithubWebhookResult> {
  const now = input.now ?? new Date()
  await prepareEscrow()
  const payload = input.payload as { action?: string }
  const type = `github.${input.event}${payload.action ? `.${payload.action}` : ''}`
  const fresh = async (trx: DbTransaction<DB>) =>
    Boolean(
      await trx
        .insertInto('processedEvents')
        .values({ id: `github:${input.deliveryId}`, type: type.slice(0, 200), receivedAt: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst(),
    )

  switch (input.event) {
    case 'member':
      if (payload.action !== 'added') break
      return memberAdded(input.payload as Payload<'member'>, fresh, now)
    case 'fork':
      return forked(input.payload as Payload<'fork'>, fresh, now)
    case 'installation':
      return installationEvent(input.payload as Payload<'installation'>, fresh, now)
    case 'installation_repositories':
      return installationRepositories(input.payload as Payload<'installation_repositories'>, fresh, now)
  }
  return db.transaction().execute(async (trx) => ((await fresh(trx)) ? 'ignored' : 'duplicate'))
}

type Fresh = (trx: DbTransaction<DB>) => Promise<boolean>

async function memberAdded(payload: Payload<'member'>, fresh: Fresh, now: Date): Promise<GithubWebhookResult> {
  const memberId = githubId(payload.member?.id)
  const repoId = githubId(payload.repository?.id)
  if (!memberId || !repoId) return db.transaction().execute(async (trx) => ((await fresh(trx)) ? 'ignored' : 'duplicate'))
  const candidates = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select('githubDeliveries.transactionId')
    .where('githubDeliveries.repoId', '=', repoId)
    .where('githubDeliveries.buyerGithubId', '=', memberId)
    .where('githubDeliveries.state', '=', 'invited')
    .where('transactions.status', '=', 'delivering')
    .execute()
  return db.transaction().execute(async (trx) => {
    if (!(await fresh(trx))) return 'duplicate'
    if (payload.member?.login) await refreshLogin(trx, memberId, payload.member.login)
    for (const { transactionId } of candidates) {
      const locked = await lockDelivery(trx, transactionId)
      if (!locked || locked.sale.status !== 'delivering' || locked.delivery.state !== 'invited') continue
      const octokit = await clientFor(locked.delivery.installationId)
      const delivery = { ...locked.delivery, buyerLogin: payload.member?.login ?? locked.delivery.buyerLogin }
      await confirmInTransaction(trx, delivery, octokit, { via: 'webhook', now })
    }
    return candidates.length > 0 ? 'processed' : 'ignored'
  })
}

async function forked(payload: Payload<'fork'>, fresh: Fresh, now: Date): Promise<GithubWebhookResult> {
  const parentId = githubId(payload.repository?.id)
  const forkee = payload.forkee as { html_url?: string; owner?: { id?: number } } | undefined
  const people = [githubId(forkee?.owner?.id), githubId(payload.sender?.id)].filter((id): id is number => id !== null)
  const forkUrl = typeof forkee?.html_url === 'string' ? forkee.html_url : null
  return db.transaction().execute(async (trx) => {
    if (!(await fresh(trx))) return 'duplicate'
    if (!parentId || !forkUrl || people.length === 0) return 'ignored'
    const deliveries = await trx
      .selectFrom('githubDeliveries')
      .select(['transactionId'])
      .where('repoId', '=', parentId)
      .where('buyerGithubId', 'in', people)
      .where('state', 'in', ['invited', 'accepted'])
      .forUpdate()
      .execute()
    for (const { transactionId } of deliveries) {
      await trx
        .updateTable('githubDeliveries')
        .set({ forkUrl, forkedAt: now, updatedAt: now })
        .where('transactionId', '=', transactionId)
        .execute()
      const sale = await trx.selectFrom('transactions').select('status').where('id', '=', transactionId).executeTakeFirst()
      if (sale && ['delivered', 'completed', 'disputed'].includes(sale.status)) {
        await applyEvent(trx, {
          saleId: transactionId,
          event: 'fork_recorded',
          by: SYSTEM,
          forkUrl,
          now,
          reason: `The buyer forked the repository: ${forkUrl}`,
          metadata: { forkUrl },
        })
      }
    }
    return deliveries.length > 0 ? 'processed' : 'ignored'
  })
}

async function installationEvent(payload: Payload<'installation'>, fresh: Fresh, now: Date): Promise<GithubWebhookResult> {
  const installationId = githubId(payload.installation?.id)
  const isNew = await db.transaction().execute(fresh)
  if (!isNew) return 'duplicate'
  if (!installationId) return 'ignored'
  const known = await db
    .selectFrom('githubInstallations')
    .select(['id', 'accountLogin'])
    .where('id', '=', installationId)
    .executeTakeFirst()
  if (!known) return 'ignored'
  switch (payload.action) {
    case 'deleted':
      await installationLost(installationId, now, `The Forkmarket GitHub App was uninstalled from ${known.accountLogin}`)
      return 'processed'
    case 'suspend':
      await db.updateTable('githubInstallations').set({ suspendedAt: now, updatedAt: now }).where('id', '=', installationId).execute()
      await repositoryLost({ installationId, reason: `The Forkmarket GitHub App was suspended on ${known.accountLogin}`, now })
      return 'processed'
    case 'unsuspend':
      await db.updateTable('githubInstallations').set({ suspendedAt: null, updatedAt: now }).where('id', '=', installationId).execute()
      return 'processed'
  }
  return 'ignored'
}

async function installationRepositories(
  payload: Payload<'installation_repositories'>,
  fresh: Fresh,
  now: Date,
): Promise<GithubWebhookResult> {
  const installationId = githubId(payload.installation?.id)
  const isNew = await db.transaction().execute(fresh)
  if (!isNew) return 'duplicate'
  if (!installationId) return 'ignored'
  // An installation we do not know speaks for no seller; a known one only for its own listings and deliveries.
  const known = await db
    .selectFrom('githubInstallations')
    .select('userId')
    .where('id', '=', installationId)
    .where('removedAt', 'is', null)
    .executeTakeFirst()
  if (!known) return 'ignored'
  if (payload.action === 'removed') {
    const repoIds = (payload.repositories_removed ?? []).map((repo) => githubId(repo.id)).filter((id): id is number => id !== null)
    if (repoIds.length === 0) return 'ignored'
    await repositoryLost({ installationId, repoIds, reason: 'The repository was removed from the Forkmarket GitHub App', now })
    return 'processed'
  }
  if (payload.action === 'added') {
    // The seller gave the App a repository back (GitHub's installation settings): its listings are reachable again.
    const repoIds = (payload.repositories_added ?? []).map((repo) => githubId(repo.id)).filter((id): id is number => id !== null)
    if (repoIds.length === 0) return 'ignored'
    await restoreListings(known.userId, installationId, repoIds, now)
    return 'processed'
  }
  return 'ignored'
}

// --- Jobs ---------------------------------------------------------------------------------------------

function transactionIdOf(payload: unknown): string | null {
  const id = payload && typeof payload === 'object' && 'transactionId' in payload ? String(payload.transactionId) : null
  return id && isUuid(id) ? id : null
}

/** The invitation job: one per sale (its key); a wait puts it back at the stated time. */
const inviteTask: Task = async (payload, helpers) => {
  const transactionId = transactionIdOf(payload)
  if (!transactionId) return
  const outcome = await runInvitation(transactionId, new Date())
  if (outcome.result === 'waiting') {
    await helpers.addJob(
      GITHUB_INVITE_TASK,
      { transactionId },
      { runAt: outcome.retryAt, jobKey: inviteJobKey(transactionId), maxAttempts: 25 },
    )
  }
}

const revokeTask: Task = async (payload, helpers) => {
  const transactionId = transactionIdOf(payload)
  if (!transactionId) return
  const outcome = await revokeGithubAccess(transactionId, new Date())
  if (outcome.result === 'retry') {
    await helpers.addJob(
      GITHUB_REVOKE_TASK,
      { transactionId },
      { runAt: outcome.retryAt, jobKey: `${GITHUB_REVOKE_TASK}:${transactionId}`, maxAttempts: 25 },
    )
  }
}

const sweepTask: Task = async () => {
  const report = await sweepGithubDeliveries(new Date())
  if (Object.values(report).some((n) => n > 0)) logEvent('info', 'github_sweep', { ...report })
}

/** GitHub delivery's jobs for the worker (entry.server.tsx passes them with the others). */
export const GITHUB_JOBS: readonly JobDefinition[] = [
  { name: GITHUB_INVITE_TASK, task: inviteTask },
  { name: GITHUB_REVOKE_TASK, task: revokeTask },
  // Polling is the fallback for lost webhooks; it also sends what a lost job did not, and applies the deadlines.
  { name: GITHUB_SWEEP_TASK, task: sweepTask, sweep: '*/10 * * * *', runAtStartup: true },
]

export type { GithubDeliveryState, GithubWaitingOn }
