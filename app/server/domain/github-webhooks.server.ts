/**
 * GitHub's webhook (POST /api/github/webhook, verified by the route): each event name and action
 * goes to the module that handles it; every delivery id is recorded in processed_events in the
 * same transaction as its effect, so a redelivery does nothing.
 */
import type { EmitterWebhookEvent } from '@octokit/webhooks'
import type { Transaction as DbTransaction } from 'kysely'
import type { DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { prepareEscrow } from './escrow.server.ts'
import { handleChecksWebhook } from './github-checks.server.ts'
import { handleFork, handleMemberAdded } from './github-delivery-confirmation.server.ts'
import { handleInstallation, handleInstallationRepositories } from './github-repository-access.server.ts'
import { handleReleaseWebhook } from './listing-releases.server.ts'

export type GithubWebhookResult = 'processed' | 'duplicate' | 'ignored'

/** Records the delivery id in the handler's transaction: false when it was seen before. */
export type Fresh = (trx: DbTransaction<DB>) => Promise<boolean>

type Payload<E extends 'member' | 'fork' | 'installation' | 'installation_repositories'> = EmitterWebhookEvent<E>['payload']

/**
 * One verified webhook delivery (`X-GitHub-Delivery` id, `X-GitHub-Event`
 * name, parsed body). Each delivery id is recorded in processed_events in the
 * same transaction as its effect: a redelivery does nothing.
 */
export async function processGithubWebhook(input: {
  deliveryId: string
  event: string
  payload: unknown
  now?: Date
}): Promise<GithubWebhookResult> {
  const now = input.now ?? new Date()
  await prepareEscrow()
  const payload = input.payload as { action?: string }
  const type = `github.${input.event}${payload.action ? `.${payload.action}` : ''}`
  const fresh = async (trx: DbTransaction<DB>) =>
    Boolean(
      await trx
        .insertInto('processedEvents')
        .values({ id: `github:${input.deliveryId}`, type: type.slice(0, 200), receivedAt: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst(),
    )

  switch (input.event) {
    case 'member':
      if (payload.action !== 'added') break
      return handleMemberAdded(input.payload as Payload<'member'>, fresh, now)
    case 'fork':
      return handleFork(input.payload as Payload<'fork'>, fresh, now)
    case 'installation':
      return handleInstallation(input.payload as Payload<'installation'>, fresh, now)
    case 'installation_repositories':
      return handleInstallationRepositories(input.payload as Payload<'installation_repositories'>, fresh, now)
    case 'check_run':
    case 'check_suite':
    case 'status':
      // check_suite's `requested` and the like carry no result: only the ones that do are read.
      if (payload.action !== undefined && payload.action !== 'created' && payload.action !== 'completed') break
      return handleChecksWebhook(input.event, input.payload as Parameters<typeof handleChecksWebhook>[1], fresh, now)
    case 'release':
      // A release published (or deleted) on a connected repository: the listings' versions (issue 30).
      // `released` also comes alone when a prerelease becomes a full release (GitHub's release event).
      if (payload.action !== 'published' && payload.action !== 'released' && payload.action !== 'deleted') break
      return handleReleaseWebhook(input.payload as Parameters<typeof handleReleaseWebhook>[0], fresh, now)
  }
  return db.transaction().execute(async (trx) => ((await fresh(trx)) ? 'ignored' : 'duplicate'))
}
