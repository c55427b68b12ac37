/**
 * The Releases operations (issue 30; operations.ts, releases.ts): listing a repository's releases and
 * reading its latest (contents: read; public repositories are readable by anyone), creating and
 * deleting one (an App's installation token with contents: write, or a user with push access).
 */
import { findRepo, paginate, requirePermission, route, tokenCovers, type RepoPermission } from './api.ts'
import { json, type Ctx, type Request } from './http.ts'
import type { RepoRecord } from './store.ts'
import { GithubError, notFound, REPO_ROLES } from './world.ts'

const READ_CONTENTS: RepoPermission = { app: 'contents', level: 'read', role: 'pull', message: 'Resource not accessible by integration' }
const WRITE_CONTENTS: RepoPermission = { app: 'contents', level: 'write', role: 'push', message: 'Not Found' }

function requireRead(ctx: Ctx, req: Request, repo: RepoRecord): void {
  if (repo.private || req.credential.kind === 'installation') requirePermission(ctx, req, repo, READ_CONTENTS)
}

/** Whether the credential may write the repository's contents (and so sees its drafts). */
function canWrite(ctx: Ctx, req: Request, repo: RepoRecord): boolean {
  const credential = req.credential
  if (credential.kind === 'installation') return tokenCovers(ctx, credential, repo) && credential.token.permissions.contents === 'write'
  if (credential.kind === 'user') {
    const role = ctx.world.roleOf(credential.user, repo)
    return role !== null && REPO_ROLES.indexOf(role) >= REPO_ROLES.indexOf('push')
  }
  return false
}

/** A user without push access is told the repository is not there (GitHub hides what they may not change). */
function requireWrite(ctx: Ctx, req: Request, repo: RepoRecord) {
  if (req.credential.kind === 'none') throw new GithubError(401, 'Requires authentication')
  if (req.credential.kind === 'installation')
    requirePermission(ctx, req, repo, { ...WRITE_CONTENTS, message: 'Resource not accessible by integration' })
  else if (!canWrite(ctx, req, repo)) throw notFound()
  return req.credential.kind === 'user' ? req.credential.user : ctx.world.bot()
}

route('repos/list-releases', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requireRead(ctx, req, repo)
  const page = paginate(req, ctx, ctx.releases.list(repo, canWrite(ctx, req, repo)))
  return json(
    200,
    page.items.map((release) => ctx.shapes.release(release)),
    page.headers,
  )
})

route('repos/get-latest-release', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  requireRead(ctx, req, repo)
  const latest = ctx.releases.latest(repo)
  if (!latest) throw notFound()
  return json(200, ctx.shapes.release(latest))
})

route('repos/create-release', 'any', async (ctx, req) => {
  const repo = findRepo(ctx, req)
  const author = requireWrite(ctx, req, repo)
  const body = await req.body()
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  if (typeof body.tag_name !== 'string') throw new GithubError(422, 'Invalid request.\n\n"tag_name" wasn\'t supplied.')
  const release = ctx.releases.create(repo, author, {
    tagName: body.tag_name,
    targetCommitish: text(body.target_commitish),
    name: text(body.name),
    body: text(body.body),
    draft: body.draft === true,
    prerelease: body.prerelease === true,
  })
  return json(201, ctx.shapes.release(release), { location: ctx.shapes.release(release).url })
})

route('repos/delete-release', 'any', (ctx, req) => {
  const repo = findRepo(ctx, req)
  const sender = requireWrite(ctx, req, repo)
  const release = ctx.releases.byId(repo, Number(req.params.release_id))
  if (!release) throw notFound()
  ctx.releases.delete(release, sender)
  return { status: 204 }
})
