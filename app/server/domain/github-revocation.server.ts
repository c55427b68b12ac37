/**
 * Refund → revocation (issue 16): a sale refunded before completion loses its access on GitHub
 * (the pending invitation canceled, or the collaborator removed); after completion access is kept.
 */
import type { Task } from 'graphile-worker'
import { db } from '../infra/db.server.ts'
import { githubFailure, splitFullName } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { GITHUB_REVOKE_TASK } from './escrow.server.ts'
import { clientFor, currentLogin, lockDelivery, step, StepError, transactionIdOf } from './github-delivery-steps.server.ts'

const HOUR = 60 * 60 * 1000

export type RevokeOutcome =
  | { result: 'revoked'; revocation: 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke' }
  | { result: 'skipped'; why: string }
  | { result: 'retry'; retryAt: Date; message: string }

/**
 * A refunded sale's access is revoked (before completion only): the pending
 * invitation canceled, or the collaborator removed. Audited; once.
 */
export async function revokeGithubAccess(transactionId: string, now: Date = new Date()): Promise<RevokeOutcome> {
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
    let revocation: 'invitation_canceled' | 'collaborator_removed' | 'nothing_to_revoke' = 'nothing_to_revoke'
    const { owner, repo } = splitFullName(delivery.repoFullName)
    const buyerId = delivery.buyerGithubId
    let note: string | null = null
    if (buyerId) {
      try {
        const octokit = await clientFor(delivery.installationId)
        const invitations = await step('repository', () =>
          octokit.paginate(octokit.rest.repos.listInvitations, { owner, repo, per_page: 100 }),
        )
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
      } catch (error) {
        const failure = githubFailure(error instanceof StepError ? error.cause : error, delivery.attempts + 1, now)
        if (failure.kind === 'retry') {
          await trx
            .updateTable('githubDeliveries')
            .set({ lastError: failure.message, updatedAt: now })
            .where('transactionId', '=', transactionId)
            .execute()
          return { result: 'retry', retryAt: failure.retryAt, message: failure.message }
        }
        if (failure.kind === 'refused') {
          await trx
            .updateTable('githubDeliveries')
            .set({ lastError: failure.message, updatedAt: now })
            .where('transactionId', '=', transactionId)
            .execute()
          logEvent('error', 'github_revoke_refused', { transactionId, message: failure.message })
          return { result: 'retry', retryAt: new Date(now.getTime() + HOUR), message: failure.message }
        }
        // 404: the repository or the installation is gone, and with it the buyer's access.
        note = `Nothing to revoke: ${failure.message}`
      }
    }
    await trx
      .updateTable('githubDeliveries')
      .set({ state: 'revoked', revokedAt: now, revocation, waitingOn: null, nextAttemptAt: null, updatedAt: now })
      .where('transactionId', '=', transactionId)
      .execute()
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
      metadata: { revocation, repository: delivery.repoFullName, buyerGithubId: buyerId },
    })
    return { result: 'revoked', revocation }
  })
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
