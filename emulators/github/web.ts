/**
 * The GitHub emulator's web side: the OAuth user-authorization flow (/login/oauth/…), the App
 * installation flow (/apps/{slug}/installations/new), the act-as pages (/_emulator/…, and the
 * html_url pages of repositories and invitations) and the JSON control API (/_emulator/api/…).
 */
import { createHash } from 'node:crypto'
import type { Helpers } from './helpers.ts'
import { fullName, githubErrorBody, issueCode, json, OAUTH_CODE_TTL_MS, type Ctx, type Reply, type Request } from './http.ts'
import type { AccountRecord, CheckConclusion, RepoRecord, UserTokenRecord } from './store.ts'
import {
  accountPage,
  authorizePage,
  avatarSvg,
  commitPage,
  indexPage,
  installRepositoriesPage,
  installTargetPage,
  messagePage,
  releasesPage,
  repositoryPage,
  type InvitationView,
} from './views.ts'
import { GithubError, isoSeconds, notFound, REFRESH_TOKEN_TTL_MS, roleName, USER_TOKEN_TTL_MS } from './world.ts'

export async function web(ctx: Ctx, req: Request): Promise<Reply> {
  const path = req.url.pathname
  const { method } = req
  const slug = ctx.store.app.slug
  if (path === '/login/oauth/authorize' && method === 'GET') return authorizeGet(ctx, req)
  if (path === '/login/oauth/authorize' && method === 'POST') return authorizePost(ctx, req)
  if (path === '/login/oauth/access_token' && method === 'POST') return accessToken(ctx, req)
  if (path.toLowerCase() === `/apps/${slug}/installations/new` && method === 'GET') return installGet(ctx, req)
  if (path.toLowerCase() === `/apps/${slug}/installations` && method === 'POST') return installPost(ctx, req)
  if (path.toLowerCase() === `/apps/${slug}` && method === 'GET')
    return { status: 302, headers: { location: `/apps/${slug}/installations/new` } }
  if (path.startsWith('/_emulator')) return emulatorRoutes(ctx, req)
  if (method === 'GET') {
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent)
    if (segments.length === 1) {
      const account = ctx.store.accountByLogin(segments[0])
      if (account) return { status: 302, headers: { location: `/_emulator/users/${account.login}` } }
    }
    if (segments.length === 2 || (segments.length === 3 && segments[2] === 'invitations')) {
      const owner = ctx.store.accountByLogin(segments[0])
      const repo = owner && ctx.store.repoByName(owner.id, segments[1])
      if (repo) return { status: 200, html: renderRepository(ctx, repo, req.url.searchParams.get('flash') ?? undefined) }
    }
    // A repository's releases, and a release's html_url (…/releases/tag/{tag}): the same page.
    if (segments[2] === 'releases' && (segments.length === 3 || (segments.length === 5 && segments[3] === 'tag'))) {
      const owner = ctx.store.accountByLogin(segments[0])
      const repo = owner && ctx.store.repoByName(owner.id, segments[1])
      if (repo) return { status: 200, html: renderReleases(ctx, repo, req.url.searchParams.get('flash') ?? undefined) }
    }
    if (segments.length === 4 && segments[2] === 'commit') {
      const owner = ctx.store.accountByLogin(segments[0])
      const repo = owner && ctx.store.repoByName(owner.id, segments[1])
      const commit = repo && ctx.world.resolveRef(repo, segments[3])
      if (repo && commit) return { status: 200, html: renderCommit(ctx, repo, commit.sha, req.url.searchParams.get('flash') ?? undefined) }
    }
  }
  if (path.startsWith('/login/') || path.startsWith('/apps/') || method === 'POST' || req.raw.headers.accept?.includes('text/html')) {
    return {
      status: 404,
      html: messagePage('Not Found', `Nothing at ${method} ${path} in the emulator.`, [{ href: '/_emulator', text: 'Emulator home' }]),
    }
  }
  return json(404, githubErrorBody(404, 'Not Found'))
}

function appCallbackAllowed(ctx: Ctx, redirectUri: string): boolean {
  let target: URL
  try {
    target = new URL(redirectUri)
  } catch {
    return false
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false
  const allowed = ctx.options.callbackUrls
  if (!allowed?.length) return true
  return allowed.some((entry) => {
    const base = new URL(entry)
    return base.origin === target.origin && target.pathname.startsWith(base.pathname)
  })
}

function withQuery(target: string, params: Record<string, string | undefined>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') url.searchParams.set(name, value)
  return url.href
}

function userLogins(ctx: Ctx): string[] {
  return ctx.store.state.accounts.filter((account) => account.type === 'User').map((account) => account.login)
}

interface AuthorizeParams {
  clientId: string
  redirectUri: string
  state?: string
  codeChallenge?: string
  login?: string
}

function parseAuthorize(ctx: Ctx, params: URLSearchParams): AuthorizeParams | Reply {
  const clientId = params.get('client_id') ?? ''
  if (clientId !== ctx.store.app.clientId) {
    return { status: 404, html: messagePage('Unknown application', `No GitHub App has the client_id "${clientId}".`) }
  }
  const state = params.get('state') ?? undefined
  const fallback = ctx.options.callbackUrls?.[0]
  const redirectUri = params.get('redirect_uri') || fallback
  if (!redirectUri) {
    return { status: 400, html: messagePage('Missing redirect_uri', 'Pass redirect_uri, or start the emulator with callbackUrls.') }
  }
  if (!appCallbackAllowed(ctx, redirectUri)) {
    if (fallback) {
      return {
        status: 302,
        headers: {
          location: withQuery(fallback, {
            error: 'redirect_uri_mismatch',
            error_description: 'The redirect_uri is not associated with this application.',
            error_uri:
              'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch',
            state,
          }),
        },
      }
    }
    return { status: 400, html: messagePage('Bad redirect_uri', 'The redirect_uri must be an http(s) URL.') }
  }
  const method = params.get('code_challenge_method')
  if (params.get('code_challenge') && method && method !== 'S256') {
    return { status: 400, html: messagePage('Unsupported PKCE method', 'code_challenge_method must be S256.') }
  }
  return { clientId, redirectUri, state, codeChallenge: params.get('code_challenge') ?? undefined, login: params.get('login') ?? undefined }
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'status' in value
}

function authorizeView(ctx: Ctx, input: AuthorizeParams, error?: string, status = 200): Reply {
  return {
    status,
    html: authorizePage({
      appName: ctx.store.app.name,
      hidden: { client_id: input.clientId, redirect_uri: input.redirectUri, state: input.state, code_challenge: input.codeChallenge },
      users: userLogins(ctx),
      login: input.login,
      cancelUrl: withQuery(input.redirectUri, {
        error: 'access_denied',
        error_description: 'The user has denied your application access.',
        error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied',
        state: input.state,
      }),
      error,
    }),
  }
}

function authorizeGet(ctx: Ctx, req: Request): Reply {
  const input = parseAuthorize(ctx, req.url.searchParams)
  return isReply(input) ? input : authorizeView(ctx, input)
}

async function authorizePost(ctx: Ctx, req: Request): Promise<Reply> {
  const form = await req.form()
  const input = parseAuthorize(ctx, form)
  if (isReply(input)) return input
  const login = (form.get('login') ?? '').trim()
  let user: AccountRecord
  try {
    user = ctx.world.userNamed(login)
  } catch (error) {
    return authorizeView(ctx, { ...input, login }, loginProblem(error, login), 400)
  }
  const code = issueCode(ctx, user, input.redirectUri, input.codeChallenge)
  return { status: 302, headers: { location: withQuery(input.redirectUri, { code, state: input.state }) } }
}

function loginProblem(error: unknown, login: string): string {
  if (error instanceof GithubError && error.status === 422 && error.errors?.[0]?.field === 'login') {
    return `"${login}" is not a valid GitHub login: letters, digits and single inner hyphens, at most 39 characters.`
  }
  return error instanceof Error ? error.message : String(error)
}

async function accessToken(ctx: Ctx, req: Request): Promise<Reply> {
  const params = new URLSearchParams(req.url.searchParams)
  for (const [name, value] of await req.form()) params.set(name, value)
  const wantsJson = (req.raw.headers.accept ?? '').includes('json')
  const answer = (body: Record<string, string | number>): Reply =>
    wantsJson
      ? json(200, body)
      : {
          status: 200,
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          text: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
        }
  const oauthError = (error: string, description: string) =>
    answer({
      error,
      error_description: description,
      error_uri: `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replaceAll('_', '-')}`,
    })
  const app = ctx.store.app
  if (params.get('client_id') !== app.clientId || (params.get('client_secret') !== app.clientSecret && !params.get('code_verifier'))) {
    return oauthError('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.')
  }
  if (params.get('grant_type') === 'refresh_token') {
    const token = ctx.world.refreshUserToken(params.get('refresh_token') ?? '')
    if (!token) return oauthError('bad_refresh_token', 'The refresh token passed is incorrect or expired.')
    return answer(tokenBody(token))
  }
  const code = ctx.codes.get(params.get('code') ?? '')
  if (!code || ctx.now() - code.createdAtMs > OAUTH_CODE_TTL_MS) {
    return oauthError('bad_verification_code', 'The code passed is incorrect or expired.')
  }
  const redirectUri = params.get('redirect_uri')
  if (redirectUri && code.redirectUri && redirectUri !== code.redirectUri) {
    return oauthError('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.')
  }
  if (code.codeChallenge) {
    const verifier = params.get('code_verifier') ?? ''
    if (createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
      return oauthError('bad_verification_code', 'The code passed is incorrect or expired.')
    }
  }
  ctx.codes.delete(params.get('code') ?? '')
  const user = ctx.store.account(code.userId)
  if (!user) return oauthError('bad_verification_code', 'The code passed is incorrect or expired.')
  return answer(tokenBody(ctx.world.issueUserToken(user)))
}

function tokenBody(token: UserTokenRecord) {
  return {
    access_token: token.token,
    expires_in: USER_TOKEN_TTL_MS / 1000,
    refresh_token: token.refreshToken,
    refresh_token_expires_in: REFRESH_TOKEN_TTL_MS / 1000,
    token_type: 'bearer',
    scope: '',
  }
}

// --- App installation flow

function installTargets(ctx: Ctx) {
  return ctx.store.state.accounts
    .filter((account) => account.type === 'Organization')
    .map((org) => ({
      login: org.login,
      type: 'Organization' as const,
      owners: org.members.filter((member) => member.role === 'admin').map((member) => ctx.store.account(member.userId)?.login ?? '?'),
    }))
}

interface InstallChoice {
  user: AccountRecord
  target: AccountRecord
}

/** Step 1's answers → the installing user and the account (creating a typed login or organization). */
function resolveInstallChoice(ctx: Ctx, params: URLSearchParams): InstallChoice | string {
  const login = (params.get('login') ?? '').trim()
  let user: AccountRecord
  try {
    user = ctx.world.userNamed(login)
  } catch (error) {
    return loginProblem(error, login)
  }
  const target = params.get('target') ?? ''
  if (target === '@me') return { user, target: user }
  if (target === '') {
    const name = (params.get('new_org') ?? '').trim()
    if (!name) return 'Name the new organization, or pick an existing one.'
    const existing = ctx.store.accountByLogin(name)
    if (existing) return `"${name}" is taken: pick it from the list if you own it.`
    try {
      return { user, target: ctx.world.createAccount({ login: name, type: 'Organization', members: [{ userId: user.id, role: 'admin' }] }) }
    } catch (error) {
      return loginProblem(error, name)
    }
  }
  const org = ctx.store.accountByLogin(target)
  if (!org || org.type !== 'Organization') return `There is no organization called "${target}".`
  if (!org.members.some((member) => member.userId === user.id && member.role === 'admin')) {
    return `${user.login} is not an owner of ${org.login}: only owners can install apps there.`
  }
  return { user, target: org }
}

function installGet(ctx: Ctx, req: Request): Reply {
  const params = req.url.searchParams
  const action = `/apps/${ctx.store.app.slug}/installations/new`
  const state = params.get('state') ?? undefined
  if (!params.has('login')) {
    return {
      status: 200,
      html: installTargetPage({ appName: ctx.store.app.name, action, state, users: userLogins(ctx), organizations: installTargets(ctx) }),
    }
  }
  const choice = resolveInstallChoice(ctx, params)
  if (typeof choice === 'string') {
    return {
      status: 400,
      html: installTargetPage({
        appName: ctx.store.app.name,
        action,
        state,
        users: userLogins(ctx),
        organizations: installTargets(ctx),
        login: params.get('login') ?? '',
        error: choice,
      }),
    }
  }
  return { status: 200, html: repositoriesStep(ctx, choice, state) }
}

function repositoriesStep(ctx: Ctx, choice: InstallChoice, state: string | undefined, error?: string): string {
  const existing = ctx.store.installationFor(choice.target.id)
  const covered = new Set(existing ? ctx.world.installationRepos(existing).map((repo) => repo.id) : [])
  return installRepositoriesPage({
    appName: ctx.store.app.name,
    action: `/apps/${ctx.store.app.slug}/installations`,
    fields: { state, login: choice.user.login, target: choice.target.login },
    account: { login: choice.target.login, type: choice.target.type === 'Organization' ? 'Organization' : 'User' },
    permissions: ctx.store.app.permissions,
    repositories: ctx.store
      .reposOf(choice.target.id)
      .map((repo) => ({ id: repo.id, name: repo.name, private: repo.private, selected: covered.has(repo.id) })),
    selection: existing?.repositorySelection === 'all' ? 'all' : 'selected',
    existing: Boolean(existing),
    error,
  })
}

async function installPost(ctx: Ctx, req: Request): Promise<Reply> {
  const form = await req.form()
  const state = form.get('state') ?? undefined
  const user = ctx.store.accountByLogin(form.get('login') ?? '')
  const target = ctx.store.accountByLogin(form.get('target') ?? '')
  if (!user || user.type !== 'User' || !target)
    return {
      status: 400,
      html: messagePage('Start again', 'The installation form is incomplete.', [
        { href: ctx.store.app.slug ? `/apps/${ctx.store.app.slug}/installations/new` : '/', text: 'Install again' },
      ]),
    }
  const allowed =
    target.id === user.id ||
    (target.type === 'Organization' && target.members.some((member) => member.userId === user.id && member.role === 'admin'))
  if (!allowed) return { status: 403, html: messagePage('Not allowed', `${user.login} is not an owner of ${target.login}.`) }
  const choice = { user, target }
  const selection = form.get('selection') === 'all' ? 'all' : 'selected'
  const repoIds = form
    .getAll('repository_ids')
    .map(Number)
    .filter((id) => ctx.store.repo(id)?.ownerId === target.id)
  const newName = (form.get('new_repository') ?? '').trim()
  if (newName) {
    try {
      repoIds.push(ctx.world.createRepository(target, { name: newName, private: true }).id)
    } catch (error) {
      return {
        status: 400,
        html: repositoriesStep(
          ctx,
          choice,
          state,
          error instanceof GithubError ? `Repository name: ${String(error.errors?.[0]?.message ?? error.message)}` : String(error),
        ),
      }
    }
  }
  if (selection === 'selected' && repoIds.length === 0) {
    return { status: 400, html: repositoriesStep(ctx, choice, state, 'Select at least one repository, or choose All repositories.') }
  }
  const { installation, action } = ctx.world.install(target, { selection, repoIds, senderId: user.id })
  const params = { installation_id: String(installation.id), setup_action: action, state }
  if (ctx.options.requestOAuthOnInstall && ctx.options.callbackUrls?.[0]) {
    const callback = ctx.options.callbackUrls[0]
    return { status: 302, headers: { location: withQuery(callback, { code: issueCode(ctx, user, callback), ...params }) } }
  }
  if (ctx.options.setupUrl) return { status: 302, headers: { location: withQuery(ctx.options.setupUrl, params) } }
  return {
    status: 200,
    html: messagePage(
      `Installed on ${target.login}`,
      `Installation ${installation.id} (${action}). No setup URL is configured, so there is nowhere to return to.`,
      [{ href: '/_emulator', text: 'Emulator home' }],
    ),
  }
}

// --- Act-as pages and the JSON control API

function invitationView(
  ctx: Ctx,
  invitation: { id: number; repoId: number; inviteeId: number; permission: string; createdAtMs: number },
): InvitationView {
  const repo = ctx.store.repo(invitation.repoId)!
  return {
    id: invitation.id,
    repository: fullName(ctx, repo),
    invitee: ctx.store.account(invitation.inviteeId)?.login ?? '?',
    permission: invitation.permission,
    invitedAt: isoSeconds(invitation.createdAtMs),
    expired: ctx.world.isExpired(invitation as never),
  }
}

function renderRepository(ctx: Ctx, repo: RepoRecord, flash?: string): string {
  const owner = ctx.store.account(repo.ownerId)!
  const forkers = ctx.store.state.accounts.filter(
    (account) => account.type === 'User' && account.id !== owner.id && ctx.world.canRead(account, repo),
  )
  return repositoryPage({
    fullName: fullName(ctx, repo),
    private: repo.private,
    defaultBranch: repo.defaultBranch,
    headSha: repo.branches[repo.defaultBranch] ?? '',
    parent: repo.parentId ? fullName(ctx, ctx.store.repo(repo.parentId)!) : null,
    collaborators: repo.collaborators.map((entry) => ({
      login: ctx.store.account(entry.userId)?.login ?? '?',
      role: roleName(entry.role),
    })),
    invitations: ctx.store.invitationsOf(repo.id).map((invitation) => invitationView(ctx, invitation)),
    forks: ctx.store.forksOf(repo.id).map((fork) => fullName(ctx, fork)),
    forkers: forkers.map((account) => account.login),
    flash,
  })
}

/** The users who may push to the repository (and so set statuses and publish releases from the pages). */
function pushersOf(ctx: Ctx, repo: RepoRecord): AccountRecord[] {
  return ctx.store.state.accounts.filter((account) => {
    const role = account.type === 'User' ? ctx.world.roleOf(account, repo) : null
    return role === 'push' || role === 'maintain' || role === 'admin'
  })
}

function renderReleases(ctx: Ctx, repo: RepoRecord, flash?: string): string {
  return releasesPage({
    fullName: fullName(ctx, repo),
    releases: ctx.helpers.releases({ repository: fullName(ctx, repo) }),
    pushers: pushersOf(ctx, repo).map((account) => account.login),
    flash,
  })
}

function renderCommit(ctx: Ctx, repo: RepoRecord, sha: string, flash?: string): string {
  const checks = ctx.helpers.commitChecks({ repository: fullName(ctx, repo), sha })
  const pushers = pushersOf(ctx, repo)
  return commitPage({
    fullName: fullName(ctx, repo),
    sha,
    message: repo.commits.find((commit) => commit.sha === sha)?.message ?? '',
    checkRuns: checks.checkRuns,
    statuses: checks.statuses,
    combinedState: checks.combinedState,
    pushers: pushers.map((account) => account.login),
    flash,
  })
}

function renderAccount(ctx: Ctx, account: AccountRecord, flash?: string): string {
  const accessible = ctx.store.state.repos.filter(
    (repo) => repo.ownerId !== account.id && repo.parentId === null && ctx.world.roleOf(account, repo) !== null,
  )
  return accountPage({
    login: account.login,
    id: account.id,
    type: account.type === 'Organization' ? 'Organization' : 'User',
    flash,
    invitations: ctx.store.invitationsFor(account.id).map((invitation) => invitationView(ctx, invitation)),
    accessible: accessible.map((repo) => {
      const fork = ctx.store.forksOf(repo.id).find((entry) => entry.ownerId === account.id)
      return { fullName: fullName(ctx, repo), fork: fork ? fullName(ctx, fork) : null }
    }),
    owned: ctx.store.reposOf(account.id).map((repo) => ({
      fullName: fullName(ctx, repo),
      private: repo.private,
      parent: repo.parentId ? fullName(ctx, ctx.store.repo(repo.parentId)!) : null,
    })),
    members: account.members.map(
      (member) => `${ctx.store.account(member.userId)?.login ?? '?'}${member.role === 'admin' ? ' (owner)' : ''}`,
    ),
  })
}

function localPath(value: string | null, fallback: string): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : fallback
}

/** A failed action in words: GitHub's "Validation Failed" with what failed (a tag that has a release already). */
function problemText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const details = error instanceof GithubError ? (error.errors ?? []) : []
  const said = details.map((entry) =>
    typeof entry.message === 'string'
      ? entry.message
      : entry.code === 'already_exists'
        ? `a ${String(entry.resource).toLowerCase()} with this ${String(entry.field).replace('_', ' ')} exists already`
        : `${String(entry.field).replace('_', ' ')} is ${String(entry.code).replace('_', ' ')}`,
  )
  return said.length ? `${error.message}: ${said.join('; ')}.` : error.message
}

function backTo(path: string, flash: string): Reply {
  const target = new URL(path, 'http://emulator.invalid')
  target.searchParams.set('flash', flash)
  return { status: 303, headers: { location: target.pathname + target.search } }
}

async function emulatorRoutes(ctx: Ctx, req: Request): Promise<Reply> {
  const path = req.url.pathname.replace(/\/+$/, '') || '/'
  const { method } = req
  const helpers = ctx.helpers
  const avatar = /^\/_emulator\/avatars\/(\d+)\.svg$/.exec(path)
  if (avatar && method === 'GET') {
    const account = ctx.store.account(Number(avatar[1]))
    if (!account) throw notFound()
    return {
      status: 200,
      headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
      text: avatarSvg(account.login, account.id),
    }
  }
  if (path === '/_emulator' && method === 'GET') {
    return {
      status: 200,
      html: indexPage({
        appName: ctx.store.app.name,
        installUrl: `/apps/${ctx.store.app.slug}/installations/new`,
        users: userLogins(ctx),
        organizations: ctx.store.state.accounts.filter((account) => account.type === 'Organization').map((account) => account.login),
        repositories: ctx.store.state.repos.map((repo) => fullName(ctx, repo)),
        installations: ctx.store.state.installations.map((installation) => ({
          id: installation.id,
          account: ctx.store.account(installation.accountId)?.login ?? '?',
          selection: installation.repositorySelection,
          repositories: ctx.world.installationRepos(installation).map((repo) => repo.name),
        })),
        deliveries: ctx.webhooks.deliveries
          .slice(-20)
          .reverse()
          .map((delivery) => ({
            guid: delivery.guid,
            event: delivery.event,
            action: delivery.action,
            status: delivery.status === undefined ? 'pending' : delivery.status === null ? 'no webhook URL' : String(delivery.status),
          })),
        flash: req.url.searchParams.get('flash') ?? undefined,
      }),
    }
  }
  const user = /^\/_emulator\/users\/([^/]+)$/.exec(path)
  if (user && method === 'GET') {
    const account = ctx.store.accountByLogin(decodeURIComponent(user[1]))
    if (!account)
      return {
        status: 404,
        html: messagePage('No such account', `Nobody is called ${decodeURIComponent(user[1])}.`, [
          { href: '/_emulator', text: 'Emulator home' },
        ]),
      }
    return { status: 200, html: renderAccount(ctx, account, req.url.searchParams.get('flash') ?? undefined) }
  }
  const act = /^\/_emulator\/act\/([a-z-]+)$/.exec(path)
  if (act && method === 'POST') {
    const form = await req.form()
    const returnTo = localPath(form.get('return_to'), '/_emulator')
    try {
      switch (act[1]) {
        case 'accept': {
          helpers.acceptInvitation({ invitationId: Number(form.get('invitation_id')) })
          return backTo(returnTo, 'Invitation accepted: you are now a collaborator.')
        }
        case 'decline':
          helpers.declineInvitation({ invitationId: Number(form.get('invitation_id')) })
          return backTo(returnTo, 'Invitation declined.')
        case 'fork': {
          const fork = helpers.fork({ repository: form.get('repository') ?? '', login: form.get('login') ?? '' })
          return backTo(returnTo, `Forked to ${fork.fullName}.`)
        }
        case 'user': {
          const login = (form.get('login') ?? '').trim()
          try {
            ctx.world.userNamed(login)
          } catch (error) {
            return { status: 400, html: messagePage('Invalid login', loginProblem(error, login), [{ href: '/_emulator', text: 'Back' }]) }
          }
          return { status: 303, headers: { location: `/_emulator/users/${encodeURIComponent(ctx.store.accountByLogin(login)!.login)}` } }
        }
        case 'uninstall':
          helpers.uninstall({ installationId: Number(form.get('installation_id')) })
          return backTo(returnTo, 'Uninstalled.')
        case 'check-run': {
          const result = form.get('result') ?? ''
          const running = result === 'in_progress' || result === 'queued'
          const run = helpers.setCheckRun({
            repository: form.get('repository') ?? '',
            sha: form.get('sha') ?? '',
            name: form.get('name') ?? '',
            ...(running ? { status: result } : { conclusion: result as CheckConclusion }),
          })
          return backTo(returnTo, `Check run ${form.get('name')} added (${run.conclusion ?? run.status}).`)
        }
        case 'complete-check-run': {
          const run = helpers.completeCheckRun({
            id: Number(form.get('id')),
            conclusion: (form.get('conclusion') ?? '') as CheckConclusion,
          })
          return backTo(returnTo, `Check run finished: ${run.conclusion}.`)
        }
        case 'status': {
          const status = helpers.setCommitStatus({
            repository: form.get('repository') ?? '',
            sha: form.get('sha') ?? '',
            state: form.get('state') ?? '',
            context: form.get('context') ?? undefined,
            description: form.get('description') || undefined,
            login: form.get('login') ?? '',
          })
          return backTo(returnTo, `Status ${status.context} set to ${status.state}.`)
        }
        case 'release': {
          const kind = form.get('kind') ?? 'release'
          const release = helpers.publishRelease({
            repository: form.get('repository') ?? '',
            tag: form.get('tag') ?? '',
            name: form.get('name') || undefined,
            body: form.get('body') || undefined,
            login: form.get('login') ?? '',
            draft: kind === 'draft',
            prerelease: kind === 'prerelease',
          })
          return backTo(returnTo, `Release ${release.tag} ${release.draft ? 'saved as a draft' : 'published'}.`)
        }
        case 'delete-release': {
          helpers.deleteRelease({ repository: form.get('repository') ?? '', id: Number(form.get('id')), login: form.get('login') ?? '' })
          return backTo(returnTo, 'Release deleted.')
        }
        case 'push': {
          const { sha } = helpers.pushCommit({ repository: form.get('repository') ?? '' })
          return backTo(returnTo, `Pushed ${sha}.`)
        }
      }
    } catch (error) {
      const message = problemText(error)
      return {
        status: error instanceof GithubError ? error.status : 400,
        html: messagePage('That did not work', message, [{ href: returnTo, text: 'Back' }]),
      }
    }
  }
  const api = /^\/_emulator\/api\/([A-Za-z]+)$/.exec(path)
  if (api) return controlApi(ctx, req, api[1], helpers)
  throw notFound()
}

const CONTROL_POST = new Set([
  'createUser',
  'createOrganization',
  'createRepository',
  'pushCommit',
  'setCheckRun',
  'completeCheckRun',
  'setCommitStatus',
  'commitChecks',
  'publishRelease',
  'deleteRelease',
  'releases',
  'renameAccount',
  'install',
  'uninstall',
  'addRepoToInstallation',
  'removeRepoFromInstallation',
  'acceptInvitation',
  'declineInvitation',
  'fork',
  'authorize',
  'createUserToken',
  'failNext',
  'advanceClock',
  'repository',
  'account',
  'redeliver',
  'seed',
])

async function controlApi(ctx: Ctx, req: Request, name: string, helpers: Helpers): Promise<Reply> {
  try {
    if (req.method === 'GET' && name === 'snapshot') return json(200, helpers.snapshot())
    if (req.method === 'GET' && name === 'deliveries') return json(200, ctx.webhooks.deliveries)
    if (req.method === 'POST' && name === 'setWebhookUrl') {
      const body = await req.body()
      ctx.webhooks.setUrl(typeof body.url === 'string' ? body.url : undefined)
      return { status: 204 }
    }
    if (req.method !== 'POST' || !CONTROL_POST.has(name)) throw notFound()
    const body = await req.body()
    const helper = helpers[name as keyof Helpers] as (input: unknown) => unknown
    const result = await helper(body)
    return result === undefined ? { status: 204 } : json(200, result)
  } catch (error) {
    if (error instanceof GithubError) return json(error.status, githubErrorBody(error.status, error.message, error.errors))
    return json(400, githubErrorBody(400, error instanceof Error ? error.message : String(error)))
  }
}
