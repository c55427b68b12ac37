/**
 * The App's access to a seller's repositories, lost and regained (issue 16): an uninstalled or
 * suspended App, a repository removed from it or gone (404) hides the listings with the
 * "Reconnect GitHub" alert and sends sales still waiting for access to the admin's queue; a
 * reconnection (or the repository given back) shows them again. The `installation` and
 * `installation_repositories` webhooks are handled here.
 */
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import { db } from '../infra/db.server.ts'
import { githubId, installationOctokit } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { cancelStaleCheckouts } from './checkout.server.ts'
import { prepareEscrow } from './escrow.server.ts'
import { failDelivery } from './github-delivery-steps.server.ts'
import type { Fresh, GithubWebhookResult } from './github-webhooks.server.ts'

/**
 * The App can no longer reach these repositories: their listings are hidden
 * with the "Reconnect GitHub" alert, open checkouts on them closed, and sales
 * still waiting for access go to the admin's queue. With both an installation
 * and repositories, only that installation's listings and deliveries of those
 * repositories (an installation's event speaks for itself alone, issue 26.4).
 */
export async function repositoryLost(input: { installationId?: number; repoIds?: number[]; reason: string; now: Date }): Promise<void> {
  await prepareEscrow()
  const repoIds = input.repoIds ?? []
  if (input.installationId === undefined && repoIds.length === 0) return
  const hidden = await db
    .updateTable('listings')
    .set({ visible: false, githubAccessLostAt: input.now, githubAccessLostReason: input.reason, updatedAt: input.now })
    .where((eb) =>
      eb.and([
        ...(input.installationId !== undefined ? [eb('githubInstallationId', '=', input.installationId)] : []),
        ...(repoIds.length > 0 ? [eb('githubRepoId', 'in', repoIds)] : []),
      ]),
    )
    .where('githubAccessLostAt', 'is', null)
    .returning(['id', 'sellerId'])
    .execute()
  for (const listing of hidden) {
    await recordAudit(db, {
      actorId: null,
      actorRole: 'system',
      action: 'listing_github_access_lost',
      entityType: 'listing',
      entityId: listing.id,
      reason: input.reason,
      metadata: { installationId: input.installationId ?? null, repoIds },
    })
    logEvent('warn', 'github_access_lost', { listingId: listing.id, sellerId: listing.sellerId, reason: input.reason })
    await cancelStaleCheckouts(listing.id)
  }
  const open = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select('githubDeliveries.transactionId')
    .where('transactions.status', '=', 'delivering')
    .where((eb) =>
      eb.and([
        ...(input.installationId !== undefined ? [eb('githubDeliveries.installationId', '=', input.installationId)] : []),
        ...(repoIds.length > 0 ? [eb('githubDeliveries.repoId', 'in', repoIds)] : []),
      ]),
    )
    .execute()
  for (const { transactionId } of open) {
    await failDelivery(transactionId, `The seller's GitHub repository can no longer be reached: ${input.reason}`, input.now)
  }
}

export async function installationLost(installationId: number, now: Date, reason: string): Promise<void> {
  await db
    .updateTable('githubInstallations')
    .set({ removedAt: now, updatedAt: now })
    .where('id', '=', installationId)
    .where('removedAt', 'is', null)
    .execute()
  await repositoryLost({ installationId, reason, now })
}

/**
 * The seller reconnected: every listing of theirs whose repository this
 * installation grants is pointed at it, and one that lost access (hidden by us)
 * is shown again with the alert cleared.
 */
export async function restoreAccess(userId: string, installationId: number, now: Date): Promise<void> {
  const octokit = await installationOctokit(installationId)
  const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 })
  await restoreListings(
    userId,
    installationId,
    repos.map((repo) => repo.id),
    now,
  )
}

/** The seller's listings of these repositories (reachable again through `installationId`). */
export async function restoreListings(userId: string, installationId: number, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return
  const restored = await db
    .updateTable('listings')
    .set({ githubInstallationId: installationId, githubAccessLostAt: null, githubAccessLostReason: null, visible: true, updatedAt: now })
    .where('sellerId', '=', userId)
    .where('githubRepoId', 'in', ids)
    .where('githubAccessLostAt', 'is not', null)
    .where('archivedAt', 'is', null)
    .returning(['id'])
    .execute()
  await db
    .updateTable('listings')
    .set({ githubInstallationId: installationId })
    .where('sellerId', '=', userId)
    .where('githubRepoId', 'in', ids)
    .execute()
  for (const listing of restored) {
    await recordAudit(db, {
      actorId: userId,
      actorRole: 'seller',
      action: 'listing_github_access_restored',
      entityType: 'listing',
      entityId: listing.id,
      reason: 'The seller reconnected GitHub: the listing is visible again',
      metadata: { installationId },
    })
  }
}

// --- Webhooks: the App's installation and the repositories it grants ------------------------

export async function handleInstallation(
  payload: EmitterWebhookEvent<'installation'>['payload'],
  fresh: Fresh,
  now: Date,
): Promise<GithubWebhookResult> {
  const installationId = githubId(payload.installation?.id)
  const isNew = await db.transaction().execute(fresh)
  if (!isNew) return 'duplicate'
  if (!installationId) return 'ignored'
  const known = await db
    .selectFrom('githubInstallations')
    .select(['id', 'accountLogin'])
    .where('id', '=', installationId)
    .executeTakeFirst()
  if (!known) return 'ignored'
  switch (payload.action) {
    case 'deleted':
      await installationLost(installationId, now, `The Forkmarket GitHub App was uninstalled from ${known.accountLogin}`)
      return 'processed'
    case 'suspend':
      await db.updateTable('githubInstallations').set({ suspendedAt: now, updatedAt: now }).where('id', '=', installationId).execute()
      await repositoryLost({ installationId, reason: `The Forkmarket GitHub App was suspended on ${known.accountLogin}`, now })
      return 'processed'
    case 'unsuspend':
      await db.updateTable('githubInstallations').set({ suspendedAt: null, updatedAt: now }).where('id', '=', installationId).execute()
      return 'processed'
  }
  return 'ignored'
}

export async function handleInstallationRepositories(
  payload: EmitterWebhookEvent<'installation_repositories'>['payload'],
  fresh: Fresh,
  now: Date,
): Promise<GithubWebhookResult> {
  const installationId = githubId(payload.installation?.id)
  const isNew = await db.transaction().execute(fresh)
  if (!isNew) return 'duplicate'
  if (!installationId) return 'ignored'
  // An installation we do not know speaks for no seller; a known one only for its own listings and deliveries.
  const known = await db
    .selectFrom('githubInstallations')
    .select('userId')
    .where('id', '=', installationId)
    .where('removedAt', 'is', null)
    .executeTakeFirst()
  if (!known) return 'ignored'
  if (payload.action === 'removed') {
    const repoIds = (payload.repositories_removed ?? []).map((repo) => githubId(repo.id)).filter((id): id is number => id !== null)
    if (repoIds.length === 0) return 'ignored'
    await repositoryLost({ installationId, repoIds, reason: 'The repository was removed from the Forkmarket GitHub App', now })
    return 'processed'
  }
  if (payload.action === 'added') {
    // The seller gave the App a repository back (GitHub's installation settings): its listings are reachable again.
    const repoIds = (payload.repositories_added ?? []).map((repo) => githubId(repo.id)).filter((id): id is number => id !== null)
    if (repoIds.length === 0) return 'ignored'
    await restoreListings(known.userId, installationId, repoIds, now)
    return 'processed'
  }
  return 'ignored'
}
