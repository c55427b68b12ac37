/**
 * The GitHub emulator's test helpers: the functions on the object startGithubEmulator returns,
 * also reachable over HTTP as POST /_emulator/api/<name> (web.ts).
 */
import { ACTIONS_APP, type CheckRunInput } from './checks.ts'
import { fullName, issueCode, type Ctx, type FailureSpec } from './http.ts'
import type { AccountRecord, CheckConclusion, InstallationRecord, ReleaseRecord, RepoRecord, RepoRole } from './store.ts'
import { assertLogin, GithubError, isoSeconds, roleName } from './world.ts'

export interface AccountInfo {
  id: number
  login: string
  type: 'User' | 'Organization' | 'Bot'
  previousLogins: string[]
}

export interface RepositoryInfo {
  id: number
  fullName: string
  owner: string
  ownerType: 'User' | 'Organization' | 'Bot'
  name: string
  private: boolean
  defaultBranch: string
  headSha: string
  htmlUrl: string
  parent: string | null
  collaborators: Array<{ id: number; login: string; permission: RepoRole }>
  invitations: Array<{
    id: number
    userId: number
    login: string
    permission: string
    createdAt: string
    expired: boolean
    htmlUrl: string
  }>
  forks: string[]
}

export interface InstallationInfo {
  id: number
  account: string
  accountType: 'User' | 'Organization' | 'Bot'
  repositorySelection: 'all' | 'selected'
  repositories: string[]
}

export type InvitationTarget = { invitationId: number } | { repository: string; login: string }

/**
 * State to have in place before the app starts (demo data): created when missing, left alone when
 * present, never announced by webhooks. Ids are optional; give them so the app's own seed can
 * reference the same installation, repositories and users.
 */
export interface SeedSpec {
  users?: Array<{ login: string; id?: number; name?: string; email?: string }>
  /** `owners` administer the organization (and may install the App there); `members` are plain members. */
  organizations?: Array<{ login: string; id?: number; name?: string; owners?: string[]; members?: string[] }>
  repositories?: Array<{
    owner: string
    name: string
    id?: number
    private?: boolean
    defaultBranch?: string
    description?: string
    /** Users who accepted an invitation (permission default pull). */
    collaborators?: Array<string | { login: string; permission?: RepoRole }>
    /** Pending invitations; `sentAt` (ISO) in the past makes them old or expired. */
    invitations?: Array<string | { login: string; permission?: RepoRole; sentAt?: string }>
    /** Users (collaborators) whose fork of this repository exists. */
    forks?: string[]
  }>
  installations?: Array<{ account: string; id?: number; repositories?: 'all' | string[] }>
}

/** A commit's checks as the emulator's pages show them (latest run per name, latest status per context). */
interface CommitChecksInfo {
  repository: string
  sha: string
  checkRuns: Array<{ id: number; name: string; app: string; status: string; conclusion: string | null }>
  statuses: Array<{ id: number; context: string; state: string; description: string | null; creator: string }>
  combinedState: string
}

/** A release as the helpers and pages show it (issue 30). */
interface ReleaseInfo {
  id: number
  tag: string
  name: string | null
  body: string | null
  sha: string
  draft: boolean
  prerelease: boolean
  author: string
  publishedAt: string | null
}

export type Helpers = ReturnType<typeof createHelpers>

export function createHelpers(ctx: Ctx) {
  const { store, world } = ctx
  const accountInfo = (account: AccountRecord): AccountInfo => ({
    id: account.id,
    login: account.login,
    type: account.type,
    previousLogins: [...account.previousLogins],
  })
  const requireAccount = (login: string | undefined, what = 'account'): AccountRecord => {
    const account = login ? store.accountByLogin(login) : undefined
    if (!account) throw new GithubError(404, `No ${what} called "${login ?? ''}"`)
    return account
  }
  const requireRepo = (fullNameOrName: string | undefined, owner?: AccountRecord): RepoRecord => {
    const [first, second] = (fullNameOrName ?? '').split('/')
    const repoOwner = second === undefined ? owner : store.accountByLogin(first)
    const repo = repoOwner && store.repoByName(repoOwner.id, second ?? first)
    if (!repo) throw new GithubError(404, `No repository "${fullNameOrName ?? ''}"`)
    return repo
  }
  const requirePush = (user: AccountRecord, repo: RepoRecord) => {
    const role = world.roleOf(user, repo)
    if (role === null || role === 'pull' || role === 'triage')
      throw new GithubError(403, `${user.login} has no push access to ${fullName(ctx, repo)}`)
  }
  const releaseInfo = (release: ReleaseRecord): ReleaseInfo => ({
    id: release.id,
    tag: release.tagName,
    name: release.name,
    body: release.body,
    sha: release.sha,
    draft: release.draft,
    prerelease: release.prerelease,
    author: store.account(release.authorId)?.login ?? '?',
    publishedAt: release.publishedAt,
  })
  const repoInfo = (repo: RepoRecord): RepositoryInfo => {
    const owner = store.account(repo.ownerId)!
    return {
      id: repo.id,
      fullName: fullName(ctx, repo),
      owner: owner.login,
      ownerType: owner.type,
      name: repo.name,
      private: repo.private,
      defaultBranch: repo.defaultBranch,
      headSha: repo.branches[repo.defaultBranch] ?? '',
      htmlUrl: `${ctx.url}/${fullName(ctx, repo)}`,
      parent: repo.parentId ? fullName(ctx, store.repo(repo.parentId)!) : null,
      collaborators: repo.collaborators.map((entry) => ({
        id: entry.userId,
        login: store.account(entry.userId)?.login ?? '?',
        permission: entry.role,
      })),
      invitations: store.invitationsOf(repo.id).map((invitation) => ({
        id: invitation.id,
        userId: invitation.inviteeId,
        login: store.account(invitation.inviteeId)?.login ?? '?',
        permission: invitation.permission,
        createdAt: isoSeconds(invitation.createdAtMs),
        expired: world.isExpired(invitation),
        htmlUrl: `${ctx.url}/${fullName(ctx, repo)}/invitations`,
      })),
      forks: store.forksOf(repo.id).map((fork) => fullName(ctx, fork)),
    }
  }
  const installationInfo = (installation: InstallationRecord): InstallationInfo => {
    const account = store.account(installation.accountId)!
    return {
      id: installation.id,
      account: account.login,
      accountType: account.type,
      repositorySelection: installation.repositorySelection,
      repositories: world.installationRepos(installation).map((repo) => fullName(ctx, repo)),
    }
  }
  const requireInstallation = (id: number): InstallationRecord => {
    const installation = store.installation(Number(id))
    if (!installation) throw new GithubError(404, `No installation ${id}`)
    return installation
  }
  const findInvitation = (input: InvitationTarget) => {
    if ('invitationId' in input) {
      const invitation = store.invitation(Number(input.invitationId))
      if (!invitation) throw new GithubError(404, `No pending invitation ${input.invitationId}`)
      return invitation
    }
    const repo = requireRepo(input.repository)
    const user = requireAccount(input.login, 'user')
    const invitation = store.invitationsOf(repo.id).find((entry) => entry.inviteeId === user.id)
    if (!invitation) throw new GithubError(404, `${user.login} has no pending invitation to ${fullName(ctx, repo)}`)
    return invitation
  }
  /** Who GitHub names as the sender of what happens to an account's installation: an organization's first owner. */
  const installationSenderFor = (account: AccountRecord): number =>
    account.type === 'Organization' ? (account.members.find((member) => member.role === 'admin')?.userId ?? account.id) : account.id
  const senderOf = (installation: InstallationRecord, login: string | undefined): number =>
    login ? requireAccount(login, 'user').id : installationSenderFor(store.account(installation.accountId)!)
  return {
    createUser(input: { login: string; id?: number; name?: string; email?: string }) {
      return accountInfo(world.createAccount({ ...input, type: 'User' }))
    },
    createOrganization(input: { login: string; owners?: string[]; members?: string[]; name?: string }) {
      const members = [
        ...(input.owners ?? []).map((login) => ({ userId: requireAccount(login, 'user').id, role: 'admin' as const })),
        ...(input.members ?? []).map((login) => ({ userId: requireAccount(login, 'user').id, role: 'member' as const })),
      ]
      return accountInfo(world.createAccount({ login: input.login, name: input.name, type: 'Organization', members }))
    },
    createRepository(input: { owner: string; name: string; private?: boolean; defaultBranch?: string; description?: string }) {
      return repoInfo(world.createRepository(requireAccount(input.owner), input))
    },
    pushCommit(input: { repository: string; branch?: string; message?: string }) {
      return { sha: world.pushCommit(requireRepo(input.repository), input) }
    },
    /** A check run by GitHub Actions (a CI the App does not control) on a commit; `conclusion` completes it. */
    setCheckRun(input: { repository: string } & Omit<CheckRunInput, 'headSha'> & { sha: string }) {
      const repo = requireRepo(input.repository)
      const run = ctx.checks.createCheckRun(repo, ACTIONS_APP, { ...input, headSha: ctx.checks.commitSha(repo, input.sha) })
      return { id: run.id, status: run.status, conclusion: run.conclusion }
    },
    /** Completes a queued or running check run. */
    completeCheckRun(input: { id: number; conclusion: CheckConclusion }) {
      const run = store.state.checkRuns.find((entry) => entry.id === Number(input.id))
      if (!run) throw new GithubError(404, `No check run ${input.id}`)
      if (run.status === 'completed') throw new GithubError(422, `Check run ${input.id} has completed already`)
      ctx.checks.completeCheckRun(run, input.conclusion)
      return { id: run.id, status: run.status, conclusion: run.conclusion }
    },
    /** A commit status set by `login` (who needs push access, as on GitHub). */
    setCommitStatus(input: { repository: string; sha: string; state: string; context?: string; description?: string; login: string }) {
      const repo = requireRepo(input.repository)
      const creator = requireAccount(input.login, 'user')
      requirePush(creator, repo)
      const status = ctx.checks.createStatus(repo, creator, input)
      return { id: status.id, state: status.state, context: status.context }
    },
    commitChecks(input: { repository: string; sha: string }): CommitChecksInfo {
      const repo = requireRepo(input.repository)
      const sha = ctx.checks.commitSha(repo, input.sha)
      const statuses = ctx.checks.statusesFor(repo, sha)
      return {
        repository: fullName(ctx, repo),
        sha,
        checkRuns: ctx.checks.runsFor(repo, sha).map((run) => ({
          id: run.id,
          name: run.name,
          app: ctx.checks.appById(ctx.checks.suite(run.suiteId).appId).name,
          status: run.status,
          conclusion: run.conclusion,
        })),
        statuses: statuses.map((status) => ({
          id: status.id,
          context: status.context,
          state: status.state,
          description: status.description,
          creator: store.account(status.creatorId)?.login ?? '?',
        })),
        combinedState: ctx.checks.combinedState(statuses),
      }
    },
    /** A release published (or saved as a draft) by `login`, who needs push access, as on GitHub's "Draft a new release" page. */
    publishRelease(input: {
      repository: string
      tag: string
      name?: string
      body?: string
      login: string
      target?: string
      draft?: boolean
      prerelease?: boolean
    }): ReleaseInfo {
      const repo = requireRepo(input.repository)
      const author = requireAccount(input.login, 'user')
      requirePush(author, repo)
      const release = ctx.releases.create(repo, author, {
        tagName: input.tag ?? '',
        targetCommitish: input.target,
        name: input.name,
        body: input.body,
        draft: input.draft,
        prerelease: input.prerelease,
      })
      return releaseInfo(release)
    },
    deleteRelease(input: { repository: string; id: number; login: string }) {
      const repo = requireRepo(input.repository)
      const sender = requireAccount(input.login, 'user')
      requirePush(sender, repo)
      const release = ctx.releases.byId(repo, Number(input.id))
      if (!release) throw new GithubError(404, `No release ${input.id} in ${fullName(ctx, repo)}`)
      ctx.releases.delete(release, sender)
      return { id: release.id }
    },
    /** The repository's releases, newest first (drafts too). */
    releases(input: { repository: string }): ReleaseInfo[] {
      return ctx.releases.list(requireRepo(input.repository), true).map(releaseInfo)
    },
    renameAccount(input: { login: string; newLogin: string }) {
      const account = requireAccount(input.login)
      world.rename(account, input.newLogin)
      return accountInfo(account)
    },
    install(input: { account: string; repositories?: 'all' | string[]; sender?: string }) {
      const account = requireAccount(input.account)
      const sender = input.sender ? requireAccount(input.sender, 'user') : undefined
      const all = input.repositories === undefined || input.repositories === 'all'
      const repoIds = all ? [] : (input.repositories as string[]).map((name) => requireRepo(name, account).id)
      const senderId = sender?.id ?? installationSenderFor(account)
      return installationInfo(world.install(account, { selection: all ? 'all' : 'selected', repoIds, senderId }).installation)
    },
    uninstall(input: { installationId: number; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      world.uninstall(installation, senderOf(installation, input.sender))
    },
    addRepoToInstallation(input: { installationId: number; repository: string; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      const repo = requireRepo(input.repository, store.account(installation.accountId))
      world.addRepoToInstallation(installation, repo, senderOf(installation, input.sender))
      return installationInfo(installation)
    },
    removeRepoFromInstallation(input: { installationId: number; repository: string; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      const repo = requireRepo(input.repository, store.account(installation.accountId))
      world.removeRepoFromInstallation(installation, repo, senderOf(installation, input.sender))
      return installationInfo(installation)
    },
    acceptInvitation(input: InvitationTarget) {
      const invitation = findInvitation(input)
      world.acceptInvitation(invitation)
      return { invitationId: invitation.id }
    },
    declineInvitation(input: InvitationTarget) {
      const invitation = findInvitation(input)
      world.declineInvitation(invitation)
      return { invitationId: invitation.id }
    },
    fork(input: { repository: string; login: string; organization?: string; name?: string }) {
      const repo = requireRepo(input.repository)
      const user = requireAccount(input.login, 'user')
      if (!world.canRead(user, repo)) throw new GithubError(404, `${user.login} cannot see ${fullName(ctx, repo)}`)
      const organization = input.organization ? requireAccount(input.organization, 'organization') : undefined
      return repoInfo(world.fork(repo, user, { organization, name: input.name }))
    },
    authorize(input: { login: string; redirectUri?: string; codeChallenge?: string }) {
      assertLogin(input.login)
      return { code: issueCode(ctx, world.userNamed(input.login), input.redirectUri ?? null, input.codeChallenge) }
    },
    createUserToken(input: { login: string }) {
      const token = world.issueUserToken(requireAccount(input.login, 'user'))
      return { token: token.token, refreshToken: token.refreshToken, expiresAt: isoSeconds(token.expiresAtMs) }
    },
    failNext(spec: FailureSpec) {
      ctx.failures.push({ ...spec, remaining: Math.max(1, Math.floor(spec.times ?? 1)) })
    },
    advanceClock(input: { ms: number }) {
      if (!Number.isFinite(input.ms) || input.ms < 0) throw new GithubError(400, 'ms must be a number of milliseconds ≥ 0')
      ctx.advanceClock(input.ms)
      return { now: new Date(ctx.now()).toISOString() }
    },
    repository(input: { repository: string }) {
      return repoInfo(requireRepo(input.repository))
    },
    account(input: { login?: string; id?: number }) {
      const account = input.id !== undefined ? store.account(Number(input.id)) : input.login ? store.accountByLogin(input.login) : undefined
      return account ? accountInfo(account) : null
    },
    /** Idempotent: what exists is kept (an organization gains missing owners and members, an
     * installation missing repositories); see SeedSpec. */
    seed(spec: SeedSpec) {
      return world.silently(() => {
        for (const user of spec.users ?? []) {
          const byId = user.id !== undefined ? store.account(user.id) : undefined
          const byLogin = store.accountByLogin(user.login)
          if (byId && byLogin && byId !== byLogin) throw new GithubError(422, `seed: id ${user.id} is not ${user.login}`)
          if (!byId && !byLogin) world.createAccount({ ...user, type: 'User' })
        }
        for (const org of spec.organizations ?? []) {
          const account =
            store.accountByLogin(org.login) ?? world.createAccount({ login: org.login, id: org.id, name: org.name, type: 'Organization' })
          if (account.type !== 'Organization') throw new GithubError(422, `seed: ${org.login} is not an organization`)
          for (const login of org.owners ?? []) world.addMember(account, world.userNamed(login), 'admin')
          for (const login of org.members ?? []) {
            const user = world.userNamed(login)
            if (!account.members.some((member) => member.userId === user.id)) world.addMember(account, user, 'member')
          }
        }
        for (const entry of spec.repositories ?? []) {
          const owner = requireAccount(entry.owner)
          const repo = store.repoByName(owner.id, entry.name) ?? world.createRepository(owner, entry)
          for (const item of entry.collaborators ?? []) {
            const { login, permission = 'pull' } = typeof item === 'string' ? { login: item } : item
            const user = world.userNamed(login)
            if (!repo.collaborators.some((collaborator) => collaborator.userId === user.id)) world.addCollaborator(repo, user, permission)
          }
          for (const item of entry.invitations ?? []) {
            const { login, permission = 'pull', sentAt } = typeof item === 'string' ? { login: item } : item
            const user = world.userNamed(login)
            const known =
              repo.collaborators.some((c) => c.userId === user.id) || store.invitationsOf(repo.id).some((i) => i.inviteeId === user.id)
            const sentAtMs = sentAt ? Date.parse(sentAt) : ctx.now()
            if (Number.isNaN(sentAtMs)) throw new GithubError(422, `seed: sentAt ${sentAt} is not a date`)
            if (!known) world.addInvitation(repo, user, roleName(permission), world.bot().id, sentAtMs)
          }
          for (const login of entry.forks ?? []) world.fork(repo, world.userNamed(login))
        }
        for (const entry of spec.installations ?? []) {
          const account = requireAccount(entry.account)
          const wanted =
            entry.repositories === undefined || entry.repositories === 'all'
              ? 'all'
              : entry.repositories.map((name) => requireRepo(name, account))
          const existing = store.installationFor(account.id)
          if (!existing) {
            world.install(account, {
              id: entry.id,
              selection: wanted === 'all' ? 'all' : 'selected',
              repoIds: wanted === 'all' ? [] : wanted.map((repo) => repo.id),
              senderId: installationSenderFor(account),
            })
          } else if (wanted !== 'all') {
            for (const repo of wanted) world.addRepoToInstallation(existing, repo, installationSenderFor(account))
          }
        }
        return {
          accounts: [...(spec.users ?? []), ...(spec.organizations ?? [])].map((entry) => accountInfo(requireAccount(entry.login))),
          repositories: (spec.repositories ?? []).map((entry) => repoInfo(requireRepo(`${entry.owner}/${entry.name}`))),
          installations: (spec.installations ?? []).map((entry) =>
            installationInfo(store.installationFor(requireAccount(entry.account).id)!),
          ),
        }
      })
    },
    snapshot() {
      return {
        accounts: store.state.accounts.map(accountInfo),
        repositories: store.state.repos.map(repoInfo),
        installations: store.state.installations.map(installationInfo),
      }
    },
    async redeliver(input: { guid: string }) {
      return { status: await ctx.webhooks.redeliver(input.guid) }
    },
  }
}
