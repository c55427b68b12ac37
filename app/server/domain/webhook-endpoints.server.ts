import { randomBytes } from 'node:crypto'
import { isUuid } from '~/lib/ids'
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  WEBHOOK_SECRET_PREFIX,
  type WebhookEndpointForm,
  type WebhookEventType,
} from '~/lib/webhooks'
import { db } from '../infra/db.server.ts'
import { isProduction } from '../infra/env.server.ts'
import { decryptSecret, encryptSecret } from '../infra/secret-box.server.ts'
import { urlRefusal, type AddressPolicy } from '../infra/webhook-http.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'

/**
 * A seller's webhook endpoints (issue 29, decision 033): register, edit, delete, rotate the signing
 * secret, enable again after it was disabled. The secret signs every delivery, so it is stored
 * encrypted (AES-256-GCM with BANK_DETAILS_KEY, as bank account numbers are), not hashed, and shown
 * to its owner on the endpoint's page. Every change is audited. Sending: webhook-sender.server.ts.
 */

/** Production sends only to public https addresses; elsewhere http://localhost works too. */
export function webhookAddressPolicy(): AddressPolicy {
  return isProduction() ? 'public' : 'local'
}

/** `whsec_` + 32 random bytes in base64, the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

export interface WebhookEndpointView {
  id: string
  url: string
  description: string
  events: WebhookEventType[]
  createdAt: Date
  disabledAt: Date | null
  disabledReason: string | null
  failingSince: Date | null
  /** When the previous secret stops signing, while a rotation's overlap lasts. */
  previousSecretExpiresAt: Date | null
}

const VIEW_COLUMNS = [
  'id',
  'url',
  'description',
  'events',
  'createdAt',
  'disabledAt',
  'disabledReason',
  'failingSince',
  'previousSecretExpiresAt',
] as const

function toView(row: Omit<WebhookEndpointView, 'events'> & { events: string[] }, now = new Date()): WebhookEndpointView {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null
  return { ...row, events: row.events as WebhookEventType[], previousSecretExpiresAt: overlap }
}

export async function listWebhookEndpoints(userId: string): Promise<WebhookEndpointView[]> {
  const rows = await db.selectFrom('webhookEndpoints').select(VIEW_COLUMNS).where('userId', '=', userId).orderBy('createdAt').execute()
  return rows.map((row) => toView(row))
}

/** The owner's endpoint with its current signing secret; undefined for anyone else's. */
export async function getWebhookEndpoint(
  userId: string,
  endpointId: string,
): Promise<(WebhookEndpointView & { secret: string }) | undefined> {
  if (!isUuid(endpointId)) return undefined
  const row = await db
    .selectFrom('webhookEndpoints')
    .select([...VIEW_COLUMNS, 'secretSealed'])
    .where('id', '=', endpointId)
    .where('userId', '=', userId)
    .executeTakeFirst()
  if (!row) return undefined
  const { secretSealed, ...view } = row
  return { ...toView(view), secret: decryptSecret(secretSealed) }
}

/** The secrets that sign a delivery now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(
  endpoint: { secretSealed: string; previousSecretSealed: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const secrets = [decryptSecret(endpoint.secretSealed)]
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(decryptSecret(endpoint.previousSecretSealed))
  }
  return secrets
}

function checkUrl(url: string, policy: AddressPolicy): void {
  const refusal = urlRefusal(url, policy)
  if (refusal) throw new AppError(400, refusal, { fieldErrors: { url: [refusal] } })
}

export async function createWebhookEndpoint(
  userId: string,
  input: Omit<WebhookEndpointForm, 'intent'>,
  options: { now?: Date; policy?: AddressPolicy } = {},
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const now = options.now ?? new Date()
  checkUrl(input.url, options.policy ?? webhookAddressPolicy())
  const secret = generateWebhookSecret()
  const endpoint = await db.transaction().execute(async (trx) => {
    // Serialises one user's creations, so two at once cannot pass the limit together.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow()
    const { count } = await trx
      .selectFrom('webhookEndpoints')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow()
    if (Number(count) >= MAX_WEBHOOK_ENDPOINTS) throw new AppError(409, `You can register at most ${MAX_WEBHOOK_ENDPOINTS} endpoints`)
    const row = await trx
      .insertInto('webhookEndpoints')
      .values({
        userId,
        url: input.url,
        description: input.description ?? '',
        events: input.events,
        secretSealed: encryptSecret(secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'seller',
      action: 'webhook_endpoint.create',
      entityType: 'webhook_endpoint',
      entityId: row.id,
      toState: 'enabled',
      metadata: { url: input.url, events: input.events },
    })
    return row
  })
  return { endpoint: toView(endpoint, now), secret }
}

export async function updateWebhookEndpoint(
  userId: string,
  endpointId: string,
  input: Omit<WebhookEndpointForm, 'intent'>,
  options: { now?: Date; policy?: AddressPolicy } = {},
): Promise<WebhookEndpointView> {
  const now = options.now ?? new Date()
  checkUrl(input.url, options.policy ?? webhookAddressPolicy())
  return ownedChange(userId, endpointId, 'webhook_endpoint.update', async (trx) =>
    trx
      .updateTable('webhookEndpoints')
      .set({ url: input.url, description: input.description ?? '', events: input.events, updatedAt: now })
      .where('id', '=', endpointId)
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow(),
  )
}

/**
 * A new current secret; the previous one keeps signing for WEBHOOK_ROTATION_OVERLAP_HOURS (each
 * delivery carries both signatures), so the receiver can switch without losing an event.
 */
export async function rotateWebhookSecret(userId: string, endpointId: string, now = new Date()): Promise<WebhookEndpointView> {
  const secret = generateWebhookSecret()
  return ownedChange(userId, endpointId, 'webhook_endpoint.rotate_secret', async (trx, current) =>
    trx
      .updateTable('webhookEndpoints')
      .set({
        previousSecretSealed: current.secretSealed,
        previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_ROTATION_OVERLAP_HOURS * 3_600_000),
        secretSealed: encryptSecret(secret),
        updatedAt: now,
      })
      .where('id', '=', endpointId)
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow(),
  )
}

/** Sends again after the endpoint was disabled for failing (its failure clock starts over). */
export async function enableWebhookEndpoint(userId: string, endpointId: string, now = new Date()): Promise<WebhookEndpointView> {
  return ownedChange(userId, endpointId, 'webhook_endpoint.enable', async (trx) =>
    trx
      .updateTable('webhookEndpoints')
      .set({ disabledAt: null, disabledReason: null, failingSince: null, updatedAt: now })
      .where('id', '=', endpointId)
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow(),
  )
}

/** Deletes the endpoint with its deliveries and their log (the audit row keeps its URL). */
export async function deleteWebhookEndpoint(userId: string, endpointId: string): Promise<WebhookEndpointView> {
  return ownedChange(userId, endpointId, 'webhook_endpoint.delete', async (trx) =>
    trx.deleteFrom('webhookEndpoints').where('id', '=', endpointId).returning(VIEW_COLUMNS).executeTakeFirstOrThrow(),
  )
}

type Trx = Parameters<Parameters<ReturnType<typeof db.transaction>['execute']>[0]>[0]
type LockedEndpoint = { id: string; url: string; secretSealed: string; disabledAt: Date | null }

/** Locks the owner's endpoint (404 for anyone else's), applies `change`, audits it. */
async function ownedChange(
  userId: string,
  endpointId: string,
  action: string,
  change: (trx: Trx, current: LockedEndpoint) => Promise<Omit<WebhookEndpointView, 'events'> & { events: string[] }>,
): Promise<WebhookEndpointView> {
  if (!isUuid(endpointId)) throw new AppError(404, 'Endpoint not found')
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('webhookEndpoints')
      .select(['id', 'url', 'secretSealed', 'disabledAt'])
      .where('id', '=', endpointId)
      .where('userId', '=', userId)
      .forUpdate()
      .executeTakeFirst()
    if (!current) throw new AppError(404, 'Endpoint not found')
    const row = await change(trx, current)
    const state = (r: { disabledAt: Date | null }) => (r.disabledAt ? 'disabled' : 'enabled')
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'seller',
      action,
      entityType: 'webhook_endpoint',
      entityId: endpointId,
      fromState: state(current),
      toState: action === 'webhook_endpoint.delete' ? 'deleted' : state(row),
      metadata: { url: row.url },
    })
    return toView(row)
  })
}
