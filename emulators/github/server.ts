/**
 * A local, stateful stand-in for GitHub (REST API, OAuth web flow, GitHub App installation and
 * webhooks) for development and tests, in the manner of decision 002. The unchanged Octokit clients
 * talk to it through their base URL; API and web pages share one origin, so `@octokit/oauth-methods`
 * derives the OAuth URLs (`/login/oauth/…`) from the same base URL.
 *
 * ## Starting it
 *   const gh = await startGithubEmulator({ port: 0, webhookUrl: 'http://127.0.0.1:3000/api/github/webhook',
 *     setupUrl: 'http://localhost:3000/github/install/callback', callbackUrls: ['http://localhost:3000/github/authorize/callback'] })
 *   gh.url, gh.appId, gh.appSlug, gh.privateKey (PKCS#1 PEM), gh.clientId, gh.clientSecret, gh.webhookSecret
 * Options: port (default 12112; 0 = any), host ('127.0.0.1'), dataFile (JSON state kept across
 * restarts: accounts, repositories, installations, invitations, tokens, the App's key), webhookUrl,
 * webhookSecret, appId, appSlug ('forkmarket-local'), appName, privateKey (PEM; generated and kept in
 * dataFile when omitted), clientId, clientSecret, setupUrl (where the install flow returns),
 * callbackUrls (allowed OAuth redirect_uri prefixes; omitted = any http(s) URL),
 * requestOAuthOnInstall (GitHub's "Request user authorization (OAuth) during installation": the
 * install flow returns to callbackUrls[0] with `code` as well), permissions (default administration
 * write, contents read, metadata read, members read, checks read, statuses read), events (default
 * member, fork, check_run, check_suite, release, status), now (ms clock). A data file's App and installations
 * from before issue 30 gain checks/statuses read and the check and release events (as if the owner accepted them).
 * Options override what dataFile holds; ids and keys not given are kept from it.
 *
 * ## The app side (env → client)
 *   GITHUB_API_URL=gh.url  GITHUB_APP_ID=gh.appId  GITHUB_APP_PRIVATE_KEY=gh.privateKey
 *   GITHUB_APP_CLIENT_ID=gh.clientId  GITHUB_APP_CLIENT_SECRET=gh.clientSecret  GITHUB_WEBHOOK_SECRET=gh.webhookSecret
 *   GITHUB_APP_SLUG=gh.appSlug (install link: `${GITHUB_WEB_URL}/apps/${slug}/installations/new?state=…`)
 *   GITHUB_WEB_URL=gh.url (the browser-facing origin of the consent pages; https://github.com for real)
 *   new App({ appId, privateKey, oauth: { clientId, clientSecret }, webhooks: { secret },
 *             Octokit: Octokit.defaults({ baseUrl: GITHUB_API_URL }) })         // @octokit/app + @octokit/rest
 *   app.oauth.getWebFlowAuthorizationUrl({ state, redirectUrl }) / app.oauth.createToken({ code })
 *   app.getInstallationOctokit(id) → octokit.rest.repos.addCollaborator(…) etc.
 *   app.webhooks.verifyAndReceive({ id, name, signature, payload })           // X-GitHub-Delivery/Event/Hub-Signature-256
 * Things the app side should know (true of GitHub too):
 *   - `app.octokit` (JWT) reaches only the /app… routes; look users up by id (GET /user/{account_id})
 *     with an installation Octokit — unauthenticated calls get 60/h.
 *   - Verify a setup callback's installation_id: the seller's user token must list it in
 *     GET /user/installations (or use requestOAuthOnInstall, which returns a `code` with it).
 *   - @octokit/auth-app caches installation tokens by the real clock and retries a 401 for 5 s after
 *     minting one; after `advanceClock` beyond an hour make a new App (or refresh on 401).
 *   - A buyer who signs in with GitHub through the Supabase Auth emulator is an account of this one
 *     (`account` / `createUser` by login, one id for both: the launcher's wiring, emulators/local-services.ts).
 *
 * ## REST API implemented (operations.ts: what the app and @octokit/app / auth-app call, nothing more;
 * shapes validated against openapi-subset.json)
 *   JWT (RS256, iss = App id or client id, exp ≤ 10 min ahead; GitHub's messages, so auth-app's
 *   clock-skew retry works off the `Date` header, which follows `now`):
 *     GET /app (@octokit/app's install link), GET /app/installations/{id} (404 once uninstalled),
 *     POST /app/installations/{id}/access_tokens (201; ghs_ token, expires_at = now + 1 h,
 *     optional repositories / repository_ids / permissions narrowing; 422 beyond the installation)
 *   Installation token: GET /installation/repositories
 *   Any token (installation tokens see only their installation's private repositories: others 404):
 *     GET /repos/{o}/{r} (owner.type Organization|User, private, default_branch, parent/source on forks),
 *     GET /repos/{o}/{r}/branches/{branch}, GET|PUT|DELETE /repos/{o}/{r}/collaborators/{username},
 *     GET /repos/{o}/{r}/invitations, DELETE /repos/{o}/{r}/invitations/{id}, GET /user/{account_id}
 *   Checks and statuses (checks.ts), read with checks / statuses read (public repositories by anyone):
 *     GET /repos/{o}/{r}/commits/{ref}/check-runs (ref: branch, SHA or SHA prefix, else 422; latest run
 *     per name unless filter=all; check_name, status, app_id), GET /repos/{o}/{r}/commits/{ref}/status
 *     (the latest status per context; failure if any is error/failure, pending if none or any pending,
 *     else success). They are written on the commit page or with setCheckRun / setCommitStatus: check
 *     runs are GitHub Actions' (app id 15368), statuses a user's with push access.
 *   Releases (releases.ts), read with contents read: GET /repos/{o}/{r}/releases/latest (the newest
 *     published release that is not a prerelease; 404 Not Found when there is none). Published on the
 *     releases page or with publishRelease (a user with push access; one release per tag, a new tag at
 *     the target — default branch —, 422 for a tag that has a release or an unknown target; a deleted
 *     release's tag stays).
 *   User-to-server token (ghu_, from the OAuth flow; 8 h, refreshable): GET /user, GET /user/installations
 *   Collaborator rules as GitHub: PUT → 201 + invitation (a pending one is returned again, not
 *   re-sent), 204 when the user already has access (collaborator, organization member — added at
 *   once); `permission` (pull|triage|push|maintain|admin) only on organization repositories, write
 *   on personal ones; 50 invitations per repository per 24 h → 422 Validation Failed with
 *   errors[0] = { resource: 'Repository', code: 'custom', field: 'invitations', message } (GitHub
 *   does not publish the wording: treat any such 422 as "limit reached, retry later");
 *   invitations expire 7 days after they were sent (`expired: true`, cannot be accepted; a new PUT
 *   sends a new one); DELETE collaborator also cancels pending invitations and deletes the user's
 *   private forks. A renamed owner's repositories answer 301 to the new path (fetch follows it);
 *   a renamed user's old login is unknown (PUT collaborator 404: look users up by id, GET /user/{account_id}).
 *   Errors: `{ message, documentation_url, status: '404' }` (+ `errors` on 422); 401 Bad
 *   credentials for an unknown or expired token; 403 "Resource not accessible by integration" when
 *   the token lacks the permission; x-ratelimit-* headers on every response (5000/h per token).
 *
 * ## Web pages (forms; work without JavaScript)
 *   GET /login/oauth/authorize?client_id&redirect_uri&state[&login][&code_challenge] → consent page:
 *     pick or type a login → 302 redirect_uri?code&state (Cancel → error=access_denied&state)
 *   POST /login/oauth/access_token (JSON or form; JSON answer when Accept asks for it, else form):
 *     code (+ code_verifier) or grant_type=refresh_token → { access_token, expires_in: 28800,
 *     refresh_token, refresh_token_expires_in, token_type: 'bearer', scope: '' }; errors are 200 with
 *     { error: bad_verification_code | incorrect_client_credentials | redirect_uri_mismatch | bad_refresh_token }
 *   GET /apps/{slug}/installations/new?state → pick or type your login and an organization (new,
 *     existing — you must own it — or your personal account), then repositories (all / selected, or
 *     create one) → 302 setupUrl?installation_id&setup_action=install|update&state (the app records the
 *     installation there); reconfiguring one sends `installation_repositories`
 *   GET /_emulator — everything at a glance (Uninstall → `installation` deleted); /_emulator/users/{login} — act as a user: pending
 *     invitations (Accept → collaborator + `member` added; Decline), Fork (→ `fork` with `forkee`);
 *     GET /{owner}/{repo} (the repository's html_url) and /{owner}/{repo}/invitations (an
 *     invitation's html_url: "Accept as <login>"); /{owner}/{repo}/commit/{sha} — a commit's check runs
 *     and statuses: add a check run as GitHub Actions (a result, or in progress then "Finish"), set a
 *     commit status as a user with push access (linked from the repository page's head commit);
 *     /{owner}/{repo}/releases (and a release's html_url …/releases/tag/{tag}) — its releases, and "Draft a
 *     new release": tag, title, notes, release / pre-release / draft, as a user with push access; Delete.
 *
 * ## Webhooks (webhooks.ts): the events and actions the app reads
 *   installation (deleted), installation_repositories (added, removed), member (added), fork, check_run
 *   (created, completed), check_suite (completed: when every run of the suite has), status, release
 *   (published, then released unless a prerelease; never for a draft; deleted — with contents read) —
 *   POSTed to webhookUrl after the API answer, signed like GitHub (X-Hub-Signature-256), never retried
 *   automatically (`redeliver(guid)` resends with the same GUID). GitHub also sends installation
 *   created, member removed and release created / prereleased, which the app ignores: the emulator
 *   does not.
 *
 * ## Test helpers (returned functions; the same over HTTP: POST /_emulator/api/<name> with the
 * argument as JSON, GET /_emulator/api/snapshot and /_emulator/api/deliveries)
 *   setCheckRun, completeCheckRun, setCommitStatus, commitChecks, publishRelease, deleteRelease, releases (issue 30),
 *   seed (demo data: idempotent, stable ids, collaborators / pending or expired invitations / forks,
 *   no webhooks), createUser, createOrganization, createRepository, pushCommit, renameAccount,
 *   install, uninstall, addRepoToInstallation, removeRepoFromInstallation, acceptInvitation,
 *   declineInvitation, fork, authorize (an OAuth code without the page), createUserToken,
 *   failNext (inject a 5xx / 403 or 429 rate limit with retry-after or x-ratelimit-reset / a delay /
 *   a dropped connection), advanceClock, repository, account, snapshot, redeliver, setWebhookUrl,
 *   deliveries, exchanges (every API response, for the contract test), idle, close.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { listen, urlHost } from '../support/http.ts'
import { findApiRoute, runApi } from './api.ts'
import { Checks } from './checks.ts'
import {
  createHelpers,
  type AccountInfo,
  type Helpers,
  type InstallationInfo,
  type InvitationTarget,
  type RepositoryInfo,
  type SeedSpec,
} from './helpers.ts'
import { errorReply, injectFailure, send, takeFailure, toRequest, type Ctx, type Exchange, type FailureSpec, type Reply } from './http.ts'
import type { OperationId } from './operations.ts'
import { Releases } from './releases.ts'
import { Shapes } from './shapes.ts'
import { GithubStore, type AppRecord, type PermissionLevel } from './store.ts'
import { web } from './web.ts'
import { WebhookDispatcher, type WebhookDelivery } from './webhooks.ts'
import { isoSeconds, World, type DomainEvent } from './world.ts'

export type { WebhookDelivery } from './webhooks.ts'
export type { AccountInfo, InstallationInfo, RepositoryInfo, SeedSpec } from './helpers.ts'
export type { Exchange, FailureSpec } from './http.ts'
export type { PermissionLevel, RepoRole } from './store.ts'
export { OPERATIONS, WEBHOOKS } from './operations.ts'

export const DEFAULT_PORT = 12112
const DEFAULT_PERMISSIONS: Record<string, PermissionLevel> = {
  administration: 'write',
  contents: 'read',
  metadata: 'read',
  members: 'read',
  checks: 'read',
  statuses: 'read',
}
const DEFAULT_EVENTS = ['check_run', 'check_suite', 'fork', 'member', 'release', 'status']
/** What issue 30 added to the App: a saved App and its installations from an older data file gain them (the owner accepted). */
const CHECKS_PERMISSIONS: Record<string, PermissionLevel> = { checks: 'read', statuses: 'read' }
const CHECKS_EVENTS = ['check_run', 'check_suite', 'release', 'status']

export interface GithubEmulatorOptions {
  port?: number
  host?: string
  dataFile?: string
  webhookUrl?: string
  webhookSecret?: string
  appId?: number
  appSlug?: string
  appName?: string
  /** PEM (PKCS#1 or PKCS#8); generated (PKCS#1, as GitHub hands them out) when omitted. */
  privateKey?: string
  clientId?: string
  clientSecret?: string
  setupUrl?: string
  callbackUrls?: string[]
  requestOAuthOnInstall?: boolean
  permissions?: Record<string, PermissionLevel>
  events?: string[]
  now?: () => number
}

export interface GithubEmulator {
  /** API base URL and web origin, e.g. 'http://127.0.0.1:12112'. */
  url: string
  appId: number
  appSlug: string
  appName: string
  privateKey: string
  clientId: string
  clientSecret: string
  webhookSecret: string
  /** `${url}/apps/${appSlug}/installations/new` (add `?state=…`). */
  installUrl: string
  setWebhookUrl(url: string | undefined): void
  /** Where the install flow returns and which OAuth redirect_uris it takes, when the app's address is known only later. */
  setAppUrls(urls: { setupUrl?: string; callbackUrls?: string[] }): void
  createUser(input: { login: string; id?: number; name?: string; email?: string }): AccountInfo
  /** `owners` become organization admins (they may install the App there), `members` plain members. */
  createOrganization(input: { login: string; owners?: string[]; members?: string[]; name?: string }): AccountInfo
  createRepository(input: { owner: string; name: string; private?: boolean; defaultBranch?: string; description?: string }): RepositoryInfo
  pushCommit(input: { repository: string; branch?: string; message?: string }): { sha: string }
  /** A GitHub Actions check run on a commit (`conclusion` completes it; else `status` queued | in_progress). */
  setCheckRun: Helpers['setCheckRun']
  completeCheckRun: Helpers['completeCheckRun']
  /** A commit status set by `login` (push access needed). */
  setCommitStatus: Helpers['setCommitStatus']
  commitChecks: Helpers['commitChecks']
  /** A release published (or saved as a draft) by `login`, who needs push access (sends `release` published, released). */
  publishRelease: Helpers['publishRelease']
  deleteRelease: Helpers['deleteRelease']
  /** The repository's releases, newest first, drafts included. */
  releases: Helpers['releases']
  renameAccount(input: { login: string; newLogin: string }): AccountInfo
  /** Installs the App on an account (no webhook: the app records it from the setup callback); `repositories`: 'all' (default) or names. */
  install(input: { account: string; repositories?: 'all' | string[]; sender?: string }): InstallationInfo
  uninstall(input: { installationId: number; sender?: string }): void
  addRepoToInstallation(input: { installationId: number; repository: string; sender?: string }): InstallationInfo
  removeRepoFromInstallation(input: { installationId: number; repository: string; sender?: string }): InstallationInfo
  acceptInvitation(input: InvitationTarget): { invitationId: number }
  declineInvitation(input: InvitationTarget): { invitationId: number }
  fork(input: { repository: string; login: string; organization?: string; name?: string }): RepositoryInfo
  /** An OAuth code for `login` (created if new), as the consent page would give; exchange it at /login/oauth/access_token. */
  authorize(input: { login: string; redirectUri?: string; codeChallenge?: string }): { code: string }
  createUserToken(input: { login: string }): { token: string; refreshToken: string; expiresAt: string }
  failNext(spec: FailureSpec): void
  /** Moves the emulator's clock forward (on top of `now`). */
  advanceClock(input: { ms: number }): { now: string }
  repository(input: { repository: string }): RepositoryInfo
  account(input: { login?: string; id?: number }): AccountInfo | null
  snapshot(): { accounts: AccountInfo[]; repositories: RepositoryInfo[]; installations: InstallationInfo[] }
  /** Demo data: creates what is missing (with the ids given), keeps what exists, sends no webhooks. */
  seed(spec: SeedSpec): { accounts: AccountInfo[]; repositories: RepositoryInfo[]; installations: InstallationInfo[] }
  redeliver(input: { guid: string }): Promise<{ status: number | 'error' }>
  deliveries: WebhookDelivery[]
  exchanges: Exchange[]
  /** Resolves once no webhook delivery is in flight. */
  idle(): Promise<void>
  close(): Promise<void>
}

export async function startGithubEmulator(opts: GithubEmulatorOptions = {}): Promise<GithubEmulator> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('The GitHub emulator refuses to run with NODE_ENV=production: point GITHUB_API_URL at GitHub instead.')
  }
  let offsetMs = 0
  const baseNow = opts.now ?? Date.now
  const now = () => baseNow() + offsetMs

  const store = GithubStore.open(opts.dataFile, (saved) => appRecord(opts, saved, now()))
  if (!opts.permissions && !opts.events) acceptChecksPermissions(store)
  const publicKey = createPublicKey(createPrivateKey(store.app.privateKey))
  const host = opts.host ?? '127.0.0.1'
  const server = createServer()
  const port = await listen(server, opts.port ?? DEFAULT_PORT, host, 'GitHub emulator')
  const url = `http://${urlHost(host)}:${port}`

  let deliver: (event: DomainEvent) => void = () => {}
  const world = new World(store, now, (event) => deliver(event))
  const shapes = new Shapes(url, world)
  const checks = new Checks(world, now)
  const releases = new Releases(world, now)
  const dispatcher = new WebhookDispatcher(
    opts.webhookUrl,
    () => store.app.webhookSecret,
    () => store.app.id,
    shapes,
    world,
    checks,
    now,
  )
  deliver = (event) => dispatcher.handle(event)
  const ctx: Ctx = {
    store,
    world,
    checks,
    releases,
    shapes,
    webhooks: dispatcher,
    publicKey,
    url,
    now,
    // A copy: setAppUrls changes it, never the caller's object.
    options: { ...opts },
    codes: new Map(),
    failures: [],
    rateLimits: new Map(),
    exchanges: [],
    advanceClock: (ms) => {
      offsetMs += ms
    },
    helpers: undefined as unknown as Helpers,
  }
  ctx.helpers = createHelpers(ctx)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => void handle(ctx, req, res))

  const helpers = ctx.helpers
  let closing: Promise<void> | undefined
  return {
    url,
    appId: store.app.id,
    appSlug: store.app.slug,
    appName: store.app.name,
    privateKey: store.app.privateKey,
    clientId: store.app.clientId,
    clientSecret: store.app.clientSecret,
    webhookSecret: store.app.webhookSecret,
    installUrl: `${url}/apps/${store.app.slug}/installations/new`,
    setWebhookUrl: (webhookUrl) => dispatcher.setUrl(webhookUrl),
    setAppUrls: ({ setupUrl, callbackUrls }) => {
      ctx.options.setupUrl = setupUrl
      ctx.options.callbackUrls = callbackUrls
    },
    ...helpers,
    deliveries: dispatcher.deliveries,
    exchanges: ctx.exchanges,
    idle: () => dispatcher.idle(),
    close() {
      closing ??= (async () => {
        dispatcher.close()
        await Promise.all([
          new Promise<void>((resolve, reject) => {
            server.close((error) => (error ? reject(error) : resolve()))
            server.closeAllConnections()
          }),
          dispatcher.idle(),
        ])
      })()
      return closing
    },
  }
}

function appRecord(opts: GithubEmulatorOptions, saved: AppRecord | undefined, nowMs: number): AppRecord {
  const slug = opts.appSlug ?? saved?.slug ?? 'forkmarket-local'
  return {
    id: opts.appId ?? saved?.id ?? 1_000_000 + Math.floor(Math.random() * 900_000),
    slug,
    name: opts.appName ?? saved?.name ?? 'Forkmarket (local)',
    clientId: opts.clientId ?? saved?.clientId ?? `Iv23li${randomBytes(7).toString('hex')}`,
    clientSecret: opts.clientSecret ?? saved?.clientSecret ?? randomBytes(20).toString('hex'),
    webhookSecret: opts.webhookSecret ?? saved?.webhookSecret ?? randomBytes(20).toString('hex'),
    privateKey: opts.privateKey ?? saved?.privateKey ?? generatePrivateKey(),
    ownerId: saved?.ownerId ?? null,
    createdAt: saved?.createdAt ?? isoSeconds(nowMs),
    permissions: opts.permissions ?? (saved ? { ...CHECKS_PERMISSIONS, ...saved.permissions } : { ...DEFAULT_PERMISSIONS }),
    events: opts.events ?? (saved ? [...new Set([...saved.events, ...CHECKS_EVENTS])].sort() : [...DEFAULT_EVENTS]),
  }
}

function acceptChecksPermissions(store: GithubStore): void {
  for (const installation of store.state.installations) {
    installation.permissions = { ...CHECKS_PERMISSIONS, ...installation.permissions }
    installation.events = [...new Set([...installation.events, ...CHECKS_EVENTS])].sort()
  }
  store.persist()
}

function generatePrivateKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
}

async function handle(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET'
  const url = new URL(req.url ?? '/', 'http://emulator.invalid')
  let reply: Reply
  let operationId: OperationId | undefined
  try {
    if (method === 'OPTIONS') {
      reply = { status: 204 }
    } else {
      const api = findApiRoute(method, url.pathname)
      const failure = takeFailure(
        ctx,
        method,
        url.pathname,
        api?.route.operationId ?? (url.pathname === '/login/oauth/access_token' ? 'oauth/access-token' : undefined),
      )
      if (failure) return await injectFailure(ctx, failure, req, res)
      const request = toRequest(ctx, req, method, url, api?.params ?? {})
      if (api) {
        operationId = api.route.operationId
        reply = await runApi(ctx, api.route, request)
      } else {
        reply = await web(ctx, request)
      }
    }
  } catch (error) {
    reply = errorReply(error, operationId)
  }
  send(ctx, res, reply)
  if (operationId) {
    ctx.exchanges.push({ operationId, method, path: url.pathname, status: reply.status, body: reply.body })
    if (ctx.exchanges.length > 5000) ctx.exchanges.splice(0, ctx.exchanges.length - 5000)
  }
}
