/**
 * The GitHub emulator's pages: the user-authorization (OAuth) consent, the App installation flow,
 * and the "act as a user" pages (accept or decline an invitation, fork) used by hand, in demos
 * and by e2e tests. Plain HTML forms: they work without JavaScript; labelled fields, visible
 * focus, 4.5:1 contrast in light and dark schemes, usable at 390 px.
 */
import { escapeHtml, htmlPage } from '../support/html.ts'

const STYLE = `
  :root { color-scheme: light dark; --bg: #f6f8fa; --card: #fff; --fg: #1f2328; --muted: #59636e; --border: #8c959f; --accent: #0969da; --button: #1f883d; --danger: #cf222e; --danger-button: #cf222e; }
  @media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --card: #161b22; --fg: #e6edf3; --muted: #9198a1; --border: #6e7681; --accent: #4493f8; --button: #238636; --danger: #f85149; --danger-button: #b62324; } }
  * { box-sizing: border-box; }
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); margin: 0; line-height: 1.5; }
  header { background: #1f2328; color: #fff; padding: 0.75rem 1rem; }
  header a { color: #fff; }
  main { max-width: 48rem; margin: 1.5rem auto; padding: 0 1rem; }
  .card { background: var(--card); border: 1px solid var(--border); border-radius: 0.5rem; padding: 1.25rem; margin-bottom: 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
  h2 { font-size: 1.125rem; margin: 0 0 0.5rem; }
  p { margin: 0.25rem 0 0.75rem; }
  .muted { color: var(--muted); }
  a { color: var(--accent); }
  label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
  .choice { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; margin: 0.25rem 0; }
  input[type="text"], input:not([type]), textarea, select { width: 100%; padding: 0.5rem; font: inherit; color: inherit; background: var(--card); border: 1px solid var(--border); border-radius: 0.375rem; }
  button { padding: 0.5rem 1rem; font: inherit; font-weight: 600; color: #fff; background: var(--button); border: 1px solid transparent; border-radius: 0.375rem; cursor: pointer; }
  button.secondary { color: var(--fg); background: transparent; border-color: var(--border); }
  button.danger { background: var(--danger-button); }
  button:disabled { opacity: 0.6; cursor: not-allowed; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 1rem; }
  ul.list { list-style: none; padding: 0; margin: 0; }
  ul.list > li { border-top: 1px solid var(--border); padding: 0.75rem 0; display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: space-between; align-items: center; }
  ul.list > li:first-child { border-top: 0; }
  form.inline { display: inline; margin: 0; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875em; overflow-wrap: anywhere; }
  .error { color: var(--danger); font-weight: 600; }
  .notice { border-left: 4px solid var(--accent); padding-left: 0.75rem; }
  .badge { display: inline-block; border: 1px solid var(--border); border-radius: 1rem; padding: 0 0.5rem; font-size: 0.8125rem; color: var(--muted); }
`

function page(title: string, body: string): string {
  return htmlPage({
    title: `${title} — GitHub (Forkmarket local emulator)`,
    style: STYLE,
    header: '<header><a href="/_emulator">GitHub</a> <span>· Forkmarket local emulator — no real GitHub account is used</span></header>',
    main: body,
  })
}

function hidden(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
}

function errorBlock(error: string | undefined): string {
  return error ? `<p id="form-error" class="error" role="alert">${escapeHtml(error)}</p>` : ''
}

function loginField(input: { users: string[]; login?: string; error?: string; label: string; hint: string }): string {
  const invalid = input.error ? ' aria-invalid="true" aria-describedby="form-error login-hint"' : ' aria-describedby="login-hint"'
  return `<label for="login">${escapeHtml(input.label)}</label>
      <input id="login" name="login" type="text" required autocomplete="username" list="known-users" value="${escapeHtml(input.login ?? '')}"${invalid}>
      <p id="login-hint" class="muted">${escapeHtml(input.hint)}</p>
      <datalist id="known-users">${input.users.map((login) => `<option value="${escapeHtml(login)}">`).join('')}</datalist>`
}

export function authorizePage(input: {
  appName: string
  hidden: Record<string, string | undefined>
  users: string[]
  login?: string
  cancelUrl: string
  error?: string
}): string {
  return page(
    `Authorize ${input.appName}`,
    `<div class="card">
      <h1>Authorize ${escapeHtml(input.appName)}</h1>
      <p class="muted">${escapeHtml(input.appName)} will be able to know your GitHub user id and login. Sign in as any GitHub login: an unknown one is created.</p>
      ${errorBlock(input.error)}
      <form method="post" action="/login/oauth/authorize">
        ${hidden(input.hidden)}
        ${loginField({ users: input.users, login: input.login, error: input.error, label: 'GitHub login', hint: 'Pick a known user or type a new login.' })}
        <div class="actions">
          <button type="submit">Authorize</button>
          <a href="${escapeHtml(input.cancelUrl)}">Cancel</a>
        </div>
      </form>
    </div>`,
  )
}

interface InstallTarget {
  login: string
  type: 'User' | 'Organization'
  owners: string[]
}

export function installTargetPage(input: {
  appName: string
  action: string
  state?: string
  users: string[]
  organizations: InstallTarget[]
  login?: string
  error?: string
}): string {
  const orgChoices = input.organizations
    .map(
      (org, index) => `<label class="choice"><input type="radio" name="target" value="${escapeHtml(org.login)}" id="target-org-${index}">
          ${escapeHtml(org.login)} <span class="muted">(organization; owners: ${escapeHtml(org.owners.join(', ') || 'none')})</span></label>`,
    )
    .join('\n')
  return page(
    `Install ${input.appName}`,
    `<div class="card">
      <h1>Install ${escapeHtml(input.appName)}</h1>
      <p class="muted">Step 1 of 2: who you are and where to install. Organizations you name that do not exist are created with you as owner.</p>
      ${errorBlock(input.error)}
      <form method="get" action="${escapeHtml(input.action)}">
        ${hidden({ state: input.state })}
        ${loginField({ users: input.users, login: input.login, error: input.error, label: 'Your GitHub login', hint: 'Pick a known user or type a new login.' })}
        <fieldset>
          <legend>Install on</legend>
          <label class="choice"><input type="radio" name="target" value="" id="target-new" checked> A new organization:</label>
          <label for="new_org">New organization name</label>
          <input id="new_org" name="new_org" type="text" autocomplete="off">
          ${orgChoices}
          <label class="choice"><input type="radio" name="target" value="@me" id="target-me"> Your personal account</label>
        </fieldset>
        <div class="actions"><button type="submit">Continue</button></div>
      </form>
    </div>`,
  )
}

export function installRepositoriesPage(input: {
  appName: string
  action: string
  fields: Record<string, string | undefined>
  account: { login: string; type: 'User' | 'Organization' }
  permissions: Record<string, string>
  repositories: Array<{ id: number; name: string; private: boolean; selected: boolean }>
  selection: 'all' | 'selected'
  existing: boolean
  error?: string
}): string {
  const permissions = Object.entries(input.permissions)
    .map(([name, level]) => `<li>${escapeHtml(name)}: ${escapeHtml(level)}</li>`)
    .join('')
  const repos = input.repositories.length
    ? input.repositories
        .map(
          (
            repo,
          ) => `<label class="choice"><input type="checkbox" name="repository_ids" value="${repo.id}"${repo.selected ? ' checked' : ''}>
            ${escapeHtml(repo.name)} <span class="badge">${repo.private ? 'Private' : 'Public'}</span></label>`,
        )
        .join('\n')
    : `<p class="muted">${escapeHtml(input.account.login)} has no repositories yet.</p>`
  const personalNote =
    input.account.type === 'User'
      ? `<p class="notice">This is a personal account: on GitHub every collaborator of a personal repository can push.</p>`
      : ''
  return page(
    `Install ${input.appName} on ${input.account.login}`,
    `<div class="card">
      <h1>${input.existing ? 'Configure' : 'Install'} ${escapeHtml(input.appName)} on ${escapeHtml(input.account.login)}</h1>
      <p class="muted">Step 2 of 2. ${escapeHtml(input.appName)} asks for:</p>
      <ul>${permissions}</ul>
      ${personalNote}
      ${errorBlock(input.error)}
      <form method="post" action="${escapeHtml(input.action)}">
        ${hidden(input.fields)}
        <fieldset>
          <legend>Repository access</legend>
          <label class="choice"><input type="radio" name="selection" value="all"${input.selection === 'all' ? ' checked' : ''}> All repositories</label>
          <label class="choice"><input type="radio" name="selection" value="selected"${input.selection === 'selected' ? ' checked' : ''}> Only select repositories</label>
          ${repos}
          <label for="new_repository">Also create a private repository named (optional)</label>
          <input id="new_repository" name="new_repository" type="text" autocomplete="off">
        </fieldset>
        <div class="actions"><button type="submit">${input.existing ? 'Save' : 'Install'}</button></div>
      </form>
    </div>`,
  )
}

export function messagePage(title: string, message: string, links: Array<{ href: string; text: string }> = []): string {
  return page(
    title,
    `<div class="card">
      <h1>${escapeHtml(title)}</h1>
      <p>${escapeHtml(message)}</p>
      ${links.map((link) => `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`).join('')}
    </div>`,
  )
}

export interface InvitationView {
  id: number
  repository: string
  invitee: string
  permission: string
  invitedAt: string
  expired: boolean
}

function invitationItem(invitation: InvitationView, returnTo: string, showInvitee: boolean): string {
  const who = showInvitee ? `${escapeHtml(invitation.invitee)} is invited to ` : ''
  const state = invitation.expired ? ' <span class="badge">Expired</span>' : ''
  const acceptLabel = showInvitee ? `Accept as ${invitation.invitee}` : 'Accept invitation'
  return `<li>
      <span>${who}<a href="/${escapeHtml(invitation.repository)}">${escapeHtml(invitation.repository)}</a>
        <span class="muted">(${escapeHtml(invitation.permission)}, sent ${escapeHtml(invitation.invitedAt)})</span>${state}</span>
      <span class="actions">
        <form class="inline" method="post" action="/_emulator/act/accept">${hidden({ invitation_id: String(invitation.id), return_to: returnTo })}
          <button type="submit"${invitation.expired ? ' disabled' : ''}>${escapeHtml(acceptLabel)}</button></form>
        <form class="inline" method="post" action="/_emulator/act/decline">${hidden({ invitation_id: String(invitation.id), return_to: returnTo })}
          <button type="submit" class="secondary">Decline</button></form>
      </span>
    </li>`
}

function flashBlock(flash: string | undefined): string {
  return flash ? `<p class="notice" role="status">${escapeHtml(flash)}</p>` : ''
}

export function accountPage(input: {
  login: string
  id: number
  type: 'User' | 'Organization'
  flash?: string
  invitations: InvitationView[]
  /** Repositories the user may fork (collaborator or member), with their fork if any. */
  accessible: Array<{ fullName: string; fork: string | null }>
  owned: Array<{ fullName: string; private: boolean; parent: string | null }>
  members: string[]
}): string {
  const self = `/_emulator/users/${input.login}`
  const invitations = input.invitations.length
    ? `<ul class="list">${input.invitations.map((invitation) => invitationItem(invitation, self, false)).join('')}</ul>`
    : '<p class="muted">No pending invitations.</p>'
  const accessible = input.accessible.length
    ? `<ul class="list">${input.accessible
        .map(
          (repo) => `<li><a href="/${escapeHtml(repo.fullName)}">${escapeHtml(repo.fullName)}</a>
            ${
              repo.fork
                ? `<span>Your fork: <a href="/${escapeHtml(repo.fork)}">${escapeHtml(repo.fork)}</a></span>`
                : `<form class="inline" method="post" action="/_emulator/act/fork">${hidden({ login: input.login, repository: repo.fullName, return_to: self })}
                <button type="submit">Fork ${escapeHtml(repo.fullName)}</button></form>`
            }</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No repositories shared with this account.</p>'
  const owned = input.owned.length
    ? `<ul class="list">${input.owned
        .map(
          (repo) => `<li><span><a href="/${escapeHtml(repo.fullName)}">${escapeHtml(repo.fullName)}</a>
            <span class="badge">${repo.private ? 'Private' : 'Public'}</span>${repo.parent ? ` <span class="muted">forked from ${escapeHtml(repo.parent)}</span>` : ''}</span></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No repositories.</p>'
  const userSections =
    input.type === 'User'
      ? `<section class="card" aria-labelledby="invitations-heading"><h2 id="invitations-heading">Pending invitations</h2>${invitations}</section>
    <section class="card" aria-labelledby="shared-heading"><h2 id="shared-heading">Repositories shared with ${escapeHtml(input.login)}</h2>${accessible}</section>`
      : `<section class="card" aria-labelledby="members-heading"><h2 id="members-heading">Members</h2><p>${escapeHtml(input.members.join(', ') || 'none')}</p></section>`
  return page(
    input.login,
    `<div class="card"><h1>${input.type === 'User' ? 'Acting as' : 'Organization'} ${escapeHtml(input.login)}</h1>
      <p class="muted">${input.type === 'User' ? 'User' : 'Organization'} id ${input.id}</p>${flashBlock(input.flash)}</div>
    ${userSections}
    <section class="card" aria-labelledby="owned-heading"><h2 id="owned-heading">Repositories owned by ${escapeHtml(input.login)}</h2>${owned}</section>`,
  )
}

export function repositoryPage(input: {
  fullName: string
  private: boolean
  defaultBranch: string
  headSha: string
  parent: string | null
  collaborators: Array<{ login: string; role: string }>
  invitations: InvitationView[]
  forks: string[]
  forkers: string[]
  flash?: string
}): string {
  const self = `/${input.fullName}`
  const collaborators = input.collaborators.length
    ? `<ul class="list">${input.collaborators.map((entry) => `<li><a href="/_emulator/users/${escapeHtml(entry.login)}">${escapeHtml(entry.login)}</a> <span class="badge">${escapeHtml(entry.role)}</span></li>`).join('')}</ul>`
    : '<p class="muted">No collaborators.</p>'
  const invitations = input.invitations.length
    ? `<ul class="list">${input.invitations.map((invitation) => invitationItem(invitation, self, true)).join('')}</ul>`
    : '<p class="muted">No pending invitations.</p>'
  const forks = input.forks.length
    ? `<ul class="list">${input.forks.map((fork) => `<li><a href="/${escapeHtml(fork)}">${escapeHtml(fork)}</a></li>`).join('')}</ul>`
    : '<p class="muted">No forks.</p>'
  const forkForm = input.forkers.length
    ? `<form method="post" action="/_emulator/act/fork">${hidden({ repository: input.fullName, return_to: self })}
        <label for="fork-login">Fork as</label>
        <select id="fork-login" name="login">${input.forkers.map((login) => `<option>${escapeHtml(login)}</option>`).join('')}</select>
        <div class="actions"><button type="submit">Fork</button></div></form>`
    : '<p class="muted">Nobody else can see this repository yet.</p>'
  return page(
    input.fullName,
    `<div class="card"><h1>${escapeHtml(input.fullName)} <span class="badge">${input.private ? 'Private' : 'Public'}</span></h1>
      ${input.parent ? `<p class="muted">Forked from <a href="/${escapeHtml(input.parent)}">${escapeHtml(input.parent)}</a></p>` : ''}
      <p>Default branch <code>${escapeHtml(input.defaultBranch)}</code> at ${input.headSha ? `<a href="${self}/commit/${escapeHtml(input.headSha)}"><code>${escapeHtml(input.headSha)}</code></a> (its checks)` : '<code>(no commit)</code>'}</p>
      ${flashBlock(input.flash)}
      <form method="post" action="/_emulator/act/push">${hidden({ repository: input.fullName, return_to: self })}
        <button type="submit" class="secondary">Push a new commit</button></form>
      <p><a href="${self}/releases">Releases</a></p></div>
    <section class="card" aria-labelledby="invitations-heading"><h2 id="invitations-heading">Pending invitations</h2>${invitations}</section>
    <section class="card" aria-labelledby="collaborators-heading"><h2 id="collaborators-heading">Collaborators</h2>${collaborators}</section>
    <section class="card" aria-labelledby="forks-heading"><h2 id="forks-heading">Forks</h2>${forks}${forkForm}</section>`,
  )
}

function options(choices: ReadonlyArray<readonly [string, string]>): string {
  return choices.map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`).join('')
}

const CONCLUSION_CHOICES = [
  ['success', 'Success'],
  ['failure', 'Failure'],
  ['neutral', 'Neutral'],
  ['cancelled', 'Cancelled'],
  ['skipped', 'Skipped'],
  ['timed_out', 'Timed out'],
  ['action_required', 'Action required'],
] as const

/** A commit's checks (issue 30): its check runs and statuses, and forms to set them as a CI or a collaborator would. */
export function commitPage(input: {
  fullName: string
  sha: string
  message: string
  checkRuns: Array<{ id: number; name: string; app: string; status: string; conclusion: string | null }>
  statuses: Array<{ context: string; state: string; description: string | null; creator: string }>
  combinedState: string
  pushers: string[]
  flash?: string
}): string {
  const self = `/${input.fullName}/commit/${input.sha}`
  const runs = input.checkRuns.length
    ? `<ul class="list">${input.checkRuns
        .map((run) => {
          const result = run.conclusion ?? run.status.replace('_', ' ')
          const complete =
            run.status === 'completed'
              ? ''
              : `<form class="inline" method="post" action="/_emulator/act/complete-check-run">${hidden({ id: String(run.id), return_to: self })}
                <label for="complete-${run.id}">Result</label>
                <select id="complete-${run.id}" name="conclusion">${options(CONCLUSION_CHOICES)}</select>
                <button type="submit" class="secondary">Finish ${escapeHtml(run.name)}</button></form>`
          return `<li><span><strong>${escapeHtml(run.name)}</strong> <span class="badge">${escapeHtml(result)}</span> <span class="muted">by ${escapeHtml(run.app)}</span></span>${complete}</li>`
        })
        .join('')}</ul>`
    : '<p class="muted">No check runs.</p>'
  const statuses = input.statuses.length
    ? `<ul class="list">${input.statuses
        .map(
          (status) =>
            `<li><span><strong>${escapeHtml(status.context)}</strong> <span class="badge">${escapeHtml(status.state)}</span> <span class="muted">${escapeHtml(status.description ?? '')} — set by ${escapeHtml(status.creator)}</span></span></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No commit statuses.</p>'
  const statusForm = input.pushers.length
    ? `<form method="post" action="/_emulator/act/status">${hidden({ repository: input.fullName, sha: input.sha, return_to: self })}
        <label for="status-context">Context</label><input id="status-context" name="context" value="ci/build" required>
        <label for="status-state">State</label>
        <select id="status-state" name="state">${options([
          ['success', 'Success'],
          ['failure', 'Failure'],
          ['error', 'Error'],
          ['pending', 'Pending'],
        ])}</select>
        <label for="status-description">Description (optional)</label><input id="status-description" name="description">
        <label for="status-login">Set as</label>
        <select id="status-login" name="login">${input.pushers.map((login) => `<option>${escapeHtml(login)}</option>`).join('')}</select>
        <div class="actions"><button type="submit">Set status</button></div></form>`
    : '<p class="muted">Nobody with push access can set a status.</p>'
  return page(
    `${input.fullName}@${input.sha.slice(0, 7)}`,
    `<div class="card"><h1>Commit <code>${escapeHtml(input.sha.slice(0, 7))}</code> of <a href="/${escapeHtml(input.fullName)}">${escapeHtml(input.fullName)}</a></h1>
      <p><code>${escapeHtml(input.sha)}</code> — ${escapeHtml(input.message)}</p>
      <p>Combined status: <span class="badge">${escapeHtml(input.combinedState)}</span></p>
      ${flashBlock(input.flash)}</div>
    <section class="card" aria-labelledby="runs-heading"><h2 id="runs-heading">Check runs</h2>${runs}
      <h3>Add a check run (as GitHub Actions)</h3>
      <form method="post" action="/_emulator/act/check-run">${hidden({ repository: input.fullName, sha: input.sha, return_to: self })}
        <label for="run-name">Check name</label><input id="run-name" name="name" value="build" required>
        <label for="run-result">Result</label>
        <select id="run-result" name="result">${options([...CONCLUSION_CHOICES, ['in_progress', 'In progress (not finished)'], ['queued', 'Queued']])}</select>
        <div class="actions"><button type="submit">Add check run</button></div></form></section>
    <section class="card" aria-labelledby="statuses-heading"><h2 id="statuses-heading">Commit statuses</h2>${statuses}
      <h3>Set a commit status</h3>${statusForm}</section>`,
  )
}

/** A repository's releases (issue 30): the list, newest first, and a form to publish one as a user with push access. */
export function releasesPage(input: {
  fullName: string
  releases: Array<{
    id: number
    tag: string
    name: string | null
    body: string | null
    draft: boolean
    prerelease: boolean
    author: string
    publishedAt: string | null
    sha: string
  }>
  pushers: string[]
  flash?: string
}): string {
  const self = `/${input.fullName}/releases`
  const list = input.releases.length
    ? `<ul class="list">${input.releases
        .map((release) => {
          const state = release.draft ? 'Draft' : release.prerelease ? 'Pre-release' : 'Published'
          const remove = input.pushers.length
            ? `<form class="inline" method="post" action="/_emulator/act/delete-release">${hidden({ repository: input.fullName, id: String(release.id), login: input.pushers[0], return_to: self })}
                <button type="submit" class="secondary">Delete ${escapeHtml(release.tag)}</button></form>`
            : ''
          return `<li><span><strong>${escapeHtml(release.name ?? release.tag)}</strong> <code>${escapeHtml(release.tag)}</code> <span class="badge">${state}</span>
            <span class="muted">by ${escapeHtml(release.author)}${release.publishedAt ? ` on ${escapeHtml(release.publishedAt)}` : ''}, at <code>${escapeHtml(release.sha.slice(0, 7))}</code></span>
            ${release.body ? `<br><span>${escapeHtml(release.body)}</span>` : ''}</span>${remove}</li>`
        })
        .join('')}</ul>`
    : '<p class="muted">No releases.</p>'
  const form = input.pushers.length
    ? `<form method="post" action="/_emulator/act/release">${hidden({ repository: input.fullName, return_to: self })}
        <label for="release-tag">Tag</label><input id="release-tag" name="tag" required placeholder="v1.0.0">
        <label for="release-name">Release title (optional)</label><input id="release-name" name="name">
        <label for="release-body">Release notes (optional)</label><textarea id="release-body" name="body" rows="5"></textarea>
        <label for="release-kind">Kind</label>
        <select id="release-kind" name="kind">${options([
          ['release', 'Release (published)'],
          ['prerelease', 'Pre-release (published)'],
          ['draft', 'Draft (not published)'],
        ])}</select>
        <label for="release-login">Publish as</label>
        <select id="release-login" name="login">${input.pushers.map((login) => `<option>${escapeHtml(login)}</option>`).join('')}</select>
        <div class="actions"><button type="submit">Publish release</button></div></form>`
    : '<p class="muted">Nobody with push access can publish a release.</p>'
  return page(
    `Releases · ${input.fullName}`,
    `<div class="card"><h1>Releases of <a href="/${escapeHtml(input.fullName)}">${escapeHtml(input.fullName)}</a></h1>${flashBlock(input.flash)}${list}</div>
    <section class="card" aria-labelledby="new-release-heading"><h2 id="new-release-heading">Draft a new release</h2>${form}</section>`,
  )
}

export function indexPage(input: {
  appName: string
  installUrl: string
  users: string[]
  organizations: string[]
  repositories: string[]
  installations: Array<{ id: number; account: string; selection: string; repositories: string[] }>
  deliveries: Array<{ guid: string; event: string; action: string | null; status: string }>
  flash?: string
}): string {
  const links = (items: string[], prefix: string) =>
    items.length
      ? `<ul class="list">${items.map((item) => `<li><a href="${escapeHtml(prefix + item)}">${escapeHtml(item)}</a></li>`).join('')}</ul>`
      : '<p class="muted">None yet.</p>'
  const installations = input.installations.length
    ? `<ul class="list">${input.installations
        .map(
          (
            entry,
          ) => `<li><span>${entry.id} on <strong>${escapeHtml(entry.account)}</strong> (${escapeHtml(entry.selection)}: ${escapeHtml(entry.repositories.join(', ') || 'none')})</span>
          <form class="inline" method="post" action="/_emulator/act/uninstall">${hidden({ installation_id: String(entry.id), return_to: '/_emulator' })}
            <button type="submit" class="danger">Uninstall</button></form></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">Not installed anywhere.</p>'
  const deliveries = input.deliveries.length
    ? `<ul class="list">${input.deliveries
        .map(
          (entry) =>
            `<li><code>${escapeHtml(entry.guid)}</code> ${escapeHtml(entry.event)}${entry.action ? `.${escapeHtml(entry.action)}` : ''} → ${escapeHtml(entry.status)}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No webhooks sent.</p>'
  return page(
    'Emulator',
    `<div class="card"><h1>GitHub emulator</h1>${flashBlock(input.flash)}
      <p><a href="${escapeHtml(input.installUrl)}">Install ${escapeHtml(input.appName)}</a></p>
      <form method="post" action="/_emulator/act/user">
        <label for="new-user">Act as a user (a new login is created)</label>
        <input id="new-user" name="login" type="text" required list="known-users" autocomplete="off">
        <datalist id="known-users">${input.users.map((login) => `<option value="${escapeHtml(login)}">`).join('')}</datalist>
        <div class="actions"><button type="submit">Act as</button></div>
      </form></div>
    <section class="card" aria-labelledby="users-heading"><h2 id="users-heading">Users</h2>${links(input.users, '/_emulator/users/')}</section>
    <section class="card" aria-labelledby="orgs-heading"><h2 id="orgs-heading">Organizations</h2>${links(input.organizations, '/_emulator/users/')}</section>
    <section class="card" aria-labelledby="repos-heading"><h2 id="repos-heading">Repositories</h2>${links(input.repositories, '/')}</section>
    <section class="card" aria-labelledby="installations-heading"><h2 id="installations-heading">Installations of ${escapeHtml(input.appName)}</h2>${installations}</section>
    <section class="card" aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Recent webhook deliveries</h2>${deliveries}</section>`,
  )
}

/** A deterministic initials badge standing in for a GitHub avatar. */
export function avatarSvg(login: string, id: number): string {
  const hue = (id * 47) % 360
  const initials = login.slice(0, 2).toUpperCase()
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${escapeHtml(login)}">
  <rect width="128" height="128" fill="hsl(${hue} 55% 38%)"/>
  <text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="52" fill="#fff">${escapeHtml(initials)}</text>
</svg>
`
}
