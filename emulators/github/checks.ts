/**
 * Checks and commit statuses on the emulated GitHub (issue 30), as GitHub models them:
 * - a check run belongs to the check suite of the App that created it for that commit (one suite per
 *   App and commit); runs are made by Apps only — through the API by our App (checks: write), or by
 *   "GitHub Actions", the CI stand-in a person or a test drives from the commit's page or `setCheckRun`;
 * - `conclusion` implies `status: completed`; a suite completes when all its runs have;
 * - a commit status is (state, context) set by a user with push access or an App with statuses: write;
 *   the combined status takes the latest status of each context: failure when any is error or failure,
 *   pending when there is none or any is pending, else success.
 * Webhooks: `check_run` created and completed, `check_suite` completed, `status` — the events an App
 * with checks: read and statuses: read receives for every App's checks on its repositories.
 */
import type {
  AccountRecord,
  AppRecord,
  CheckConclusion,
  CheckRunRecord,
  CheckRunStatus,
  CheckSuiteRecord,
  CommitState,
  CommitStatusRecord,
  RepoRecord,
} from './store.ts'
import { isoSeconds, validationFailed, type DomainEvent, type World } from './world.ts'

const CHECK_CONCLUSIONS: readonly CheckConclusion[] = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'timed_out',
]
const CHECK_STATUSES: readonly CheckRunStatus[] = ['queued', 'in_progress', 'completed']
const COMMIT_STATES: readonly CommitState[] = ['error', 'failure', 'pending', 'success']

/** GitHub Actions' App (its real id and slug): the author of the check runs a person sets on the pages. */
export const ACTIONS_APP: AppRecord = {
  id: 15368,
  slug: 'github-actions',
  name: 'GitHub Actions',
  clientId: 'Iv1.05c79e9ad1f6bdfa',
  clientSecret: '',
  webhookSecret: '',
  privateKey: '',
  ownerId: null,
  createdAt: '2018-07-30T09:30:17Z',
  permissions: { checks: 'write', statuses: 'write', contents: 'write', metadata: 'read' },
  events: ['check_run', 'check_suite', 'push', 'status'],
}

export interface CheckRunInput {
  name: string
  headSha: string
  status?: CheckRunStatus
  conclusion?: CheckConclusion
  detailsUrl?: string
  externalId?: string
  title?: string
  summary?: string
}

export class Checks {
  constructor(
    private readonly world: World,
    private readonly now: () => number,
  ) {}

  private get state() {
    return this.world.store.state
  }

  appById(id: number): AppRecord {
    return id === this.world.store.app.id ? this.world.store.app : ACTIONS_APP
  }

  /** `<slug>[bot]`: the sender of what an App does. */
  botOf(app: AppRecord): AccountRecord {
    return this.world.bot(app.slug)
  }

  /** The full SHA of an existing commit (422 as GitHub when the repository has none such). */
  commitSha(repo: RepoRecord, sha: string): string {
    const commit = /^[0-9a-f]{40}$/i.test(sha) ? repo.commits.find((entry) => entry.sha === sha.toLowerCase()) : undefined
    if (!commit) throw validationFailed([{ resource: 'Commit', field: 'sha', code: 'invalid' }], `No commit found for SHA: ${sha}`)
    return commit.sha
  }

  createCheckRun(repo: RepoRecord, app: AppRecord, input: CheckRunInput): CheckRunRecord {
    const name = input.name.trim()
    if (!name) throw validationFailed([{ resource: 'CheckRun', field: 'name', code: 'missing_field' }])
    if (input.status !== undefined && !CHECK_STATUSES.includes(input.status))
      throw validationFailed([{ resource: 'CheckRun', field: 'status', code: 'invalid' }])
    if (input.conclusion !== undefined && !CHECK_CONCLUSIONS.includes(input.conclusion))
      throw validationFailed([{ resource: 'CheckRun', field: 'conclusion', code: 'invalid' }])
    if (input.status === 'completed' && input.conclusion === undefined)
      throw validationFailed(
        [{ resource: 'CheckRun', field: 'conclusion', code: 'missing_field' }],
        'Invalid request.\n\n"conclusion" wasn\'t supplied.',
      )
    const headSha = this.commitSha(repo, input.headSha)
    const at = isoSeconds(this.now())
    const suite = this.suiteFor(repo, app, headSha, at)
    const completed = input.conclusion !== undefined
    const run: CheckRunRecord = {
      id: this.world.store.nextId('checkRun'),
      suiteId: suite.id,
      repoId: repo.id,
      headSha,
      name,
      status: completed ? 'completed' : (input.status ?? 'queued'),
      conclusion: input.conclusion ?? null,
      startedAt: at,
      completedAt: completed ? at : null,
      detailsUrl: input.detailsUrl ?? null,
      externalId: input.externalId ?? null,
      title: input.title ?? null,
      summary: input.summary ?? null,
    }
    this.state.checkRuns.push(run)
    suite.updatedAt = at
    const senderId = this.botOf(app).id
    const events: DomainEvent[] = [{ type: 'check_run', action: 'created', runId: run.id, senderId }]
    if (completed) events.push(...this.completionEvents(run, suite, senderId))
    this.world.record(events)
    return run
  }

  /** Completes a queued or running check run (GitHub's PATCH with a conclusion), as the CI would. */
  completeCheckRun(run: CheckRunRecord, conclusion: CheckConclusion): CheckRunRecord {
    if (!CHECK_CONCLUSIONS.includes(conclusion)) throw validationFailed([{ resource: 'CheckRun', field: 'conclusion', code: 'invalid' }])
    const suite = this.suite(run.suiteId)
    const at = isoSeconds(this.now())
    run.status = 'completed'
    run.conclusion = conclusion
    run.completedAt = at
    suite.updatedAt = at
    this.world.record(this.completionEvents(run, suite, this.botOf(this.appById(suite.appId)).id))
    return run
  }

  createStatus(
    repo: RepoRecord,
    creator: AccountRecord,
    input: { sha: string; state: string; context?: string; description?: string | null; targetUrl?: string | null },
  ): CommitStatusRecord {
    if (!COMMIT_STATES.includes(input.state as CommitState))
      throw validationFailed([{ resource: 'Status', field: 'state', code: 'custom', message: 'state is not included in the list' }])
    const sha = this.commitSha(repo, input.sha)
    const status: CommitStatusRecord = {
      id: this.world.store.nextId('commitStatus'),
      repoId: repo.id,
      sha,
      state: input.state as CommitState,
      context: input.context?.trim() || 'default',
      description: input.description ?? null,
      targetUrl: input.targetUrl ?? null,
      creatorId: creator.id,
      createdAt: isoSeconds(this.now()),
    }
    this.state.commitStatuses.push(status)
    this.world.record([{ type: 'status', statusId: status.id, senderId: creator.id }])
    return status
  }

  suite(id: number): CheckSuiteRecord {
    return this.state.checkSuites.find((suite) => suite.id === id)!
  }

  runsOf(suite: CheckSuiteRecord): CheckRunRecord[] {
    return this.state.checkRuns.filter((run) => run.suiteId === suite.id)
  }

  /** Check runs for a commit, newest first; `latest`: only the newest run of each name (GitHub's default filter). */
  runsFor(repo: RepoRecord, sha: string, filter: 'latest' | 'all' = 'latest'): CheckRunRecord[] {
    const runs = this.state.checkRuns.filter((run) => run.repoId === repo.id && run.headSha === sha).sort((a, b) => b.id - a.id)
    if (filter === 'all') return runs
    const seen = new Set<string>()
    return runs.filter((run) => (seen.has(run.name) ? false : (seen.add(run.name), true)))
  }

  /** The newest status of each context for a commit, newest first (the combined status's list). */
  statusesFor(repo: RepoRecord, sha: string): CommitStatusRecord[] {
    const statuses = this.state.commitStatuses
      .filter((status) => status.repoId === repo.id && status.sha === sha)
      .sort((a, b) => b.id - a.id)
    const seen = new Set<string>()
    return statuses.filter((status) => (seen.has(status.context) ? false : (seen.add(status.context), true)))
  }

  combinedState(latest: CommitStatusRecord[]): CommitState {
    if (latest.some((status) => status.state === 'error' || status.state === 'failure')) return 'failure'
    if (latest.length === 0 || latest.some((status) => status.state === 'pending')) return 'pending'
    return 'success'
  }

  /** A completed suite's conclusion: the most severe of its runs' (GitHub's order). */
  suiteConclusion(suite: CheckSuiteRecord): CheckConclusion | null {
    const runs = this.runsOf(suite)
    if (runs.length === 0 || runs.some((run) => run.status !== 'completed')) return null
    const order: CheckConclusion[] = ['action_required', 'cancelled', 'timed_out', 'failure', 'neutral', 'success', 'skipped']
    for (const conclusion of order) if (runs.some((run) => run.conclusion === conclusion)) return conclusion
    return null
  }

  private suiteFor(repo: RepoRecord, app: AppRecord, headSha: string, at: string): CheckSuiteRecord {
    const existing = this.state.checkSuites.find((suite) => suite.repoId === repo.id && suite.headSha === headSha && suite.appId === app.id)
    if (existing) return existing
    const branch = Object.entries(repo.branches).find(([, sha]) => sha === headSha)?.[0] ?? null
    const suite: CheckSuiteRecord = {
      id: this.world.store.nextId('checkSuite'),
      repoId: repo.id,
      headSha,
      headBranch: branch,
      appId: app.id,
      createdAt: at,
      updatedAt: at,
    }
    this.state.checkSuites.push(suite)
    return suite
  }

  private completionEvents(run: CheckRunRecord, suite: CheckSuiteRecord, senderId: number): DomainEvent[] {
    const events: DomainEvent[] = [{ type: 'check_run', action: 'completed', runId: run.id, senderId }]
    if (this.suiteConclusion(suite) !== null) events.push({ type: 'check_suite.completed', suiteId: suite.id, senderId })
    return events
  }
}
