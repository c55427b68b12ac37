/**
 * What GitHub delivery's steps (invite, confirm, poll, revoke) are made of: the locked delivery
 * row, the GitHub calls each tagged with the step whose failure it is (the installation, the
 * buyer's account, the repository), and the one way a delivery fails (the admin's queue).
 */
import type { Transaction as DbTransaction } from 'kysely'
import { isUuid } from '~/lib/ids'
import type { DB } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { installationOctokit } from '../infra/github.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { applyEvent, prepareEscrow, type Actor } from './escrow.server.ts'
import { decideDelivery, type DeliveryEvent, type DeliveryEventData } from './github-delivery-transitions.server.ts'

export type Octo = Awaited<ReturnType<typeof installationOctokit>>

export const SYSTEM: Actor = { id: null, role: 'system' }

/** The delivery and its sale as they are now, without a lock: what a step reads before asking GitHub. */
export async function readDelivery(transactionId: string) {
  const delivery = await db.selectFrom('githubDeliveries').selectAll().where('transactionId', '=', transactionId).executeTakeFirst()
  if (!delivery) return undefined
  const sale = await db.selectFrom('transactions').selectAll().where('id', '=', transactionId).executeTakeFirstOrThrow()
  return { delivery, sale }
}

const deliveryForUpdate = (trx: DbTransaction<DB>, transactionId: string) =>
  trx.selectFrom('githubDeliveries').selectAll().where('transactionId', '=', transactionId).forUpdate()

/** Locks the sale's delivery row to record a step's outcome (SKIP LOCKED: another instance is on it → undefined). */
export async function lockDelivery(trx: DbTransaction<DB>, transactionId: string) {
  const delivery = await deliveryForUpdate(trx, transactionId).skipLocked().executeTakeFirst()
  if (!delivery) return undefined
  const sale = await trx.selectFrom('transactions').selectAll().where('id', '=', transactionId).executeTakeFirstOrThrow()
  return { delivery, sale }
}

export class StepError extends Error {
  constructor(
    readonly step: 'installation' | 'buyer' | 'repository',
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

export async function step<T>(name: StepError['step'], run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new StepError(name, error)
  }
}

/** The installation's client; a 404 creating its token means the App was uninstalled. */
export async function clientFor(installationId: number): Promise<Octo> {
  const octokit = await step('installation', () => installationOctokit(installationId))
  // Creating the token is lazy: ask for it now so its failure is told apart from the repository's.
  await step('installation', () => octokit.auth({ type: 'installation' }))
  return octokit
}

/** The buyer's current login, from their numeric id (logins change; the id does not). */
export async function currentLogin(octokit: Octo, buyerGithubId: number): Promise<string> {
  const { data } = await step('buyer', () => octokit.request('GET /user/{account_id}', { account_id: buyerGithubId }))
  const login = (data as { login?: unknown }).login
  if (typeof login !== 'string') throw new StepError('buyer', new Error('GitHub returned no login'))
  return login
}

/**
 * The delivery machine's runner (github-delivery-transitions.server.ts), the one writer of a
 * delivery row after its INSERT: locks the row, asks the table, writes with a `WHERE state = <from>`
 * guard. False when the table refuses (the delivery moved on): nothing is written.
 */
export async function applyDeliveryEvent(
  trx: DbTransaction<DB>,
  transactionId: string,
  event: DeliveryEvent,
  data: DeliveryEventData,
): Promise<boolean> {
  const delivery = await deliveryForUpdate(trx, transactionId).executeTakeFirst()
  if (!delivery) return false
  const decision = decideDelivery(delivery, event, data)
  if (!decision.ok) return false
  const { numUpdatedRows } = await trx
    .updateTable('githubDeliveries')
    .set({ ...decision.rule.set(delivery, data), state: decision.to, updatedAt: data.now })
    .where('transactionId', '=', transactionId)
    .where('state', '=', delivery.state)
    .executeTakeFirst()
  return numUpdatedRows > 0n
}

/** delivering → disputed (the admin's queue), the delivery marked failed (if still queued or invited); once. */
export async function failDelivery(transactionId: string, reason: string, now: Date, executor?: DbTransaction<DB>): Promise<boolean> {
  const run = async (trx: DbTransaction<DB>) => {
    const outcome = await applyEvent(trx, { saleId: transactionId, event: 'delivery_failed', by: SYSTEM, reason, now })
    if (!outcome.applied) return false
    await applyDeliveryEvent(trx, transactionId, 'delivery_failed', { now, error: reason })
    logEvent('warn', 'github_delivery_failed', { transactionId, reason })
    return true
  }
  if (executor) return run(executor)
  await prepareEscrow()
  return db.transaction().execute(run)
}

/** The sale a delivery job's payload names (its id), or null. */
export function transactionIdOf(payload: unknown): string | null {
  const id = payload && typeof payload === 'object' && 'transactionId' in payload ? String(payload.transactionId) : null
  return id && isUuid(id) ? id : null
}
