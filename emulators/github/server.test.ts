/**
 * The GitHub emulator driven by the real clients the app uses (@octokit/app, @octokit/rest,
 * @octokit/auth-app, @octokit/webhooks) through its base URL, and a contract check: every response
 * it gave for an implemented operation, and every webhook payload it sent, is validated with ajv
 * against the schemas extracted from GitHub's OpenAPI description (openapi-subset.json).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { App } from '@octokit/app'
import { Octokit } from '@octokit/rest'
import { Webhooks } from '@octokit/webhooks'
import Ajv, { type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATIONS, startGithubEmulator, WEBHOOKS, type GithubEmulator, type GithubEmulatorOptions } from './server.ts'

const DAY = 24 * 60 * 60 * 1000
const started: GithubEmulator[] = []

interface Received {
  raw: string
  headers: IncomingHttpHeaders
}

async function startReceiver() {
  const received: Received[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    received.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers })
    res.writeHead(200).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhook`,
    received,
    of(event: string, action?: string) {
      return received
        .filter((delivery) => delivery.headers['x-github-event'] === event)
        .map((delivery) => ({ ...delivery, payload: JSON.parse(delivery.raw) as Record<string, any> }))
        .filter((delivery) => action === undefined || delivery.payload.action === action)
    },
    close: () => closeServer(server),
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

async function start(options: GithubEmulatorOptions = {}): Promise<GithubEmulator> {
  const emulator = await startGithubEmulator({ port: 0, ...options })
  started.push(emulator)
  return emulator
}

/** The app's wiring: @octokit/app with @octokit/rest, pointed at the emulator. */
function appFor(emulator: GithubEmulator) {
  return new App({
    appId: emulator.appId,
    privateKey: emulator.privateKey,
    oauth: { clientId: emulator.clientId, clientSecret: emulator.clientSecret },
    webhooks: { secret: emulator.webhookSecret },
    Octokit: Octokit.defaults({ baseUrl: emulator.url }),
    log: { debug() {}, info() {}, warn() {}, error: console.error },
  })
}

/** An installation token from the App (as @octokit/auth-app gets it), for a client that does not retry 401s. */
async function installationToken(app: ReturnType<typeof appFor>, installationId: number): Promise<string> {
  const octokit = await app.getInstallationOctokit(installationId)
  const { token } = (await octokit.auth({ type: 'installation' })) as { token: string }
  return token
}

function userClient(emulator: GithubEmulator, token: string): Octokit {
  return new Octokit({ auth: token, baseUrl: emulator.url })
}

async function rejection(
  promise: Promise<unknown>,
): Promise<{ status: number; message: string; response?: { data: any; headers: Record<string, string> } }> {
  try {
    await promise
  } catch (error) {
    return error as never
  }
  throw new Error('expected the call to fail')
}

function cookieLessForm(fields: Record<string, string | string[]>): URLSearchParams {
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one)
  return form
}

afterAll(async () => {
  await Promise.all(started.map((emulator) => emulator.close()))
})

describe('GitHub emulator with the real Octokit clients', () => {
  let gh: GithubEmulator
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let app: ReturnType<typeof appFor>

  beforeAll(async () => {
    receiver = await startReceiver()
    gh = await start({
      webhookUrl: receiver.url,
      setupUrl: 'http://localhost:3000/github/install/callback',
      callbackUrls: ['http://localhost:3000/github/authorize/callback'],
    })
    app = appFor(gh)
  })
  afterAll(() => receiver.close())

  it('installs, invites, delivers (member webhook, collaborator check), forks, and revokes', async () => {
    gh.createUser({ login: 'sally', name: 'Sally Seller' })
    gh.createOrganization({ login: 'acme-tools', owners: ['sally'] })
    const repo = gh.createRepository({ owner: 'acme-tools', name: 'starter-kit', private: true })
    gh.createRepository({ owner: 'acme-tools', name: 'not-granted' })

    // The seller installs the App through the consent pages, as a person would.
    const step1 = await fetch(`${gh.installUrl}?state=install-state-1`)
    expect(step1.status).toBe(200)
    expect(await step1.text()).toContain('acme-tools')
    const step2 = await fetch(`${gh.installUrl}?${new URLSearchParams({ state: 'install-state-1', login: 'sally', target: 'acme-tools' })}`)
    expect(step2.status).toBe(200)
    expect(await step2.text()).toContain(`value="${repo.id}"`)
    const installed = await fetch(`${gh.url}/apps/${gh.appSlug}/installations`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: cookieLessForm({
        state: 'install-state-1',
        login: 'sally',
        target: 'acme-tools',
        selection: 'selected',
        repository_ids: String(repo.id),
      }),
    })
    expect(installed.status).toBe(302)
    const setup = new URL(installed.headers.get('location')!)
    expect(setup.origin + setup.pathname).toBe('http://localhost:3000/github/install/callback')
    expect(setup.searchParams.get('setup_action')).toBe('install')
    expect(setup.searchParams.get('state')).toBe('install-state-1')
    const installationId = Number(setup.searchParams.get('installation_id'))

    // No webhook: the app records an installation from the setup callback (GitHub's `installation` created is not read).
    await gh.idle()
    expect(receiver.received).toEqual([])

    // The buyer connects GitHub through the App's user authorization (OAuth), by hand.
    const { url: authorizeUrl } = app.oauth.getWebFlowAuthorizationUrl({
      state: 'oauth-state-1',
      redirectUrl: 'http://localhost:3000/github/authorize/callback',
    })
    expect(authorizeUrl.startsWith(`${gh.url}/login/oauth/authorize?`)).toBe(true)
    const consent = await fetch(authorizeUrl)
    expect(consent.status).toBe(200)
    const consentHtml = await consent.text()
    expect(consentHtml).toContain('<label for="login">GitHub login</label>')
    const authorized = await fetch(`${gh.url}/login/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...Object.fromEntries(new URL(authorizeUrl).searchParams), login: 'bob' }),
    })
    expect(authorized.status).toBe(302)
    const callback = new URL(authorized.headers.get('location')!)
    expect(callback.searchParams.get('state')).toBe('oauth-state-1')
    const { authentication } = await app.oauth.createToken({ code: callback.searchParams.get('code')! })
    expect(authentication.token).toMatch(/^ghu_/)
    const bobClient = userClient(gh, authentication.token)
    const { data: bob } = await bobClient.rest.users.getAuthenticated()
    expect(bob.login).toBe('bob')

    // The app acts with an installation token.
    const octokit = await app.getInstallationOctokit(installationId)
    expect((await octokit.rest.users.getById({ account_id: bob.id })).data.login).toBe('bob')
    const { data: full } = await octokit.rest.repos.get({ owner: 'acme-tools', repo: 'starter-kit' })
    expect(full).toMatchObject({ private: true, default_branch: 'main', owner: { type: 'Organization', login: 'acme-tools' } })
    const { data: branch } = await octokit.rest.repos.getBranch({ owner: 'acme-tools', repo: 'starter-kit', branch: 'main' })
    expect(branch.commit.sha).toBe(repo.headSha)
    expect((await rejection(octokit.rest.repos.get({ owner: 'acme-tools', repo: 'not-granted' }))).status).toBe(404)
    const { data: accessible } = await octokit.rest.apps.listReposAccessibleToInstallation()
    expect(accessible.repositories.map((entry) => entry.full_name)).toEqual(['acme-tools/starter-kit'])

    // Invite: 201 with an invitation; again → the same invitation, not a second one.
    const invited = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'bob',
      permission: 'pull',
    })
    expect(invited.status).toBe(201)
    expect(invited.data).toMatchObject({ permissions: 'read', invitee: { id: bob.id }, expired: false })
    expect(invited.data.html_url).toBe(`${gh.url}/acme-tools/starter-kit/invitations`)
    const again = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'bob',
      permission: 'pull',
    })
    expect(again.data.id).toBe(invited.data.id)
    expect((await octokit.rest.repos.listInvitations({ owner: 'acme-tools', repo: 'starter-kit' })).data).toHaveLength(1)
    expect(
      (await rejection(octokit.rest.repos.checkCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'bob' }))).status,
    ).toBe(404)

    // The buyer accepts (on the invitation's page, as a person would) → member webhook, then the collaborator check is 204.
    expect(await (await fetch(invited.data.html_url)).text()).toContain('Accept as bob')
    const accepted = await fetch(`${gh.url}/_emulator/act/accept`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ invitation_id: String(invited.data.id), return_to: '/acme-tools/starter-kit/invitations' }),
    })
    expect(accepted.status).toBe(303)
    await gh.idle()
    const [member] = receiver.of('member', 'added')
    const verifier = new Webhooks({ secret: gh.webhookSecret })
    expect(await verifier.verify(member.raw, String(member.headers['x-hub-signature-256']))).toBe(true)
    expect(member.headers['x-github-hook-installation-target-id']).toBe(String(gh.appId))
    const seen: Array<Record<string, any>> = []
    app.webhooks.on('member.added', ({ payload }) => void seen.push(payload))
    await app.webhooks.verifyAndReceive({
      id: String(member.headers['x-github-delivery']),
      name: 'member',
      signature: String(member.headers['x-hub-signature-256']),
      payload: member.raw,
    })
    expect(seen[0]).toMatchObject({
      action: 'added',
      member: { id: bob.id, login: 'bob' },
      changes: { permission: { to: 'read' } },
      repository: { full_name: 'acme-tools/starter-kit', private: true },
      installation: { id: installationId },
      organization: { login: 'acme-tools' },
      sender: { login: 'bob' },
    })
    expect((await octokit.rest.repos.checkCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'bob' })).status).toBe(204)
    expect((await octokit.rest.repos.listInvitations({ owner: 'acme-tools', repo: 'starter-kit' })).data).toEqual([])
    const again204 = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'bob',
      permission: 'pull',
    })
    expect(again204.status).toBe(204)

    // The buyer forks → fork webhook with the forkee; the fork is a private repository with its parent.
    expect(gh.fork({ repository: 'acme-tools/starter-kit', login: 'bob' })).toMatchObject({
      fullName: 'bob/starter-kit',
      private: true,
      parent: 'acme-tools/starter-kit',
    })
    await gh.idle()
    const [fork] = receiver.of('fork')
    expect(await verifier.verify(fork.raw, String(fork.headers['x-hub-signature-256']))).toBe(true)
    expect(fork.payload).toMatchObject({
      forkee: { full_name: 'bob/starter-kit', owner: { id: bob.id } },
      repository: { id: repo.id },
      installation: { id: installationId },
    })
    expect(gh.repository({ repository: 'acme-tools/starter-kit' }).forks).toEqual(['bob/starter-kit'])
    const { data: bobFork } = await bobClient.rest.repos.get({ owner: 'bob', repo: 'starter-kit' })
    expect(bobFork).toMatchObject({ fork: true, parent: { full_name: 'acme-tools/starter-kit' }, html_url: `${gh.url}/bob/starter-kit` })

    // A push moves the head.
    const { sha } = gh.pushCommit({ repository: 'acme-tools/starter-kit', message: 'Second release' })
    const { data: moved } = await octokit.rest.repos.getBranch({ owner: 'acme-tools', repo: 'starter-kit', branch: 'main' })
    expect(moved.commit).toMatchObject({ sha, parents: [{ sha: repo.headSha }], commit: { message: 'Second release' } })

    // Revoking removes the collaborator and, as GitHub does, their private fork.
    await octokit.rest.repos.removeCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'bob' })
    expect(
      (await rejection(octokit.rest.repos.checkCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'bob' }))).status,
    ).toBe(404)
    expect(gh.repository({ repository: 'acme-tools/starter-kit' }).forks).toEqual([])
  })

  it('cancels a pending invitation on DELETE collaborator and on DELETE invitation', async () => {
    gh.createUser({ login: 'carol' })
    gh.createUser({ login: 'dave' })
    const installation = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    const octokit = await app.getInstallationOctokit(installation.id)
    const carol = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'carol',
      permission: 'pull',
    })
    await octokit.rest.repos.addCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'dave', permission: 'pull' })
    await octokit.rest.repos.removeCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'dave' })
    await octokit.rest.repos.deleteInvitation({ owner: 'acme-tools', repo: 'starter-kit', invitation_id: carol.data.id })
    expect(gh.repository({ repository: 'acme-tools/starter-kit' }).invitations).toEqual([])
    expect(() => gh.acceptInvitation({ repository: 'acme-tools/starter-kit', login: 'carol' })).toThrow(/no pending invitation/)
  })

  it('accepts and forks through the act-as pages, without JavaScript', async () => {
    gh.createUser({ login: 'erin' })
    const installation = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    const octokit = await app.getInstallationOctokit(installation.id)
    const { data: invitation } = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'erin',
      permission: 'pull',
    })

    const invitationsPage = await (await fetch(invitation.html_url)).text()
    expect(invitationsPage).toContain('Accept as erin')
    const userPage = await (await fetch(`${gh.url}/_emulator/users/erin`)).text()
    expect(userPage).toContain('acme-tools/starter-kit')
    const accepted = await fetch(`${gh.url}/_emulator/act/accept`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ invitation_id: String(invitation.id), return_to: '/_emulator/users/erin' }),
    })
    expect(accepted.status).toBe(303)
    expect(accepted.headers.get('location')).toMatch(/^\/_emulator\/users\/erin\?flash=/)
    const forked = await fetch(`${gh.url}/_emulator/act/fork`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: 'erin', repository: 'acme-tools/starter-kit', return_to: '/_emulator/users/erin' }),
    })
    expect(forked.status).toBe(303)
    await gh.idle()
    expect(receiver.of('member', 'added').some((entry) => entry.payload.member.login === 'erin')).toBe(true)
    expect(receiver.of('fork').some((entry) => entry.payload.forkee.full_name === 'erin/starter-kit')).toBe(true)
    expect(await (await fetch(`${gh.url}/_emulator/users/erin`)).text()).toContain('Your fork')

    // The same helpers over HTTP, for an emulator in another process.
    const created = await fetch(`${gh.url}/_emulator/api/createUser`, { method: 'POST', body: JSON.stringify({ login: 'frank' }) })
    expect(created.status).toBe(200)
    expect(await created.json()).toMatchObject({ login: 'frank', type: 'User' })
    const snapshot = (await (await fetch(`${gh.url}/_emulator/api/snapshot`)).json()) as { accounts: Array<{ login: string }> }
    expect(snapshot.accounts.map((account) => account.login)).toContain('frank')
    expect((await fetch(`${gh.url}/_emulator`)).status).toBe(200)
  })

  it('answers like GitHub for bad credentials, unseen repositories, missing permissions and personal repositories', async () => {
    const bad = await fetch(`${gh.url}/repos/acme-tools/starter-kit`, { headers: { authorization: 'token ghs_nonsense' } })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toEqual({
      message: 'Bad credentials',
      documentation_url: expect.stringContaining('https://docs.github.com/rest'),
      status: '401',
    })

    const stranger = await start()
    const foreign = new App({ appId: gh.appId, privateKey: stranger.privateKey, Octokit: Octokit.defaults({ baseUrl: gh.url }) })
    const jwtError = await rejection(foreign.octokit.request('GET /app'))
    expect(jwtError.status).toBe(401)
    expect(jwtError.response?.data.message).toBe('A JSON web token could not be decoded')

    const installation = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    const narrow = await app.octokit.rest.apps.createInstallationAccessToken({
      installation_id: installation.id,
      permissions: { metadata: 'read' },
    })
    const metadataOnly = userClient(gh, narrow.data.token)
    const forbidden = await rejection(
      metadataOnly.rest.repos.addCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'frank' }),
    )
    expect(forbidden.status).toBe(403)
    expect(forbidden.response?.data).toMatchObject({ message: 'Resource not accessible by integration', status: '403' })
    const tooMuch = await rejection(
      app.octokit.rest.apps.createInstallationAccessToken({ installation_id: installation.id, permissions: { workflows: 'write' } }),
    )
    expect(tooMuch.status).toBe(422)

    // On a personal repository `permission` is ignored: collaborators get write.
    gh.createUser({ login: 'paula' })
    gh.createRepository({ owner: 'paula', name: 'solo' })
    const personal = gh.install({ account: 'paula' })
    const paulaOctokit = await app.getInstallationOctokit(personal.id)
    const { data: invitation } = await paulaOctokit.rest.repos.addCollaborator({
      owner: 'paula',
      repo: 'solo',
      username: 'frank',
      permission: 'pull',
    })
    expect(invitation.permissions).toBe('write')
    const { data: repo } = await paulaOctokit.rest.repos.get({ owner: 'paula', repo: 'solo' })
    expect(repo.owner.type).toBe('User')
    // Another installation's token cannot see this private repository.
    const acmeOctokit = await app.getInstallationOctokit(installation.id)
    expect((await rejection(acmeOctokit.rest.repos.get({ owner: 'paula', repo: 'solo' }))).status).toBe(404)
  })

  it('injects 5xx, rate limits (retry-after, x-ratelimit-reset), delays and dropped connections', async () => {
    const installation = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    const octokit = await app.getInstallationOctokit(installation.id)
    const params = { owner: 'acme-tools', repo: 'starter-kit', username: 'frank', permission: 'pull' } as const

    gh.failNext({ operationId: 'repos/add-collaborator', status: 502, times: 2 })
    expect((await rejection(octokit.rest.repos.addCollaborator(params))).status).toBe(502)
    expect((await rejection(octokit.rest.repos.addCollaborator(params))).status).toBe(502)

    gh.failNext({ path: '/repos/{owner}/{repo}/collaborators/{username}', method: 'PUT', status: 403, headers: { 'retry-after': '30' } })
    const secondary = await rejection(octokit.rest.repos.addCollaborator(params))
    expect(secondary.status).toBe(403)
    expect(secondary.response?.headers['retry-after']).toBe('30')
    expect(secondary.response?.data.message).toMatch(/secondary rate limit/)

    const reset = String(Math.floor(Date.now() / 1000) + 120)
    gh.failNext({ operationId: 'repos/add-collaborator', status: 429, headers: { 'x-ratelimit-reset': reset } })
    const primary = await rejection(octokit.rest.repos.addCollaborator(params))
    expect(primary.status).toBe(429)
    expect(primary.response?.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })

    gh.failNext({ operationId: 'repos/add-collaborator', disconnect: true })
    expect((await rejection(octokit.rest.repos.addCollaborator(params))).status).toBe(500)

    gh.failNext({ operationId: 'repos/add-collaborator', delayMs: 300 })
    const slow = await rejection(octokit.rest.repos.addCollaborator({ ...params, request: { signal: AbortSignal.timeout(100) } }))
    expect(slow.message).toMatch(/abort|timeout/i)
    await new Promise((resolve) => setTimeout(resolve, 250))

    const ok = await octokit.rest.repos.addCollaborator(params)
    expect(ok.status).toBe(201)
    expect(ok.headers['x-ratelimit-limit']).toBe('5000')
  })

  it('keeps ids across renames: old logins are gone, repositories of a renamed owner redirect', async () => {
    const installation = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    const octokit = await app.getInstallationOctokit(installation.id)
    const frank = gh.account({ login: 'frank' })!
    gh.renameAccount({ login: 'frank', newLogin: 'franklin' })
    expect((await octokit.rest.users.getById({ account_id: frank.id })).data.login).toBe('franklin')
    expect(
      (await rejection(octokit.rest.repos.addCollaborator({ owner: 'acme-tools', repo: 'starter-kit', username: 'frank' }))).status,
    ).toBe(404)
    const { data: invitation } = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'franklin',
      permission: 'pull',
    })
    expect(invitation.invitee?.id).toBe(frank.id)

    gh.renameAccount({ login: 'acme-tools', newLogin: 'acme-labs' })
    const { data: moved } = await octokit.rest.repos.get({ owner: 'acme-tools', repo: 'starter-kit' })
    expect(moved.full_name).toBe('acme-labs/starter-kit')
    gh.renameAccount({ login: 'acme-labs', newLogin: 'acme-tools' })
  })

  it('reports uninstalls and removed repositories, after which the App loses access', async () => {
    gh.createUser({ login: 'olga' })
    gh.createOrganization({ login: 'olga-labs', owners: ['olga'] })
    gh.createRepository({ owner: 'olga-labs', name: 'alpha' })
    gh.createRepository({ owner: 'olga-labs', name: 'beta' })
    const installation = gh.install({ account: 'olga-labs' })
    const octokit = userClient(gh, await installationToken(app, installation.id))
    expect((await octokit.rest.repos.get({ owner: 'olga-labs', repo: 'alpha' })).data.name).toBe('alpha')

    gh.removeRepoFromInstallation({ installationId: installation.id, repository: 'alpha' })
    await gh.idle()
    const [removed] = receiver.of('installation_repositories', 'removed')
    expect(removed.payload).toMatchObject({
      repository_selection: 'selected',
      repositories_removed: [{ full_name: 'olga-labs/alpha' }],
      sender: { login: 'olga' },
    })
    const fresh = userClient(gh, await installationToken(appFor(gh), installation.id))
    expect((await rejection(fresh.rest.repos.get({ owner: 'olga-labs', repo: 'alpha' }))).status).toBe(404)
    gh.addRepoToInstallation({ installationId: installation.id, repository: 'alpha' })

    gh.uninstall({ installationId: installation.id })
    await gh.idle()
    expect(receiver.of('installation', 'deleted').map((entry) => entry.payload.installation.id)).toContain(installation.id)
    expect((await rejection(octokit.rest.repos.get({ owner: 'olga-labs', repo: 'beta' }))).status).toBe(401)
    expect((await rejection(app.octokit.rest.apps.getInstallation({ installation_id: installation.id }))).status).toBe(404)
  })

  it("serves the App, an installation, paginated invitations and a seller's installations", async () => {
    const { data: self } = await app.octokit.rest.apps.getAuthenticated()
    expect(self).toMatchObject({ id: gh.appId, slug: gh.appSlug, client_id: gh.clientId })
    const acme = gh.snapshot().installations.find((entry) => entry.account === 'acme-tools')!
    expect((await app.octokit.rest.apps.getInstallation({ installation_id: acme.id })).data).toMatchObject({
      account: { login: 'acme-tools' },
      permissions: { administration: 'write', contents: 'read', metadata: 'read', members: 'read', checks: 'read', statuses: 'read' },
      events: ['check_run', 'check_suite', 'fork', 'member', 'release', 'status'],
    })

    const octokit = await app.getInstallationOctokit(acme.id)

    // A seller's user token lists the installations they administer (how the app checks a setup callback).
    const sally = userClient(gh, gh.createUserToken({ login: 'sally' }).token)
    const { data: mine } = await sally.rest.apps.listInstallationsForAuthenticatedUser()
    expect(mine.installations.map((entry) => entry.id)).toEqual([acme.id])

    gh.createUser({ login: 'ivan' })
    const { data: invitation } = await octokit.rest.repos.addCollaborator({
      owner: 'acme-tools',
      repo: 'starter-kit',
      username: 'ivan',
      permission: 'pull',
    })
    // Link headers page through the list, as octokit.paginate reads them.
    const pending = gh.repository({ repository: 'acme-tools/starter-kit' }).invitations.map((entry) => entry.id)
    expect(pending.length).toBeGreaterThan(1)
    const first = await octokit.rest.repos.listInvitations({ owner: 'acme-tools', repo: 'starter-kit', per_page: 1 })
    expect(first.data).toHaveLength(1)
    expect(first.headers.link).toContain('rel="next"')
    const all = await octokit.paginate(octokit.rest.repos.listInvitations, { owner: 'acme-tools', repo: 'starter-kit', per_page: 1 })
    expect(all.map((entry) => entry.id)).toEqual(pending)
    expect(all.map((entry) => entry.id)).toContain(invitation.id)
    gh.declineInvitation({ invitationId: invitation.id })
    expect(gh.repository({ repository: 'acme-tools/starter-kit' }).invitations.map((entry) => entry.login)).not.toContain('ivan')
  })

  it('exchanges and refreshes user tokens, and refuses bad codes and secrets like GitHub', async () => {
    const { code } = gh.authorize({ login: 'gina' })
    const { authentication } = await app.oauth.createToken({ code })
    expect(authentication).toMatchObject({ token: expect.stringMatching(/^ghu_/), refreshToken: expect.stringMatching(/^ghr_/) })
    const refreshed = await app.oauth.refreshToken({ refreshToken: (authentication as { refreshToken: string }).refreshToken })
    expect(refreshed.authentication.token).not.toBe(authentication.token)
    expect((await userClient(gh, refreshed.authentication.token).rest.users.getAuthenticated()).data.login).toBe('gina')
    expect((await rejection(userClient(gh, authentication.token).rest.users.getAuthenticated())).status).toBe(401)

    const reused = await rejection(app.oauth.createToken({ code }))
    expect(reused.message).toMatch(/bad_verification_code/)
    const wrongSecret = await fetch(`${gh.url}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: gh.clientId, client_secret: 'nope', code: gh.authorize({ login: 'gina' }).code }),
    })
    expect(await wrongSecret.json()).toMatchObject({ error: 'incorrect_client_credentials' })
    const formAnswer = await fetch(`${gh.url}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: gh.clientId, client_secret: gh.clientSecret, code: gh.authorize({ login: 'gina' }).code }),
    })
    expect(new URLSearchParams(await formAnswer.text()).get('token_type')).toBe('bearer')

    const denied = await fetch(
      `${gh.url}/login/oauth/authorize?${new URLSearchParams({ client_id: gh.clientId, redirect_uri: 'https://evil.example/cb', state: 's' })}`,
      { redirect: 'manual' },
    )
    expect(denied.status).toBe(302)
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('redirect_uri_mismatch')
  })
})

describe('GitHub emulator: time and limits', () => {
  it('expires invitations after 7 days and still authenticates the App across a moved clock', async () => {
    const gh = await start()
    gh.createUser({ login: 'sam' })
    gh.createUser({ login: 'hana' })
    gh.createOrganization({ login: 'tools-co', owners: ['sam'] })
    gh.createRepository({ owner: 'tools-co', name: 'kit' })
    const installation = gh.install({ account: 'tools-co' })
    const octokit = userClient(gh, await installationToken(appFor(gh), installation.id))
    const { data: first } = await octokit.rest.repos.addCollaborator({
      owner: 'tools-co',
      repo: 'kit',
      username: 'hana',
      permission: 'pull',
    })

    gh.advanceClock({ ms: 7 * DAY + 60_000 })
    // The old installation token has expired; a new App signs its JWT by the real clock and
    // @octokit/auth-app corrects it from the emulator's Date header (GitHub's clock-skew answer).
    expect((await rejection(octokit.rest.repos.listInvitations({ owner: 'tools-co', repo: 'kit' }))).status).toBe(401)
    const later = await appFor(gh).getInstallationOctokit(installation.id)
    const { data: invitations } = await later.rest.repos.listInvitations({ owner: 'tools-co', repo: 'kit' })
    expect(invitations).toMatchObject([{ id: first.id, expired: true }])
    expect(() => gh.acceptInvitation({ invitationId: first.id })).toThrow(/expired/)
    const { data: second } = await later.rest.repos.addCollaborator({
      owner: 'tools-co',
      repo: 'kit',
      username: 'hana',
      permission: 'pull',
    })
    expect(second.id).not.toBe(first.id)
    expect(second.expired).toBe(false)
  })

  it('limits invitations to 50 per repository per 24 hours (organization members exempt)', async () => {
    const gh = await start()
    gh.createUser({ login: 'owner1' })
    gh.createUser({ login: 'member1' })
    gh.createOrganization({ login: 'busy-org', owners: ['owner1'], members: ['member1'] })
    gh.createRepository({ owner: 'busy-org', name: 'popular' })
    const installation = gh.install({ account: 'busy-org' })
    const octokit = await appFor(gh).getInstallationOctokit(installation.id)
    const invite = (username: string) =>
      octokit.rest.repos.addCollaborator({ owner: 'busy-org', repo: 'popular', username, permission: 'pull' })
    for (let i = 1; i <= 51; i += 1) gh.createUser({ login: `buyer-${i}` })
    for (let i = 1; i <= 50; i += 1) expect((await invite(`buyer-${i}`)).status).toBe(201)

    const limited = await rejection(invite('buyer-51'))
    expect(limited.status).toBe(422)
    expect(limited.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Repository', code: 'custom', field: 'invitations' }],
      status: '422',
    })
    expect((await invite('buyer-1')).status).toBe(201)
    expect((await invite('member1')).status).toBe(204)

    gh.advanceClock({ ms: DAY + 1000 })
    const next = await appFor(gh).getInstallationOctokit(installation.id)
    expect((await next.rest.repos.addCollaborator({ owner: 'busy-org', repo: 'popular', username: 'buyer-51' })).status).toBe(201)
  })

  it('seeds demo data idempotently, with the ids given and without webhooks', async () => {
    const receiver = await startReceiver()
    try {
      const gh = await start({ webhookUrl: receiver.url })
      const spec = {
        users: [{ login: 'demo-seller', id: 9_000_001 }, { login: 'demo-buyer', id: 9_000_002 }, { login: 'late-buyer' }],
        organizations: [{ login: 'demo-org', id: 9_100_001, owners: ['demo-seller'] }],
        repositories: [
          {
            owner: 'demo-org',
            name: 'saas-kit',
            id: 9_200_001,
            collaborators: ['demo-buyer'],
            invitations: [{ login: 'late-buyer', sentAt: new Date(Date.now() - 8 * DAY).toISOString() }],
            forks: ['demo-buyer'],
          },
        ],
        installations: [{ account: 'demo-org', id: 9_300_001, repositories: ['saas-kit'] }],
      }
      const first = gh.seed(spec)
      expect(first.installations).toEqual([
        {
          id: 9_300_001,
          account: 'demo-org',
          accountType: 'Organization',
          repositorySelection: 'selected',
          repositories: ['demo-org/saas-kit'],
        },
      ])
      expect(first.repositories[0]).toMatchObject({
        id: 9_200_001,
        collaborators: [{ id: 9_000_002, login: 'demo-buyer', permission: 'pull' }],
        invitations: [{ login: 'late-buyer', expired: true }],
        forks: ['demo-buyer/saas-kit'],
      })
      expect(gh.seed(spec)).toEqual(first)
      await gh.idle()
      expect(receiver.received).toEqual([])
      const octokit = await appFor(gh).getInstallationOctokit(9_300_001)
      expect((await octokit.rest.repos.checkCollaborator({ owner: 'demo-org', repo: 'saas-kit', username: 'demo-buyer' })).status).toBe(204)
    } finally {
      await receiver.close()
    }
  })

  it('returns to the callback URL with a code when user authorization is requested during installation', async () => {
    const gh = await start({ requestOAuthOnInstall: true, callbackUrls: ['http://localhost:3000/github/callback'] })
    gh.createUser({ login: 'ola' })
    const installed = await fetch(`${gh.url}/apps/${gh.appSlug}/installations`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: 'st', login: 'ola', target: 'ola', selection: 'all', new_repository: 'tool' }),
    })
    const callback = new URL(installed.headers.get('location')!)
    expect(callback.origin + callback.pathname).toBe('http://localhost:3000/github/callback')
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({
      setup_action: 'install',
      state: 'st',
      installation_id: expect.stringMatching(/^\d+$/),
    })
    const { authentication } = await appFor(gh).oauth.createToken({ code: callback.searchParams.get('code')! })
    const { data } = await userClient(gh, authentication.token).rest.apps.listInstallationsForAuthenticatedUser()
    expect(data.installations.map((entry) => String(entry.id))).toEqual([callback.searchParams.get('installation_id')])
  })

  it('keeps its state, keys and ids in the data file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'github-emulator-'))
    try {
      const dataFile = join(dir, 'github.json')
      const first = await startGithubEmulator({ port: 0, dataFile })
      first.createUser({ login: 'kept' })
      first.createOrganization({ login: 'kept-org', owners: ['kept'] })
      first.createRepository({ owner: 'kept-org', name: 'kept-repo' })
      const installation = first.install({ account: 'kept-org' })
      await first.close()
      const second = await start({ dataFile })
      expect(second.appId).toBe(first.appId)
      expect(second.privateKey).toBe(first.privateKey)
      const octokit = await appFor(second).getInstallationOctokit(installation.id)
      expect((await octokit.rest.repos.get({ owner: 'kept-org', repo: 'kept-repo' })).data.owner.login).toBe('kept-org')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// ---------------------------------------------------------------------------
// Contract: every response and webhook payload above, against GitHub's published schemas.

interface Subset {
  operations: Record<string, { responses: Record<string, { schema?: unknown }> }>
  webhooks: Record<string, { event: string; action?: string }>
  components: { schemas: Record<string, unknown> }
}

/**
 * OpenAPI 3.0 → what Ajv takes: `nullable` without `type` becomes anyOf [schema, null]; a
 * discriminator `mapping` (which Ajv does not support) picks the branch by the property. One
 * erratum of GitHub's description is read as GitHub means it: a nullable enum whose list lacks null
 * (a check run's `conclusion`, null until the run completes; the description's own check suite lists
 * null) is read as taking null, as GitHub sends it.
 */
function forAjv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forAjv)
  if (value === null || typeof value !== 'object') return value
  const object = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, forAjv(child)])) as Record<string, unknown>
  if (object.nullable === true && Array.isArray(object.enum) && !object.enum.includes(null)) object.enum = [...object.enum, null]
  if (object.nullable === true && !('type' in object)) {
    delete object.nullable
    return { anyOf: [object, { type: 'null' }] }
  }
  const discriminator = object.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined
  if (discriminator?.mapping) {
    delete object.discriminator
    delete object.oneOf
    object.anyOf = Object.values(discriminator.mapping).map(($ref) => ({ $ref }))
    object.allOf = Object.entries(discriminator.mapping).map(([value, $ref]) => ({
      if: { properties: { [discriminator.propertyName]: { const: value } }, required: [discriminator.propertyName] },
      then: { $ref },
    }))
  }
  return object
}

describe('GitHub emulator: checks and commit statuses (issue 30)', () => {
  let gh: GithubEmulator
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let app: ReturnType<typeof appFor>
  let installationId: number
  let sha: string

  beforeAll(async () => {
    receiver = await startReceiver()
    gh = await start({ webhookUrl: receiver.url })
    app = appFor(gh)
    gh.createUser({ login: 'cora' })
    gh.createUser({ login: 'rita' })
    gh.createOrganization({ login: 'checkers', owners: ['cora'] })
    gh.createRepository({ owner: 'checkers', name: 'ci-kit', private: true })
    installationId = gh.install({ account: 'checkers', repositories: ['ci-kit'], sender: 'cora' }).id
    sha = gh.pushCommit({ repository: 'checkers/ci-kit', message: 'Release 1.0' }).sha
  })
  afterAll(() => receiver.close())

  it('asks for checks: read and statuses: read and subscribes to the check events', async () => {
    const { data } = await app.octokit.request('GET /app')
    expect(data!.permissions).toMatchObject({ checks: 'read', statuses: 'read' })
    expect(data!.events).toEqual(expect.arrayContaining(['check_run', 'check_suite', 'status']))
  })

  it("reads a commit's check runs and combined status with the installation's token; none at first", async () => {
    const octokit = await app.getInstallationOctokit(installationId)
    const runs = await octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha })
    expect(runs.data).toEqual({ total_count: 0, check_runs: [] })
    const combined = await octokit.rest.repos.getCombinedStatusForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha })
    expect(combined.data).toMatchObject({ state: 'pending', total_count: 0, statuses: [], sha })

    gh.setCheckRun({ repository: 'checkers/ci-kit', sha, name: 'build', conclusion: 'success' })
    const lint = gh.setCheckRun({ repository: 'checkers/ci-kit', sha, name: 'lint', status: 'in_progress' })
    gh.setCommitStatus({ repository: 'checkers/ci-kit', sha, state: 'success', context: 'ci/test', login: 'cora' })

    const during = await octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: 'main' })
    expect(during.data.check_runs.map((run) => [run.name, run.status, run.conclusion, run.app?.slug])).toEqual([
      ['lint', 'in_progress', null, 'github-actions'],
      ['build', 'completed', 'success', 'github-actions'],
    ])
    gh.completeCheckRun({ id: lint.id, conclusion: 'failure' })
    const failed = await octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha, status: 'completed' })
    expect(failed.data.check_runs.map((run) => `${run.name}:${run.conclusion}`)).toEqual(['lint:failure', 'build:success'])
    // A run's re-run: the latest of each name counts unless filter=all.
    gh.setCheckRun({ repository: 'checkers/ci-kit', sha, name: 'lint', conclusion: 'success' })
    expect((await octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha })).data.total_count).toBe(2)
    expect((await octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha, filter: 'all' })).data.total_count).toBe(3)

    expect((await octokit.rest.repos.getCombinedStatusForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha })).data.state).toBe('success')
    gh.setCommitStatus({ repository: 'checkers/ci-kit', sha, state: 'error', context: 'ci/deploy', login: 'cora' })
    const after = await octokit.rest.repos.getCombinedStatusForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha })
    expect(after.data.state).toBe('failure')
    expect(after.data.statuses.map((status) => `${status.context}:${status.state}`)).toEqual(['ci/deploy:error', 'ci/test:success'])
  })

  it('refuses what GitHub refuses: a user without access, unknown commits, a token without checks: read', async () => {
    const octokit = await app.getInstallationOctokit(installationId)
    const rita = userClient(gh, gh.createUserToken({ login: 'rita' }).token)
    expect((await rejection(rita.rest.repos.getCombinedStatusForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha }))).status).toBe(404)
    const unknown = await rejection(octokit.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: 'f'.repeat(40) }))
    expect([unknown.status, unknown.response?.data.message]).toEqual([422, `No commit found for SHA: ${'f'.repeat(40)}`])
    expect(() => gh.setCommitStatus({ repository: 'checkers/ci-kit', sha, state: 'great', login: 'cora' })).toThrow(/Validation Failed/)
    // Narrowing a token to fewer permissions than the installation's takes checks away as on GitHub.
    const token = await app.octokit.request('POST /app/installations/{installation_id}/access_tokens', {
      installation_id: installationId,
      permissions: { metadata: 'read' },
    })
    const narrow = userClient(gh, token.data.token)
    expect((await rejection(narrow.rest.checks.listForRef({ owner: 'checkers', repo: 'ci-kit', ref: sha }))).status).toBe(403)
  })

  it('sends check_run, check_suite and status webhooks, signed, to an App with checks: read', async () => {
    await gh.idle()
    const webhooks = new Webhooks({ secret: gh.webhookSecret })
    // In the order sent (deliveries run side by side, so they may arrive in another: GitHub promises no order either).
    const sent = (event: string, action?: string) =>
      gh.deliveries.filter((delivery) => delivery.event === event && (action === undefined || delivery.action === action))
    const run = (delivery: { payload: Record<string, any> }) => delivery.payload.check_run as { name: string; conclusion: string }
    expect(sent('check_run', 'created').map((entry) => run(entry).name)).toEqual(['build', 'lint', 'lint'])
    expect(sent('check_run', 'completed').map((entry) => `${run(entry).name}:${run(entry).conclusion}`)).toEqual([
      'build:success',
      'lint:failure',
      'lint:success',
    ])
    expect(sent('check_suite', 'completed').at(-1)!.payload.check_suite).toMatchObject({
      head_sha: sha,
      status: 'completed',
      app: { slug: 'github-actions' },
    })
    expect(sent('status').map((entry) => `${entry.payload.context}:${entry.payload.state}`)).toEqual(['ci/test:success', 'ci/deploy:error'])
    const received = [...receiver.of('check_run'), ...receiver.of('check_suite'), ...receiver.of('status')]
    expect(received).toHaveLength(sent('check_run').length + sent('check_suite').length + sent('status').length)
    for (const delivery of received) {
      expect(delivery.payload.installation.id).toBe(installationId)
      expect(await webhooks.verify(delivery.raw, String(delivery.headers['x-hub-signature-256']))).toBe(true)
    }
  })

  it("sets a commit's checks from its page, without JavaScript", async () => {
    const other = gh.pushCommit({ repository: 'checkers/ci-kit', message: 'Release 1.1' }).sha
    const repoPage = await (await fetch(`${gh.url}/checkers/ci-kit`)).text()
    expect(repoPage).toContain(`/checkers/ci-kit/commit/${other}`)
    const commitUrl = `${gh.url}/checkers/ci-kit/commit/${other}`
    expect(await (await fetch(commitUrl)).text()).toContain('No check runs.')
    const post = (action: string, fields: Record<string, string>) =>
      fetch(`${gh.url}/_emulator/act/${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: cookieLessForm({ repository: 'checkers/ci-kit', sha: other, return_to: `/checkers/ci-kit/commit/${other}`, ...fields }),
      })
    const added = await post('check-run', { name: 'e2e', result: 'in_progress' })
    expect(added.status).toBe(303)
    const running = await (await fetch(commitUrl)).text()
    expect(running).toContain('Finish e2e')
    const runId = gh.commitChecks({ repository: 'checkers/ci-kit', sha: other }).checkRuns[0].id
    expect((await post('complete-check-run', { id: String(runId), conclusion: 'timed_out' })).status).toBe(303)
    expect((await post('status', { context: 'ci/build', state: 'success', description: 'Built', login: 'cora' })).status).toBe(303)
    expect((await post('status', { context: 'ci/build', state: 'success', login: 'rita' })).status).toBe(403)
    expect(gh.commitChecks({ repository: 'checkers/ci-kit', sha: other })).toMatchObject({
      checkRuns: [{ name: 'e2e', status: 'completed', conclusion: 'timed_out', app: 'GitHub Actions' }],
      statuses: [{ context: 'ci/build', state: 'success', description: 'Built', creator: 'cora' }],
      combinedState: 'success',
    })
    const page = await (await fetch(commitUrl)).text()
    expect(page).toContain('timed_out')
    expect(page).toContain('set by cora')
  })
})

describe('GitHub emulator: releases (issue 30)', () => {
  let gh: GithubEmulator
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let app: ReturnType<typeof appFor>
  let installationId: number

  beforeAll(async () => {
    receiver = await startReceiver()
    gh = await start({ webhookUrl: receiver.url })
    app = appFor(gh)
    gh.createUser({ login: 'rhea' })
    gh.createUser({ login: 'reader' })
    gh.createOrganization({ login: 'shippers', owners: ['rhea'] })
    gh.createRepository({ owner: 'shippers', name: 'kit', private: true })
    installationId = gh.install({ account: 'shippers', repositories: ['kit'], sender: 'rhea' }).id
    gh.pushCommit({ repository: 'shippers/kit', message: 'First' })
  })
  afterAll(() => receiver.close())

  it('asks for contents: read and subscribes to release', async () => {
    const { data } = await app.octokit.request('GET /app')
    expect(data!.permissions).toMatchObject({ contents: 'read' })
    expect(data!.events).toContain('release')
  })

  it("answers GitHub's 404 for the latest release of a repository that has none, then the newest full release", async () => {
    const octokit = await app.getInstallationOctokit(installationId)
    const none = await rejection(octokit.rest.repos.getLatestRelease({ owner: 'shippers', repo: 'kit' }))
    expect([none.status, none.response?.data.message]).toEqual([404, 'Not Found'])

    const first = gh.publishRelease({ repository: 'shippers/kit', tag: 'v1.0.0', name: 'One', body: 'The first.', login: 'rhea' })
    expect(first).toMatchObject({ tag: 'v1.0.0', draft: false, prerelease: false, author: 'rhea' })
    gh.advanceClock({ ms: 60_000 })
    gh.publishRelease({ repository: 'shippers/kit', tag: 'v1.1.0-rc.1', prerelease: true, login: 'rhea' })
    gh.advanceClock({ ms: 60_000 })
    expect(gh.publishRelease({ repository: 'shippers/kit', tag: 'v2.0.0', draft: true, login: 'rhea' })).toMatchObject({
      draft: true,
      publishedAt: null,
    })

    // The latest is the newest published full release: not the prerelease, not the draft.
    const { data: latest } = await octokit.rest.repos.getLatestRelease({ owner: 'shippers', repo: 'kit' })
    expect(latest).toMatchObject({ id: first.id, tag_name: 'v1.0.0', name: 'One', body: 'The first.', author: { login: 'rhea' } })
    expect(latest.published_at).toEqual(expect.any(String))
    expect(gh.releases({ repository: 'shippers/kit' }).map((release) => release.tag)).toEqual(['v2.0.0', 'v1.1.0-rc.1', 'v1.0.0'])
  })

  it('refuses what GitHub refuses: a second release of a tag, no tag, an unknown target, no push access; no contents: read', async () => {
    const publish = (input: { tag: string; target?: string; login?: string }) => () =>
      gh.publishRelease({ repository: 'shippers/kit', login: 'rhea', ...input })
    expect(publish({ tag: 'v1.0.0' })).toThrow(/Validation Failed/)
    expect(publish({ tag: '' })).toThrow(/tag_name/)
    expect(publish({ tag: 'v9', target: 'nope' })).toThrow(/Validation Failed/)
    expect(publish({ tag: 'v9', login: 'reader' })).toThrow(/no push access/)
    const reader = userClient(gh, gh.createUserToken({ login: 'reader' }).token)
    expect((await rejection(reader.rest.repos.getLatestRelease({ owner: 'shippers', repo: 'kit' }))).status).toBe(404)
    const token = await app.octokit.rest.apps.createInstallationAccessToken({
      installation_id: installationId,
      permissions: { metadata: 'read' },
    })
    const narrow = await rejection(userClient(gh, token.data.token).rest.repos.getLatestRelease({ owner: 'shippers', repo: 'kit' }))
    expect([narrow.status, narrow.response?.data.message]).toEqual([403, 'Resource not accessible by integration'])
  })

  it('sends release published and released (a prerelease only published, a draft nothing), signed, to the App', async () => {
    await gh.idle()
    const webhooks = new Webhooks({ secret: gh.webhookSecret })
    const releases = receiver.of('release')
    // In the order sent (deliveries run side by side, so they may arrive in another: GitHub promises no order either).
    const sent = gh.deliveries.filter((delivery) => delivery.event === 'release')
    expect(releases).toHaveLength(sent.length)
    expect(sent.map((entry) => `${entry.action}:${(entry.payload.release as { tag_name: string }).tag_name}`)).toEqual([
      'published:v1.0.0',
      'released:v1.0.0',
      'published:v1.1.0-rc.1',
    ])
    for (const delivery of releases) {
      expect(delivery.payload.installation.id).toBe(installationId)
      expect(delivery.payload.repository.full_name).toBe('shippers/kit')
      expect(await webhooks.verify(delivery.raw, String(delivery.headers['x-hub-signature-256']))).toBe(true)
    }
  })

  it('publishes and deletes a release from the repository page, without JavaScript; deleting sends release deleted', async () => {
    const releasesUrl = `${gh.url}/shippers/kit/releases`
    expect(await (await fetch(`${gh.url}/shippers/kit`)).text()).toContain('/shippers/kit/releases')
    const post = (action: string, fields: Record<string, string>) =>
      fetch(`${gh.url}/_emulator/act/${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: cookieLessForm({ repository: 'shippers/kit', return_to: '/shippers/kit/releases', ...fields }),
      })
    const published = await post('release', {
      tag: 'v1.2.0',
      name: 'Faster',
      body: 'Builds in half the time.',
      kind: 'release',
      login: 'rhea',
    })
    expect(published.status).toBe(303)
    expect(published.headers.get('location')).toContain('Release+v1.2.0+published')
    const listed = await (await fetch(releasesUrl)).text()
    expect(listed).toContain('Faster')
    expect(listed).toContain('Builds in half the time.')
    const again = await post('release', { tag: 'v1.2.0', kind: 'release', login: 'rhea' })
    expect(again.status).toBe(422)
    expect(await again.text()).toContain('a release with this tag name exists already')
    expect((await post('release', { tag: 'v1.3.0', kind: 'release', login: 'reader' })).status).toBe(403)
    const id = gh.releases({ repository: 'shippers/kit' }).find((release) => release.tag === 'v1.2.0')!.id
    expect((await post('delete-release', { id: String(id), login: 'rhea' })).status).toBe(303)
    expect(gh.releases({ repository: 'shippers/kit' }).map((release) => release.tag)).not.toContain('v1.2.0')
    // The tag stays: a new release of it is made at the same commit.
    const head = gh.repository({ repository: 'shippers/kit' }).headSha
    gh.pushCommit({ repository: 'shippers/kit' })
    expect(gh.publishRelease({ repository: 'shippers/kit', tag: 'v1.2.0', login: 'rhea' }).sha).toBe(head)
    await gh.idle()
    expect(receiver.of('release', 'deleted').map((entry) => entry.payload.release.tag_name)).toEqual(['v1.2.0'])
  })
})

describe('GitHub emulator contract (openapi-subset.json)', () => {
  const subset = JSON.parse(readFileSync(new URL('./openapi-subset.json', import.meta.url), 'utf8')) as Subset
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'github', ...(forAjv(subset) as object) })
  const validators = new Map<string, ValidateFunction>()
  const validator = (pointer: string) => {
    let compiled = validators.get(pointer)
    if (!compiled) validators.set(pointer, (compiled = ajv.compile({ $ref: `github#${pointer}` })))
    return compiled
  }
  const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')

  it('lists exactly the operations and webhooks the emulator implements, with a schema for each', () => {
    expect(Object.keys(subset.operations).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort())
    expect(Object.keys(subset.webhooks).sort()).toEqual(WEBHOOKS.map((hook) => hook.name).sort())
  })

  it('validates every response given above against its operation schema (errors: the declared one or basic-error)', () => {
    const exchanges = started.flatMap((emulator) => emulator.exchanges)
    const problems: string[] = []
    for (const exchange of exchanges) {
      const responses = subset.operations[exchange.operationId].responses
      const declared = responses[String(exchange.status)]
      if (!declared && exchange.status < 400 && exchange.status !== 301) {
        problems.push(`${exchange.operationId} answered ${exchange.status}, which GitHub does not declare`)
        continue
      }
      const pointer = declared?.schema
        ? `/operations/${escape(exchange.operationId)}/responses/${exchange.status}/schema`
        : exchange.status >= 300 && exchange.body !== undefined
          ? '/components/schemas/basic-error'
          : undefined
      if (!pointer) {
        if (exchange.body !== undefined && exchange.status < 300)
          problems.push(`${exchange.operationId} ${exchange.status} has a body, GitHub sends none`)
        continue
      }
      const validate = validator(pointer)
      if (!validate(exchange.body)) {
        problems.push(
          `${exchange.method} ${exchange.path} → ${exchange.status}: ${ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600)}`,
        )
      }
    }
    expect(problems).toEqual([])
    // Every operation was exercised with a success status at least once.
    const succeeded = new Set(exchanges.filter((exchange) => exchange.status < 300).map((exchange) => exchange.operationId))
    expect(OPERATIONS.map((op) => op.operationId).filter((id) => !succeeded.has(id))).toEqual([])
  })

  it('validates every webhook payload sent above against its webhook schema', () => {
    const deliveries = started.flatMap((emulator) => emulator.deliveries)
    const problems: string[] = []
    const sent = new Set<string>()
    for (const delivery of deliveries) {
      const hook = WEBHOOKS.find((entry) => entry.event === delivery.event && ('action' in entry ? entry.action === delivery.action : true))
      if (!hook) {
        problems.push(`no schema for ${delivery.event}.${delivery.action}`)
        continue
      }
      sent.add(hook.name)
      const validate = validator(`/webhooks/${escape(hook.name)}/schema`)
      if (!validate(delivery.payload)) problems.push(`${hook.name}: ${ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600)}`)
    }
    expect(problems).toEqual([])
    expect(WEBHOOKS.map((hook) => hook.name).filter((name) => !sent.has(name))).toEqual([])
  })
})
