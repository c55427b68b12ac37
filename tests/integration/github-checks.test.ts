import { describe, expect, it } from 'vitest'
import { startCheckout } from '../../app/server/domain/checkout.server.ts'
import { getDisputeTimeline } from '../../app/server/domain/dispute-timeline.server.ts'
import { disputeSale } from '../../app/server/domain/escrow-actions.server.ts'
import { connectGithubAccount } from '../../app/server/domain/github-accounts.server.ts'
import {
  latestListingChecks,
  recordListingChecks,
  saleChecksReadings,
  salesChecksViews,
} from '../../app/server/domain/github-checks.server.ts'
import { runInvitation } from '../../app/server/domain/github-delivery.server.ts'
import { setListingRepository } from '../../app/server/domain/github-listing-sources.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { githubEmulator as gh, githubWebhookAnswers } from '../support/github.ts'
import { payIntent, saleStatus, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { webhooksDelivered } from '../support/stripe.ts'

/*
 * The code host's checks as evidence (issue 30): real PostgreSQL, the GitHub emulator's Checks and
 * Statuses APIs read by the real @octokit clients, its check webhooks through the app's real route.
 */

let n = 0
const unique = () => `${++n}${Math.random().toString(36).slice(2, 6)}`

/** A seller's organization with the App installed and a private repository; the listing not yet connected. */
async function sellerRepository() {
  const id = unique()
  const { seller, listing } = await sellerWithListing()
  const login = `checks-seller-${id}`
  gh.createUser({ login })
  const org = gh.createOrganization({ login: `checks-${id}`, owners: [login] })
  const repo = gh.createRepository({ owner: org.login, name: 'app', private: true })
  const installation = gh.install({ account: org.login })
  await db
    .insertInto('githubInstallations')
    .values({ id: installation.id, userId: seller.id, accountId: org.id, accountLogin: org.login, accountType: 'Organization' })
    .execute()
  return { seller, listing, login, org, repo, sha: gh.repository({ repository: repo.fullName }).headSha }
}

async function readings(listingId: string) {
  return db
    .selectFrom('githubCheckReadings')
    .select(['source', 'summary', 'passed', 'failed', 'pending', 'commitSha'])
    .where('listingId', '=', listingId)
    .orderBy('readAt')
    .orderBy('id')
    .execute()
}

describe('checks of the listed commit', () => {
  it('are read when the listing is connected: passed, with counts and names', async () => {
    const w = await sellerRepository()
    gh.setCheckRun({ repository: w.repo.fullName, sha: w.sha, name: 'build', conclusion: 'success' })
    gh.setCommitStatus({ repository: w.repo.fullName, sha: w.sha, state: 'success', context: 'ci/test', login: w.login })
    await gh.idle()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })

    const reading = await latestListingChecks(w.listing.id, w.sha)
    expect(reading).toMatchObject({ summary: 'passed', passed: 2, failed: 0, pending: 0, sha: w.sha, source: 'listing' })
    expect(reading!.details).toEqual([
      { kind: 'check_run', name: 'build', by: 'GitHub Actions', outcome: 'success', result: 'passed' },
      { kind: 'status', name: 'ci/test', by: null, outcome: 'success', result: 'passed' },
    ])
  })

  it('say "none" for a commit without checks, and are read again on each check webhook for it, not for other commits', async () => {
    const w = await sellerRepository()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    expect(await readings(w.listing.id)).toEqual([
      { source: 'listing', summary: 'none', passed: 0, failed: 0, pending: 0, commitSha: w.sha },
    ])

    const lint = gh.setCheckRun({ repository: w.repo.fullName, sha: w.sha, name: 'lint', status: 'in_progress' })
    await gh.idle()
    expect((await latestListingChecks(w.listing.id, w.sha))!.summary).toBe('pending')
    gh.completeCheckRun({ id: lint.id, conclusion: 'failure' })
    await gh.idle()
    const failed = await latestListingChecks(w.listing.id, w.sha)
    expect(failed).toMatchObject({ summary: 'failed', failed: 1, source: 'webhook' })
    expect(githubWebhookAnswers.filter((answer) => answer.event === 'check_suite').at(-1)!.body).toContain('processed')

    // A commit that is not the listed one changes nothing.
    const before = (await readings(w.listing.id)).length
    const { sha: other } = gh.pushCommit({ repository: w.repo.fullName })
    gh.setCommitStatus({ repository: w.repo.fullName, sha: other, state: 'failure', login: w.login })
    await gh.idle()
    expect(githubWebhookAnswers.filter((answer) => answer.event === 'status').at(-1)!.body).toContain('ignored')
    expect(await readings(w.listing.id)).toHaveLength(before)

    // The release hook reads the listed commit again.
    expect(await recordListingChecks(w.listing.id, { source: 'release' })).toMatchObject({ summary: 'failed', sha: w.sha })
  })

  it('are "unavailable" when the installation may not read checks, and the connection still succeeds', async () => {
    const w = await sellerRepository()
    gh.failNext({
      operationId: 'checks/list-for-ref',
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
        status: '403',
      },
    })
    const connected = await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    expect(connected?.listedSha).toBe(w.sha)
    expect((await latestListingChecks(w.listing.id, w.sha))!.summary).toBe('unavailable')
  })
})

describe('checks of the delivered commit', () => {
  it('are read when GitHub confirms access and shown beside the listed commit', async () => {
    const w = await sellerRepository()
    gh.setCheckRun({ repository: w.repo.fullName, sha: w.sha, name: 'build', conclusion: 'success' })
    await gh.idle()
    await setListingRepository({ listingId: w.listing.id, sellerId: w.seller.id, repoId: w.repo.id })
    // The seller pushes a broken commit before the buyer accepts.
    const { sha: delivered } = gh.pushCommit({ repository: w.repo.fullName, message: 'Broken' })
    gh.setCheckRun({ repository: w.repo.fullName, sha: delivered, name: 'build', conclusion: 'failure' })

    const buyer = await signUp('buyer')
    const account = gh.createUser({ login: `checks-buyer-${unique()}` })
    await connectGithubAccount(buyer.id, { id: account.id, login: account.login })
    const checkout = await startCheckout({ listingId: w.listing.id, buyerId: buyer.id })
    if (checkout.kind !== 'ready') throw new Error(`checkout answered ${checkout.kind}`)
    await payIntent(checkout.clientSecret)
    await webhooksDelivered()
    const saleId = checkout.transactionId
    await runInvitation(saleId)
    gh.acceptInvitation({ repository: w.repo.fullName, login: account.login })
    await gh.idle()
    expect(await saleStatus(saleId)).toBe('delivered')

    const both = await saleChecksReadings(saleId)
    expect(both.listing).toMatchObject({ summary: 'passed', sha: w.sha })
    expect(both.delivery).toMatchObject({ summary: 'failed', sha: delivered, source: 'delivery', failed: 1 })

    // The buyer disputes: both readings are in the dispute's evidence and its timeline, each at the time it was read.
    await disputeSale({ transactionId: saleId, buyerId: buyer.id, reason: 'It does not build.' })
    const admin = await signUp('admin', { admin: true })
    const timeline = await getDisputeTimeline(saleId, admin.id)
    expect(timeline.github!.checks).toEqual({
      listed: { summary: 'passed', passed: 1, failed: 0, pending: 0, readAt: both.listing!.readAt.toISOString() },
      delivered: { summary: 'failed', passed: 0, failed: 1, pending: 0, readAt: both.delivery!.readAt.toISOString() },
    })
    const checks = timeline.entries.filter((entry) => entry.source === 'github-checks')
    expect(checks.map((entry) => [entry.at.toISOString(), entry.title, entry.facts[0]])).toEqual([
      [both.listing!.readAt.toISOString(), 'Checks passed at the listed commit: 1 of 1 passed', { label: 'Commit', value: w.sha }],
      [both.delivery!.readAt.toISOString(), 'Checks failed at the delivered commit: 1 of 1 failed', { label: 'Commit', value: delivered }],
    ])
    // The buyer's and the seller's screens read the same views.
    expect((await salesChecksViews([saleId, crypto.randomUUID()])).get(saleId)).toEqual(timeline.github!.checks)
  })
})
