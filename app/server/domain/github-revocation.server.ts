/**
 * Refund → revocation (issue 16): a sale refunded before completion loses its access on GitHub
 * (the pending invitation canceled, or the collaborator removed); after completion access is kept.
 */
import type { Task } from 'graphile-worker'
import type { GithubDelivery } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubFailure, splitFullName } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { GITHUB_REVOKE_TASK } from './escrow.server.ts'
import {
  applyDeliveryEvent,
  clientFor,
  currentLogin,
  lockDelivery,
  readDelivery,
  step,
  StepError,
  transactionIdOf,
} from './github-delivery-steps.server.ts'

const HOUR = 60 * 60 * 1000

export type RevokeOutcome =
  | { result: 'revoked'; revocation: 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke' }
  | { result: 'skipped'; why: string }
  | { result: 'retry'; retryAt: Date; message: string }

type Revocation = 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke'

/** What was done on GitHub, before the delivery row is locked to record it. */
type Removal =
  | { kind: 'done'; revocation: Revocation; note: string | null }
  | { kind: 'retry'; retryAt: Date; message: string }
  | { kind: 'refused'; message: string }

/**
 * A refunded sale's access is revoked (before completion only): the pending
 * invitation canceled, or the collaborator removed. GitHub is called first,
 * with no lock held; the delivery row is then locked, the sale checked again
 * and the revocation recorded and audited, once.
 */
export async function revokeGithubAccess(transactionId: string, now: Date = new Date()): Promise<RevokeOutcome> {
  const read = await readDelivery(transactionId)
  const due = read && read.delivery.state !== 'revoked' && read.sale.status === 'refunded' && !read.sale.completedAt
  const removal = due ? await removeAccess(read.delivery, now) : null
  return db.transaction().execute(async (trx): Promise<RevokeOutcome> => {
    const locked = await lockDelivery(trx, transactionId)
    if (!locked) return { result: 'skipped', why: 'no delivery, or another instance is revoking it' }
    const { delivery, sale } = locked
    if (delivery.state === 'revoked') return { result: 'skipped', why: 'already revoked' }
    if (sale.status !== 'refunded') return { result: 'skipped', why: `the sale is ${sale.status}` }
    if (sale.completedAt) {
      await recordAudit(trx, {
        actorId: null,
        actorRole: 'system',
        action: 'github_access_kept',
        entityType: 'transaction',
        entityId: transactionId,
        fromState: sale.status,
        toState: sale.status,
        reason: 'Refunded after completion: access on GitHub is never revoked after completion',
      })
      return { result: 'skipped', why: 'completed before the refund' }
    }
    // Refunded since it was read: GitHub was not asked yet.
    if (!removal) return { result: 'retry', retryAt: now, message: 'The sale was refunded while it was read' }
    if (removal.kind !== 'done') {
      await applyDeliveryEvent(trx, transactionId, 'error_recorded', { error: removal.message, now })
      if (removal.kind === 'retry') return { result: 'retry', retryAt: removal.retryAt, message: removal.message }
      logEvent('error', 'github_revoke_refused', { transactionId, message: removal.message })
      return { result: 'retry', retryAt: new Date(now.getTime() + HOUR), message: removal.message }
    }
    const { revocation, note } = removal
    await applyDeliveryEvent(trx, transactionId, 'revoked', { revocation, now })
    await recordAudit(trx, {
      actorId: null,
      actorRole: 'system',
      action: 'github_access_revoked',
      entityType: 'transaction',
      entityId: transactionId,
      fromState: sale.status,
      toState: sale.status,
      reason:
        note ??
        (revocation === 'invitation_canceled'
          ? `Refund: the pending invitation to ${delivery.repoFullName} was canceled`
          : revocation === 'collaborator_removed'
            ? `Refund: ${delivery.buyerLogin ?? 'the buyer'} was removed from ${delivery.repoFullName}`
            : 'Refund: the buyer had no invitation or access to revoke'),
      metadata: { revocation, repository: delivery.repoFullName, buyerGithubId: delivery.buyerGithubId },
    })
    return { result: 'revoked', revocation }
  })
}

/** Cancels the buyer's pending invitations and removes them as a collaborator (no lock held). */
async function removeAccess(delivery: GithubDelivery, now: Date): Promise<Removal> {
  const buyerId = delivery.buyerGithubId
  if (!buyerId) return { kind: 'done', revocation: 'nothing_to_revoke', note: null }
  const { owner, repo } = splitFullName(delivery.repoFullName)
  let revocation: Revocation = 'nothing_to_revoke'
  try {
    const octokit = await clientFor(delivery.installationId)
    const invitations = await step('repository', () => octokit.paginate(octokit.rest.repos.listInvitations, { owner, repo, per_page: 100 }))
    const pending = invitations.filter((invitation) => invitation.invitee?.id === buyerId)
    for (const invitation of pending) {
      await step('repository', () => octokit.rest.repos.deleteInvitation({ owner, repo, invitation_id: invitation.id }))
      revocation = 'invitation_canceled'
    }
    const login = await currentLogin(octokit, buyerId)
    const isCollaborator = await step('repository', () =>
      octokit.rest.repos.checkCollaborator({ owner, repo, username: login }).then(
        () => true,
        (error: { status?: number }) => {
          if (error.status === 404) return false
          throw error
        },
      ),
    )
    if (isCollaborator) {
      await step('repository', () => octokit.rest.repos.removeCollaborator({ owner, repo, username: login }))
      revocation = 'collaborator_removed'
    }
    return { kind: 'done', revocation, note: null }
  } catch (error) {
    const failure = githubFailure(error instanceof StepError ? error.cause : error, delivery.attempts + 1, now)
    if (failure.kind === 'retry') return { kind: 'retry', retryAt: failure.retryAt, message: failure.message }
    if (failure.kind === 'refused') return { kind: 'refused', message: failure.message }
    // 404: the repository or the installation is gone, and with it the buyer's access.
    return { kind: 'done', revocation, note: `Nothing to revoke: ${failure.message}` }
  }
}

// --- The job ---------------------------------------------------------------------------------

export const revokeTask: Task = async (payload, helpers) => {
  const transactionId = transactionIdOf(payload)
  if (!transactionId) return
  const outcome = await revokeGithubAccess(transactionId, new Date())
  if (outcome.result === 'retry') {
    await helpers.addJob(
      GITHUB_REVOKE_TASK,
      { transactionId },
      { runAt: outcome.retryAt, jobKey: `${GITHUB_REVOKE_TASK}:${transactionId}`, maxAttempts: 25 },
    )
  }
}
