import { createHmac } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { notificationContent } from '../../app/emails/content.ts'
import * as githubWebhook from '../../app/routes/api/github-webhook.ts'
import * as listingPurchase from '../../app/routes/api/listing-purchase.ts'
import { checkoutSummary, purchaseOutcome, startCheckout } from '../../app/server/domain/checkout.server.ts'
import { confirmReceipt, refundSale } from '../../app/server/domain/escrow-actions.server.ts'
import { autoConfirmDue } from '../../app/server/domain/escrow-auto-confirm.server.ts'
import {
  authorizeUrl,
  completeInstallation,
  completeUserAuthorization,
  connectGithubAccount,
  installUrl,
  signFlowState,
} from '../../app/server/domain/github-accounts.server.ts'
import { ACCEPT_DEADLINE_MS, sweepGithubDeliveries } from '../../app/server/domain/github-delivery-sweep.server.ts'
import { runInvitation } from '../../app/server/domain/github-delivery.server.ts'
import { GITHUB_JOBS } from '../../app/server/domain/github-jobs.server.ts'
import { listRepositoryChoices, sellerGithubStatus, setListingRepository } from '../../app/server/domain/github-listing-sources.server.ts'
import { revokeGithubAccess } from '../../app/server/domain/github-revocation.server.ts'
import { githubEvidence } from '../../app/server/domain/github-views.server.ts'
import { listPurchases } from '../../app/server/domain/purchases.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { resetGithubClients, setGithubTimeout } from '../../app/server/infra/github.server.ts'
import { startJobWorker } from '../../app/server/infra/jobs.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { githubEmulator as gh, githubWebhookAnswers, withGithubWebhooksLost } from '../support/github.ts'
import { payIntent, saleStatus, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { webhooksDelivered } from '../support/stripe.ts'

/*
 * (The GitHub emulator's clock only moves forward: tests that move it do not
 * depend on the others' timing, each works on its own repositories.)
 *
 * Delivery through GitHub (issue 16), end to end on the server: real
 * PostgreSQL, the real Stripe and GitHub emulators, the real @octokit clients,
 * the app's real webhook routes (the emulators' signed POSTs are forwarded to
 * them) and a moved clock (the functions the jobs run take `now`; the GitHub
 * emulator's clock is moved with it where GitHub's own timers matter).
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const at = (base: Date, ms: number) => new Date(base.getTime() + ms)
let n = 0
const unique = () => `${++n}${Math.random().toString(36).slice(2, 6)}`

/** A seller whose organization has the App installed, a listing connected to its private repository, and a buyer with a GitHub account. */
async function world() {
  const id = unique()
  const { seller, listing } = await sellerWithListing()
  const sellerLogin = `seller-${id}`
  gh.createUser({ login: sellerLogin })
  const org = gh.createOrganization({ login: `acme-${id}`, owners: [sellerLogin] })
  const repo = gh.createRepository({ owner: org.login, name: 'starter-kit', private: true })
  const installation = gh.install({ account: org.login })
  await db
    .insertInto('githubInstallations')
    .values({ id: installation.id, userId: seller.id, accountId: org.id, accountLogin: org.login, accountType: 'Organization' })
    .execute()
  const connected = await setListingRepository({ listingId: listing.id, sellerId: seller.id, repoId: repo.id })
  const buyer = await signUp('buyer')
  const buyerAccount = gh.createUser({ login: `buyer-${id}` })
  await connectGithubAccount(buyer.id, { id: buyerAccount.id, login: buyerAccount.login })
  return { seller, listing, org, repo, installation, connected: connected!, buyer, buyerAccount }
}

/** The buyer pays with 4242… through the Stripe emulator; its webhook fulfils the sale. */
async function pay(buyerId: string, listingId: string): Promise<string> {
  const result = await startCheckout({ listingId, buyerId })
  if (result.kind !== 'ready') throw new Error(`checkout answered ${result.kind}`)
  await payIntent(result.clientSecret)
  await webhooksDelivered()
  return result.transactionId
}

async function delivery(transactionId: string) {
  return db.selectFrom('githubDeliveries').selectAll().where('transactionId', '=', transactionId).executeTakeFirstOrThrow()
}

async function sale(transactionId: string) {
  return db.selectFrom('transactions').selectAll().where('id', '=', transactionId).executeTakeFirstOrThrow()
}

async function auditActions(transactionId: string) {
  const rows = await db
    .selectFrom('auditLog')
    .select(['action', 'fromState', 'toState'])
    .where('entityId', '=', transactionId)
    .orderBy('id')
    .execute()
  return rows.map((row) => `${row.action}:${row.fromState}→${row.toState}`)
}

const repoState = (fullName: string) => gh.repository({ repository: fullName })

describe('payment → invitation', () => {
  it('a paid GitHub listing is delivering at once, with one invitation job; the job invites the buyer by id as a read collaborator', async () => {
    const w = await world()
    expect(w.connected.listedSha).toBe(repoState(w.repo.fullName).headSha)

    const saleId = await pay(w.buyer.id, w.listing.id)
    expect(await saleStatus(saleId)).toBe('delivering')
    const queued = await delivery(saleId)
    expect(queued).toMatchObject({ state: 'queued', buyerGithubId: w.buyerAccount.id, repoId: w.repo.id, listedSha: w.connected.listedSha })
    const { rows: jobs } = await sql<{ taskIdentifier: string }>`
      SELECT task_identifier FROM graphile_worker.jobs WHERE key = ${`github-invite:${saleId}`}`.execute(db)
    expect(jobs.map((job) => job.taskIdentifier)).toEqual(['github-invite'])
    // The 72-hour window has not started: nothing is delivered yet.
    expect((await sale(saleId)).deliveredAt).toBeNull()

    expect(await runInvitation(saleId)).toEqual({ result: 'invited' })
    const invited = await delivery(saleId)
    expect(invited.state).toBe('invited')
    expect(invited.invitationUrl).toBe(`${gh.url}/${w.repo.fullName}/invitations`)
    const onGithub = repoState(w.repo.fullName)
    expect(onGithub.invitations).toEqual([expect.objectContaining({ userId: w.buyerAccount.id, permission: 'read' })])
    expect(onGithub.collaborators).toEqual([])
    expect(await auditActions(saleId)).toEqual([
      'payment_intent_attached:pending_payment→pending_payment',
      'payment_succeeded:pending_payment→paid',
      'github_delivery_started:paid→delivering',
      'github_invitation_sent:delivering→delivering',
    ])

    // The buyer's view: accept the invitation on GitHub.
    const [purchase] = await listPurchases(w.buyer.id)
    expect(purchase!.status).toBe('delivering')
    expect(purchase!.github).toMatchObject({ state: 'invited', invitationUrl: invited.invitationUrl, forkUrl: null, resent: false })
    expect(purchase!.github!.message).toMatch(/Accept your invitation on GitHub/)
  })

  it('the receipt (mail and success page) says the next step is to accept the GitHub invitation, with its link — not that the seller delivers', async () => {
    const w = await world()
    const saleId = await pay(w.buyer.id, w.listing.id)
    const invitationsPage = `${gh.url}/${w.repo.fullName}/invitations`
    const receipt = await db
      .selectFrom('notificationOutbox')
      .select('payload')
      .where('kind', '=', 'purchase_receipt')
      .where('userId', '=', w.buyer.id)
      .executeTakeFirstOrThrow()
    const content = notificationContent('purchase_receipt', receipt.payload as Record<string, unknown>, { timeZone: null })!
    const next = content.paragraphs.find((p) => p.startsWith('Next:'))!
    expect(next).toContain(`accept your GitHub invitation to ${w.repo.fullName}`)
    expect(next).toContain('separately')
    expect(next).toContain(invitationsPage)
    expect(next).not.toMatch(/delivers/)

    const { paymentIntentId } = await db
      .selectFrom('transactions')
      .select('stripePaymentIntentId as paymentIntentId')
      .where('id', '=', saleId)
      .executeTakeFirstOrThrow()
    const page = await purchaseOutcome(w.buyer.id, paymentIntentId)
    expect(page).toMatchObject({ outcome: 'confirmed', sale: { id: saleId, githubInvitationUrl: invitationsPage } })
    // GitHub's own answer names the same page once the invitation is sent.
    await runInvitation(saleId)
    expect((await delivery(saleId)).invitationUrl).toBe(invitationsPage)
  })

  it('duplicate webhooks and repeated or concurrent jobs send one invitation', async () => {
    const w = await world()
    const saleId = await pay(w.buyer.id, w.listing.id)
    // Stripe redelivers payment_intent.succeeded: processed once.
    const succeeded = await db.selectFrom('processedEvents').select('id').where('type', '=', 'payment_intent.succeeded').execute()
    expect(succeeded.length).toBeGreaterThan(0)

    const outcomes = await Promise.all([runInvitation(saleId), runInvitation(saleId), runInvitation(saleId)])
    expect(outcomes.filter((outcome) => outcome.result === 'invited')).toHaveLength(1)
    expect(await runInvitation(saleId)).toEqual({ result: 'skipped' })
    expect(repoState(w.repo.fullName).invitations).toHaveLength(1)
    expect((await auditActions(saleId)).filter((action) => action.startsWith('github_invitation_sent'))).toHaveLength(1)
    // The buyer is told once (issue 17), however often the job ran.
    const told = await db.selectFrom('notificationOutbox').select(['kind', 'userId']).where('kind', '=', 'github_invitation_sent').execute()
    expect(told).toEqual([{ kind: 'github_invitation_sent', userId: w.buyer.id }])

    // GitHub redelivers the `member` webhook: the delivery is confirmed once.
    gh.acceptInvitation({ repository: w.repo.fullName, login: w.buyerAccount.login })
    await gh.idle()
    const member = gh.deliveries.filter((d) => d.event === 'member').at(-1)!
    await gh.redeliver({ guid: member.guid })
    await gh.idle()
    expect(await saleStatus(saleId)).toBe('delivered')
    expect((await auditActions(saleId)).filter((action) => action.startsWith('access_confirmed'))).toHaveLength(1)
    expect(githubWebhookAnswers.filter((answer) => answer.event === 'member').at(-1)!.body).toContain('duplicate')
  })

  it('a renamed GitHub login still gets its invitation (looked up by id)', async () => {
    const w = await world()
    gh.renameAccount({ login: w.buyerAccount.login, newLogin: `${w.buyerAccount.login}-renamed` })
    const saleId = await pay(w.buyer.id, w.listing.id)
    expect(await runInvitation(saleId)).toEqual({ result: 'invited' })
    expect((await delivery(saleId)).buyerLogin).toBe(`${w.buyerAccount.login}-renamed`)
    expect(repoState(w.repo.fullName).invitations).toEqual([expect.objectContaining({ userId: w.buyerAccount.id })])
    // The login cache follows.
    const buyer = await db.selectFrom('users').select('githubLogin').where('id', '=', w.buyer.id).executeTakeFirstOrThrow()
    expect(buyer.githubLogin).toBe(`${w.buyerAccount.login}-renamed`)
  })
})

describe('access confirmed', () => {
  it('by the member webhook: delivered with the proof; the fork event adds the fork', async () => {
    const w = await world()
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId)
    gh.acceptInvitation({ repository: w.repo.fullName, login: w.buyerAccount.login })
    await gh.idle()

    const delivered = await sale(saleId)
    expect(delivered.status).toBe('delivered')
    const proof = delivered.deliveryProof!.github!
    expect(proof).toMatchObject({
      repository: w.repo.fullName,
      repositoryId: w.repo.id,
      buyerGithubId: w.buyerAccount.id,
      buyerLogin: w.buyerAccount.login,
      headSha: repoState(w.repo.fullName).headSha,
      listedSha: w.connected.listedSha,
      confirmedBy: 'webhook',
      forkUrl: null,
    })
    expect(new Date(proof.acceptedAt).getTime()).toBe(delivered.deliveredAt!.getTime())
    expect(delivered.deliveryProof!.forkUrl).toBe(`${gh.url}/${w.repo.fullName}`)
    expect(repoState(w.repo.fullName).collaborators).toEqual([expect.objectContaining({ id: w.buyerAccount.id, permission: 'pull' })])

    const fork = gh.fork({ repository: w.repo.fullName, login: w.buyerAccount.login })
    await gh.idle()
    const forked = await sale(saleId)
    expect(forked.deliveryProof!.forkUrl).toBe(fork.htmlUrl)
    expect(forked.deliveryProof!.github!.forkUrl).toBe(fork.htmlUrl)
    const [purchase] = await listPurchases(w.buyer.id)
    expect(purchase!.github).toMatchObject({ state: 'accepted', forkUrl: fork.htmlUrl, repositoryUrl: `${gh.url}/${w.repo.fullName}` })

    const evidence = (await githubEvidence([saleId])).get(saleId)!
    expect(evidence).toMatchObject({
      listedSha: w.connected.listedSha,
      deliveredSha: w.connected.listedSha,
      summary: 'The delivered code is the listed code',
    })
  })

  it('by polling when the webhook is lost; the 72-hour window starts at acceptance, not at payment', async () => {
    const w = await world()
    const paidAt = new Date()
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId, paidAt)
    // The seller pushes after the listing was saved: the evidence shows the code changed.
    gh.pushCommit({ repository: w.repo.fullName, message: 'Later work' })
    await withGithubWebhooksLost(async () => gh.acceptInvitation({ repository: w.repo.fullName, login: w.buyerAccount.login }))
    expect(await saleStatus(saleId)).toBe('delivering')

    const acceptedSeen = at(paidAt, 2 * DAY)
    const report = await sweepGithubDeliveries(acceptedSeen)
    expect(report.delivered).toBe(1)
    const delivered = await sale(saleId)
    expect(delivered.status).toBe('delivered')
    expect(delivered.deliveredAt).toEqual(acceptedSeen)
    expect(delivered.deliveryProof!.github!.confirmedBy).toBe('poll')
    const evidence = (await githubEvidence([saleId])).get(saleId)!
    expect(evidence.deliveredSha).toBe(repoState(w.repo.fullName).headSha)
    expect(evidence.deliveredSha).not.toBe(evidence.listedSha)
    expect(evidence.summary).toMatch(/^The code changed on /)

    // 72 hours after payment the window is still open (it started two days later).
    expect(await autoConfirmDue(at(paidAt, 72 * HOUR))).toEqual([])
    expect(await autoConfirmDue(at(acceptedSeen, 72 * HOUR - MINUTE))).toEqual([])
    expect(await autoConfirmDue(at(acceptedSeen, 72 * HOUR))).toEqual([saleId])
    expect(await saleStatus(saleId)).toBe('completed')
    const { rows } = await sql<{ runAt: Date }>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`auto-confirm:${saleId}`}`.execute(db)
    expect(rows.map((row) => row.runAt.getTime())).toEqual([at(acceptedSeen, 72 * HOUR).getTime()])
  })
})

describe('the jobs', () => {
  it('the worker runs the invitation job queued at payment and puts it back at the time GitHub states', async () => {
    const w = await world()
    gh.failNext({ operationId: 'repos/add-collaborator', status: 429, headers: { 'retry-after': '3600' } })
    const worker = await startJobWorker(GITHUB_JOBS.filter((job) => job.name === 'github-invite'))
    try {
      const saleId = await pay(w.buyer.id, w.listing.id)
      await expect.poll(async () => (await delivery(saleId)).waitingOn, { timeout: 20_000 }).toBe('rate_limit')
      const { nextAttemptAt } = await delivery(saleId)
      await expect
        .poll(async () => {
          const { rows } = await sql<{
            runAt: Date
          }>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${`github-invite:${saleId}`}`.execute(db)
          return rows.map((row) => row.runAt.getTime())
        })
        .toEqual([nextAttemptAt!.getTime()])
      expect(nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(3500_000)
      expect(repoState(w.repo.fullName).invitations).toEqual([])
    } finally {
      await worker.stop()
    }
  })
})

describe('expiry and the 14-day deadline', () => {
  it('an expired invitation is re-sent once (the buyer told); unaccepted after 14 days the sale goes to the admin queue', async () => {
    const w = await world()
    const paidAt = new Date()
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId, paidAt)
    const first = (await delivery(saleId)).invitationId

    // Day 8: GitHub expired the invitation (7 days): sent again, once.
    gh.advanceClock({ ms: 8 * DAY })
    resetGithubClients() // the cached installation token expired on the emulator's clock
    expect(await sweepGithubDeliveries(at(paidAt, 8 * DAY))).toMatchObject({ resent: 1 })
    const resent = await delivery(saleId)
    expect(resent.resendCount).toBe(1)
    expect(resent.invitationId).not.toBe(first)
    const pending = repoState(w.repo.fullName).invitations
    expect(pending).toEqual([expect.objectContaining({ userId: w.buyerAccount.id, expired: false })])
    const [purchase] = await listPurchases(w.buyer.id)
    expect(purchase!.github).toMatchObject({ resent: true })
    expect(purchase!.github!.message).toMatch(/first invitation expired/)
    expect(await auditActions(saleId)).toContain('github_invitation_resent:delivering→delivering')
    const invitationNotices = await db
      .selectFrom('notificationOutbox')
      .select('payload')
      .where('kind', '=', 'github_invitation_sent')
      .execute()
    expect(invitationNotices.map((n) => (n.payload as { github: { resent: boolean } }).github.resent).sort()).toEqual([false, true])

    // Day 13: the buyer declined the second one: nothing new (never a third invitation); the sale still waits.
    gh.declineInvitation({ repository: w.repo.fullName, login: w.buyerAccount.login })
    expect(await sweepGithubDeliveries(at(paidAt, 13 * DAY))).toMatchObject({ resent: 0, failed: 0 })
    expect(repoState(w.repo.fullName).invitations).toEqual([])
    expect(await saleStatus(saleId)).toBe('delivering')

    // Day 14 (counted from the payment, a moment after paidAt): not accepted → disputed, in the admin's queue, with the reason.
    const report = await sweepGithubDeliveries(at(paidAt, ACCEPT_DEADLINE_MS + MINUTE))
    expect(report.failed).toBe(1)
    const disputed = await sale(saleId)
    expect(disputed).toMatchObject({ status: 'disputed', deliveredAt: null })
    expect(disputed.disputeReason).toMatch(/did not accept the GitHub invitation within 14 days/)
    expect((await delivery(saleId)).state).toBe('failed')
  })
})

describe('GitHub failures', () => {
  it('5xx and timeouts are retried with backoff; the sale is not lost', async () => {
    const w = await world()
    const now = new Date()
    const saleId = await pay(w.buyer.id, w.listing.id)
    gh.failNext({ operationId: 'repos/add-collaborator', status: 502 })
    const outcome = await runInvitation(saleId, now)
    expect(outcome).toMatchObject({ result: 'waiting', waitingOn: 'github_error', retryAt: at(now, 30_000) })
    expect(await delivery(saleId)).toMatchObject({ state: 'queued', waitingOn: 'github_error', attempts: 1 })
    // The sweep leaves it alone before the stated time, then sends it.
    expect(await sweepGithubDeliveries(at(now, 10_000))).toMatchObject({ invited: 0 })
    gh.failNext({ operationId: 'repos/add-collaborator', disconnect: true })
    expect(await runInvitation(saleId, at(now, 30_000))).toMatchObject({
      result: 'waiting',
      waitingOn: 'github_error',
      retryAt: at(now, 90_000),
    })
    // GitHub answers too slowly (past the client's timeout): the same.
    setGithubTimeout(300)
    try {
      gh.failNext({ operationId: 'repos/add-collaborator', delayMs: 2_000 })
      expect(await runInvitation(saleId, at(now, 90_000))).toMatchObject({
        result: 'waiting',
        waitingOn: 'github_error',
        retryAt: at(now, 90_000 + 120_000),
      })
    } finally {
      setGithubTimeout()
    }
    expect(await sweepGithubDeliveries(at(now, 210_000))).toMatchObject({ invited: 1 })
    expect(repoState(w.repo.fullName).invitations).toHaveLength(1)
  })

  it('rate limits (403/429) are retried at the time GitHub states: retry-after, x-ratelimit-reset', async () => {
    const w = await world()
    const now = new Date()
    const saleId = await pay(w.buyer.id, w.listing.id)
    gh.failNext({ operationId: 'repos/add-collaborator', status: 429, headers: { 'retry-after': '120' } })
    expect(await runInvitation(saleId, now)).toMatchObject({ result: 'waiting', waitingOn: 'rate_limit', retryAt: at(now, 120_000) })

    const reset = Math.floor(now.getTime() / 1000) + 900
    gh.failNext({
      operationId: 'repos/add-collaborator',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    })
    expect(await runInvitation(saleId, at(now, 120_000))).toMatchObject({
      result: 'waiting',
      waitingOn: 'rate_limit',
      retryAt: new Date(reset * 1000),
    })
    const status = await sellerGithubStatus(w.seller.id)
    expect(status.waitingInvitations).toEqual([
      expect.objectContaining({ transactionId: saleId, waitingOn: 'rate_limit', nextAttemptAt: new Date(reset * 1000) }),
    ])
    expect(await runInvitation(saleId, new Date(reset * 1000))).toEqual({ result: 'invited' })
  })

  it("GitHub's 50 invitations a day on a repository: queued, visible to the seller, sent when the limit frees up", async () => {
    const w = await world()
    const octokit = await (await import('../../app/server/infra/github.server.ts')).installationOctokit(w.installation.id)
    const [owner, repo] = w.repo.fullName.split('/') as [string, string]
    for (let i = 0; i < 50; i++) {
      const other = gh.createUser({ login: `other-${unique()}` })
      await octokit.rest.repos.addCollaborator({ owner, repo, username: other.login, permission: 'pull' })
    }
    const now = new Date()
    const saleId = await pay(w.buyer.id, w.listing.id)
    expect(await runInvitation(saleId, now)).toMatchObject({ result: 'waiting', waitingOn: 'invitation_limit', retryAt: at(now, HOUR) })
    const status = await sellerGithubStatus(w.seller.id)
    expect(status.waitingInvitations[0]!.message).toMatch(/50 invitations a day/)
    const [purchase] = await listPurchases(w.buyer.id)
    expect(purchase!.github).toMatchObject({ state: 'queued', waitingOn: 'invitation_limit', invitationUrl: null })

    gh.advanceClock({ ms: DAY })
    resetGithubClients()
    expect(await runInvitation(saleId, at(now, DAY))).toEqual({ result: 'invited' })
  })

  it('the seller uninstalls the App: the listing is hidden with the alert, the waiting sale goes to the admin queue', async () => {
    const w = await world()
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId)
    gh.uninstall({ installationId: w.installation.id })
    await gh.idle()

    const listing = await db.selectFrom('listings').selectAll().where('id', '=', w.listing.id).executeTakeFirstOrThrow()
    expect(listing.visible).toBe(false)
    expect(listing.githubAccessLostAt).not.toBeNull()
    const status = await sellerGithubStatus(w.seller.id)
    expect(status.lostAccess).toEqual([expect.objectContaining({ listingId: w.listing.id, reason: expect.stringMatching(/uninstalled/) })])
    expect(status.installations).toEqual([expect.objectContaining({ id: w.installation.id, active: false })])
    expect(await sale(saleId)).toMatchObject({ status: 'disputed', disputeReason: expect.stringMatching(/can no longer be reached/) })
    // Nobody can buy it meanwhile, even if the seller shows it again before reconnecting.
    const another = await signUp('buyer')
    await expect(checkoutSummary({ listingId: w.listing.id, buyerId: another.id })).rejects.toMatchObject({ status: 409 })
    await db.updateTable('listings').set({ visible: true }).where('id', '=', w.listing.id).execute()
    await expect(startCheckout({ listingId: w.listing.id, buyerId: another.id })).rejects.toMatchObject({
      status: 409,
      message: 'This listing is not available for purchase',
    })
  })

  it('a repository removed from the App hides its listing; given back, the listing returns', async () => {
    const w = await world()
    gh.removeRepoFromInstallation({ installationId: w.installation.id, repository: w.repo.fullName })
    await gh.idle()
    expect(
      await db.selectFrom('listings').select(['visible', 'githubAccessLostAt']).where('id', '=', w.listing.id).executeTakeFirstOrThrow(),
    ).toMatchObject({
      visible: false,
      githubAccessLostAt: expect.any(Date),
    })
    gh.addRepoToInstallation({ installationId: w.installation.id, repository: w.repo.fullName })
    await gh.idle()
    expect(
      await db.selectFrom('listings').select(['visible', 'githubAccessLostAt']).where('id', '=', w.listing.id).executeTakeFirstOrThrow(),
    ).toEqual({
      visible: true,
      githubAccessLostAt: null,
    })
    expect((await sellerGithubStatus(w.seller.id)).lostAccess).toEqual([])
  })

  it('a 404 on invite (the repository removed from the App, the webhook lost) hides the listing and queues the sale for the admin', async () => {
    const w = await world()
    const saleId = await pay(w.buyer.id, w.listing.id)
    await withGithubWebhooksLost(async () =>
      gh.removeRepoFromInstallation({ installationId: w.installation.id, repository: w.repo.fullName }),
    )
    expect(await runInvitation(saleId)).toEqual({ result: 'failed' })
    expect(await saleStatus(saleId)).toBe('disputed')
    const listing = await db
      .selectFrom('listings')
      .select(['visible', 'githubAccessLostReason'])
      .where('id', '=', w.listing.id)
      .executeTakeFirstOrThrow()
    expect(listing).toMatchObject({ visible: false, githubAccessLostReason: expect.stringMatching(/not found/) })
  })
})

describe('refunds', () => {
  it('before acceptance: the pending invitation is canceled (audited)', async () => {
    const w = await world()
    const admin = await signUp('admin', { admin: true })
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId)
    await refundSale({ transactionId: saleId, adminId: admin.id, reason: 'Seller asked' })
    await webhooksDelivered()
    expect(await saleStatus(saleId)).toBe('refunded')
    const { rows } = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`github-revoke:${saleId}`}`.execute(db)
    expect(rows).toHaveLength(1)

    expect(await revokeGithubAccess(saleId)).toEqual({ result: 'revoked', revocation: 'invitation_canceled' })
    const onGithub = repoState(w.repo.fullName)
    expect(onGithub.invitations).toEqual([])
    expect(onGithub.collaborators).toEqual([])
    expect(await auditActions(saleId)).toContain('github_access_revoked:refunded→refunded')
    expect(await revokeGithubAccess(saleId)).toEqual({ result: 'skipped', why: 'already revoked' })
  })

  it('after acceptance, before completion: the collaborator is removed; after completion access is never revoked', async () => {
    const w = await world()
    const admin = await signUp('admin', { admin: true })
    const saleId = await pay(w.buyer.id, w.listing.id)
    await runInvitation(saleId)
    gh.acceptInvitation({ repository: w.repo.fullName, login: w.buyerAccount.login })
    await gh.idle()
    const { disputeSale } = await import('../../app/server/domain/escrow-actions.server.ts')
    await disputeSale({ transactionId: saleId, buyerId: w.buyer.id, reason: 'Does not build' })
    await refundSale({ transactionId: saleId, adminId: admin.id, reason: 'Refund' })
    await webhooksDelivered()
    expect(await revokeGithubAccess(saleId)).toEqual({ result: 'revoked', revocation: 'collaborator_removed' })
    expect(repoState(w.repo.fullName).collaborators).toEqual([])

    // A completed sale refunded at the provider (before the payout): the buyer keeps access.
    const v = await world()
    const completedId = await pay(v.buyer.id, v.listing.id)
    await runInvitation(completedId)
    gh.acceptInvitation({ repository: v.repo.fullName, login: v.buyerAccount.login })
    await gh.idle()
    await confirmReceipt({ transactionId: completedId, buyerId: v.buyer.id })
    const intent = (await sale(completedId)).stripePaymentIntentId!
    const { stripe } = await import('../support/payment-fixtures.ts')
    await stripe.refunds.create({ payment_intent: intent })
    await webhooksDelivered()
    expect(await saleStatus(completedId)).toBe('refunded')
    const { rows } = await sql`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`github-revoke:${completedId}`}`.execute(db)
    expect(rows).toHaveLength(0)
    expect(await revokeGithubAccess(completedId)).toMatchObject({ result: 'skipped' })
    expect(repoState(v.repo.fullName).collaborators).toEqual([expect.objectContaining({ id: v.buyerAccount.id })])
  })
})

describe('checkout needs a GitHub account', () => {
  it('a buyer without one is asked to connect GitHub before any payment (page and API)', async () => {
    const w = await world()
    const buyer = await signUp('google-buyer')
    expect((await checkoutSummary({ listingId: w.listing.id, buyerId: buyer.id })).kind).toBe('requiresGithub')
    expect((await startCheckout({ listingId: w.listing.id, buyerId: buyer.id })).kind).toBe('requiresGithub')
    const response = await callRoute(
      listingPurchase,
      apiRequest(`/api/listings/${w.listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
      { id: w.listing.id },
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ requiresGithub: true, connectUrl: `/github/authorize?returnTo=%2Fcheckout%2F${w.listing.id}` })
    const attempts = await db.selectFrom('transactions').select('id').where('buyerId', '=', buyer.id).execute()
    expect(attempts).toEqual([])

    // A listing without a repository is bought as before.
    const { listing: manual } = await sellerWithListing()
    expect((await checkoutSummary({ listingId: manual.id, buyerId: buyer.id })).kind).toBe('ready')
  })
})

describe('connecting GitHub', () => {
  it("a buyer who signs in with GitHub has the identity provider's GitHub account (numeric id and login) at once", async () => {
    const { authEmulator } = await import('../support/services.ts')
    const { recordProviderGithubIdentity, getGithubAccount } = await import('../../app/server/domain/github-accounts.server.ts')
    const email = `octocat-${unique()}@example.com`
    const session = await authEmulator.createSession({ email, fullName: 'Octo Cat', provider: 'github' })
    const buyer = await signUp('placeholder')
    await recordProviderGithubIdentity(buyer.id, session.user.identities)
    const identity = session.user.identities.find((candidate) => candidate.provider === 'github')!
    expect(await getGithubAccount(buyer.id)).toMatchObject({
      githubUserId: Number(identity.identity_data.provider_id),
      login: identity.identity_data.user_name,
    })
    // A Google sign-in carries no GitHub account; one already connected elsewhere is not taken (and the sign-in goes on).
    const google = await authEmulator.createSession({ email: `g-${unique()}@example.com`, fullName: 'G', provider: 'google' })
    const other = await signUp('other')
    await recordProviderGithubIdentity(other.id, google.user.identities)
    await recordProviderGithubIdentity(other.id, session.user.identities)
    expect(await getGithubAccount(other.id)).toBeNull()
  })

  it("locally the auth emulator's GitHub sign-ins are accounts of the GitHub emulator (as the launcher wires them)", async () => {
    const { startAuthEmulator } = await import('../../emulators/supabase-auth/server.ts')
    const auth = await startAuthEmulator({
      port: 0,
      githubAccount: ({ login, email }) => {
        const account = gh.account({ login }) ?? gh.createUser({ login, email })
        return { id: account.id, login: account.login }
      },
    })
    try {
      const login = `dev-${unique()}`
      const existing = gh.createUser({ login })
      const session = await auth.createSession({ email: `${login}@example.com`, provider: 'github' })
      const identity = session.user.identities.find((candidate) => candidate.provider === 'github')!
      expect(identity.identity_data).toMatchObject({ provider_id: String(existing.id), user_name: login })
      const fresh = await auth.createSession({ email: `new-${unique()}@example.com`, provider: 'github' })
      const created = fresh.user.identities[0]!.identity_data
      expect(gh.account({ login: String(created.user_name) })!.id).toBe(Number(created.provider_id))
    } finally {
      await auth.close()
    }
  })

  it("a buyer connects through the App's user authorization: the numeric id is stored", async () => {
    const buyer = await signUp('buyer')
    const login = `octo-${unique()}`
    const url = new URL(authorizeUrl({ userId: buyer.id, returnTo: '/purchases', redirectUrl: `${APP}/github/oauth/callback` }))
    expect(url.origin + url.pathname).toBe(`${gh.url}/login/oauth/authorize`)
    const { code } = gh.authorize({ login })
    const outcome = await completeUserAuthorization({
      userId: buyer.id,
      params: new URLSearchParams({ code, state: url.searchParams.get('state')! }),
      redirectUrl: `${APP}/github/oauth/callback`,
    })
    expect(outcome).toEqual({ kind: 'done', returnTo: '/purchases', message: `GitHub connected as ${login}` })
    const row = await db.selectFrom('users').select(['githubUserId', 'githubLogin']).where('id', '=', buyer.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ githubUserId: gh.account({ login })!.id, githubLogin: login })

    // Someone else's state (or a forged one) is refused.
    const other = await signUp('other')
    await expect(
      completeUserAuthorization({
        userId: other.id,
        params: new URLSearchParams({ code: gh.authorize({ login }).code, state: url.searchParams.get('state')! }),
        redirectUrl: `${APP}/x`,
      }),
    ).rejects.toMatchObject({ status: 403 })
    // The same GitHub account cannot belong to two Forkmarket users.
    const again = new URL(authorizeUrl({ userId: other.id, returnTo: '/purchases', redirectUrl: `${APP}/github/oauth/callback` }))
    await expect(
      completeUserAuthorization({
        userId: other.id,
        params: new URLSearchParams({ code: gh.authorize({ login }).code, state: again.searchParams.get('state')! }),
        redirectUrl: `${APP}/github/oauth/callback`,
      }),
    ).rejects.toMatchObject({ status: 409 })
  })

  it('a sale waiting for the buyer’s GitHub account goes as soon as they connect one (the delivery machine’s buyer_connected)', async () => {
    const w = await world()
    // Paid while the buyer had no GitHub account: the invitation waits for one.
    const checkout = await startCheckout({ listingId: w.listing.id, buyerId: w.buyer.id })
    if (checkout.kind !== 'ready') throw new Error(`checkout answered ${checkout.kind}`)
    await db
      .updateTable('users')
      .set({ githubUserId: null, githubLogin: null, githubConnectedAt: null })
      .where('id', '=', w.buyer.id)
      .execute()
    await payIntent(checkout.clientSecret)
    await webhooksDelivered()
    const saleId = checkout.transactionId
    const now = new Date()
    expect(await runInvitation(saleId, now)).toMatchObject({ result: 'waiting', waitingOn: 'buyer_github', retryAt: at(now, HOUR) })

    const connectedAt = at(now, MINUTE)
    await connectGithubAccount(w.buyer.id, { id: w.buyerAccount.id, login: w.buyerAccount.login }, connectedAt)
    expect(await delivery(saleId)).toMatchObject({
      state: 'queued',
      waitingOn: 'buyer_github',
      nextAttemptAt: connectedAt,
      updatedAt: connectedAt,
    })
    expect(await runInvitation(saleId, connectedAt)).toEqual({ result: 'invited' })
  })

  it('a seller installs the App: recorded only when their own GitHub token shows the installation; personal repositories are not connectable', async () => {
    const { seller, listing } = await sellerWithListing()
    const login = `maker-${unique()}`
    gh.createUser({ login })
    const org = gh.createOrganization({ login: `org-${unique()}`, owners: [login] })
    const orgRepo = gh.createRepository({ owner: org.login, name: 'saas-kit', private: true })
    const personal = gh.createRepository({ owner: login, name: 'side-project', private: true })
    const orgInstallation = gh.install({ account: org.login })
    const personalInstallation = gh.install({ account: login })
    // Someone else's organization, installed too: its id in the callback must not be accepted.
    const stranger = `stranger-${unique()}`
    gh.createUser({ login: stranger })
    const foreign = gh.install({ account: gh.createOrganization({ login: `corp-${unique()}`, owners: [stranger] }).login })

    expect(await installUrl(seller.id, '/seller/create')).toMatch(new RegExp(`^${gh.url}/apps/[^/]+/installations/new\\?state=`))
    const state = signFlowState({ u: seller.id, r: '/seller/create', p: 'install' })
    const params = (installationId: number) =>
      new URLSearchParams({ installation_id: String(installationId), setup_action: 'install', state, code: gh.authorize({ login }).code })
    await expect(
      completeInstallation({ userId: seller.id, params: params(foreign.id), redirectUrl: `${APP}/github/oauth/callback` }),
    ).rejects.toMatchObject({
      status: 403,
    })
    expect(
      await completeInstallation({ userId: seller.id, params: params(orgInstallation.id), redirectUrl: `${APP}/github/oauth/callback` }),
    ).toEqual({
      kind: 'done',
      returnTo: '/seller/create',
      message: `GitHub connected: ${org.login}`,
    })
    await completeInstallation({ userId: seller.id, params: params(personalInstallation.id), redirectUrl: `${APP}/github/oauth/callback` })
    // Without a code, the seller is sent through the App's user authorization first.
    const noCode = await completeInstallation({
      userId: seller.id,
      params: new URLSearchParams({ installation_id: String(orgInstallation.id), setup_action: 'install', state }),
      redirectUrl: `${APP}/github/oauth/callback`,
    })
    expect(noCode).toMatchObject({ kind: 'redirect', url: expect.stringContaining(`${gh.url}/login/oauth/authorize`) })

    const choices = await listRepositoryChoices(seller.id)
    expect(choices.repositories).toHaveLength(2)
    expect(choices.repositories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: orgRepo.id, fullName: orgRepo.fullName, ownerType: 'Organization', connectable: true, reason: null }),
        expect.objectContaining({
          id: personal.id,
          fullName: personal.fullName,
          ownerType: 'User',
          connectable: false,
          reason: expect.stringMatching(/organization/),
        }),
      ]),
    )
    await expect(setListingRepository({ listingId: listing.id, sellerId: seller.id, repoId: personal.id })).rejects.toMatchObject({
      status: 400,
    })
    await expect(setListingRepository({ listingId: listing.id, sellerId: seller.id, repoId: foreign.id })).rejects.toMatchObject({
      status: 400,
    })
    const connected = await setListingRepository({ listingId: listing.id, sellerId: seller.id, repoId: orgRepo.id })
    expect(connected).toMatchObject({ repoId: orgRepo.id, listedSha: orgRepo.headSha, fullName: orgRepo.fullName })
  })
})

describe('POST /api/github/webhook', () => {
  const post = (body: string, headers: Record<string, string>) =>
    callRoute(
      githubWebhook,
      new Request(`${APP}/api/github/webhook`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } }),
    )
  const sign = (body: string, secret = gh.webhookSecret) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

  it('refuses what GitHub did not sign (401) and answers a signed delivery once', async () => {
    const body = JSON.stringify({ action: 'created', installation: { id: 424242 } })
    const headers = { 'X-GitHub-Event': 'installation', 'X-GitHub-Delivery': 'd-1' }
    expect((await post(body, headers)).status).toBe(401)
    expect((await post(body, { ...headers, 'X-Hub-Signature-256': sign(body, 'not-the-secret') })).status).toBe(401)
    const first = await post(body, { ...headers, 'X-Hub-Signature-256': sign(body) })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ received: true, result: 'ignored' })
    expect(await (await post(body, { ...headers, 'X-Hub-Signature-256': sign(body) })).json()).toEqual({
      received: true,
      result: 'duplicate',
    })
    const notJson = 'not json'
    expect((await post(notJson, { ...headers, 'X-GitHub-Delivery': 'd-2', 'X-Hub-Signature-256': sign(notJson) })).status).toBe(400)
  })

  it('installation_repositories touches only the listings and deliveries of the installation it names; an unknown installation is ignored (issue 26.4)', async () => {
    const victim = await world()
    const saleId = await pay(victim.buyer.id, victim.listing.id)
    const attacker = await world()
    const removed = (installationId: number, deliveryId: string) => {
      const body = JSON.stringify({
        action: 'removed',
        installation: { id: installationId },
        repositories_removed: [{ id: victim.repo.id, full_name: victim.repo.fullName }],
        repositories_added: [],
      })
      return post(body, {
        'X-GitHub-Event': 'installation_repositories',
        'X-GitHub-Delivery': deliveryId,
        'X-Hub-Signature-256': sign(body),
      })
    }
    const listingState = () =>
      db.selectFrom('listings').select(['visible', 'githubAccessLostAt']).where('id', '=', victim.listing.id).executeTakeFirstOrThrow()

    // An installation we do not know, and another seller's installation, both naming the victim's repository.
    const unknown = await removed(victim.installation.id + 1_000_000, `d-unknown-${unique()}`)
    expect(await unknown.json()).toEqual({ received: true, result: 'ignored' })
    await removed(attacker.installation.id, `d-other-${unique()}`)
    expect(await listingState()).toEqual({ visible: true, githubAccessLostAt: null })
    expect(await saleStatus(saleId)).toBe('delivering')

    // The installation the repository belongs to: the listing is hidden and the waiting sale goes to the admin.
    const own = await removed(victim.installation.id, `d-own-${unique()}`)
    expect(await own.json()).toEqual({ received: true, result: 'processed' })
    expect(await listingState()).toMatchObject({ visible: false, githubAccessLostAt: expect.any(Date) })
    expect(await saleStatus(saleId)).toBe('disputed')
  })
})

describe('demo data', () => {
  it('the GitHub emulator and the database agree: connected organizations, a lost one, a purchase in each delivery state', async () => {
    const { demoGithubSpec, DEMO_GITHUB } = await import('../../db/seed/demo-github.ts')
    const { seedDemoData } = await import('../../db/seed/demo.ts')
    const { DEMO_LISTINGS } = await import('../../db/seed/demo-data.ts')
    // The emulator's clock (earlier tests in this file moved it forward), so its invitations' ages match.
    const now = new Date(gh.advanceClock({ ms: 0 }).now)
    resetGithubClients()
    const seeded = gh.seed(demoGithubSpec(now))
    // Seeding again changes nothing (the launcher seeds the emulator on every start).
    expect(gh.seed(demoGithubSpec(now)).repositories.map((r) => r.headSha)).toEqual(seeded.repositories.map((r) => r.headSha))
    const github = {
      repositories: Object.fromEntries(seeded.repositories.map((r) => [r.fullName, { id: r.id, headSha: r.headSha, htmlUrl: r.htmlUrl }])),
    }
    await seedDemoData(
      db,
      now,
      DEMO_LISTINGS.map(() => ({ thumbnailUrl: '/uploads/demo.webp', screenshots: [] })),
      github,
    )

    const states = await db
      .selectFrom('githubDeliveries')
      .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
      .select(['transactions.status', 'githubDeliveries.state'])
      .orderBy('transactions.status')
      .execute()
    expect(states.map((row) => `${row.status}/${row.state}`).sort()).toEqual(
      ['completed/accepted', 'delivered/accepted', 'delivering/invited', 'delivering/queued', 'disputed/failed', 'refunded/revoked'].sort(),
    )
    // The invited demo buyer's invitation is pending on the emulator; the delivered one is a collaborator with a fork.
    const invited = gh.repository({ repository: 'launchkit-labs/invoice-tracker' })
    expect(invited.invitations).toEqual([expect.objectContaining({ userId: DEMO_GITHUB.users.buyer, expired: false })])
    const delivered = await db
      .selectFrom('transactions')
      .select(['deliveryProof'])
      .where('status', '=', 'delivered')
      .where('deliveryProof', 'is not', null)
      .execute()
    const forked = delivered.map((row) => row.deliveryProof!).find((proof) => proof.github)!
    expect(forked.github!.headSha).toBe(gh.repository({ repository: 'linstudio-templates/agency-website-kit' }).headSha)
    expect(gh.repository({ repository: 'buyer/agency-website-kit' }).parent).toBe('linstudio-templates/agency-website-kit')
    expect(forked.forkUrl).toBe(gh.repository({ repository: 'buyer/agency-website-kit' }).htmlUrl)

    // Noah's organization lost the App: his listing is hidden with the alert.
    const noah = await db
      .selectFrom('githubInstallations')
      .select(['userId'])
      .where('id', '=', DEMO_GITHUB.installations['noah-platform'])
      .executeTakeFirstOrThrow()
    expect((await sellerGithubStatus(noah.userId)).lostAccess).toHaveLength(1)
    // The invited sale is polled like any other: still pending, nothing changes.
    expect(await sweepGithubDeliveries(now)).toMatchObject({ delivered: 0, failed: 0, resent: 0 })
  })
})
