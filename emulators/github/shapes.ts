/**
 * JSON bodies shaped as GitHub's, built from store records. Typed with GitHub's own OpenAPI types
 * (`@octokit/openapi-types`, `@octokit/openapi-webhooks-types`) so a missing or misspelt field is
 * a compile error; the contract test also validates them at run time against openapi-subset.json.
 * The API and the web pages share one origin (`url`), as on GitHub Enterprise Server without the
 * `/api/v3` prefix.
 */
import type { components } from '@octokit/openapi-types'
import type { components as WebhookComponents } from '@octokit/openapi-webhooks-types'
import type {
  AccountRecord,
  AppRecord,
  CheckRunRecord,
  CheckSuiteRecord,
  CommitRecord,
  CommitStatusRecord,
  InstallationRecord,
  InvitationRecord,
  ReleaseRecord,
  RepoRecord,
  RepoRole,
} from './store.ts'
import { isoSeconds, REPO_ROLES, type World } from './world.ts'

type Schemas = components['schemas']
type Webhooks = WebhookComponents['schemas']

export function nodeId(kind: string, id: number | string): string {
  const label = `${kind}${id}`
  return Buffer.from(`${String(label.length).padStart(2, '0')}:${label}`).toString('base64')
}

export class Shapes {
  constructor(
    readonly url: string,
    private readonly world: World,
  ) {}

  private get store() {
    return this.world.store
  }

  avatarUrl(id: number): string {
    return `${this.url}/_emulator/avatars/${id}.svg`
  }

  simpleUser(account: AccountRecord): Schemas['simple-user'] {
    const api = `${this.url}/users/${encodeURIComponent(account.login)}`
    return {
      login: account.login,
      id: account.id,
      node_id: nodeId(account.type, account.id),
      avatar_url: this.avatarUrl(account.id),
      gravatar_id: '',
      url: api,
      html_url: account.type === 'Bot' ? `${this.url}/apps/${this.store.app.slug}` : `${this.url}/${account.login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: account.type,
      site_admin: false,
      user_view_type: 'public',
    }
  }

  /** `GET /user/{account_id}`; `GET /user` adds the private fields. */
  publicUser(account: AccountRecord): Schemas['public-user'] {
    const repos = this.store.reposOf(account.id)
    return {
      ...this.simpleUser(account),
      name: account.name,
      company: null,
      blog: '',
      location: null,
      email: account.email,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: repos.filter((repo) => !repo.private).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: account.createdAt,
      updated_at: account.updatedAt,
    }
  }

  privateUser(account: AccountRecord): Schemas['private-user'] {
    const repos = this.store.reposOf(account.id)
    const privateRepos = repos.filter((repo) => repo.private).length
    return {
      ...this.publicUser(account),
      user_view_type: 'private',
      notification_email: account.email,
      private_gists: 0,
      total_private_repos: privateRepos,
      owned_private_repos: privateRepos,
      disk_usage: 0,
      collaborators: 0,
      two_factor_authentication: true,
      plan: { name: 'free', space: 976562499, private_repos: 10000, collaborators: 0 },
    }
  }

  /** The core every repository shape shares (`repository`, `minimal-repository`, `full-repository`, webhooks). */
  repository(repo: RepoRecord, viewer?: AccountRecord): Schemas['repository'] {
    const owner = this.store.account(repo.ownerId)!
    const fullName = `${owner.login}/${repo.name}`
    const api = `${this.url}/repos/${fullName}`
    const html = `${this.url}/${fullName}`
    const forks = this.store.forksOf(repo.id).length
    const role = viewer ? this.world.roleOf(viewer, repo) : null
    return {
      id: repo.id,
      node_id: nodeId('Repository', repo.id),
      name: repo.name,
      full_name: fullName,
      license: null,
      forks,
      ...(viewer ? { permissions: permissionsFor(role) } : {}),
      owner: this.simpleUser(owner),
      private: repo.private,
      html_url: html,
      description: repo.description,
      fork: repo.parentId !== null,
      url: api,
      archive_url: `${api}/{archive_format}{/ref}`,
      assignees_url: `${api}/assignees{/user}`,
      blobs_url: `${api}/git/blobs{/sha}`,
      branches_url: `${api}/branches{/branch}`,
      collaborators_url: `${api}/collaborators{/collaborator}`,
      comments_url: `${api}/comments{/number}`,
      commits_url: `${api}/commits{/sha}`,
      compare_url: `${api}/compare/{base}...{head}`,
      contents_url: `${api}/contents/{+path}`,
      contributors_url: `${api}/contributors`,
      deployments_url: `${api}/deployments`,
      downloads_url: `${api}/downloads`,
      events_url: `${api}/events`,
      forks_url: `${api}/forks`,
      git_commits_url: `${api}/git/commits{/sha}`,
      git_refs_url: `${api}/git/refs{/sha}`,
      git_tags_url: `${api}/git/tags{/sha}`,
      git_url: `${this.url.replace(/^http/, 'git')}/${fullName}.git`,
      issue_comment_url: `${api}/issues/comments{/number}`,
      issue_events_url: `${api}/issues/events{/number}`,
      issues_url: `${api}/issues{/number}`,
      keys_url: `${api}/keys{/key_id}`,
      labels_url: `${api}/labels{/name}`,
      languages_url: `${api}/languages`,
      merges_url: `${api}/merges`,
      milestones_url: `${api}/milestones{/number}`,
      notifications_url: `${api}/notifications{?since,all,participating}`,
      pulls_url: `${api}/pulls{/number}`,
      releases_url: `${api}/releases{/id}`,
      ssh_url: `git@${new URL(this.url).host}:${fullName}.git`,
      stargazers_url: `${api}/stargazers`,
      statuses_url: `${api}/statuses/{sha}`,
      subscribers_url: `${api}/subscribers`,
      subscription_url: `${api}/subscription`,
      tags_url: `${api}/tags`,
      teams_url: `${api}/teams`,
      trees_url: `${api}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${api}/hooks`,
      svn_url: html,
      homepage: null,
      language: null,
      forks_count: forks,
      stargazers_count: 0,
      watchers_count: 0,
      size: 0,
      default_branch: repo.defaultBranch,
      open_issues_count: 0,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: true,
      has_wiki: !repo.private,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: repo.private ? 'private' : 'public',
      pushed_at: repo.pushedAt,
      created_at: repo.createdAt,
      updated_at: repo.updatedAt,
      allow_forking: repo.allowForking,
      web_commit_signoff_required: false,
      open_issues: 0,
      watchers: 0,
    }
  }

  minimalRepository(repo: RepoRecord): Schemas['minimal-repository'] {
    return this.repository(repo) as Schemas['minimal-repository']
  }

  /** `GET /repos/{owner}/{repo}`: with `parent`/`source` for forks and `organization`. */
  fullRepository(repo: RepoRecord, viewer?: AccountRecord): Schemas['full-repository'] {
    const owner = this.store.account(repo.ownerId)!
    const parent = this.store.repo(repo.parentId)
    const source = this.store.repo(repo.sourceId)
    return {
      ...this.repository(repo, viewer),
      subscribers_count: 0,
      network_count: this.store.forksOf(repo.sourceId ?? repo.id).length,
      ...(owner.type === 'Organization' ? { organization: this.simpleUser(owner) } : {}),
      ...(parent ? { parent: this.repository(parent) } : {}),
      ...(source ? { source: this.repository(source) } : {}),
    } as Schemas['full-repository']
  }

  /** The repository as webhook payloads carry it. */
  webhookRepository(repo: RepoRecord): Webhooks['repository-webhooks'] {
    return {
      ...this.repository(repo),
      allow_auto_merge: false,
      allow_merge_commit: true,
      allow_rebase_merge: true,
      allow_squash_merge: true,
      delete_branch_on_merge: false,
    } as Webhooks['repository-webhooks']
  }

  webhookUser(account: AccountRecord): Webhooks['webhooks_user'] {
    return this.simpleUser(account) as Webhooks['webhooks_user']
  }

  webhookOrganization(account: AccountRecord): Webhooks['organization-simple-webhooks'] {
    const api = `${this.url}/orgs/${account.login}`
    return {
      login: account.login,
      id: account.id,
      node_id: nodeId('Organization', account.id),
      url: api,
      repos_url: `${api}/repos`,
      events_url: `${api}/events`,
      hooks_url: `${api}/hooks`,
      issues_url: `${api}/issues`,
      members_url: `${api}/members{/member}`,
      public_members_url: `${api}/public_members{/member}`,
      avatar_url: this.avatarUrl(account.id),
      description: null,
    }
  }

  /** `{ id, node_id, name, full_name, private }`, as installation payloads list repositories. */
  repositoryRef(repo: RepoRecord) {
    const owner = this.store.account(repo.ownerId)!
    return {
      id: repo.id,
      node_id: nodeId('Repository', repo.id),
      name: repo.name,
      full_name: `${owner.login}/${repo.name}`,
      private: repo.private,
    }
  }

  appOwner(app: AppRecord): Schemas['simple-user'] {
    const owner = this.store.account(app.ownerId)
    if (owner) return this.simpleUser(owner)
    const ours = app.id === this.store.app.id
    const stand: AccountRecord = {
      id: ours ? 1 : 9919,
      login: ours ? 'forkmarket' : 'github',
      type: 'Organization',
      name: ours ? 'Forkmarket' : 'GitHub',
      email: null,
      createdAt: app.createdAt,
      updatedAt: app.createdAt,
      previousLogins: [],
      members: [],
    }
    return this.simpleUser(stand)
  }

  app(app: AppRecord): Schemas['integration'] {
    return {
      id: app.id,
      slug: app.slug,
      node_id: nodeId('Integration', app.id),
      client_id: app.clientId,
      owner: this.appOwner(app),
      name: app.name,
      description:
        app.id === this.store.app.id ? 'Forkmarket delivery (local GitHub emulator)' : 'Automate your workflow from idea to production',
      external_url: app.id === this.store.app.id ? this.url : 'https://help.github.com/en/actions',
      html_url: `${this.url}/apps/${app.slug}`,
      created_at: app.createdAt,
      updated_at: app.createdAt,
      permissions: app.permissions,
      events: app.events,
      ...(app.id === this.store.app.id ? { installations_count: this.store.state.installations.length } : {}),
    }
  }

  installation(installation: InstallationRecord): Schemas['installation'] {
    const account = this.store.account(installation.accountId)!
    const app = this.store.app
    return {
      id: installation.id,
      account: this.simpleUser(account),
      repository_selection: installation.repositorySelection,
      access_tokens_url: `${this.url}/app/installations/${installation.id}/access_tokens`,
      repositories_url: `${this.url}/installation/repositories`,
      html_url:
        account.type === 'Organization'
          ? `${this.url}/organizations/${account.login}/settings/installations/${installation.id}`
          : `${this.url}/settings/installations/${installation.id}`,
      app_id: app.id,
      client_id: app.clientId,
      app_slug: app.slug,
      target_id: account.id,
      target_type: account.type,
      permissions: installation.permissions,
      events: installation.events,
      created_at: installation.createdAt,
      updated_at: installation.updatedAt,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    }
  }

  invitation(invitation: InvitationRecord): Schemas['repository-invitation'] {
    const repo = this.store.repo(invitation.repoId)!
    const invitee = this.store.account(invitation.inviteeId)
    const inviter = this.store.account(invitation.inviterId)
    const owner = this.store.account(repo.ownerId)!
    return {
      id: invitation.id,
      node_id: nodeId('RepositoryInvitation', invitation.id),
      repository: this.minimalRepository(repo),
      invitee: invitee ? this.simpleUser(invitee) : null,
      inviter: inviter ? this.simpleUser(inviter) : null,
      permissions: invitation.permission,
      created_at: isoSeconds(invitation.createdAtMs),
      expired: this.world.isExpired(invitation),
      url: `${this.url}/user/repository_invitations/${invitation.id}`,
      html_url: `${this.url}/${owner.login}/${repo.name}/invitations`,
    }
  }

  commit(repo: RepoRecord, commit: CommitRecord): Schemas['commit'] {
    const owner = this.store.account(repo.ownerId)!
    const fullName = `${owner.login}/${repo.name}`
    const api = `${this.url}/repos/${fullName}`
    const author = this.store.account(commit.authorId)
    const gitUser = {
      name: author?.name ?? author?.login ?? 'Forkmarket emulator',
      email: author?.email ?? `${author?.id ?? 0}+${author?.login ?? 'emulator'}@users.noreply.github.com`,
      date: commit.date,
    }
    return {
      url: `${api}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: nodeId('Commit', `${repo.id}:${commit.sha}`),
      html_url: `${this.url}/${fullName}/commit/${commit.sha}`,
      comments_url: `${api}/commits/${commit.sha}/comments`,
      commit: {
        url: `${api}/git/commits/${commit.sha}`,
        author: gitUser,
        committer: gitUser,
        message: commit.message,
        comment_count: 0,
        tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
        verification: { verified: false, reason: 'unsigned', payload: null, signature: null, verified_at: null },
      },
      author: author ? this.simpleUser(author) : null,
      committer: author ? this.simpleUser(author) : null,
      parents: commit.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${this.url}/${fullName}/commit/${sha}` })),
      stats: { additions: 1, deletions: 0, total: 1 },
      files: [],
    }
  }

  branch(repo: RepoRecord, name: string, commit: CommitRecord): Schemas['branch-with-protection'] {
    const owner = this.store.account(repo.ownerId)!
    const api = `${this.url}/repos/${owner.login}/${repo.name}`
    return {
      name,
      commit: this.commit(repo, commit),
      _links: { html: `${this.url}/${owner.login}/${repo.name}/tree/${name}`, self: `${api}/branches/${name}` },
      protected: false,
      protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } },
      protection_url: `${api}/branches/${name}/protection`,
    }
  }

  // Checks and statuses (issue 30)

  checkRun(run: CheckRunRecord, app: AppRecord): Schemas['check-run'] {
    const api = `${this.url}/repos/${this.fullNameOf(run.repoId)}`
    const html = `${this.url}/${this.fullNameOf(run.repoId)}`
    return {
      id: run.id,
      node_id: nodeId('CheckRun', run.id),
      head_sha: run.headSha,
      external_id: run.externalId ?? '',
      url: `${api}/check-runs/${run.id}`,
      html_url: `${html}/runs/${run.id}`,
      details_url: run.detailsUrl ?? `${html}/runs/${run.id}`,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.startedAt,
      completed_at: run.completedAt,
      output: {
        title: run.title,
        summary: run.summary,
        text: null,
        annotations_count: 0,
        annotations_url: `${api}/check-runs/${run.id}/annotations`,
      },
      name: run.name,
      check_suite: { id: run.suiteId },
      app: this.app(app),
      pull_requests: [],
    }
  }

  /** The check suite as webhooks carry it (`check_run.check_suite`, `check_suite`). */
  checkSuite(suite: CheckSuiteRecord, app: AppRecord, conclusion: string | null, runsCount: number) {
    const repo = this.store.repo(suite.repoId)!
    const api = `${this.url}/repos/${this.fullNameOf(suite.repoId)}`
    const commit = repo.commits.find((entry) => entry.sha === suite.headSha)!
    const author = this.store.account(commit.authorId)
    const gitUser = {
      name: author?.name ?? author?.login ?? 'Forkmarket emulator',
      email: author?.email ?? `${author?.id ?? 0}+${author?.login ?? 'emulator'}@users.noreply.github.com`,
    }
    const { installations_count: _count, ...integration } = this.app(app) as Schemas['integration'] & { installations_count?: number }
    return {
      id: suite.id,
      node_id: nodeId('CheckSuite', suite.id),
      head_branch: suite.headBranch,
      head_sha: suite.headSha,
      status: conclusion === null ? 'in_progress' : 'completed',
      conclusion,
      url: `${api}/check-suites/${suite.id}`,
      before: commit.parents[0] ?? null,
      after: suite.headSha,
      pull_requests: [],
      app: integration,
      created_at: suite.createdAt,
      updated_at: suite.updatedAt,
      latest_check_runs_count: runsCount,
      check_runs_url: `${api}/check-suites/${suite.id}/check-runs`,
      head_commit: {
        id: commit.sha,
        tree_id: commit.tree,
        message: commit.message,
        timestamp: commit.date,
        author: gitUser,
        committer: gitUser,
      },
      rerequestable: true,
      runs_rerequestable: true,
    }
  }

  commitStatus(status: CommitStatusRecord): Schemas['status'] {
    const creator = this.store.account(status.creatorId)
    return {
      ...this.simpleCommitStatus(status),
      creator: creator ? this.simpleUser(creator) : null,
    }
  }

  simpleCommitStatus(status: CommitStatusRecord): Schemas['simple-commit-status'] {
    const creator = this.store.account(status.creatorId)
    return {
      url: `${this.url}/repos/${this.fullNameOf(status.repoId)}/statuses/${status.sha}`,
      avatar_url: creator ? this.avatarUrl(creator.id) : null,
      id: status.id,
      node_id: nodeId('StatusContext', status.id),
      state: status.state,
      description: status.description,
      target_url: status.targetUrl,
      context: status.context,
      created_at: status.createdAt,
      updated_at: status.createdAt,
    }
  }

  combinedStatus(repo: RepoRecord, sha: string, state: string, latest: CommitStatusRecord[]): Schemas['combined-commit-status'] {
    const api = `${this.url}/repos/${this.fullNameOf(repo.id)}`
    return {
      state,
      statuses: latest.map((status) => this.simpleCommitStatus(status)),
      sha,
      total_count: latest.length,
      repository: this.minimalRepository(repo),
      commit_url: `${api}/commits/${sha}`,
      url: `${api}/commits/${sha}/status`,
    }
  }

  // Releases (issue 30)

  release(release: ReleaseRecord): Schemas['release'] {
    const name = this.fullNameOf(release.repoId)
    const api = `${this.url}/repos/${name}`
    const author = this.store.account(release.authorId)
    const tag = encodeURIComponent(release.tagName)
    return {
      url: `${api}/releases/${release.id}`,
      assets_url: `${api}/releases/${release.id}/assets`,
      upload_url: `${this.url}/repos/${name}/releases/${release.id}/assets{?name,label}`,
      // A draft's page and archives are under a temporary name until it is published, as on GitHub.
      html_url: release.draft ? `${this.url}/${name}/releases/tag/untagged-${release.id}` : `${this.url}/${name}/releases/tag/${tag}`,
      tarball_url: release.draft ? null : `${api}/tarball/${tag}`,
      zipball_url: release.draft ? null : `${api}/zipball/${tag}`,
      id: release.id,
      node_id: nodeId('Release', release.id),
      tag_name: release.tagName,
      target_commitish: release.targetCommitish,
      name: release.name,
      body: release.body,
      draft: release.draft,
      prerelease: release.prerelease,
      immutable: false,
      created_at: release.createdAt,
      published_at: release.publishedAt,
      updated_at: release.updatedAt,
      author: author ? this.simpleUser(author) : this.simpleUser(this.world.bot()),
      assets: [],
    }
  }

  /** The release as `release` webhooks carry it (the REST shape; no asset, author a user). */
  webhookRelease(release: ReleaseRecord): Webhooks['webhooks_release'] {
    const { author, ...rest } = this.release(release)
    return { ...rest, author: author as Webhooks['webhooks_release']['author'] } as Webhooks['webhooks_release']
  }

  private fullNameOf(repoId: number): string {
    const repo = this.store.repo(repoId)!
    return `${this.store.account(repo.ownerId)!.login}/${repo.name}`
  }
}

function permissionsFor(role: RepoRole | null) {
  const rank = role ? REPO_ROLES.indexOf(role) : -1
  return {
    admin: rank >= REPO_ROLES.indexOf('admin'),
    maintain: rank >= REPO_ROLES.indexOf('maintain'),
    push: rank >= REPO_ROLES.indexOf('push'),
    triage: rank >= REPO_ROLES.indexOf('triage'),
    pull: rank >= REPO_ROLES.indexOf('pull'),
  }
}
