/**
 * The GitHub emulator's state: accounts, repositories (with commits, collaborators, forks),
 * invitations, App installations and tokens, optionally mirrored to a JSON file after every
 * change. Lookups of logins and repository names are case-insensitive, as on GitHub. Mutations are
 * synchronous so one request's check-then-change cannot interleave with another's.
 */
import { readDataFile, writeDataFile } from '../support/data-file.ts'

/** 'Bot': the App's own `<slug>[bot]` account, the actor of what the App does through the API. */
type AccountType = 'User' | 'Organization' | 'Bot'
type OrgRole = 'admin' | 'member'
/** A collaborator's role as the API's `permission` parameter names it. */
export type RepoRole = 'pull' | 'triage' | 'push' | 'maintain' | 'admin'
/** The same role as invitations, `role_name` and webhooks name it. */
export type RoleName = 'read' | 'triage' | 'write' | 'maintain' | 'admin'
export type PermissionLevel = 'read' | 'write'

export interface AccountRecord {
  id: number
  login: string
  type: AccountType
  name: string | null
  email: string | null
  createdAt: string
  updatedAt: string
  /** Earlier logins (newest last): repositories under them answer with a redirect. */
  previousLogins: string[]
  /** Organizations only. */
  members: Array<{ userId: number; role: OrgRole }>
}

export interface CommitRecord {
  sha: string
  tree: string
  message: string
  date: string
  authorId: number | null
  parents: string[]
}

export interface RepoRecord {
  id: number
  ownerId: number
  name: string
  private: boolean
  description: string | null
  defaultBranch: string
  createdAt: string
  updatedAt: string
  pushedAt: string
  /** Branch name → head commit SHA. */
  branches: Record<string, string>
  /** Tag name → commit SHA (made by releases; absent in data files from before issue 30). */
  tags?: Record<string, string>
  commits: CommitRecord[]
  parentId: number | null
  sourceId: number | null
  allowForking: boolean
  collaborators: Array<{ userId: number; role: RepoRole; addedAt: string }>
}

export interface InvitationRecord {
  id: number
  repoId: number
  inviteeId: number
  inviterId: number | null
  permission: RoleName
  createdAtMs: number
}

export interface InstallationRecord {
  id: number
  accountId: number
  repositorySelection: 'all' | 'selected'
  /** With 'selected': the repositories granted. */
  repoIds: number[]
  permissions: Record<string, PermissionLevel>
  events: string[]
  createdAt: string
  updatedAt: string
}

export interface InstallationTokenRecord {
  token: string
  installationId: number
  expiresAtMs: number
  permissions: Record<string, PermissionLevel>
  /** Null: every repository of the installation. */
  repoIds: number[] | null
}

export interface UserTokenRecord {
  token: string
  userId: number
  expiresAtMs: number
  refreshToken: string
  refreshExpiresAtMs: number
}

/** Checks: one suite per App and commit, holding that App's check runs (GitHub's model). */
export interface CheckSuiteRecord {
  id: number
  repoId: number
  headSha: string
  headBranch: string | null
  appId: number
  createdAt: string
  updatedAt: string
}

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed'
/** `stale` is GitHub's own to set: a request asking for it is refused. */
export type CheckConclusion = 'action_required' | 'cancelled' | 'failure' | 'neutral' | 'success' | 'skipped' | 'timed_out'

export interface CheckRunRecord {
  id: number
  suiteId: number
  repoId: number
  headSha: string
  name: string
  status: CheckRunStatus
  conclusion: CheckConclusion | null
  startedAt: string
  completedAt: string | null
  detailsUrl: string | null
  externalId: string | null
  title: string | null
  summary: string | null
}

export type CommitState = 'error' | 'failure' | 'pending' | 'success'

/** A release (issue 30): a tag at a commit with a name and notes; drafts are seen by push access only. */
export interface ReleaseRecord {
  id: number
  repoId: number
  tagName: string
  /** What the request named (a branch or SHA); `sha` is the commit the tag points at. */
  targetCommitish: string
  sha: string
  name: string | null
  body: string | null
  draft: boolean
  prerelease: boolean
  authorId: number
  createdAt: string
  publishedAt: string | null
  updatedAt: string
}

export interface CommitStatusRecord {
  id: number
  repoId: number
  sha: string
  state: CommitState
  context: string
  description: string | null
  targetUrl: string | null
  creatorId: number
  createdAt: string
}

export interface AppRecord {
  id: number
  slug: string
  name: string
  clientId: string
  clientSecret: string
  webhookSecret: string
  privateKey: string
  ownerId: number | null
  createdAt: string
  permissions: Record<string, PermissionLevel>
  events: string[]
}

interface PersistedState {
  version: 1
  app: AppRecord
  nextIds: {
    account: number
    repo: number
    installation: number
    invitation: number
    checkSuite: number
    checkRun: number
    commitStatus: number
    release: number
  }
  accounts: AccountRecord[]
  repos: RepoRecord[]
  invitations: InvitationRecord[]
  /** When each invitation was sent, per repository: GitHub's 50-per-24-hours limit counts these. */
  invitationLog: Array<{ repoId: number; atMs: number }>
  installations: InstallationRecord[]
  installationTokens: InstallationTokenRecord[]
  userTokens: UserTokenRecord[]
  checkSuites: CheckSuiteRecord[]
  checkRuns: CheckRunRecord[]
  commitStatuses: CommitStatusRecord[]
  releases: ReleaseRecord[]
}

const FIRST_IDS: PersistedState['nextIds'] = {
  account: 5_100_001,
  repo: 710_000_001,
  installation: 51_000_001,
  invitation: 260_000_001,
  checkSuite: 30_100_000_001,
  checkRun: 40_200_000_001,
  commitStatus: 50_300_000_001,
  release: 180_400_001,
}

export class GithubStore {
  private constructor(
    readonly state: PersistedState,
    private readonly dataFile: string | undefined,
  ) {}

  /** Loads `dataFile` if it exists; otherwise starts empty with `app`. */
  static open(dataFile: string | undefined, createApp: (saved: AppRecord | undefined) => AppRecord): GithubStore {
    const existing = dataFile ? readState(dataFile) : undefined
    const state: PersistedState = existing ?? {
      version: 1,
      app: createApp(undefined),
      nextIds: { ...FIRST_IDS },
      accounts: [],
      repos: [],
      invitations: [],
      invitationLog: [],
      installations: [],
      installationTokens: [],
      userTokens: [],
      checkSuites: [],
      checkRuns: [],
      commitStatuses: [],
      releases: [],
    }
    if (existing) {
      state.app = createApp(existing.app)
      // Data files written before checks existed (issue 30).
      state.nextIds = { ...FIRST_IDS, ...state.nextIds }
      state.checkSuites ??= []
      state.checkRuns ??= []
      state.commitStatuses ??= []
      state.releases ??= []
    }
    const store = new GithubStore(state, dataFile)
    store.persist()
    return store
  }

  get app(): AppRecord {
    return this.state.app
  }

  nextId(kind: keyof PersistedState['nextIds']): number {
    const taken = (id: number) => this.isTaken(kind, id)
    let id = this.state.nextIds[kind]
    while (taken(id)) id += 1
    this.state.nextIds[kind] = id + 1
    return id
  }

  isTaken(kind: keyof PersistedState['nextIds'], id: number): boolean {
    const records: Array<{ id: number }> = {
      account: this.state.accounts,
      repo: this.state.repos,
      installation: this.state.installations,
      invitation: this.state.invitations,
      checkSuite: this.state.checkSuites,
      checkRun: this.state.checkRuns,
      commitStatus: this.state.commitStatuses,
      release: this.state.releases,
    }[kind]
    return records.some((record) => record.id === id)
  }

  /** `wanted` when given (a seeded, stable id; it must be free), else the next free id. */
  claimId(kind: keyof PersistedState['nextIds'], wanted?: number): number {
    if (wanted === undefined) return this.nextId(kind)
    if (!Number.isSafeInteger(wanted) || wanted <= 0 || this.isTaken(kind, wanted)) {
      throw new Error(`GitHub emulator: ${kind} id ${wanted} is not a free positive integer`)
    }
    return wanted
  }

  account(id: number | null | undefined): AccountRecord | undefined {
    return id === null || id === undefined ? undefined : this.state.accounts.find((account) => account.id === id)
  }

  accountByLogin(login: string): AccountRecord | undefined {
    const wanted = login.toLowerCase()
    return this.state.accounts.find((account) => account.login.toLowerCase() === wanted)
  }

  /** The account that used to be called `login` (for redirects), if no account is called so now. */
  accountByPreviousLogin(login: string): AccountRecord | undefined {
    const wanted = login.toLowerCase()
    return this.state.accounts.find((account) => account.previousLogins.some((old) => old.toLowerCase() === wanted))
  }

  repo(id: number | null | undefined): RepoRecord | undefined {
    return id === null || id === undefined ? undefined : this.state.repos.find((repo) => repo.id === id)
  }

  repoByName(ownerId: number, name: string): RepoRecord | undefined {
    const wanted = name.toLowerCase()
    return this.state.repos.find((repo) => repo.ownerId === ownerId && repo.name.toLowerCase() === wanted)
  }

  reposOf(ownerId: number): RepoRecord[] {
    return this.state.repos.filter((repo) => repo.ownerId === ownerId)
  }

  forksOf(repoId: number): RepoRecord[] {
    return this.state.repos.filter((repo) => repo.parentId === repoId)
  }

  installation(id: number): InstallationRecord | undefined {
    return this.state.installations.find((installation) => installation.id === id)
  }

  installationFor(accountId: number): InstallationRecord | undefined {
    return this.state.installations.find((installation) => installation.accountId === accountId)
  }

  invitation(id: number): InvitationRecord | undefined {
    return this.state.invitations.find((invitation) => invitation.id === id)
  }

  invitationsOf(repoId: number): InvitationRecord[] {
    return this.state.invitations.filter((invitation) => invitation.repoId === repoId)
  }

  invitationsFor(userId: number): InvitationRecord[] {
    return this.state.invitations.filter((invitation) => invitation.inviteeId === userId)
  }

  removeInvitations(predicate: (invitation: InvitationRecord) => boolean): InvitationRecord[] {
    const removed = this.state.invitations.filter(predicate)
    this.state.invitations = this.state.invitations.filter((invitation) => !predicate(invitation))
    return removed
  }

  installationToken(token: string): InstallationTokenRecord | undefined {
    return this.state.installationTokens.find((record) => record.token === token)
  }

  userToken(token: string): UserTokenRecord | undefined {
    return this.state.userTokens.find((record) => record.token === token)
  }

  /** Drops tokens expired more than a day ago so the data file does not grow without bound. */
  pruneTokens(nowMs: number): void {
    const horizon = nowMs - 24 * 60 * 60 * 1000
    this.state.installationTokens = this.state.installationTokens.filter((record) => record.expiresAtMs > horizon)
    this.state.userTokens = this.state.userTokens.filter((record) => record.refreshExpiresAtMs > horizon)
    this.state.invitationLog = this.state.invitationLog.filter((entry) => entry.atMs > horizon)
  }

  persist(): void {
    if (this.dataFile) writeDataFile(this.dataFile, this.state)
  }
}

function readState(dataFile: string): PersistedState | undefined {
  return readDataFile(dataFile, { what: "The GitHub emulator's data file", empty: 'no accounts and a new App' }, isPersistedState)
}

function isPersistedState(value: unknown): value is PersistedState {
  const state = value as Partial<PersistedState> | null
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    typeof state.app?.privateKey === 'string' &&
    Array.isArray(state.accounts) &&
    Array.isArray(state.repos) &&
    Array.isArray(state.installations)
  )
}
