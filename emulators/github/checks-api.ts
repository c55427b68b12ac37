/**
 * The Checks and Statuses operations (issue 30; operations.ts): reading a commit's check runs
 * (checks: read) and combined status (statuses: read), creating a check run (an App's installation
 * token with checks: write) and a commit status (statuses: write, or a user with push access).
 */
import { findRepo, paginate, requirePermission, route, type RepoPermission } from './api.ts'
import { json, type Ctx, type Request } from './http.ts'
import type { CheckConclusion, CheckRunStatus } from './store.ts'
import { GithubError, notFound } from './world.ts'

const READ_CHECKS: RepoPermission = { app: 'checks', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }
const WRITE_CHECKS: RepoPermission = { app: 'checks', level: 'write', role: 'push', message: 'Resource not accessible by integration' }
const READ_STATUSES: RepoPermission = { app: 'statuses', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }
const WRITE_STATUSES: RepoPermission = { app: 'statuses', level: 'write', role: 'push', message: 'Resource not accessible by integration' }

/** A ref as `…/commits/{ref}/…` takes it: a branch, a full SHA or a SHA prefix; GitHub's 422 otherwise. */
function commitOf(ctx: Ctx, req: Request) {
  const repo = findRepo(ctx, req)
  const commit = ctx.world.resolveRef(repo, req.params.ref)
  if (!commit) throw new GithubError(422, `No commit found for SHA: ${req.params.ref}`)
  return { repo, sha: commit.sha }
}

/** Private repositories need the permission; public ones are readable by anyone, as on GitHub. */
function requireRead(ctx: Ctx, req: Request, repo: ReturnType<typeof findRepo>, needed: RepoPermission): void {
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

route('checks/create', 'any', async (ctx, req) => {
  const repo = findRepo(ctx, req)
  if (req.credential.kind === 'none') throw new GithubError(401, 'Requires authentication')
  // Only Apps create check runs: a user's token is refused as GitHub refuses OAuth tokens.
  if (req.credential.kind !== 'installation') throw new GithubError(403, 'You must authenticate via a GitHub App.')
  requirePermission(ctx, req, repo, WRITE_CHECKS)
  const body = await req.body()
  const run = ctx.checks.createCheckRun(repo, ctx.store.app, {
    name: typeof body.name === 'string' ? body.name : '',
    headSha: typeof body.head_sha === 'string' ? body.head_sha : '',
    status: typeof body.status === 'string' ? (body.status as CheckRunStatus) : undefined,
    conclusion: typeof body.conclusion === 'string' ? (body.conclusion as CheckConclusion) : undefined,
    detailsUrl: typeof body.details_url === 'string' ? body.details_url : undefined,
    externalId: typeof body.external_id === 'string' ? body.external_id : undefined,
    title:
      typeof (body.output as Record<string, unknown> | undefined)?.title === 'string'
        ? String((body.output as Record<string, unknown>).title)
        : undefined,
    summary:
      typeof (body.output as Record<string, unknown> | undefined)?.summary === 'string'
        ? String((body.output as Record<string, unknown>).summary)
        : undefined,
  })
  return json(201, ctx.shapes.checkRun(run, ctx.store.app))
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

route('repos/create-commit-status', 'any', async (ctx, req) => {
  const repo = findRepo(ctx, req)
  requirePermission(ctx, req, repo, WRITE_STATUSES)
  const creator =
    req.credential.kind === 'user' ? req.credential.user : req.credential.kind === 'installation' ? ctx.world.bot() : undefined
  if (!creator) throw notFound()
  const body = await req.body()
  const status = ctx.checks.createStatus(repo, creator, {
    sha: req.params.sha,
    state: typeof body.state === 'string' ? body.state : '',
    context: typeof body.context === 'string' ? body.context : undefined,
    description: typeof body.description === 'string' ? body.description : null,
    targetUrl: typeof body.target_url === 'string' ? body.target_url : null,
  })
  return json(201, ctx.shapes.commitStatus(status))
})
