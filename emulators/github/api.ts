/**
 * The GitHub REST operations the emulator implements (listed in operations.ts), with GitHub's
 * authentication, visibility and permission rules. See server.ts for the summary.
 */
import {
  API_VERSION,
  compile,
  errorReply,
  json,
  matchTemplate,
  rateLimitHeaders,
  Redirect,
  type ApiHandler,
  type ApiRoute,
  type Credential,
  type Ctx,
  type Reply,
  type Request,
} from './http.ts'
import { OPERATIONS, type OperationId } from './operations.ts'
import type { AccountRecord, InstallationRecord, PermissionLevel, RepoRecord, RepoRole } from './store.ts'
import { GithubError, isoSeconds, notFound, REPO_ROLES } from './world.ts'

const API_ROUTES: ApiRoute[] = []

function route(operationId: OperationId, auth: ApiRoute['auth'], handler: ApiHandler): void {
  const operation = OPERATIONS.find((entry) => entry.operationId === operationId)!
  API_ROUTES.push({ operationId, method: operation.method, ...compile(operation.path), auth, handler })
  // A literal segment wins over a parameter: /user/installations is not /user/{account_id}.
  API_ROUTES.sort((a, b) => a.names.length - b.names.length)
}

export function findApiRoute(method: string, path: string): { route: ApiRoute; params: Record<string, string> } | undefined {
  for (const candidate of API_ROUTES) {
    if (candidate.method !== method) continue
    const params = matchTemplate(candidate, path)
    if (params) return { route: candidate, params }
  }
  return undefined
}

export async function runApi(ctx: Ctx, apiRoute: ApiRoute, req: Request): Promise<Reply> {
  const credential = req.credential
  let limits: Record<string, string> = {}
  try {
    limits = rateLimitHeaders(ctx, credential, req.raw)
    if (apiRoute.auth === 'app') {
      if (credential.kind !== 'app') {
        throw new GithubError(401, credential.kind === 'invalid' ? credential.message : 'A JSON web token could not be decoded')
      }
    } else if (credential.kind === 'invalid') {
      throw new GithubError(401, credential.message === 'A JSON web token could not be decoded' ? 'Bad credentials' : credential.message)
    } else if (apiRoute.auth === 'installation') {
      if (credential.kind === 'none') throw new GithubError(401, 'Requires authentication')
      if (credential.kind !== 'installation') {
        throw new GithubError(
          403,
          'You must authenticate with an installation access token in order to list repositories for an installation.',
        )
      }
    } else if (apiRoute.auth === 'user') {
      if (credential.kind === 'none') throw new GithubError(401, 'Requires authentication')
      if (credential.kind !== 'user') throw new GithubError(403, 'Resource not accessible by integration')
    }
    const reply = await apiRoute.handler(ctx, req)
    return {
      ...reply,
      headers: {
        'x-github-api-version-selected': API_VERSION,
        'x-github-media-type': 'github.v3; format=json',
        ...limits,
        ...reply.headers,
      },
    }
  } catch (error) {
    const reply = errorReply(error, apiRoute.operationId)
    const extra = (error as { headers?: Record<string, string> }).headers
    return { ...reply, headers: { 'x-github-api-version-selected': API_VERSION, ...limits, ...extra, ...reply.headers } }
  }
}

/** The viewer behind a credential (the App's bot for installation tokens). */
function actor(ctx: Ctx, credential: Credential): AccountRecord | undefined {
  if (credential.kind === 'user') return credential.user
  if (credential.kind === 'installation') return ctx.world.bot()
  return undefined
}

function tokenCovers(ctx: Ctx, credential: Credential & { kind: 'installation' }, repo: RepoRecord): boolean {
  return (
    ctx.world.installationCovering(repo)?.id === credential.installation.id &&
    (credential.token.repoIds === null || credential.token.repoIds.includes(repo.id))
  )
}

/** Resolves `{owner}/{repo}` for this credential: 404 when it may not see it, 301 after an owner rename. */
function findRepo(ctx: Ctx, req: Request): RepoRecord {
  const ownerLogin = req.params.owner
  const name = req.params.repo
  const owner = ctx.store.accountByLogin(ownerLogin)
  if (!owner) {
    const renamed = ctx.store.accountByPreviousLogin(ownerLogin)
    if (renamed && ctx.store.repoByName(renamed.id, name)) {
      const rest = req.url.pathname.split('/').slice(4).join('/')
      throw new Redirect(`${ctx.url}/repos/${renamed.login}/${name}${rest ? `/${rest}` : ''}${req.url.search}`)
    }
    throw notFound()
  }
  const repo = ctx.store.repoByName(owner.id, name)
  if (!repo) throw notFound()
  if (!repo.private) return repo
  const credential = req.credential
  if (credential.kind === 'installation' && tokenCovers(ctx, credential, repo)) return repo
  if (credential.kind === 'user' && ctx.world.canRead(credential.user, repo)) return repo
  throw notFound()
}

type RepoPermission = { app: string; level: PermissionLevel; role: RepoRole; message: string }
const ADMINISTER: RepoPermission = {
  app: 'administration',
  level: 'write',
  role: 'admin',
  message: 'Must have admin rights to Repository.',
}
const READ_ADMIN: RepoPermission = {
  app: 'administration',
  level: 'read',
  role: 'admin',
  message: 'Must have admin rights to Repository.',
}
const SEE_COLLABORATORS: RepoPermission = {
  app: 'metadata',
  level: 'read',
  role: 'push',
  message: 'Must have push access to view repository collaborators.',
}

function requirePermission(ctx: Ctx, req: Request, repo: RepoRecord, needed: RepoPermission): void {
  const credential = req.credential
  if (credential.kind === 'installation') {
    const granted = credential.token.permissions[needed.app]
    const enough = granted === 'write' || (granted === 'read' && needed.level === 'read')
    if (!tokenCovers(ctx, credential, repo) || !enough) throw new GithubError(403, 'Resource not accessible by integration')
    return
  }
  if (credential.kind === 'user') {
    const role = ctx.world.roleOf(credential.user, repo)
    if (role === null || REPO_ROLES.indexOf(role) < REPO_ROLES.indexOf(needed.role)) throw new GithubError(403, needed.message)
    return
  }
  throw new GithubError(401, 'Requires authentication')
}

function paginate<T>(req: Request, ctx: Ctx, items: T[]): { items: T[]; headers: Record<string, string> } {
  const perPage = clampInt(req.url.searchParams.get('per_page'), 30, 1, 100)
  const pageNumber = clampInt(req.url.searchParams.get('page'), 1, 1, 100_000)
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const link = (n: number, rel: string) => {
    const target = new URL(req.url.pathname + req.url.search, ctx.url)
    target.searchParams.set('per_page', String(perPage))
    target.searchParams.set('page', String(n))
    return `<${target.href}>; rel="${rel}"`
  }
  const links: string[] = []
  if (pageNumber > 1) links.push(link(pageNumber - 1, 'prev'), link(1, 'first'))
  if (pageNumber < last) links.push(link(pageNumber + 1, 'next'), link(last, 'last'))
  return {
    items: items.slice((pageNumber - 1) * perPage, pageNumber * perPage),
    headers: links.length ? { link: links.join(', ') } : {},
  }
}

function clampInt(raw: string | null, fallback: number, min: number, max: number): number {
  const value = raw === null ? fallback : Number.parseInt(raw, 10)
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback
}

function idParam(value: string): number {
  const id = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id)) throw notFound()
  return id
}

function installationParam(ctx: Ctx, req: Request): InstallationRecord {
  const installation = ctx.store.installation(idParam(req.params.installation_id))
  if (!installation) throw notFound()
  return installation
}

route('apps/get-authenticated', 'app', (ctx) => json(200, ctx.shapes.app(ctx.store.app)))

route('apps/get-installation', 'app', (ctx, req) => json(200, ctx.shapes.installation(installationParam(ctx, req))))

route('apps/create-installation-access-token', 'app', async (ctx, req) => {
  const installation = installationParam(ctx, req)
  const body = await req.body()
  const visible = ctx.world.installationRepos(installation)
  let repoIds: number[] | null = null
  const inaccessible = () =>
    new GithubError(422, 'There is at least one repository that does not exist or is not accessible to the parent installation.')
  if (body.repositories !== undefined || body.repository_ids !== undefined) {
    const names = Array.isArray(body.repositories) ? body.repositories.map(String) : []
    const ids = Array.isArray(body.repository_ids) ? body.repository_ids.map(Number) : []
    repoIds = []
    for (const name of names) {
      const repo = visible.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase())
      if (!repo) throw inaccessible()
      repoIds.push(repo.id)
    }
    for (const id of ids) {
      if (!visible.some((candidate) => candidate.id === id)) throw inaccessible()
      repoIds.push(id)
    }
  }
  let permissions: Record<string, PermissionLevel> | null = null
  if (body.permissions !== undefined) {
    if (typeof body.permissions !== 'object' || body.permissions === null) throw new GithubError(422, 'permissions must be an object')
    permissions = body.permissions as Record<string, PermissionLevel>
  }
  const token = ctx.world.issueInstallationToken(installation, { repoIds, permissions })
  return json(201, {
    token: token.token,
    expires_at: isoSeconds(token.expiresAtMs),
    permissions: token.permissions,
    repository_selection: repoIds ? 'selected' : installation.repositorySelection,
    ...(repoIds ? { repositories: repoIds.map((id) => ctx.shapes.repository(ctx.store.repo(id)!)) } : {}),
  })
})

route('apps/list-repos-accessible-to-installation', 'installation', (ctx, req) => {
  const credential = req.credential as Credential & { kind: 'installation' }
  const repos = ctx.world
    .installationRepos(credential.installation)
    .filter((repo) => credential.token.repoIds === null || credential.token.repoIds.includes(repo.id))
  const page = paginate(req, ctx, repos)
  return json(
    200,
    {
      total_count: repos.length,
      repository_selection: credential.token.repoIds ? 'selected' : credential.installation.repositorySelection,
      repositories: page.items.map((repo) => ctx.shapes.repository(repo)),
    },
    page.headers,
  )
})

route('apps/list-installations-for-authenticated-user', 'user', (ctx, req) => {
  const user = (req.credential as Credential & { kind: 'user' }).user
  const accounts = new Set(ctx.world.installTargets(user).map((account) => account.id))
  const installations = ctx.store.state.installations.filter((installation) => accounts.has(installation.accountId))
  const page = paginate(req, ctx, installations)
  return json(
    200,
    { total_count: installations.length, installations: page.items.map((entry) => ctx.shapes.installation(entry)) },
    page.headers,
  )
})

route('repos/get', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  return json(200, ctx.shapes.fullRepository(repo, req.credential.kind === 'user' ? req.credential.user : undefined))
})

route('repos/get-branch', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  const sha = repo.branches[req.params.branch]
  const commit = sha && repo.commits.find((entry) => entry.sha === sha)
  if (!commit) throw new GithubError(404, 'Branch not found')
  return json(200, ctx.shapes.branch(repo, req.params.branch, commit))
})

route('repos/add-collaborator', 'any', async (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, ADMINISTER)
  const invitee = ctx.store.accountByLogin(req.params.username)
  if (!invitee) throw notFound()
  const body = await req.body()
  const permission = body.permission === undefined ? undefined : String(body.permission)
  const result = ctx.world.invite(repo, invitee, permission, actor(ctx, req.credential)?.id ?? null)
  return result.status === 204 ? { status: 204 } : json(201, ctx.shapes.invitation(result.invitation))
})

route('repos/check-collaborator', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, SEE_COLLABORATORS)
  const user = ctx.store.accountByLogin(req.params.username)
  return { status: user && ctx.world.roleOf(user, repo) !== null ? 204 : 404 }
})

route('repos/remove-collaborator', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, ADMINISTER)
  const user = ctx.store.accountByLogin(req.params.username)
  if (!user) throw notFound()
  ctx.world.removeCollaborator(repo, user)
  return { status: 204 }
})

route('repos/list-invitations', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, READ_ADMIN)
  const page = paginate(req, ctx, ctx.store.invitationsOf(repo.id))
  return json(
    200,
    page.items.map((invitation) => ctx.shapes.invitation(invitation)),
    page.headers,
  )
})

route('repos/delete-invitation', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, ADMINISTER)
  const invitation = ctx.store.invitation(idParam(req.params.invitation_id))
  if (!invitation || invitation.repoId !== repo.id) throw notFound()
  ctx.world.deleteInvitation(invitation)
  return { status: 204 }
})

route('users/get-authenticated', 'user', (ctx, req) =>
  json(200, ctx.shapes.privateUser((req.credential as Credential & { kind: 'user' }).user)),
)

route('users/get-by-id', 'any', (ctx, req) => {
  const account = ctx.store.account(idParam(req.params.account_id))
  if (!account) throw notFound()
  return json(200, ctx.shapes.publicUser(account))
})

// Checks, statuses and releases (issue 30): the app reads them; a CI or a person writes them on the pages or
// with the helpers (checks.ts, releases.ts).

const READ_CHECKS: RepoPermission = { app: 'checks', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }
const READ_STATUSES: RepoPermission = { app: 'statuses', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }
const READ_CONTENTS: RepoPermission = { app: 'contents', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }

/** A ref as `…/commits/{ref}/…` takes it: a branch, a full SHA or a SHA prefix; GitHub's 422 otherwise. */
function commitOf(ctx: Ctx, req: Request) {
  const repo = findRepo(ctx, req)
  const commit = ctx.world.resolveRef(repo, req.params.ref)
  if (!commit) throw new GithubError(422, `No commit found for SHA: ${req.params.ref}`)
  return { repo, sha: commit.sha }
}

/** Private repositories need the permission; public ones are readable by anyone, as on GitHub. */
function requireRead(ctx: Ctx, req: Request, repo: RepoRecord, needed: RepoPermission): void {
  if (repo.private || req.credential.kind === 'installation') requirePermission(ctx, req, repo, needed)
}

route('checks/list-for-ref', 'any', (ctx, req) => {
  const { repo, sha } = commitOf(ctx, req)
  requireRead(ctx, req, repo, READ_CHECKS)
  const params = req.url.searchParams
  const filter = params.get('filter') === 'all' ? 'all' : 'latest'
  const runs = ctx.checks
    .runsFor(repo, sha, filter)
    .filter((run) => !params.has('check_name') || run.name === params.get('check_name'))
    .filter((run) => !params.has('status') || run.status === params.get('status'))
    .filter((run) => !params.has('app_id') || ctx.checks.suite(run.suiteId).appId === Number(params.get('app_id')))
  const page = paginate(req, ctx, runs)
  return json(
    200,
    {
      total_count: runs.length,
      check_runs: page.items.map((run) => ctx.shapes.checkRun(run, ctx.checks.appById(ctx.checks.suite(run.suiteId).appId))),
    },
    page.headers,
  )
})

route('repos/get-combined-status-for-ref', 'any', (ctx, req) => {
  const { repo, sha } = commitOf(ctx, req)
  requireRead(ctx, req, repo, READ_STATUSES)
  const latest = ctx.checks.statusesFor(repo, sha)
  const page = paginate(req, ctx, latest)
  return json(
    200,
    { ...ctx.shapes.combinedStatus(repo, sha, ctx.checks.combinedState(latest), page.items), total_count: latest.length },
    page.headers,
  )
})

route('repos/get-latest-release', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requireRead(ctx, req, repo, READ_CONTENTS)
  const latest = ctx.releases.latest(repo)
  if (!latest) throw notFound()
  return json(200, ctx.shapes.release(latest))
})
