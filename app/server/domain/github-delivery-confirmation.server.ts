/**
 * Access confirmed (issue 16): the buyer accepted the invitation (GitHub's `member` webhook, or
 * polling found them a collaborator) → the sale is delivered with the proof (the head SHA now
 * against the listed one). A fork of the repository is recorded as well (`fork` webhook).
 */
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import type { Transaction as DbTransaction } from 'kysely'
import type { DB, DeliveryProof, GithubDelivery, GithubDeliveryProof } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { githubId, splitFullName } from '../infra/github.server.ts'
import { applyEvent } from './escrow.server.ts'
import { refreshLogin } from './github-accounts.server.ts'
import { insertChecksReading, readCommitChecks } from './github-checks.server.ts'
import { applyDeliveryEvent, clientFor, lockDelivery, step, SYSTEM, type Octo } from './github-delivery-steps.server.ts'
import type { Fresh, GithubWebhookResult } from './github-webhooks.server.ts'

export type RepositoryHead = Awaited<ReturnType<typeof headOf>>

/**
 * The head of the default branch now (the delivered commit), the repository's address and that
 * commit's checks (issue 30): read before the transaction that records them.
 */
export async function headOf(octokit: Octo, fullName: string) {
  const { owner, repo } = splitFullName(fullName)
  const { data: repository } = await step('repository', () => octokit.rest.repos.get({ owner, repo }))
  const { data: branch } = await step('repository', () => octokit.rest.repos.getBranch({ owner, repo, branch: repository.default_branch }))
  const date = branch.commit.commit.committer?.date ?? branch.commit.commit.author?.date ?? null
  const checks = await readCommitChecks(octokit, repository.full_name, branch.commit.sha)
  return {
    sha: branch.commit.sha,
    date: date ? new Date(date) : null,
    htmlUrl: repository.html_url,
    fullName: repository.full_name,
    checks,
  }
}

/**
 * delivering → delivered with the proof: the repository, the buyer's id and
 * login, invitation and acceptance times, the head SHA (`head`, read from
 * GitHub just before). The 72-hour window starts here (the machine's entry
 * hook schedules the auto-confirm).
 */
export async function confirmInTransaction(
  trx: DbTransaction<DB>,
  delivery: GithubDelivery,
  head: RepositoryHead,
  options: { via: 'webhook' | 'poll'; now: Date },
): Promise<boolean> {
  const proof: GithubDeliveryProof = {
    repository: head.fullName,
    repositoryId: delivery.repoId,
    repositoryUrl: head.htmlUrl,
    buyerGithubId: delivery.buyerGithubId!,
    buyerLogin: delivery.buyerLogin!,
    invitedAt: (delivery.invitedAt ?? options.now).toISOString(),
    acceptedAt: options.now.toISOString(),
    headSha: head.sha,
    headShaDate: head.date?.toISOString() ?? null,
    listedSha: delivery.listedSha,
    confirmedBy: options.via,
    forkUrl: delivery.forkUrl,
  }
  const deliveryProof: DeliveryProof = { forkUrl: delivery.forkUrl ?? head.htmlUrl, github: proof }
  const outcome = await applyEvent(trx, {
    saleId: delivery.transactionId,
    event: 'access_confirmed',
    by: SYSTEM,
    deliveryProof,
    now: options.now,
    reason:
      options.via === 'webhook'
        ? `${proof.buyerLogin} accepted the invitation to ${proof.repository} (GitHub's member webhook)`
        : `${proof.buyerLogin} has access to ${proof.repository} (checked on GitHub)`,
    metadata: { ...proof },
  })
  if (!outcome.applied) return false
  await insertChecksReading(trx, { transactionId: delivery.transactionId, source: 'delivery' }, { ...head.checks, readAt: options.now })
  await applyDeliveryEvent(trx, delivery.transactionId, 'access_confirmed', {
    buyerGithubId: delivery.buyerGithubId,
    buyerLogin: delivery.buyerLogin,
    invitedAt: delivery.invitedAt ?? options.now,
    head,
    attempts: delivery.attempts,
    now: options.now,
  })
  return true
}

// --- Webhooks: the buyer accepted, the buyer forked -------------------------------------------

export async function handleMemberAdded(
  payload: EmitterWebhookEvent<'member'>['payload'],
  fresh: Fresh,
  now: Date,
): Promise<GithubWebhookResult> {
  const memberId = githubId(payload.member?.id)
  const repoId = githubId(payload.repository?.id)
  if (!memberId || !repoId) return db.transaction().execute(async (trx) => ((await fresh(trx)) ? 'ignored' : 'duplicate'))
  const candidates = await db
    .selectFrom('githubDeliveries')
    .innerJoin('transactions', 'transactions.id', 'githubDeliveries.transactionId')
    .select(['githubDeliveries.transactionId', 'githubDeliveries.installationId', 'githubDeliveries.repoFullName'])
    .where('githubDeliveries.repoId', '=', repoId)
    .where('githubDeliveries.buyerGithubId', '=', memberId)
    .where('githubDeliveries.state', '=', 'invited')
    .where('transactions.status', '=', 'delivering')
    .execute()
  // GitHub is read before the transaction locks the sales (one read per repository and installation).
  const heads = new Map<string, RepositoryHead>()
  for (const candidate of candidates) {
    const key = `${candidate.installationId}:${candidate.repoFullName}`
    if (!heads.has(key)) heads.set(key, await headOf(await clientFor(candidate.installationId), candidate.repoFullName))
  }
  return db.transaction().execute(async (trx) => {
    if (!(await fresh(trx))) return 'duplicate'
    if (payload.member?.login) await refreshLogin(trx, memberId, payload.member.login)
    for (const { transactionId } of candidates) {
      const locked = await lockDelivery(trx, transactionId)
      if (!locked || locked.sale.status !== 'delivering' || locked.delivery.state !== 'invited') continue
      const head = heads.get(`${locked.delivery.installationId}:${locked.delivery.repoFullName}`)
      if (!head) continue
      const delivery = { ...locked.delivery, buyerLogin: payload.member?.login ?? locked.delivery.buyerLogin }
      await confirmInTransaction(trx, delivery, head, { via: 'webhook', now })
    }
    return candidates.length > 0 ? 'processed' : 'ignored'
  })
}

export async function handleFork(payload: EmitterWebhookEvent<'fork'>['payload'], fresh: Fresh, now: Date): Promise<GithubWebhookResult> {
  const parentId = githubId(payload.repository?.id)
  const forkee = payload.forkee as { html_url?: string; owner?: { id?: number } } | undefined
  const people = [githubId(forkee?.owner?.id), githubId(payload.sender?.id)].filter((id): id is number => id !== null)
  const forkUrl = typeof forkee?.html_url === 'string' ? forkee.html_url : null
  return db.transaction().execute(async (trx) => {
    if (!(await fresh(trx))) return 'duplicate'
    if (!parentId || !forkUrl || people.length === 0) return 'ignored'
    const deliveries = await trx
      .selectFrom('githubDeliveries')
      .select(['transactionId'])
      .where('repoId', '=', parentId)
      .where('buyerGithubId', 'in', people)
      .where('state', 'in', ['invited', 'accepted'])
      .forUpdate()
      .execute()
    for (const { transactionId } of deliveries) {
      await applyDeliveryEvent(trx, transactionId, 'fork_recorded', { forkUrl, now })
      const sale = await trx.selectFrom('transactions').select('status').where('id', '=', transactionId).executeTakeFirst()
      if (sale && ['delivered', 'completed', 'disputed'].includes(sale.status)) {
        await applyEvent(trx, {
          saleId: transactionId,
          event: 'fork_recorded',
          by: SYSTEM,
          forkUrl,
          now,
          reason: `The buyer forked the repository: ${forkUrl}`,
          metadata: { forkUrl },
        })
      }
    }
    return deliveries.length > 0 ? 'processed' : 'ignored'
  })
}
