import { describe, expect, it } from 'vitest'
import * as adminRoute from '../../app/routes/admin.tsx'
import * as listingApi from '../../app/routes/api/listing.ts'
import * as listingsApi from '../../app/routes/api/listings.ts'
import * as checkoutRoute from '../../app/routes/checkout.tsx'
import * as createRoute from '../../app/routes/listing-create.tsx'
import * as editRoute from '../../app/routes/listing-edit.tsx'
import * as listingPage from '../../app/routes/listing.tsx'
import * as profileRoute from '../../app/routes/profile.tsx'
import * as sellerDashboard from '../../app/routes/seller-dashboard.tsx'
import { connectGithubAccount } from '../../app/server/domain/github-accounts.server.ts'
import { repositoryLost } from '../../app/server/domain/github-repository-access.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { githubEmulator as gh } from '../support/github.ts'
import { giveBankDetails, insertSale, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { formPost } from './listings-support.ts'

/*
 * The screens of delivery through GitHub (issue 16) and their loaders' data,
 * against real PostgreSQL and the GitHub emulator: the profile's GitHub card,
 * the listing form's "Source repository" (form and API), the listing page's
 * delivery method, checkout's connect-GitHub-first state, the seller
 * dashboard's Reconnect GitHub alert and the admin's dispute evidence.
 */

let n = 0
const unique = () => `${++n}${Math.random().toString(36).slice(2, 6)}`

/** A seller (approved bank details) whose organization and personal account have the App installed. */
async function sellerOnGithub() {
  const id = unique()
  const seller = await signUp('seller')
  await giveBankDetails(seller.id, 'approved')
  const login = `seller-${id}`
  gh.createUser({ login })
  const org = gh.createOrganization({ login: `acme-${id}`, owners: [login] })
  const repo = gh.createRepository({ owner: org.login, name: 'starter-kit', private: true })
  const personal = gh.createRepository({ owner: login, name: 'side-project', private: true })
  const orgInstallation = gh.install({ account: org.login })
  const personalInstallation = gh.install({ account: login })
  const personalAccount = gh.account({ login }) as { id: number }
  await db
    .insertInto('githubInstallations')
    .values([
      { id: orgInstallation.id, userId: seller.id, accountId: org.id, accountLogin: org.login, accountType: 'Organization' },
      { id: personalInstallation.id, userId: seller.id, accountId: personalAccount.id, accountLogin: login, accountType: 'User' },
    ])
    .execute()
  return { seller, org, repo, personal, orgInstallation }
}

function listingForm(fields: Record<string, string>) {
  const form = new FormData()
  const all: Record<string, string> = {
    title: 'GitHub Starter',
    shortDescription: 'Delivered from GitHub.',
    type: 'template',
    price: '49.00',
    licence: 'commercial',
    deliveryTimeframe: 'instant',
    visible: 'on',
    ...fields,
  }
  for (const [name, value] of Object.entries(all)) form.append(name, value)
  return form
}

const get = (path: string, token?: string) => new Request(`${APP}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })

async function listingRow(id: string) {
  return db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('listing form: Source repository', () => {
  it('offers the installations’ repositories: organization ones to choose, personal ones listed but not', async () => {
    const { seller, repo, personal } = await sellerOnGithub()
    const response = await callRoute(createRoute, get('/seller/create', seller.token))
    expect(response.status).toBe(200)
    const { source } = await response.json()
    expect(source).toMatchObject({ enabled: true, connected: true, unavailable: false, current: null, selected: '' })
    expect(source.repositories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: repo.id, fullName: repo.fullName, ownerType: 'Organization', connectable: true }),
        expect.objectContaining({ id: personal.id, fullName: personal.fullName, ownerType: 'User', connectable: false }),
      ]),
    )
  })

  it('saving with a repository connects it and records the head commit; the page says verified, the name only to its seller', async () => {
    const { seller, repo } = await sellerOnGithub()
    // Instant delivery with a repository needs no private link.
    const response = await callRoute(createRoute, formPost('/seller/create', listingForm({ githubRepoId: String(repo.id) }), seller.token))
    expect(response.status, await response.clone().text()).toBe(302)
    const slug = response.headers.get('Location')!.replace('/listing/', '')
    const listing = await db.selectFrom('listings').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow()
    expect(listing).toMatchObject({
      visible: true,
      githubRepoId: repo.id,
      githubRepoFullName: repo.fullName,
      githubListedSha: gh.repository({ repository: repo.fullName }).headSha,
      deliveryUrl: null,
    })

    const visitor = await callRoute(listingPage, get(`/listing/${slug}`), { slug })
    const visitorText = await visitor.text()
    // Issue 30: the listed commit's checks were read at connection (none in this repository).
    expect(JSON.parse(visitorText).delivery).toEqual({
      verified: true,
      ownerSource: null,
      checks: { summary: 'none', passed: 0, failed: 0, pending: 0, readAt: expect.any(String) },
    })
    expect(visitorText).not.toContain(repo.fullName)
    const owner = await (await callRoute(listingPage, get(`/listing/${slug}`, seller.token), { slug })).json()
    expect(owner.delivery.ownerSource).toMatchObject({ fullName: repo.fullName, headSha: listing.githubListedSha, accessLost: false })

    // The edit screen preselects it; choosing none disconnects, and the listing is delivered by hand again.
    const edit = await (await callRoute(editRoute, get(`/seller/edit/${listing.id}`, seller.token), { id: listing.id })).json()
    expect(edit.defaults.githubRepoId).toBe(String(repo.id))
    expect(edit.source.current).toMatchObject({ id: repo.id, fullName: repo.fullName, accessLost: false })
    const saved = await callRoute(
      editRoute,
      formPost(`/seller/edit/${listing.id}`, listingForm({ githubRepoId: '', deliveryTimeframe: '24-hours' }), seller.token),
      { id: listing.id },
    )
    expect(saved.status, await saved.clone().text()).toBe(302)
    expect(await listingRow(listing.id)).toMatchObject({ githubRepoId: null, githubListedSha: null })
    const manual = await (await callRoute(listingPage, get(`/listing/${slug}`), { slug })).json()
    expect(manual.delivery).toEqual({ verified: false, ownerSource: null, checks: null })
  })

  it('a repository that cannot be sold (personal) is refused: the listing is kept hidden, never for sale as a manual one', async () => {
    const { seller, personal } = await sellerOnGithub()
    const response = await callRoute(
      createRoute,
      formPost('/seller/create', listingForm({ githubRepoId: String(personal.id) }), seller.token),
    )
    expect(response.status).toBe(302)
    const location = response.headers.get('Location')!
    expect(location).toMatch(/^\/seller\/edit\/[0-9a-f-]{36}$/)
    const listing = await listingRow(location.split('/').pop()!)
    expect(listing).toMatchObject({ visible: false, githubRepoId: null })
  })

  it('an edit that picks a repository the App cannot reach answers with the field error; the other changes are kept', async () => {
    const { seller, repo } = await sellerOnGithub()
    const created = await callRoute(createRoute, formPost('/seller/create', listingForm({ githubRepoId: String(repo.id) }), seller.token))
    const slug = created.headers.get('Location')!.replace('/listing/', '')
    const { id } = await db.selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
    const response = await callRoute(
      editRoute,
      formPost(`/seller/edit/${id}`, listingForm({ title: 'Renamed', githubRepoId: '987654321' }), seller.token),
      { id },
    )
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.result.error.githubRepoId).toEqual([expect.stringMatching(/not one the Forkmarket GitHub App can reach/)])
    expect(await listingRow(id)).toMatchObject({ title: 'Renamed', githubRepoId: repo.id })
  })

  it('the JSON API takes githubRepoId: POST connects, PATCH without it keeps it, PATCH null disconnects', async () => {
    const { seller, repo } = await sellerOnGithub()
    const created = await callRoute(
      listingsApi,
      apiRequest('/api/listings', {
        method: 'POST',
        token: seller.token,
        json: { title: 'API Kit', shortDescription: 's', type: 'template', licence: 'commercial', priceCents: 4900, githubRepoId: repo.id },
      }),
    )
    expect(created.status, await created.clone().text()).toBe(201)
    const { id } = await created.json()
    expect(await listingRow(id)).toMatchObject({ visible: true, githubRepoId: repo.id })

    const patch = (json: unknown) =>
      callRoute(listingApi, apiRequest(`/api/listings/${id}`, { method: 'PATCH', token: seller.token, json }), { slugOrId: id })
    expect((await patch({ title: 'API Kit 2' })).status).toBe(200)
    expect(await listingRow(id)).toMatchObject({ title: 'API Kit 2', githubRepoId: repo.id })
    expect((await patch({ githubRepoId: null })).status).toBe(200)
    expect(await listingRow(id)).toMatchObject({ githubRepoId: null })
    const refused = await patch({ githubRepoId: 'abc' })
    expect(refused.status).toBe(400)
  })

  it('a create whose repository step failed is finished by its retry with the same Idempotency-Key (decision 026)', async () => {
    const { seller, repo } = await sellerOnGithub()
    const title = `Retried GitHub kit ${unique()}`
    const post = () =>
      callRoute(
        listingsApi,
        apiRequest('/api/listings', {
          method: 'POST',
          token: seller.token,
          headers: { 'Idempotency-Key': `gh-${title.replaceAll(' ', '-')}` },
          json: { title, shortDescription: 's', type: 'template', licence: 'commercial', priceCents: 4900, githubRepoId: repo.id },
        }),
      )
    gh.failNext({ operationId: 'repos/get-branch', status: 502 })
    const first = await post()
    expect(first.status).toBe(502)
    const { listingId } = await first.json()
    expect(await listingRow(listingId)).toMatchObject({ visible: false, githubRepoId: null })

    const retry = await post()
    expect(retry.status, await retry.clone().text()).toBe(201)
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await retry.json()).toMatchObject({ id: listingId, title, visible: true })
    expect(await listingRow(listingId)).toMatchObject({ visible: true, githubRepoId: repo.id })
    const rows = await db.selectFrom('listings').select('id').where('title', '=', title).execute()
    expect(rows).toHaveLength(1)
    // Once finished, a further retry changes nothing.
    const again = await post()
    expect(again.status).toBe(201)
    expect(await listingRow(listingId)).toMatchObject({ visible: true, githubRepoId: repo.id })
  })
})

describe('profile, checkout, dashboard and admin', () => {
  it('the profile lists the connected organizations and the buyer’s GitHub account, with links that come back to it', async () => {
    const { seller, org } = await sellerOnGithub()
    const before = await (await callRoute(profileRoute, get('/profile', seller.token))).json()
    expect(before.github).toMatchObject({
      enabled: true,
      installUrl: '/github/install?returnTo=%2Fprofile',
      authorizeUrl: '/github/authorize?returnTo=%2Fprofile',
      account: null,
    })
    expect(before.github.installations.map((i: { accountLogin: string }) => i.accountLogin)).toContain(org.login)
    const account = gh.createUser({ login: `buyer-${unique()}` })
    await connectGithubAccount(seller.id, { id: account.id, login: account.login })
    const after = await (await callRoute(profileRoute, get('/profile', seller.token))).json()
    expect(after.github.account).toEqual({ login: account.login })
  })

  it('checkout of a GitHub listing without a GitHub account asks to connect first, and opens no payment', async () => {
    const { seller, repo } = await sellerOnGithub()
    const created = await callRoute(createRoute, formPost('/seller/create', listingForm({ githubRepoId: String(repo.id) }), seller.token))
    const slug = created.headers.get('Location')!.replace('/listing/', '')
    const { id } = await db.selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()
    const buyer = await signUp('google-buyer')
    const response = await callRoute(checkoutRoute, get(`/checkout/${id}`, buyer.token), { id })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      state: 'github-required',
      authorizeUrl: `/github/authorize?returnTo=${encodeURIComponent(`/checkout/${id}`)}`,
    })
    const attempts = await db.selectFrom('transactions').select('id').where('listingId', '=', id).execute()
    expect(attempts).toEqual([])
  })

  it('the seller dashboard raises Reconnect GitHub for a listing whose repository was lost', async () => {
    const { seller, repo, orgInstallation } = await sellerOnGithub()
    const created = await callRoute(createRoute, formPost('/seller/create', listingForm({ githubRepoId: String(repo.id) }), seller.token))
    const slug = created.headers.get('Location')!.replace('/listing/', '')
    await repositoryLost({ installationId: orgInstallation.id, reason: 'The Forkmarket GitHub App was uninstalled', now: new Date() })
    const dashboard = await (await callRoute(sellerDashboard, get('/seller/dashboard', seller.token))).json()
    expect(dashboard.reconnectUrl).toBe('/github/install?returnTo=%2Fseller%2Fdashboard')
    expect(dashboard.github.lostAccess).toEqual([
      expect.objectContaining({ title: 'GitHub Starter', reason: 'The Forkmarket GitHub App was uninstalled' }),
    ])
    const page = await (await callRoute(listingPage, get(`/listing/${slug}`, seller.token), { slug })).json()
    expect(page.delivery).toMatchObject({ verified: false, ownerSource: { fullName: repo.fullName, accessLost: true } })
  })

  it('the admin’s dispute shows the listed and delivered commits side by side, the invitation, acceptance and the buyer’s GitHub login', async () => {
    const { seller, listing } = await sellerWithListing()
    const buyer = await signUp('buyer')
    const admin = await signUp('admin', { admin: true })
    const sale = await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, status: 'disputed' })
    const listedAt = new Date('2026-11-01T10:00:00Z')
    const changedAt = new Date('2026-11-03T09:30:00Z')
    await db
      .insertInto('githubDeliveries')
      .values({
        transactionId: sale.id,
        installationId: 1,
        repoId: 2,
        repoFullName: 'acme/starter-kit',
        buyerGithubId: 4242,
        buyerLogin: 'octo-buyer',
        state: 'accepted',
        invitedAt: new Date('2026-11-02T08:00:00Z'),
        acceptedAt: new Date('2026-11-03T10:00:00Z'),
        listedSha: 'a'.repeat(40),
        listedAt,
        deliveredSha: 'b'.repeat(40),
        deliveredShaDate: changedAt,
      })
      .execute()
    const data = await (await callRoute(adminRoute, get('/admin', admin.token))).json()
    const evidence = data.evidence[sale.id]
    expect(evidence).toMatchObject({
      repository: 'acme/starter-kit',
      listedSha: 'a'.repeat(40),
      deliveredSha: 'b'.repeat(40),
      buyerLogin: 'octo-buyer',
      buyerGithubId: 4242,
      invitedAt: '2026-11-02T08:00:00.000Z',
      acceptedAt: '2026-11-03T10:00:00.000Z',
    })
    expect(evidence.summary).toMatch(/changed on Nov 3, 2026/)
  })
})
