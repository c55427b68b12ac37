/**
 * GitHub accounts (issue 16): a user's own GitHub account (a buyer's, to be invited), the seller's
 * App installations, and the flows that link them — the install and OAuth pages with their signed
 * state, and sign-in with GitHub.
 *
 * Paths (GET, plain links: they work without JavaScript; each takes `?returnTo=/a/local/path`):
 *   GITHUB_INSTALL_PATH   seller: install the App on an organization ("Connect GitHub", "Reconnect GitHub")
 *   GITHUB_AUTHORIZE_PATH buyer: connect a GitHub account through the App's OAuth ("Connect GitHub")
 *   githubPath(path, returnTo) → the href with the returnTo query.
 * getGithubAccount(userId) → the connected account, or null.
 * recordProviderGithubIdentity(userId, identities) → the sign-in callback (a `github` identity).
 * installUrl / authorizeUrl / completeInstallation / completeUserAuthorization → the flows and their callbacks.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { isUuid } from '~/lib/ids'
import type { DB } from '../../../db/schema.ts'
import type { RateLimit } from '../http/rate-limit.server.ts'
import { db, isUniqueViolation } from '../infra/db.server.ts'
import { appUrl, config } from '../infra/env.server.ts'
import { githubApp, githubId, userOctokit } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { applyDeliveryEvent } from './github-delivery-steps.server.ts'
import { requireGithub, summaryOf, type InstallationSummary } from './github-listing-sources.server.ts'
import { restoreAccess } from './github-repository-access.server.ts'

type Executor = Kysely<DB> | DbTransaction<DB>

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

export interface GithubAccount {
  githubUserId: number
  login: string
  connectedAt: Date
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
    // Deliveries still waiting for the buyer's account can go now (the delivery machine's buyer_connected).
    const waiting = await db
      .selectFrom('githubDeliveries')
      .select('transactionId')
      .where('waitingOn', '=', 'buyer_github')
      .where('state', '=', 'queued')
      .where('transactionId', 'in', db.selectFrom('transactions').select('id').where('buyerId', '=', userId))
      .execute()
    for (const { transactionId } of waiting)
      await db.transaction().execute((trx) => applyDeliveryEvent(trx, transactionId, 'buyer_connected', { now }))
    return { githubUserId: row.githubUserId!, login: row.githubLogin!, connectedAt: row.githubConnectedAt! }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, ACCOUNT_TAKEN)
    throw error
  }
}

/** A later sighting of an account's login (webhooks, lookups): logins change, the id does not. */
export async function refreshLogin(executor: Executor, id: number, login: string): Promise<void> {
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

export type CallbackOutcome = { kind: 'done'; returnTo: string; message: string } | { kind: 'redirect'; url: string }

/** What a GitHub callback route passes: the signed-in user, GitHub's query, and the App's callback address. */
export interface CallbackInput {
  userId: string
  params: URLSearchParams
  redirectUrl: string
  now?: Date
}

/** Both callbacks start alike: GitHub is configured, and the flow's signed state was issued to this user and has not expired. */
function openCallback(input: CallbackInput): { now: Date; state: FlowState } {
  requireGithub()
  const now = input.now ?? new Date()
  return { now, state: readFlowState(input.params.get('state'), input.userId, now) }
}

/**
 * GitHub's setup URL after an installation (`?installation_id&setup_action&state`, and `code`
 * when the App asks for user authorization during installation). The installation id in the
 * address proves nothing: it is recorded only once the signed-in seller's own GitHub token
 * shows it (`GET /user/installations`); without a code the seller is sent through the
 * App's user authorization first.
 */
export async function completeInstallation(input: CallbackInput): Promise<CallbackOutcome> {
  const { now, state } = openCallback(input)
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
export async function completeUserAuthorization(input: CallbackInput): Promise<CallbackOutcome> {
  const { now, state } = openCallback(input)
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
