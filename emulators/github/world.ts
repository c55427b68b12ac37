/**
 * What happens on the emulated GitHub, independent of HTTP: accounts and organizations,
 * repositories and pushes, App installations, collaborator invitations (GitHub's rules: 201 with an
 * invitation, 204 for someone who already has access, `permission` honoured only on organization
 * repositories, 50 invitations per repository per 24 hours, expiry after 7 days), acceptance,
 * removal (which also cancels pending invitations and deletes the user's private forks), forks,
 * tokens. Every change is persisted and reported through `onEvent` (the webhook dispatcher turns
 * the events into deliveries).
 */
import { createHash, randomBytes } from 'node:crypto'
import type {
  AccountRecord,
  GithubStore,
  InstallationRecord,
  InvitationRecord,
  PermissionLevel,
  ReleaseRecord,
  RepoRecord,
  RepoRole,
  RoleName,
} from './store.ts'

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000
const INVITATION_LIMIT = 50
const INVITATION_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000
const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000
export const USER_TOKEN_TTL_MS = 8 * 60 * 60 * 1000
export const REFRESH_TOKEN_TTL_MS = 184 * 24 * 60 * 60 * 1000
export const REPO_ROLES: readonly RepoRole[] = ['pull', 'triage', 'push', 'maintain', 'admin']
const ROLE_NAMES: Record<RepoRole, RoleName> = {
  pull: 'read',
  triage: 'triage',
  push: 'write',
  maintain: 'maintain',
  admin: 'admin',
}
const LOGIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/
const REPO_NAME_PATTERN = /^[A-Za-z0-9._-]{1,100}$/
/** Paths the emulator serves itself: no account may be called so. */
const RESERVED_LOGINS = new Set([
  'app',
  'apps',
  'login',
  'user',
  'users',
  'repos',
  'repositories',
  'installation',
  'orgs',
  'organizations',
  'settings',
  'about',
  'api',
  '_emulator',
])

/** A failure shaped like GitHub's: the HTTP layer renders `{ message, errors?, documentation_url, status }`. */
export class GithubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Array<Record<string, unknown>>,
  ) {
    super(message)
    this.name = 'GithubError'
  }
}

export const notFound = () => new GithubError(404, 'Not Found')

export function validationFailed(errors: Array<Record<string, unknown>>, message = 'Validation Failed'): GithubError {
  return new GithubError(422, message, errors)
}

export type DomainEvent =
  | { type: 'installation.deleted'; installation: InstallationRecord; repoIds: number[]; senderId: number }
  | {
      type: 'installation_repositories'
      action: 'added' | 'removed'
      installation: InstallationRecord
      repoIds: number[]
      senderId: number
    }
  | { type: 'member.added'; repoId: number; userId: number; role: RepoRole; senderId: number }
  | { type: 'fork'; parentId: number; forkId: number; senderId: number }
  | { type: 'check_run'; action: 'created' | 'completed'; runId: number; senderId: number }
  | { type: 'check_suite.completed'; suiteId: number; senderId: number }
  | { type: 'status'; statusId: number; senderId: number }
  /** The release as it was at the event (a deleted one is gone from the store when the payload is built). */
  | { type: 'release'; action: 'published' | 'released' | 'deleted'; release: ReleaseRecord; senderId: number }

type InviteResult = { status: 201; invitation: InvitationRecord } | { status: 204 }

export function roleName(role: RepoRole): RoleName {
  return ROLE_NAMES[role]
}

export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function randomToken(prefix: string, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = randomBytes(length)
  return prefix + Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')
}

function newSha(...parts: unknown[]): string {
  return createHash('sha1').update(JSON.stringify(parts)).update(randomBytes(8)).digest('hex')
}

export class World {
  constructor(
    readonly store: GithubStore,
    private readonly now: () => number,
    private readonly onEvent: (event: DomainEvent) => void,
  ) {}

  private get state() {
    return this.store.state
  }

  private stamp(): string {
    return isoSeconds(this.now())
  }

  private muted = 0

  private changed(events: DomainEvent[] = []): void {
    this.store.persist()
    if (this.muted > 0) return
    for (const event of events) this.onEvent(event)
  }

  /** Persists a change made elsewhere (checks.ts) and reports its events. */
  record(events: DomainEvent[]): void {
    this.changed(events)
  }

  /** Runs `work` without webhooks (seeding state that existed before the app was listening). */
  silently<T>(work: () => T): T {
    this.muted += 1
    try {
      return work()
    } finally {
      this.muted -= 1
    }
  }

  // ---------------------------------------------------------------------------
  // Accounts

  createAccount(input: {
    login: string
    type: 'User' | 'Organization'
    id?: number
    name?: string | null
    email?: string | null
    members?: Array<{ userId: number; role: 'admin' | 'member' }>
  }): AccountRecord {
    const login = input.login.trim()
    assertLogin(login)
    if (this.store.accountByLogin(login)) {
      throw validationFailed([{ resource: 'User', code: 'already_exists', field: 'login', message: `${login} is taken` }])
    }
    const at = this.stamp()
    const account: AccountRecord = {
      id: this.store.claimId('account', input.id),
      login,
      type: input.type,
      name: input.name ?? null,
      email: input.email ?? null,
      createdAt: at,
      updatedAt: at,
      previousLogins: [],
      members: input.members ?? [],
    }
    this.state.accounts.push(account)
    this.changed()
    return account
  }

  /**
   * An App's bot account (`<slug>[bot]`, ours by default): the inviter and sender of what the App does with an
   * installation token.
   */
  bot(slug: string = this.store.app.slug): AccountRecord {
    const login = `${slug}[bot]`
    const existing = this.store.accountByLogin(login)
    if (existing) return existing
    const at = this.stamp()
    const bot: AccountRecord = {
      id: this.store.nextId('account'),
      login,
      type: 'Bot',
      name: null,
      email: null,
      createdAt: at,
      updatedAt: at,
      previousLogins: [],
      members: [],
    }
    this.state.accounts.push(bot)
    this.changed()
    return bot
  }

  /** Finds the user called `login`, creating them when absent (the consent pages' "type any login"). */
  userNamed(login: string): AccountRecord {
    const existing = this.store.accountByLogin(login.trim())
    if (existing) {
      if (existing.type !== 'User') throw new GithubError(422, `${existing.login} is an organization, not a user`)
      return existing
    }
    return this.createAccount({ login, type: 'User' })
  }

  addMember(org: AccountRecord, user: AccountRecord, role: 'admin' | 'member'): void {
    if (org.type !== 'Organization') throw new GithubError(422, `${org.login} is not an organization`)
    const existing = org.members.find((member) => member.userId === user.id)
    if (existing) existing.role = role
    else org.members.push({ userId: user.id, role })
    this.changed()
  }

  rename(account: AccountRecord, newLogin: string): void {
    const login = newLogin.trim()
    assertLogin(login)
    const holder = this.store.accountByLogin(login)
    if (holder && holder.id !== account.id) {
      throw validationFailed([{ resource: 'User', code: 'already_exists', field: 'login', message: `${login} is taken` }])
    }
    if (account.login !== login) account.previousLogins.push(account.login)
    account.login = login
    account.updatedAt = this.stamp()
    this.changed()
  }

  // ---------------------------------------------------------------------------
  // Repositories

  createRepository(
    owner: AccountRecord,
    input: { name: string; id?: number; private?: boolean; description?: string | null; defaultBranch?: string },
  ): RepoRecord {
    const name = input.name.trim()
    if (!REPO_NAME_PATTERN.test(name) || name === '.' || name === '..') {
      throw validationFailed([{ resource: 'Repository', code: 'custom', field: 'name', message: 'name is invalid' }])
    }
    if (this.store.repoByName(owner.id, name)) {
      throw validationFailed([{ resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' }])
    }
    const at = this.stamp()
    const branch = input.defaultBranch?.trim() || 'main'
    const commit = {
      sha: newSha(owner.id, name),
      tree: newSha('tree'),
      message: 'Initial commit',
      date: at,
      authorId: owner.id,
      parents: [],
    }
    const repo: RepoRecord = {
      id: this.store.claimId('repo', input.id),
      ownerId: owner.id,
      name,
      private: input.private ?? true,
      description: input.description ?? null,
      defaultBranch: branch,
      createdAt: at,
      updatedAt: at,
      pushedAt: at,
      branches: { [branch]: commit.sha },
      commits: [commit],
      parentId: null,
      sourceId: null,
      allowForking: true,
      collaborators: [],
    }
    this.state.repos.push(repo)
    const events: DomainEvent[] = []
    const installation = this.store.installationFor(owner.id)
    if (installation?.repositorySelection === 'all') {
      events.push({
        type: 'installation_repositories',
        action: 'added',
        installation: structuredClone(installation),
        repoIds: [repo.id],
        senderId: owner.id,
      })
    }
    this.changed(events)
    return repo
  }

  /** A new commit on `branch` (default: the default branch); returns its SHA. */
  pushCommit(repo: RepoRecord, input: { branch?: string; message?: string; authorId?: number } = {}): string {
    const branch = input.branch ?? repo.defaultBranch
    const parent = repo.branches[branch] ?? repo.branches[repo.defaultBranch]
    const at = this.stamp()
    const commit = {
      sha: newSha(repo.id, parent, input.message),
      tree: newSha('tree'),
      message: input.message ?? `Update ${repo.name}`,
      date: at,
      authorId: input.authorId ?? repo.ownerId,
      parents: parent ? [parent] : [],
    }
    repo.commits.push(commit)
    repo.branches[branch] = commit.sha
    repo.pushedAt = at
    repo.updatedAt = at
    this.changed()
    return commit.sha
  }

  /** The commit a branch name, full SHA or SHA prefix (≥ 7) names, as `GET …/commits/{ref}` resolves it. */
  resolveRef(repo: RepoRecord, ref: string) {
    const sha = repo.branches[ref.replace(/^refs\/heads\//, '')]
    if (sha) return repo.commits.find((commit) => commit.sha === sha)
    if (/^[0-9a-f]{7,40}$/i.test(ref)) return repo.commits.find((commit) => commit.sha.startsWith(ref.toLowerCase()))
    return undefined
  }

  // ---------------------------------------------------------------------------
  // Access

  /** The user's role on the repository (owner and organization admins: admin; members: read). */
  roleOf(user: AccountRecord | undefined, repo: RepoRecord): RepoRole | null {
    if (!user) return null
    const owner = this.store.account(repo.ownerId)
    let role: RepoRole | null = null
    if (owner?.id === user.id) role = 'admin'
    const membership = owner?.members.find((member) => member.userId === user.id)
    if (membership) role = membership.role === 'admin' ? 'admin' : 'pull'
    const collaborator = repo.collaborators.find((entry) => entry.userId === user.id)
    if (collaborator && (role === null || REPO_ROLES.indexOf(collaborator.role) > REPO_ROLES.indexOf(role))) {
      role = collaborator.role
    }
    return role
  }

  canRead(user: AccountRecord | undefined, repo: RepoRecord): boolean {
    return !repo.private || this.roleOf(user, repo) !== null
  }

  isOrgMember(org: AccountRecord | undefined, userId: number): boolean {
    return org?.type === 'Organization' && org.members.some((member) => member.userId === userId)
  }

  /** The installation of the App that can see this repository, if any. */
  installationCovering(repo: RepoRecord): InstallationRecord | undefined {
    const installation = this.store.installationFor(repo.ownerId)
    if (!installation) return undefined
    return installation.repositorySelection === 'all' || installation.repoIds.includes(repo.id) ? installation : undefined
  }

  installationRepos(installation: InstallationRecord): RepoRecord[] {
    const owned = this.store.reposOf(installation.accountId)
    return installation.repositorySelection === 'all' ? owned : owned.filter((repo) => installation.repoIds.includes(repo.id))
  }

  /** Accounts where `user` may install the App: their own and organizations they administer. */
  installTargets(user: AccountRecord): AccountRecord[] {
    return [
      user,
      ...this.state.accounts.filter(
        (account) =>
          account.type === 'Organization' && account.members.some((member) => member.userId === user.id && member.role === 'admin'),
      ),
    ]
  }

  // ---------------------------------------------------------------------------
  // Installations

  install(
    account: AccountRecord,
    input: { selection: 'all' | 'selected'; repoIds: number[]; senderId: number; id?: number },
  ): { installation: InstallationRecord; action: 'install' | 'update' } {
    for (const id of input.repoIds) {
      if (this.store.repo(id)?.ownerId !== account.id) throw new GithubError(422, `Repository ${id} is not owned by ${account.login}`)
    }
    const existing = this.store.installationFor(account.id)
    if (existing) {
      const before = new Set(this.installationRepos(existing).map((repo) => repo.id))
      existing.repositorySelection = input.selection
      existing.repoIds = input.selection === 'all' ? [] : [...new Set(input.repoIds)]
      existing.updatedAt = this.stamp()
      const after = new Set(this.installationRepos(existing).map((repo) => repo.id))
      const added = [...after].filter((id) => !before.has(id))
      const removed = [...before].filter((id) => !after.has(id))
      const events: DomainEvent[] = []
      const snapshot = structuredClone(existing)
      if (added.length)
        events.push({
          type: 'installation_repositories',
          action: 'added',
          installation: snapshot,
          repoIds: added,
          senderId: input.senderId,
        })
      if (removed.length)
        events.push({
          type: 'installation_repositories',
          action: 'removed',
          installation: snapshot,
          repoIds: removed,
          senderId: input.senderId,
        })
      this.changed(events)
      return { installation: existing, action: 'update' }
    }
    const at = this.stamp()
    const installation: InstallationRecord = {
      id: this.store.claimId('installation', input.id),
      accountId: account.id,
      repositorySelection: input.selection,
      repoIds: input.selection === 'all' ? [] : [...new Set(input.repoIds)],
      permissions: { ...this.store.app.permissions },
      events: [...this.store.app.events],
      createdAt: at,
      updatedAt: at,
    }
    this.state.installations.push(installation)
    // GitHub also sends `installation` created, which the app does not read: the setup callback records an installation.
    this.changed()
    return { installation, action: 'install' }
  }

  uninstall(installation: InstallationRecord, senderId: number): void {
    const repoIds = this.installationRepos(installation).map((repo) => repo.id)
    this.state.installations = this.state.installations.filter((entry) => entry.id !== installation.id)
    this.state.installationTokens = this.state.installationTokens.filter((token) => token.installationId !== installation.id)
    this.changed([{ type: 'installation.deleted', installation: structuredClone(installation), repoIds, senderId }])
  }

  addRepoToInstallation(installation: InstallationRecord, repo: RepoRecord, senderId: number): void {
    if (repo.ownerId !== installation.accountId) throw new GithubError(422, `${repo.name} is not owned by the installation's account`)
    if (this.installationCovering(repo)) return
    installation.repoIds.push(repo.id)
    installation.updatedAt = this.stamp()
    this.changed([
      { type: 'installation_repositories', action: 'added', installation: structuredClone(installation), repoIds: [repo.id], senderId },
    ])
  }

  /** As on GitHub, removing one repository from an "all repositories" installation selects all the others. */
  removeRepoFromInstallation(installation: InstallationRecord, repo: RepoRecord, senderId: number): void {
    if (this.installationCovering(repo)?.id !== installation.id) return
    if (installation.repositorySelection === 'all') {
      installation.repositorySelection = 'selected'
      installation.repoIds = this.store.reposOf(installation.accountId).map((entry) => entry.id)
    }
    installation.repoIds = installation.repoIds.filter((id) => id !== repo.id)
    installation.updatedAt = this.stamp()
    this.state.installationTokens = this.state.installationTokens.filter(
      (token) => token.installationId !== installation.id || token.repoIds === null || !token.repoIds.includes(repo.id),
    )
    this.changed([
      { type: 'installation_repositories', action: 'removed', installation: structuredClone(installation), repoIds: [repo.id], senderId },
    ])
  }

  issueInstallationToken(
    installation: InstallationRecord,
    input: { repoIds: number[] | null; permissions: Record<string, PermissionLevel> | null },
  ) {
    const permissions = input.permissions ?? { ...installation.permissions }
    for (const [name, level] of Object.entries(permissions)) {
      const granted = installation.permissions[name]
      if (!granted || (level === 'write' && granted !== 'write')) {
        throw new GithubError(422, 'The permissions requested are not granted to this installation.')
      }
    }
    const record = {
      token: randomToken('ghs_', 36),
      installationId: installation.id,
      expiresAtMs: this.now() + INSTALLATION_TOKEN_TTL_MS,
      permissions,
      repoIds: input.repoIds,
    }
    this.store.pruneTokens(this.now())
    this.state.installationTokens.push(record)
    this.changed()
    return record
  }

  issueUserToken(user: AccountRecord) {
    const record = {
      token: randomToken('ghu_', 36),
      userId: user.id,
      expiresAtMs: this.now() + USER_TOKEN_TTL_MS,
      refreshToken: randomToken('ghr_', 76),
      refreshExpiresAtMs: this.now() + REFRESH_TOKEN_TTL_MS,
    }
    this.store.pruneTokens(this.now())
    this.state.userTokens.push(record)
    this.changed()
    return record
  }

  /** Refresh-token grant: the old pair stops working. */
  refreshUserToken(refreshToken: string) {
    const record = this.state.userTokens.find((entry) => entry.refreshToken === refreshToken)
    if (!record || record.refreshExpiresAtMs <= this.now()) return undefined
    this.state.userTokens = this.state.userTokens.filter((entry) => entry !== record)
    const user = this.store.account(record.userId)
    return user ? this.issueUserToken(user) : undefined
  }

  // ---------------------------------------------------------------------------
  // Collaborators and invitations

  isExpired(invitation: InvitationRecord): boolean {
    return this.now() - invitation.createdAtMs >= INVITATION_TTL_MS
  }

  /** `PUT /repos/{owner}/{repo}/collaborators/{username}`. */
  invite(repo: RepoRecord, invitee: AccountRecord, requested: string | undefined, inviterId: number | null): InviteResult {
    const owner = this.store.account(repo.ownerId)!
    if (invitee.type !== 'User') throw notFound()
    if (requested !== undefined && !(REPO_ROLES as readonly string[]).includes(requested)) {
      throw validationFailed([
        { resource: 'Repository', code: 'invalid', field: 'permission', message: `${requested} is not a valid permission` },
      ])
    }
    // "Only valid on organization-owned repositories": on a personal repository every collaborator can push.
    const role: RepoRole = owner.type === 'Organization' ? ((requested as RepoRole | undefined) ?? 'push') : 'push'
    if (owner.id === invitee.id) {
      throw validationFailed([
        { resource: 'Repository', code: 'custom', field: 'collaborator', message: 'Repository owner cannot be a collaborator' },
      ])
    }
    const collaborator = repo.collaborators.find((entry) => entry.userId === invitee.id)
    if (collaborator) {
      if (owner.type === 'Organization') collaborator.role = role
      this.changed()
      return { status: 204 }
    }
    if (this.isOrgMember(owner, invitee.id)) {
      repo.collaborators.push({ userId: invitee.id, role, addedAt: this.stamp() })
      this.changed([{ type: 'member.added', repoId: repo.id, userId: invitee.id, role, senderId: inviterId ?? owner.id }])
      return { status: 204 }
    }
    const pending = this.store.invitationsOf(repo.id).find((invitation) => invitation.inviteeId === invitee.id)
    if (pending && !this.isExpired(pending)) {
      pending.permission = roleName(role)
      this.changed()
      return { status: 201, invitation: pending }
    }
    if (pending) this.store.removeInvitations((invitation) => invitation.id === pending.id)
    const windowStart = this.now() - INVITATION_LIMIT_WINDOW_MS
    const sent = this.state.invitationLog.filter((entry) => entry.repoId === repo.id && entry.atMs > windowStart).length
    if (sent >= INVITATION_LIMIT) {
      // GitHub does not publish the wording; the status and the shape are what clients can rely on.
      throw validationFailed([
        {
          resource: 'Repository',
          code: 'custom',
          field: 'invitations',
          message: `Invitation limit reached: at most ${INVITATION_LIMIT} invitations to a repository per 24 hours`,
        },
      ])
    }
    return { status: 201, invitation: this.addInvitation(repo, invitee, roleName(role), inviterId, this.now()) }
  }

  /** A pending invitation as it would stand after a PUT at `sentAtMs` (seeding: no checks, no webhook). */
  addInvitation(repo: RepoRecord, invitee: AccountRecord, permission: RoleName, inviterId: number | null, sentAtMs: number) {
    const invitation: InvitationRecord = {
      id: this.store.nextId('invitation'),
      repoId: repo.id,
      inviteeId: invitee.id,
      inviterId,
      permission,
      createdAtMs: sentAtMs,
    }
    this.state.invitations.push(invitation)
    this.state.invitationLog.push({ repoId: repo.id, atMs: sentAtMs })
    this.changed()
    return invitation
  }

  /** A collaborator as if they had accepted (seeding). */
  addCollaborator(repo: RepoRecord, user: AccountRecord, role: RepoRole): void {
    repo.collaborators = repo.collaborators.filter((entry) => entry.userId !== user.id)
    repo.collaborators.push({ userId: user.id, role, addedAt: this.stamp() })
    this.store.removeInvitations((invitation) => invitation.repoId === repo.id && invitation.inviteeId === user.id)
    this.changed([{ type: 'member.added', repoId: repo.id, userId: user.id, role, senderId: user.id }])
  }

  acceptInvitation(invitation: InvitationRecord): void {
    if (this.isExpired(invitation)) throw new GithubError(404, 'This invitation has expired')
    const repo = this.store.repo(invitation.repoId)
    const user = this.store.account(invitation.inviteeId)
    if (!repo || !user) throw notFound()
    const role = (Object.entries(ROLE_NAMES).find(([, name]) => name === invitation.permission)?.[0] ?? 'pull') as RepoRole
    this.store.removeInvitations((entry) => entry.id === invitation.id)
    repo.collaborators = repo.collaborators.filter((entry) => entry.userId !== user.id)
    repo.collaborators.push({ userId: user.id, role, addedAt: this.stamp() })
    this.changed([{ type: 'member.added', repoId: repo.id, userId: user.id, role, senderId: user.id }])
  }

  declineInvitation(invitation: InvitationRecord): void {
    this.store.removeInvitations((entry) => entry.id === invitation.id)
    this.changed()
  }

  deleteInvitation(invitation: InvitationRecord): void {
    this.declineInvitation(invitation)
  }

  /**
   * `DELETE /repos/{owner}/{repo}/collaborators/{username}`: cancels the user's pending invitations,
   * removes the collaborator and, as GitHub does, deletes their private forks of the repository.
   */
  removeCollaborator(repo: RepoRecord, user: AccountRecord): void {
    this.store.removeInvitations((invitation) => invitation.repoId === repo.id && invitation.inviteeId === user.id)
    if (repo.collaborators.some((entry) => entry.userId === user.id)) {
      repo.collaborators = repo.collaborators.filter((entry) => entry.userId !== user.id)
      // GitHub also sends `member` removed, which the app does not read (it revoked the access itself).
      if (repo.private) {
        const doomed = new Set(
          this.store
            .forksOf(repo.id)
            .filter((fork) => fork.ownerId === user.id)
            .map((fork) => fork.id),
        )
        this.state.repos = this.state.repos.filter((entry) => !doomed.has(entry.id))
      }
    }
    this.changed()
  }

  // ---------------------------------------------------------------------------
  // Forks

  /** A fork by `user` (the Fork button of the pages, `fork()`): an existing fork is returned again. */
  fork(repo: RepoRecord, user: AccountRecord, input: { organization?: AccountRecord; name?: string } = {}): RepoRecord {
    if (!this.canRead(user, repo)) throw notFound()
    const target = input.organization ?? user
    if (input.organization && !this.isOrgMember(input.organization, user.id)) {
      throw new GithubError(403, `You do not have permission to create a fork in ${input.organization.login}`)
    }
    if (repo.private && !repo.allowForking) {
      throw new GithubError(403, 'Forking is disabled for this repository')
    }
    const existing = this.store.forksOf(repo.id).find((fork) => fork.ownerId === target.id)
    if (existing) return existing
    if (target.id === repo.ownerId) {
      throw validationFailed([{ resource: 'Fork', code: 'custom', message: 'You cannot fork your own repository' }])
    }
    let name = input.name?.trim() || repo.name
    if (!REPO_NAME_PATTERN.test(name)) {
      throw validationFailed([{ resource: 'Repository', code: 'custom', field: 'name', message: 'name is invalid' }])
    }
    for (let n = 1; this.store.repoByName(target.id, name); n += 1) name = `${input.name?.trim() || repo.name}-${n}`
    const at = this.stamp()
    const fork: RepoRecord = {
      id: this.store.nextId('repo'),
      ownerId: target.id,
      name,
      private: repo.private,
      description: repo.description,
      defaultBranch: repo.defaultBranch,
      createdAt: at,
      updatedAt: at,
      pushedAt: repo.pushedAt,
      branches: { ...repo.branches },
      commits: structuredClone(repo.commits),
      parentId: repo.id,
      sourceId: repo.sourceId ?? repo.id,
      allowForking: true,
      collaborators: [],
    }
    this.state.repos.push(fork)
    this.changed([{ type: 'fork', parentId: repo.id, forkId: fork.id, senderId: user.id }])
    return fork
  }
}

export function assertLogin(login: string): void {
  if (!LOGIN_PATTERN.test(login) || RESERVED_LOGINS.has(login.toLowerCase())) {
    throw validationFailed([
      {
        resource: 'User',
        code: 'invalid',
        field: 'login',
        message: 'A login is letters, digits and single inner hyphens, at most 39 characters',
      },
    ])
  }
}
