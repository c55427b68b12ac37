/**
 * Turns the emulator's domain events into GitHub App webhook deliveries and POSTs them the way
 * GitHub does: JSON body, `X-GitHub-Event`, `X-GitHub-Delivery` (a GUID), `X-GitHub-Hook-ID`,
 * `X-GitHub-Hook-Installation-Target-Type: integration`, `X-Hub-Signature` (HMAC-SHA1) and
 * `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the webhook secret), a 10-second timeout,
 * and — like GitHub — no automatic retry: a failed delivery stays failed until it is redelivered
 * (`redeliver`, GitHub's "Redeliver" button), which sends the same GUID again.
 *
 * `installation` and `installation_repositories` always reach the App; `member`, `fork`, `check_run`,
 * `check_suite`, `status` and `release` (with contents: read) only when the App subscribes to them and an
 * installation can see the repository.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { BackgroundWork } from '../support/background.ts'
import type { Checks } from './checks.ts'
import { nodeId, type Shapes } from './shapes.ts'
import type { AccountRecord, RepoRecord } from './store.ts'
import { roleName, type DomainEvent, type World } from './world.ts'

export interface WebhookDelivery {
  /** The X-GitHub-Delivery GUID (kept by redeliveries). */
  guid: string
  /** X-GitHub-Event. */
  event: string
  action: string | null
  installationId: number | null
  payload: Record<string, unknown>
  /** One entry per attempt: the HTTP status, or 'error' (refused, timed out). */
  attempts: Array<{ status: number | 'error'; at: string; redelivery: boolean }>
  /** The last attempt's status; undefined until the first attempt ends, null without a webhook URL. */
  status: number | 'error' | null | undefined
}

const ATTEMPT_TIMEOUT_MS = 10_000
/** Deliveries kept for inspection and redelivery (oldest dropped first). */
const MAX_KEPT = 2000
const HOOK_ID = 4_242_424
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

function signatures(body: string, secret: string): { sha1: string; sha256: string } {
  return {
    sha1: `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`,
    sha256: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  }
}

export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = []
  private readonly background = new BackgroundWork()
  private readonly agent = `GitHub-Hookshot/${randomBytes(4).toString('hex').slice(0, 7)}`

  constructor(
    private url: string | undefined,
    private readonly secret: () => string,
    private readonly appId: () => number,
    private readonly shapes: Shapes,
    private readonly world: World,
    private readonly checks: Checks,
    private readonly now: () => number,
  ) {}

  setUrl(url: string | undefined): void {
    this.url = url
  }

  /** Called synchronously with each domain event: the payload reflects the state at that moment. */
  handle(event: DomainEvent): void {
    const built = this.build(event)
    if (!built) return
    const delivery: WebhookDelivery = {
      guid: randomUUID(),
      event: built.event,
      action: typeof built.payload.action === 'string' ? built.payload.action : null,
      installationId: built.installationId,
      payload: built.payload,
      attempts: [],
      status: undefined,
    }
    this.deliveries.push(delivery)
    if (this.deliveries.length > MAX_KEPT) this.deliveries.splice(0, this.deliveries.length - MAX_KEPT)
    if (!this.url) {
      delivery.status = null
      return
    }
    if (this.background.signal.aborted) return
    // GitHub answers the API call first and delivers afterwards.
    this.background.track(nextTurn().then(() => this.attempt(delivery, false)))
  }

  async redeliver(guid: string): Promise<number | 'error'> {
    const delivery = this.deliveries.find((entry) => entry.guid === guid)
    if (!delivery) throw new Error(`GitHub emulator: no webhook delivery ${guid}`)
    return this.background.track(this.attempt(delivery, true))
  }

  idle(): Promise<void> {
    return this.background.idle()
  }

  close(): void {
    this.background.close()
  }

  private async attempt(delivery: WebhookDelivery, redelivery: boolean): Promise<number | 'error'> {
    const url = this.url
    if (!url) throw new Error('GitHub emulator: no webhook URL configured')
    const body = JSON.stringify(delivery.payload)
    const signed = signatures(body, this.secret())
    let status: number | 'error'
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          Accept: '*/*',
          'Content-Type': 'application/json',
          'User-Agent': this.agent,
          'X-GitHub-Delivery': delivery.guid,
          'X-GitHub-Event': delivery.event,
          'X-GitHub-Hook-ID': String(HOOK_ID),
          'X-GitHub-Hook-Installation-Target-ID': String(this.appId()),
          'X-GitHub-Hook-Installation-Target-Type': 'integration',
          'X-Hub-Signature': signed.sha1,
          'X-Hub-Signature-256': signed.sha256,
        },
        body,
        signal: AbortSignal.any([this.background.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      })
      await response.arrayBuffer()
      status = response.status
    } catch {
      status = 'error'
    }
    delivery.attempts.push({ status, at: new Date(this.now()).toISOString(), redelivery })
    delivery.status = status
    return status
  }

  private build(event: DomainEvent): { event: string; installationId: number | null; payload: Record<string, unknown> } | undefined {
    const store = this.world.store
    const sender = store.account(event.senderId)
    if (!sender) return undefined
    const shapes = this.shapes
    switch (event.type) {
      case 'installation.deleted':
        return {
          event: 'installation',
          installationId: event.installation.id,
          payload: {
            action: 'deleted',
            installation: shapes.installation(event.installation),
            repositories: this.refs(event.repoIds),
            requester: null,
            sender: shapes.simpleUser(sender),
          },
        }
      case 'installation_repositories':
        return {
          event: 'installation_repositories',
          installationId: event.installation.id,
          payload: {
            action: event.action,
            installation: shapes.installation(event.installation),
            repository_selection: event.installation.repositorySelection,
            repositories_added: event.action === 'added' ? this.refs(event.repoIds) : [],
            repositories_removed: event.action === 'removed' ? this.refs(event.repoIds) : [],
            requester: null,
            sender: shapes.simpleUser(sender),
          },
        }
      case 'member.added': {
        const repo = store.repo(event.repoId)
        const member = store.account(event.userId)
        const context = repo && this.repoContext(repo, 'member')
        if (!repo || !member || !context) return undefined
        return {
          event: 'member',
          installationId: context.installation.id,
          payload: {
            action: 'added',
            member: shapes.webhookUser(member),
            changes: { permission: { to: legacyPermission(roleName(event.role)) }, role_name: { to: roleName(event.role) } },
            repository: shapes.webhookRepository(repo),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
      case 'fork': {
        const parent = store.repo(event.parentId)
        const fork = store.repo(event.forkId)
        const context = parent && this.repoContext(parent, 'fork')
        if (!parent || !fork || !context) return undefined
        return {
          event: 'fork',
          installationId: context.installation.id,
          payload: {
            forkee: { ...shapes.webhookRepository(fork), public: !fork.private },
            repository: shapes.webhookRepository(parent),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
      case 'check_run': {
        const run = store.state.checkRuns.find((entry) => entry.id === event.runId)
        const repo = run && store.repo(run.repoId)
        const context = repo && this.repoContext(repo, 'check_run')
        if (!run || !repo || !context) return undefined
        const suite = this.checks.suite(run.suiteId)
        const app = this.checks.appById(suite.appId)
        const runs = this.checks.runsOf(suite)
        return {
          event: 'check_run',
          installationId: context.installation.id,
          payload: {
            action: event.action,
            check_run: {
              ...shapes.checkRun(run, app),
              check_suite: {
                ...shapes.checkSuite(suite, app, this.checks.suiteConclusion(suite), runs.length),
                repository: shapes.minimalRepository(repo),
              },
            },
            repository: shapes.webhookRepository(repo),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
      case 'check_suite.completed': {
        const suite = this.checks.suite(event.suiteId)
        const repo = store.repo(suite.repoId)
        const context = repo && this.repoContext(repo, 'check_suite')
        if (!repo || !context) return undefined
        const app = this.checks.appById(suite.appId)
        return {
          event: 'check_suite',
          installationId: context.installation.id,
          payload: {
            action: 'completed',
            check_suite: shapes.checkSuite(suite, app, this.checks.suiteConclusion(suite), this.checks.runsOf(suite).length),
            repository: shapes.webhookRepository(repo),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
      case 'release': {
        const repo = store.repo(event.release.repoId)
        const context = repo && this.repoContext(repo, 'release')
        // The event needs contents: read, as on GitHub.
        if (!repo || !context || !context.installation.permissions.contents) return undefined
        return {
          event: 'release',
          installationId: context.installation.id,
          payload: {
            action: event.action,
            release: shapes.webhookRelease(event.release),
            repository: shapes.webhookRepository(repo),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
      case 'status': {
        const status = store.state.commitStatuses.find((entry) => entry.id === event.statusId)
        const repo = status && store.repo(status.repoId)
        const context = repo && this.repoContext(repo, 'status')
        const commit = repo?.commits.find((entry) => entry.sha === status?.sha)
        if (!status || !repo || !context || !commit) return undefined
        const branches = Object.entries(repo.branches)
          .filter(([, sha]) => sha === status.sha)
          .slice(0, 10)
          .map(([name, sha]) => ({
            name,
            commit: { sha, url: `${shapes.url}/repos/${shapes.repositoryRef(repo).full_name}/commits/${sha}` },
            protected: false,
          }))
        const rest = shapes.commitStatus(status)
        const restCommit = shapes.commit(repo, commit)
        return {
          event: 'status',
          installationId: context.installation.id,
          payload: {
            id: status.id,
            sha: status.sha,
            name: shapes.repositoryRef(repo).full_name,
            avatar_url: rest.avatar_url,
            target_url: status.targetUrl,
            context: status.context,
            description: status.description,
            state: status.state,
            commit: {
              sha: restCommit.sha,
              node_id: restCommit.node_id,
              commit: { ...restCommit.commit, verification: { ...restCommit.commit.verification, payload: null, signature: null } },
              url: restCommit.url,
              html_url: restCommit.html_url,
              comments_url: restCommit.comments_url,
              author: restCommit.author,
              committer: restCommit.committer,
              parents: restCommit.parents,
            },
            branches,
            created_at: status.createdAt,
            updated_at: status.createdAt,
            repository: shapes.webhookRepository(repo),
            ...context.extra,
            sender: shapes.simpleUser(sender),
          },
        }
      }
    }
  }

  private refs(repoIds: number[]) {
    return repoIds.flatMap((id) => {
      const repo = this.world.store.repo(id)
      return repo ? [this.shapes.repositoryRef(repo)] : []
    })
  }

  /** The installation (and organization) fields of a repository event, or undefined when the App would not receive it. */
  private repoContext(repo: RepoRecord, eventName: string) {
    const installation = this.world.installationCovering(repo)
    if (!installation || !installation.events.includes(eventName)) return undefined
    const owner = this.world.store.account(repo.ownerId) as AccountRecord
    return {
      installation,
      extra: {
        installation: { id: installation.id, node_id: nodeId('IntegrationInstallation', installation.id) },
        ...(owner.type === 'Organization' ? { organization: this.shapes.webhookOrganization(owner) } : {}),
      },
    }
  }
}

/** The member event's legacy `permission` knows only read, write and admin. */
function legacyPermission(role: string): 'read' | 'write' | 'admin' {
  if (role === 'admin') return 'admin'
  if (role === 'write' || role === 'maintain') return 'write'
  return 'read'
}
