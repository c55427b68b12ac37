/**
 * GitHub delivery (issue 16; docs/decisions/015-github-delivery.md): payment → invitation. At
 * payment the sale goes paid → delivering and the invitation job is queued; the job invites the
 * buyer (by GitHub id → current login) as a `pull` collaborator, waiting out GitHub's limits.
 * What follows is elsewhere: confirmation (github-delivery-confirmation), polling and the deadline
 * (github-delivery-sweep), revocation after a refund (github-revocation).
 *
 *   beginGithubDelivery(trx, sale, now)   in the Stripe webhook's transaction
 *   runInvitation(transactionId, now)     the invitation job's step (tests call it)
 */
import type { Task } from 'graphile-worker'
import type { Transaction as DbTransaction } from 'kysely'
import type { DB, GithubDelivery, GithubWaitingOn, Transaction } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubEnabled, githubFailure, splitFullName, type GithubFailure } from '../infra/github.server.ts'
import { queueJob } from '../infra/jobs.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { applyEvent, prepareEscrow } from './escrow.server.ts'
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
  SYSTEM,
  transactionIdOf,
} from './github-delivery-steps.server.ts'
import type { DeliveryEventData } from './github-delivery-transitions.server.ts'
import { installationLost, repositoryLost } from './github-repository-access.server.ts'
import { deliversThroughGithub } from './github-views.server.ts'
import { notifyGithubInvitation } from './notification-sender.server.ts'

const HOUR = 60 * 60 * 1000

/** A buyer without a GitHub account (disconnected after paying) is looked at again this often. */
const BUYER_GITHUB_RETRY_MS = HOUR

export const GITHUB_INVITE_TASK = 'github-invite'
export const GITHUB_SWEEP_TASK = 'github-sweep'
export function inviteJobKey(transactionId: string): string {
  return `${GITHUB_INVITE_TASK}:${transactionId}`
}

/**
 * At payment (the Stripe webhook's transaction): a sale of a listing with a
 * connected repository goes paid → delivering, its delivery row is written
 * (one per sale) and the invitation job queued (one per sale: its job key).
 * False when the listing has no repository (manual delivery, as before).
 */
export async function beginGithubDelivery(trx: DbTransaction<DB>, sale: Transaction, now: Date): Promise<boolean> {
  if (!githubEnabled()) return false
  const listing = await trx
    .selectFrom('listings')
    .select(['githubInstallationId', 'githubRepoId', 'githubRepoFullName', 'githubListedSha', 'githubListedAt'])
    .where('id', '=', sale.listingId)
    .executeTakeFirst()
  if (!listing || !deliversThroughGithub(listing)) return false
  const started = await applyEvent(trx, {
    saleId: sale.id,
    event: 'github_delivery_started',
    by: SYSTEM,
    now,
    metadata: { repository: listing.githubRepoFullName },
  })
  if (!started.applied) return false
  const buyer = await trx.selectFrom('users').select(['githubUserId', 'githubLogin']).where('id', '=', sale.buyerId).executeTakeFirst()
  await trx
    .insertInto('githubDeliveries')
    .values({
      transactionId: sale.id,
      installationId: listing.githubInstallationId,
      repoId: listing.githubRepoId,
      repoFullName: listing.githubRepoFullName,
      buyerGithubId: buyer?.githubUserId ?? null,
      buyerLogin: buyer?.githubLogin ?? null,
      listedSha: listing.githubListedSha,
      listedAt: listing.githubListedAt,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) => oc.column('transactionId').doNothing())
    .execute()
  await queueJob(trx, GITHUB_INVITE_TASK, { transactionId: sale.id }, { runAt: now, jobKey: inviteJobKey(sale.id), maxAttempts: 25 })
  return true
}

export type InvitationOutcome =
  | { result: 'invited' | 'delivered' | 'failed' | 'skipped' }
  | { result: 'waiting'; retryAt: Date; waitingOn: GithubWaitingOn; message: string }

/**
 * Records an invitation GitHub created (sent, or sent again): the delivery
 * machine's event (who, which invitation) and its audit row.
 */
export async function recordInvitation(
  trx: DbTransaction<DB>,
  transactionId: string,
  input: {
    /** What the event carries besides the login, the invitation and the time. */
    data: Omit<DeliveryEventData, 'login' | 'invitation' | 'now'>
    login: string
    invitation: { id: number; html_url: string }
    action: 'github_invitation_sent' | 'github_invitation_resent'
    reason: string
    metadata: Record<string, unknown>
    now: Date
  },
): Promise<void> {
  const event = input.action === 'github_invitation_sent' ? 'invitation_sent' : 'invitation_resent'
  await applyDeliveryEvent(trx, transactionId, event, { ...input.data, login: input.login, invitation: input.invitation, now: input.now })
  await recordAudit(trx, {
    actorId: null,
    actorRole: 'system',
    action: input.action,
    entityType: 'transaction',
    entityId: transactionId,
    fromState: 'delivering',
    toState: 'delivering',
    reason: input.reason,
    metadata: { invitationId: input.invitation.id, login: input.login, ...input.metadata },
  })
  await notifyGithubInvitation(trx, transactionId, { id: input.invitation.id, resent: input.action === 'github_invitation_resent' })
}

/** What GitHub answered the invitation, asked before the delivery row is locked. */
type Answer =
  | { kind: 'no_buyer_account' }
  | { kind: 'invited'; buyerGithubId: number; login: string; invitation: { id: number; html_url: string } }
  | { kind: 'has_access'; buyerGithubId: number; login: string; head: RepositoryHead }
  | { kind: 'failed'; error: unknown }

/**
 * The invitation job's step: invite the buyer (by id → current login) as a
 * `pull` collaborator. GitHub is asked first, with no lock held; then the
 * delivery row is locked and the answer recorded only if the delivery is still
 * the `queued` one that was read. At most one invitation per sale: a second
 * instance that asked at the same time finds the row moved on and records
 * nothing, and GitHub answers a repeated PUT with the same pending invitation.
 */
export async function runInvitation(transactionId: string, now: Date = new Date()): Promise<InvitationOutcome> {
  await prepareEscrow()
  const read = await readDelivery(transactionId)
  if (!read || read.sale.status !== 'delivering' || read.delivery.state !== 'queued') return { result: 'skipped' }
  const answer = await askToInvite(read.delivery, read.sale.buyerId)
  const lost: Lost[] = []
  let stray: { installationId: number; repoFullName: string; invitationId: number } | null = null
  return db
    .transaction()
    .execute(async (trx): Promise<InvitationOutcome> => {
      const locked = await lockDelivery(trx, transactionId)
      if (
        !locked ||
        locked.sale.status !== 'delivering' ||
        locked.delivery.state !== 'queued' ||
        locked.delivery.attempts !== read.delivery.attempts
      ) {
        // What was read no longer applies: another instance recorded this invitation, or the sale left delivering.
        if (answer.kind === 'invited' && locked && locked.sale.status !== 'delivering')
          stray = {
            installationId: read.delivery.installationId,
            repoFullName: read.delivery.repoFullName,
            invitationId: answer.invitation.id,
          }
        return { result: 'skipped' }
      }
      const { delivery } = locked
      const attempt = delivery.attempts + 1
      switch (answer.kind) {
        case 'no_buyer_account':
          return wait(
            trx,
            delivery,
            attempt,
            {
              kind: 'retry',
              retryAt: new Date(now.getTime() + BUYER_GITHUB_RETRY_MS),
              waitingOn: 'buyer_github',
              message: 'The buyer has no connected GitHub account',
            },
            now,
          )
        case 'invited': {
          const { buyerGithubId, login, invitation } = answer
          await refreshLogin(trx, buyerGithubId, login)
          await recordInvitation(trx, transactionId, {
            data: { buyerGithubId, attempts: attempt },
            login,
            invitation,
            action: 'github_invitation_sent',
            reason: `Invited ${login} to ${delivery.repoFullName} (read access)`,
            metadata: { buyerGithubId, repository: delivery.repoFullName, attempt },
            now,
          })
          return { result: 'invited' }
        }
        case 'has_access': {
          // 204: the buyer already has access (an organization member, or accepted before): delivered now.
          const { buyerGithubId, login, head } = answer
          await refreshLogin(trx, buyerGithubId, login)
          const fresh = { ...delivery, buyerGithubId, buyerLogin: login, invitedAt: delivery.invitedAt ?? now, attempts: attempt }
          await confirmInTransaction(trx, fresh, head, { via: 'poll', now })
          return { result: 'delivered' }
        }
        case 'failed': {
          const { error } = answer
          const failure = error instanceof StepError ? githubFailure(error.cause, attempt, now) : githubFailure(error, attempt, now)
          if (failure.kind === 'retry') return wait(trx, delivery, attempt, failure, now)
          const stepName = error instanceof StepError ? error.step : 'repository'
          if (failure.kind === 'not_found' && stepName !== 'buyer') {
            // The installation or the repository is gone: hidden listing, alert, admin queue (after this transaction).
            await applyDeliveryEvent(trx, transactionId, 'attempt_failed', { attempts: attempt, error: failure.message, now })
            lost.push({
              installationId: stepName === 'installation' ? delivery.installationId : undefined,
              repoIds: [delivery.repoId],
              now,
            })
            return { result: 'failed' }
          }
          const reason =
            stepName === 'buyer' && failure.kind === 'not_found'
              ? "The buyer's GitHub account no longer exists"
              : `GitHub refused the invitation: ${failure.message}`
          await applyDeliveryEvent(trx, transactionId, 'attempt_failed', { attempts: attempt, now })
          await failDelivery(transactionId, reason, now, trx)
          return { result: 'failed' }
        }
      }
    })
    .finally(async () => {
      await flushLost(lost)
      if (stray) await cancelStrayInvitation(stray)
    })
}

/** Asks GitHub to invite the buyer (no lock held): their current login, then the PUT; a 204 reads the delivered head too. */
async function askToInvite(delivery: GithubDelivery, buyerId: string): Promise<Answer> {
  let buyerGithubId = delivery.buyerGithubId
  if (!buyerGithubId) {
    const buyer = await db.selectFrom('users').select('githubUserId').where('id', '=', buyerId).executeTakeFirst()
    buyerGithubId = buyer?.githubUserId ?? null
  }
  if (!buyerGithubId) return { kind: 'no_buyer_account' }
  const { owner, repo } = splitFullName(delivery.repoFullName)
  try {
    const octokit = await clientFor(delivery.installationId)
    const login = await currentLogin(octokit, buyerGithubId)
    const response = await step('repository', () =>
      octokit.rest.repos.addCollaborator({ owner, repo, username: login, permission: 'pull' }),
    )
    if (response.status === 201 && response.data) return { kind: 'invited', buyerGithubId, login, invitation: response.data }
    return { kind: 'has_access', buyerGithubId, login, head: await headOf(octokit, delivery.repoFullName) }
  } catch (error) {
    return { kind: 'failed', error }
  }
}

/**
 * The sale left delivering (refunded) while its invitation was being sent: the invitation just
 * made is withdrawn (the revocation may have looked before it existed). Best effort, logged.
 */
async function cancelStrayInvitation(stray: { installationId: number; repoFullName: string; invitationId: number }): Promise<void> {
  const { owner, repo } = splitFullName(stray.repoFullName)
  try {
    const octokit = await clientFor(stray.installationId)
    await octokit.rest.repos.deleteInvitation({ owner, repo, invitation_id: stray.invitationId })
    logEvent('warn', 'github_stray_invitation_canceled', { repository: stray.repoFullName, invitationId: stray.invitationId })
  } catch (error) {
    logEvent('error', 'github_stray_invitation_left', {
      repository: stray.repoFullName,
      invitationId: stray.invitationId,
      message: error instanceof Error ? error.message : String(error),
    })
  }
}

/** Losses found by a step are handled after its transaction (they lock other rows). */
export interface Lost {
  installationId?: number
  repoIds: number[]
  now: Date
}
export async function flushLost(pending: Lost[]): Promise<void> {
  for (const lost of pending.splice(0)) {
    if (lost.installationId !== undefined) {
      await installationLost(
        lost.installationId,
        lost.now,
        "The Forkmarket GitHub App is no longer installed on the repository's organization",
      )
    } else {
      await repositoryLost({
        repoIds: lost.repoIds,
        reason: 'The repository was not found on GitHub (deleted, renamed away or removed from the App)',
        now: lost.now,
      })
    }
  }
}

async function wait(
  trx: DbTransaction<DB>,
  delivery: GithubDelivery,
  attempt: number,
  failure: Extract<GithubFailure, { kind: 'retry' }> | { kind: 'retry'; retryAt: Date; waitingOn: 'buyer_github'; message: string },
  now: Date,
): Promise<InvitationOutcome> {
  await applyDeliveryEvent(trx, delivery.transactionId, 'invitation_waiting', {
    attempts: attempt,
    waitingOn: failure.waitingOn,
    retryAt: failure.retryAt,
    error: failure.message,
    now,
  })
  if (delivery.waitingOn !== failure.waitingOn) {
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'system',
      action: 'github_invitation_queued',
      entityType: 'transaction',
      entityId: delivery.transactionId,
      fromState: 'delivering',
      toState: 'delivering',
      reason: failure.message,
      metadata: { waitingOn: failure.waitingOn, retryAt: failure.retryAt.toISOString(), attempt },
    })
  }
  logEvent('warn', 'github_invitation_waiting', {
    transactionId: delivery.transactionId,
    waitingOn: failure.waitingOn,
    retryAt: failure.retryAt.toISOString(),
    message: failure.message,
  })
  return { result: 'waiting', retryAt: failure.retryAt, waitingOn: failure.waitingOn, message: failure.message }
}

// --- The job ---------------------------------------------------------------------------------

/** The invitation job: one per sale (its key); a wait puts it back at the stated time. */
export const inviteTask: Task = async (payload, helpers) => {
  const transactionId = transactionIdOf(payload)
  if (!transactionId) return
  const outcome = await runInvitation(transactionId, new Date())
  if (outcome.result === 'waiting') {
    await helpers.addJob(
      GITHUB_INVITE_TASK,
      { transactionId },
      { runAt: outcome.retryAt, jobKey: inviteJobKey(transactionId), maxAttempts: 25 },
    )
  }
}
