import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as auditLogApi from '../../app/routes/api/admin-audit-log.ts'
import * as bankDetailsApi from '../../app/routes/api/bank-details.ts'
import * as listingsApi from '../../app/routes/api/listings.ts'
import * as sellerListingsApi from '../../app/routes/api/seller-listings.ts'
import * as sellerTransactionsApi from '../../app/routes/api/seller-transactions.ts'
import * as profilePage from '../../app/routes/profile.tsx'
import * as purchasesPage from '../../app/routes/purchases.tsx'
import {
  authenticateApiKey,
  createApiKey,
  generateApiKey,
  hasValidChecksum,
  LAST_USE_PRECISION_MS,
  listApiKeys,
  revokeApiKey,
} from '../../app/server/domain/api-keys.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { createListing, signUp } from './admin-fixtures.ts'

// Issue 29: personal API keys. Created on /profile, stored as a hash, used as
// `Authorization: Bearer fm_pat_…` on the API within their scopes, refused
// everywhere else.

const auditOf = (entityId: string) =>
  db
    .selectFrom('auditLog')
    .select(['action', 'actorId', 'actorRole', 'fromState', 'toState'])
    .where('entityId', '=', entityId)
    .orderBy('createdAt')
    .execute()

const profileForm = (token: string, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v)
  return new Request(`${APP}/profile`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, Origin: APP, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  })
}

describe('the keys themselves', () => {
  it('fm_pat_ keys carry a checksum: a changed character fails it without a database read', () => {
    const key = generateApiKey()
    expect(key).toMatch(/^fm_pat_[0-9A-Za-z]{36}$/)
    expect(hasValidChecksum(key)).toBe(true)
    const last = key.at(-8) === 'a' ? 'b' : 'a'
    expect(hasValidChecksum(`${key.slice(0, -8)}${last}${key.slice(-7)}`)).toBe(false)
    expect(generateApiKey()).not.toBe(key)
  })

  it('stores only the SHA-256 and a short prefix; creating and revoking are audited', async () => {
    const user = await signUp('keys-owner@example.com')
    const { secret, key } = await createApiKey(user.id, { name: 'CI sync', scopes: ['listings:read', 'sales:read'] })
    const row = await db.selectFrom('apiKeys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow()
    expect(row.secretHash).toBe(createHash('sha256').update(secret).digest('hex'))
    expect(row.prefix).toBe(secret.slice(0, 11))
    expect(JSON.stringify(row)).not.toContain(secret.slice(11))
    expect(row.scopes).toEqual(['listings:read', 'sales:read'])

    expect((await authenticateApiKey(secret)).ok).toBe(true)
    await revokeApiKey(user.id, key.id)
    expect(await authenticateApiKey(secret)).toEqual({ ok: false, reason: 'revoked' })
    expect(await listApiKeys(user.id)).toEqual([])
    await expect(revokeApiKey(user.id, key.id)).rejects.toMatchObject({ status: 404 })
    expect(await auditOf(key.id)).toEqual([
      { action: 'api_key.create', actorId: user.id, actorRole: 'user', fromState: null, toState: 'active' },
      { action: 'api_key.revoke', actorId: user.id, actorRole: 'user', fromState: 'active', toState: 'revoked' },
    ])
  })

  it("another user cannot revoke someone's key", async () => {
    const owner = await signUp('keys-a@example.com')
    const other = await signUp('keys-b@example.com')
    const { secret, key } = await createApiKey(owner.id, { name: 'mine', scopes: ['listings:read'] })
    await expect(revokeApiKey(other.id, key.id)).rejects.toMatchObject({ status: 404 })
    expect((await authenticateApiKey(secret)).ok).toBe(true)
  })

  it('expires at the end of its day (UTC); unknown and malformed keys are refused', async () => {
    const user = await signUp('keys-expiry@example.com')
    const today = new Date().toISOString().slice(0, 10)
    const { secret } = await createApiKey(user.id, { name: 'short', scopes: ['listings:read'], expiresOn: today })
    expect((await authenticateApiKey(secret, new Date(`${today}T23:59:00Z`))).ok).toBe(true)
    expect(await authenticateApiKey(secret, new Date(`${today}T23:59:59.999Z`))).toEqual({ ok: false, reason: 'expired' })
    expect(await authenticateApiKey(generateApiKey())).toEqual({ ok: false, reason: 'unknown' })
    expect(await authenticateApiKey('fm_pat_nope')).toEqual({ ok: false, reason: 'malformed' })
  })

  it('last use is written at most once a minute', async () => {
    const user = await signUp('keys-last-use@example.com')
    const { secret, key } = await createApiKey(user.id, { name: 'busy', scopes: ['listings:read'] })
    const lastUsed = async () =>
      (await db.selectFrom('apiKeys').select('lastUsedAt').where('id', '=', key.id).executeTakeFirstOrThrow()).lastUsedAt
    expect(await lastUsed()).toBeNull()
    const first = new Date()
    await authenticateApiKey(secret, first)
    expect(await lastUsed()).toEqual(first)
    await authenticateApiKey(secret, new Date(first.getTime() + 30_000))
    expect(await lastUsed()).toEqual(first)
    const later = new Date(first.getTime() + LAST_USE_PRECISION_MS)
    await authenticateApiKey(secret, later)
    expect(await lastUsed()).toEqual(later)
  })
})

describe('a key on the API', () => {
  it('a listings:read key lists its owner’s listings through GET /api/seller/listings', async () => {
    const seller = await signUp('keys-seller@example.com')
    const listing = await createListing(seller.id, { title: 'Read by key', visible: false })
    const { secret } = await createApiKey(seller.id, { name: 'reader', scopes: ['listings:read'] })
    const response = await callRoute(sellerListingsApi, apiRequest('/api/seller/listings', { token: secret }))
    expect(response.status).toBe(200)
    expect((await response.json()).map((l: { id: string }) => l.id)).toEqual([listing.id])
  })

  it('403 naming the scope when the key lacks it, for reads and writes', async () => {
    const seller = await signUp('keys-scope@example.com')
    const { secret } = await createApiKey(seller.id, { name: 'reader', scopes: ['listings:read'] })
    const sales = await callRoute(sellerTransactionsApi, apiRequest('/api/seller/transactions', { token: secret }))
    expect(sales.status).toBe(403)
    expect(await sales.json()).toEqual({ error: 'This API key lacks the sales:read scope', scope: 'sales:read' })
    const create = await callRoute(listingsApi, apiRequest('/api/listings', { method: 'POST', token: secret, json: { title: 'x' } }))
    expect(create.status).toBe(403)
    expect(await create.json()).toEqual({ error: 'This API key lacks the listings:write scope', scope: 'listings:write' })
    expect(await db.selectFrom('listings').select('id').where('sellerId', '=', seller.id).execute()).toEqual([])
  })

  it("never reaches an admin route (not even an admin's key with every scope), bank details, or a page", async () => {
    const admin = await signUp('keys-admin@example.com', { admin: true })
    const { secret } = await createApiKey(admin.id, {
      name: 'all',
      scopes: ['listings:read', 'listings:write', 'sales:read', 'payouts:read'],
    })
    const audit = await callRoute(auditLogApi, apiRequest('/api/admin/audit-log', { token: secret }))
    expect(audit.status).toBe(403)
    expect(await audit.json()).toEqual({ error: 'API keys cannot be used on this endpoint; it needs a signed-in session' })
    const bank = await callRoute(bankDetailsApi, apiRequest('/api/profile/bank-details', { token: secret }))
    expect(bank.status).toBe(403)
    const page = await callRoute(purchasesPage, new Request(`${APP}/purchases`, { headers: { Authorization: `Bearer ${secret}` } }))
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
    const profile = await callRoute(profilePage, new Request(`${APP}/profile`, { headers: { Authorization: `Bearer ${secret}` } }))
    expect(profile.status).toBe(302)
    // The session of the same admin still works there.
    expect((await callRoute(auditLogApi, apiRequest('/api/admin/audit-log', { token: admin.token }))).status).toBe(200)
  })

  it('a revoked, expired or unknown key: 401 { error } with WWW-Authenticate', async () => {
    const seller = await signUp('keys-revoked@example.com')
    const { secret, key } = await createApiKey(seller.id, { name: 'gone', scopes: ['listings:read'] })
    expect((await callRoute(sellerListingsApi, apiRequest('/api/seller/listings', { token: secret }))).status).toBe(200)
    await revokeApiKey(seller.id, key.id)
    for (const token of [secret, generateApiKey()]) {
      const response = await callRoute(sellerListingsApi, apiRequest('/api/seller/listings', { token }))
      expect(response.status).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer error="invalid_token"')
      expect(await response.json()).toEqual({ error: 'Invalid API key: it is unknown, revoked or expired' })
    }
  })
})

describe('/profile: API keys', () => {
  it('creates a key (shown once in the answer), lists it, asks before revoking, revokes it', async () => {
    const user = await signUp('keys-profile@example.com')
    const created = await callRoute(
      profilePage,
      profileForm(user.token, { intent: 'create-api-key', name: 'Deploy bot', scopes: ['listings:read', 'payouts:read'], expiresOn: '' }),
    )
    expect(created.status).toBe(200)
    const { createdApiKey } = await created.json()
    expect(createdApiKey.name).toBe('Deploy bot')
    expect((await authenticateApiKey(createdApiKey.secret)).ok).toBe(true)

    const page = await (
      await callRoute(profilePage, new Request(`${APP}/profile`, { headers: { Authorization: `Bearer ${user.token}` } }))
    ).json()
    expect(page.apiKeys).toMatchObject([
      { name: 'Deploy bot', prefix: createdApiKey.secret.slice(0, 11), scopes: ['listings:read', 'payouts:read'], expiresAt: null },
    ])
    expect(JSON.stringify(page)).not.toContain(createdApiKey.secret)
    const keyId = page.apiKeys[0].id

    const confirm = await (
      await callRoute(
        profilePage,
        new Request(`${APP}/profile?revoke-key=${keyId}`, { headers: { Authorization: `Bearer ${user.token}` } }),
      )
    ).json()
    expect(confirm.revokingKey).toMatchObject({ id: keyId, name: 'Deploy bot' })

    const revoked = await callRoute(profilePage, profileForm(user.token, { intent: 'revoke-api-key', keyId }))
    expect(revoked.status).toBe(302)
    expect(await authenticateApiKey(createdApiKey.secret)).toEqual({ ok: false, reason: 'revoked' })
  })

  it('400 with the field errors for a key without a name or scope, or with a past expiry; nothing is created', async () => {
    const user = await signUp('keys-invalid@example.com')
    const response = await callRoute(profilePage, profileForm(user.token, { intent: 'create-api-key', name: ' ', expiresOn: '2020-01-01' }))
    expect(response.status).toBe(400)
    const { apiKey } = await response.json()
    expect(apiKey.error).toMatchObject({
      name: ['Give the key a name'],
      scopes: ['Choose at least one scope'],
      expiresOn: ['Choose a date from today on'],
    })
    expect(await listApiKeys(user.id)).toEqual([])
  })
})
