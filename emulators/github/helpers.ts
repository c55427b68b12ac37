/**
 * The GitHub emulator's test helpers: the functions on the object startGithubEmulator returns,
 * also reachable over HTTP as POST /_emulator/api/<name> (web.ts).
 */
import { fullName, installationOwner, issueCode, type Ctx, type FailureSpec } from './http.ts'
import type { AccountRecord, InstallationRecord, RepoRecord, RepoRole } from './store.ts'
import { assertLogin, GithubError, isoSeconds } from './world.ts'

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
  return {
    createUser(input: { login: string; id?: number; name?: string; email?: string }) {
      return accountInfo(world.createAccount({ ...input, type: 'User' }))
    },
    ensureUser(input: { id: number; login: string; name?: string; email?: string }) {
      return accountInfo(world.ensureUser(input))
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
      const senderId =
        sender?.id ??
        (account.type === 'Organization' ? (account.members.find((member) => member.role === 'admin')?.userId ?? account.id) : account.id)
      return installationInfo(world.install(account, { selection: all ? 'all' : 'selected', repoIds, senderId }).installation)
    },
    uninstall(input: { installationId: number; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      world.uninstall(installation, input.sender ? requireAccount(input.sender, 'user').id : installationOwner(ctx, installation))
    },
    addRepoToInstallation(input: { installationId: number; repository: string; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      const repo = requireRepo(input.repository, store.account(installation.accountId))
      world.addRepoToInstallation(
        installation,
        repo,
        input.sender ? requireAccount(input.sender, 'user').id : installationOwner(ctx, installation),
      )
      return installationInfo(installation)
    },
    removeRepoFromInstallation(input: { installationId: number; repository: string; sender?: string }) {
      const installation = requireInstallation(input.installationId)
      const repo = requireRepo(input.repository, store.account(installation.accountId))
      world.removeRepoFromInstallation(
        installation,
        repo,
        input.sender ? requireAccount(input.sender, 'user').id : installationOwner(ctx, installation),
      )
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
