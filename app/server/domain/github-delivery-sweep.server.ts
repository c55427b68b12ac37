/**
 * Polling, the fallback for lost webhooks (issue 16): queued invitations that are due are sent,
 * invited buyers are checked on GitHub (collaborator → delivered; an expired or declined invitation
 * sent again, once), and deliveries not accepted 14 days after payment go to the admin's queue.
 */
import type { Task } from 'graphile-worker'
import type { GithubDelivery } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled, githubFailure, splitFullName } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { prepareEscrow } from './escrow.server.ts'
import { refreshLogin } from './github-accounts.server.ts'
import { confirmInTransaction, headOf, type RepositoryHead } from './github-delivery-confirmation.server.ts'
import {
  applyDeliveryEvent,
  clientFor,
  currentLogin,
  failDelivery,
  lockDelivery,
  readDelivery,
  step,
  StepError,
} from './github-delivery-steps.server.ts'
import { flushLost, recordInvitation, runInvitation, type Lost } from './github-delivery.server.ts'

const DAY = 24 * 60 * 60 * 1000

/** An invitation not accepted this long after payment sends the sale to the admin's dispute queue. */
export const ACCEPT_DEADLINE_DAYS = 14
export const ACCEPT_DEADLINE_MS = ACCEPT_DEADLINE_DAYS * DAY

export const GITHUB_SWEEP_TASK = 'github-sweep'

export interface SweepReport {
  invited: number
  delivered: number
  resent: number
  failed: number
  waiting: number
}

/**
 * The sweep (every 10 minutes, and at start-up; tests call it with a moved
 * clock): queued invitations that are due are sent, invited buyers are checked
 * on GitHub (collaborator → delivered; the invitation expired or gone → sent
 * again, once), and deliveries still not accepted 14 days after payment go to
 * the admin's dispute queue.
 */
export async function sweepGithubDeliveries(now: Date = new Date()): Promise<SweepReport> {
  const report: SweepReport = { invited: 0, delivered: 0, resent: 0, failed: 0, waiting: 0 }
  if (!githubEnabled()) return report
  await prepareEscrow()
  const open = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select(['githubDeliveries.transactionId', 'githubDeliveries.state', 'githubDeliveries.nextAttemptAt', 'githubDeliveries.createdAt'])
    .where('transactions.status', '=', 'delivering')
    .where('githubDeliveries.state', 'in', ['queued', 'invited'])
    .orderBy('githubDeliveries.createdAt')
    .limit(500)
    .execute()
  for (const row of open) {
    try {
      if (row.state === 'queued') {
        if (row.nextAttemptAt && row.nextAttemptAt > now) continue
        const outcome = await runInvitation(row.transactionId, now)
        if (outcome.result === 'invited') report.invited++
        else if (outcome.result === 'delivered') report.delivered++
        else if (outcome.result === 'failed') report.failed++
        else if (outcome.result === 'waiting') report.waiting++
      } else {
        const outcome = await pollInvitation(row.transactionId, now)
        if (outcome === 'delivered') report.delivered++
        else if (outcome === 'resent') report.resent++
        else if (outcome === 'failed') report.failed++
      }
    } catch (error) {
      logEvent('warn', 'github_sweep_step_failed', {
        transactionId: row.transactionId,
        message: error instanceof Error ? error.message : String(error),
      })
    }
  }
  // Not accepted within 14 days of payment: the admin decides (refund, or release).
  const overdue = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select('githubDeliveries.transactionId')
    .where('transactions.status', '=', 'delivering')
    .where('githubDeliveries.state', 'in', ['queued', 'invited'])
    .where('githubDeliveries.createdAt', '<=', new Date(now.getTime() - ACCEPT_DEADLINE_MS))
    .execute()
  for (const { transactionId } of overdue) {
    if (await failDelivery(transactionId, `The buyer did not accept the GitHub invitation within ${ACCEPT_DEADLINE_DAYS} days`, now))
      report.failed++
  }
  return report
}

type PollOutcome = 'delivered' | 'resent' | 'pending' | 'failed' | 'skipped'

/** What GitHub said about an invited buyer, asked before the delivery row is locked. */
type Sighting =
  | { kind: 'has_access'; login: string; head: RepositoryHead }
  | { kind: 'pending'; login: string }
  | { kind: 'resent'; login: string; invitation: { id: number; html_url: string }; expired: boolean }
  | { kind: 'failed'; error: unknown }

/**
 * One invited buyer, checked on GitHub (no lock held); what was seen is then
 * recorded under the delivery row's lock if the delivery is still the
 * `invited` one that was read.
 */
export async function pollInvitation(transactionId: string, now: Date = new Date()): Promise<PollOutcome> {
  await prepareEscrow()
  const read = await readDelivery(transactionId)
  if (!read || read.sale.status !== 'delivering' || read.delivery.state !== 'invited') return 'skipped'
  const sighting = await lookOnGithub(read.delivery)
  const lost: Lost[] = []
  return db
    .transaction()
    .execute(async (trx): Promise<PollOutcome> => {
      const locked = await lockDelivery(trx, transactionId)
      if (
        !locked ||
        locked.sale.status !== 'delivering' ||
        locked.delivery.state !== 'invited' ||
        locked.delivery.resendCount !== read.delivery.resendCount
      )
        return 'skipped'
      const { delivery } = locked
      if (sighting.kind !== 'failed' && sighting.login !== delivery.buyerLogin)
        await refreshLogin(trx, delivery.buyerGithubId!, sighting.login)
      switch (sighting.kind) {
        case 'has_access': {
          const current = { ...delivery, buyerLogin: sighting.login }
          return (await confirmInTransaction(trx, current, sighting.head, { via: 'poll', now })) ? 'delivered' : 'skipped'
        }
        case 'pending':
          return 'pending'
        case 'resent':
          await recordInvitation(trx, transactionId, {
            data: {},
            login: sighting.login,
            invitation: sighting.invitation,
            action: 'github_invitation_resent',
            reason: sighting.expired
              ? 'The invitation expired on GitHub: sent again (once)'
              : 'The invitation was no longer pending on GitHub: sent again (once)',
            metadata: { previousInvitationId: delivery.invitationId },
            now,
          })
          return 'resent'
        case 'failed': {
          const { error } = sighting
          const failure = githubFailure(error instanceof StepError ? error.cause : error, delivery.attempts + 1, now)
          const stepName = error instanceof StepError ? error.step : 'repository'
          if (failure.kind === 'not_found' && stepName !== 'buyer') {
            lost.push({
              installationId: stepName === 'installation' ? delivery.installationId : undefined,
              repoIds: [delivery.repoId],
              now,
            })
            return 'failed'
          }
          await applyDeliveryEvent(trx, transactionId, 'error_recorded', { error: failure.message, now })
          if (failure.kind === 'refused' || (failure.kind === 'not_found' && stepName === 'buyer')) {
            await failDelivery(
              transactionId,
              stepName === 'buyer' ? "The buyer's GitHub account no longer exists" : `GitHub refused: ${failure.message}`,
              now,
              trx,
            )
            return 'failed'
          }
          return 'pending'
        }
      }
    })
    .finally(() => flushLost(lost))
}

/**
 * The buyer's login and access now; an invitation that expired (GitHub: after 7 days) or was
 * declined or deleted is sent again, once (the 14-day deadline decides after that).
 */
async function lookOnGithub(delivery: GithubDelivery): Promise<Sighting> {
  const { owner, repo } = splitFullName(delivery.repoFullName)
  try {
    const octokit = await clientFor(delivery.installationId)
    const login = await currentLogin(octokit, delivery.buyerGithubId!)
    const isCollaborator = await step('repository', () =>
      octokit.rest.repos.checkCollaborator({ owner, repo, username: login }).then(
        () => true,
        (error: { status?: number }) => {
          if (error.status === 404) return false
          throw error
        },
      ),
    )
    if (isCollaborator) return { kind: 'has_access', login, head: await headOf(octokit, delivery.repoFullName) }
    const invitations = await step('repository', () => octokit.paginate(octokit.rest.repos.listInvitations, { owner, repo, per_page: 100 }))
    const pending = invitations.find((invitation) => invitation.invitee?.id === delivery.buyerGithubId)
    if (pending && !pending.expired) return { kind: 'pending', login }
    if (delivery.resendCount >= 1) return { kind: 'pending', login } // sent twice: the 14-day deadline decides
    const response = await step('repository', () =>
      octokit.rest.repos.addCollaborator({ owner, repo, username: login, permission: 'pull' }),
    )
    if (response.status !== 201 || !response.data) return { kind: 'has_access', login, head: await headOf(octokit, delivery.repoFullName) }
    return { kind: 'resent', login, invitation: response.data, expired: Boolean(pending) }
  } catch (error) {
    return { kind: 'failed', error }
  }
}

// --- The job ---------------------------------------------------------------------------------

export const sweepTask: Task = async () => {
  const report = await sweepGithubDeliveries(new Date())
  if (Object.values(report).some((n) => n > 0)) logEvent('info', 'github_sweep', { ...report })
}
