import { createHash, randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { sql } from 'kysely'
import { API_KEY_PREFIX, expiryOf, MAX_API_KEYS, type ApiKeyForm, type ApiKeyScope } from '~/lib/api-keys'
import { db } from '../infra/db.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'

/**
 * Personal API keys (issue 29, docs/decisions/029). A key is
 * `fm_pat_` + 30 random base62 characters (178 bits) + a 6-character CRC32
 * checksum of what precedes it, as GitHub's tokens carry: a scanner can tell a
 * real key from a look-alike without asking us, and we refuse a mistyped one
 * without a database read. Only the key's SHA-256 is stored; the key itself
 * is shown once, when it is created.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`)
/** How much of the key the list shows (the prefix and four random characters). */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 4
/** Last use is written at most this often per key, not on every request. */
export const LAST_USE_PRECISION_MS = 60_000

function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

function checksum(body: string): string {
  let value = crc32(body)
  let out = ''
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

/** Whether a bearer credential is one of our keys (by its prefix; validity is checked by authenticateApiKey). */
export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX)
}

/** A new key: prefix, random part, checksum. */
export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH)
  return body + checksum(body)
}

/** Well-formed and its checksum matches (no database read). */
export function hasValidChecksum(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false
  const body = key.slice(0, -CHECKSUM_LENGTH)
  return checksum(body) === key.slice(-CHECKSUM_LENGTH)
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export interface ApiKeyView {
  id: string
  name: string
  /** The key's first characters, e.g. `fm_pat_Ab3x`. */
  prefix: string
  scopes: ApiKeyScope[]
  createdAt: Date
  expiresAt: Date | null
  lastUsedAt: Date | null
}

const VIEW_COLUMNS = ['id', 'name', 'prefix', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt'] as const

function toView(row: { scopes: string[] } & Omit<ApiKeyView, 'scopes'>): ApiKeyView {
  return { ...row, scopes: row.scopes as ApiKeyScope[] }
}

/** The user's keys that are not revoked (expired ones too, marked by their expiry), newest first. */
export async function listApiKeys(userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .selectFrom('apiKeys')
    .select(VIEW_COLUMNS)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .orderBy('createdAt', 'desc')
    .execute()
  return rows.map(toView)
}

/** One of the user's keys that is not revoked, or undefined (someone else's, revoked or unknown). */
export async function getApiKey(userId: string, keyId: string): Promise<ApiKeyView | undefined> {
  const row = await db
    .selectFrom('apiKeys')
    .select(VIEW_COLUMNS)
    .where('id', '=', keyId)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst()
  return row && toView(row)
}

/**
 * Creates a key and records it in the audit log, in one transaction. Returns
 * the key's secret (the only time it exists outside the caller's hands) and
 * its list entry.
 */
export async function createApiKey(userId: string, input: Omit<ApiKeyForm, 'intent'>): Promise<{ secret: string; key: ApiKeyView }> {
  const secret = generateApiKey()
  const scopes = [...new Set(input.scopes)]
  return db.transaction().execute(async (trx) => {
    // Serialises this user's creations, so two at once cannot both pass the count.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow()
    const { active } = await trx
      .selectFrom('apiKeys')
      .select((eb) => eb.fn.countAll<string>().as('active'))
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
      .executeTakeFirstOrThrow()
    if (Number(active) >= MAX_API_KEYS) {
      throw new AppError(409, `You have ${MAX_API_KEYS} active API keys; revoke one before creating another`)
    }
    const row = await trx
      .insertInto('apiKeys')
      .values({
        userId,
        name: input.name,
        prefix: secret.slice(0, VISIBLE_LENGTH),
        secretHash: hashApiKey(secret),
        scopes,
        expiresAt: expiryOf(input.expiresOn),
      })
      .returning(VIEW_COLUMNS)
      .executeTakeFirstOrThrow()
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'user',
      action: 'api_key.create',
      entityType: 'api_key',
      entityId: row.id,
      toState: 'active',
      metadata: { name: row.name, prefix: row.prefix, scopes, expiresAt: row.expiresAt?.toISOString() ?? null },
    })
    return { secret, key: toView(row) }
  })
}

/** Revokes one of the user's keys at once (every instance reads the row on each request); audited. */
export async function revokeApiKey(userId: string, keyId: string): Promise<ApiKeyView> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('apiKeys')
      .set({ revokedAt: sql<Date>`now()` })
      .where('id', '=', keyId)
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .returning(VIEW_COLUMNS)
      .executeTakeFirst()
    if (!row) throw new AppError(404, 'API key not found (it may have been revoked already)')
    await recordAudit(trx, {
      actorId: userId,
      actorRole: 'user',
      action: 'api_key.revoke',
      entityType: 'api_key',
      entityId: row.id,
      fromState: 'active',
      toState: 'revoked',
      metadata: { name: row.name, prefix: row.prefix },
    })
    return toView(row)
  })
}

export type ApiKeyCheck =
  | { ok: true; key: { id: string; userId: string; scopes: ApiKeyScope[] } }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' }

/**
 * The key a request presents: found by its hash, not revoked, not expired.
 * Its last use is written only when the stored one is older than
 * LAST_USE_PRECISION_MS, so a busy key costs one read per request and one
 * write a minute.
 */
export async function authenticateApiKey(secret: string, now = new Date()): Promise<ApiKeyCheck> {
  if (!hasValidChecksum(secret)) return { ok: false, reason: 'malformed' }
  const row = await db
    .selectFrom('apiKeys')
    .select(['id', 'userId', 'scopes', 'expiresAt', 'revokedAt', 'lastUsedAt'])
    .where('secretHash', '=', hashApiKey(secret))
    .executeTakeFirst()
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.revokedAt) return { ok: false, reason: 'revoked' }
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: 'expired' }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_PRECISION_MS) {
    await db
      .updateTable('apiKeys')
      .set({ lastUsedAt: now })
      .where('id', '=', row.id)
      // Another instance may have written it meanwhile: then this writes nothing.
      .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<=', new Date(now.getTime() - LAST_USE_PRECISION_MS))]))
      .execute()
  }
  return { ok: true, key: { id: row.id, userId: row.userId, scopes: row.scopes as ApiKeyScope[] } }
}
