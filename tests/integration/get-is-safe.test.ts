import { sql } from 'kysely'
import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_READ_ACTION } from '../../app/server/domain/sale-messages.server.ts'
import { createWebhookEndpoint } from '../../app/server/domain/webhook-endpoints.server.ts'
import { sendTestWebhook } from '../../app/server/domain/webhook-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { callRoute } from '../support/call-route.ts'
import { ROUTES } from '../support/route-table.ts'
import { buildRequest, buildWorld, type Role, type World } from './hardening-fixtures.ts'

/*
 * No GET changes anything (issue 9, CSRF). A crawler visits every GET route
 * of app/routes.ts — screens and /api/* — signed in as seller, buyer and admin
 * (and anonymous), with the world's real ids and slugs, and every table's
 * rows are checksummed before and after.
 *
 * /checkout/:id is crawled like every other page (issue 14.6): its payment
 * intent is requested by the page's POST, never by the GET.
 * graphile-worker's own schema is not checksummed (its queue is not ours).
 * listing_views_daily is the one table a GET writes by design (issue 19): the
 * anonymous daily view counter of a listing page (no personal data, a counter
 * only; tests/integration/seller-analytics.test.ts), so it is not checksummed.
 */

const EXCLUDED = new Set<string>([])

/** Concrete URLs (with params) to crawl for each route pattern. */
function urlsFor(pattern: string, w: World): { path: string; params: Record<string, string> }[] {
  const ids: Record<string, string[]> = {
    slug: [w.listing.slug, w.hidden.slug],
    // saleDisputed: an admin reads a disputed sale's thread and timeline (issue 18).
    // Issue 29: the owner's webhook endpoint (its page, its confirm steps, its delivery log).
    id: [w.listing.id, w.hidden.id, w.salePaid.id, w.saleDelivered.id, w.saleDisputed.id, webhookEndpointId],
    slugOrId: [w.listing.slug, w.listing.id, w.hidden.id],
    transactionId: [w.salePaid.id, w.saleCompleted.id],
    userId: [w.users.other.id],
    // Payout batches (issue 19): ids that are not batches (404), and files of no batch.
    batchId: [w.saleCompleted.id, 'not-a-uuid'],
    // Reconciliation runs (issue 19): ids that are not runs (404).
    runId: [w.saleCompleted.id, 'not-a-uuid'],
    '*': ['listings/x.webp', 'nothing/here'],
    // Issue 18: a seller's page (the owner's username is their e-mail's local part) and an unknown one.
    username: [w.users.owner.email.split('@')[0]!, 'nobody'],
  }
  const names = [...pattern.matchAll(/:([a-zA-Z]+)|\*/g)].map((m) => m[1] ?? '*')
  if (names.length === 0) return [{ path: `/${pattern === '/' ? '' : pattern}`, params: {} }]
  const name = names[0]!
  return ids[name]!.map((value) => ({
    path: `/${pattern.replace(name === '*' ? '*' : `:${name}`, value)}`,
    params: { [name]: value },
  }))
}

/**
 * md5 of every row of every table in the public schema, per table. Not compared: the view counter,
 * and the rate limits' counters (a GET of a page whose limit counts views, /checkout/:id, counts
 * itself there, as it did in memory before the counters moved to PostgreSQL: decision 022).
 */
async function checksum(): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables
    WHERE schemaname = 'public' AND tablename NOT IN ('listing_views_daily', 'rate_limits') ORDER BY tablename
  `.execute(db)
  const out: Record<string, string> = {}
  for (const { name } of tables.rows) {
    // One write on GET is deliberate: an admin reading a disputed sale's messages is audited
    // (ADMIN_READ_ACTION, docs/decisions/019); every other row of every table must stay as it was.
    const result =
      name === 'audit_log'
        ? await sql<{ sum: string | null }>`
            SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM audit_log t
            WHERE t.action <> ${ADMIN_READ_ACTION}
          `.execute(db)
        : await sql<{ sum: string | null }>`
            SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${sql.table(name)} t
          `.execute(db)
    out[name] = result.rows[0]!.sum ?? ''
  }
  return out
}

let w: World
let webhookEndpointId: string
beforeEach(async () => {
  w = await buildWorld()
  webhookEndpointId = (await createWebhookEndpoint(w.users.owner.id, { url: 'http://127.0.0.1:9/hooks', events: ['sale.paid'] })).endpoint
    .id
  await sendTestWebhook(w.users.owner.id, webhookEndpointId)
})

describe('GET changes nothing', () => {
  it('crawls every GET route as anonymous, buyer, seller, other seller and admin: every table unchanged', async () => {
    // Warm-up: first authenticated requests (user sync) happen in buildWorld already.
    const before = await checksum()
    const visited: string[] = []
    const errors: string[] = []
    for (const role of ['anon', 'buyer', 'owner', 'other', 'admin'] as Role[]) {
      for (const route of ROUTES) {
        if (EXCLUDED.has(route.path)) continue
        const mod = (await import(/* @vite-ignore */ `../../app/${route.file}`)) as { loader?: (a: unknown) => unknown }
        if (!mod.loader) continue
        for (const { path, params } of urlsFor(route.path, w)) {
          // Query strings the screens read (filters, tabs, ?delete confirmation) are part of the crawl.
          for (const query of ['', '?delete=1&rotate=1&tab=payouts&status=completed&page=2&q=kit']) {
            const token = role === 'anon' ? undefined : w.users[role].token
            const response = await callRoute(mod, buildRequest('GET', `${path}${query}`, token), params)
            visited.push(`${role} GET ${path}${query} → ${response.status}`)
            if (response.status >= 500) errors.push(`${role} GET ${path}${query} → ${response.status}`)
          }
        }
      }
    }
    expect(errors).toEqual([])
    expect(visited.length).toBeGreaterThan(200)
    expect(await checksum()).toEqual(before)
    // …and those reads were audited: the admin's, once per sale and half hour, nobody else's.
    const reads = await db.selectFrom('auditLog').select(['actorId', 'entityId']).where('action', '=', ADMIN_READ_ACTION).execute()
    expect(reads).toEqual([{ actorId: w.users.admin.id, entityId: w.saleDisputed.id }])
  })

  it('every route with a loader is crawled (or excluded above with a reason)', async () => {
    for (const route of ROUTES) {
      const mod = (await import(/* @vite-ignore */ `../../app/${route.file}`)) as { loader?: unknown }
      if (!mod.loader || EXCLUDED.has(route.path)) continue
      expect(urlsFor(route.path, w).length, route.path).toBeGreaterThan(0)
    }
  })

  it('/checkout/:id writes nothing for the buyer, the seller or anonymous, cross-site or not', async () => {
    const checkout = await import('../../app/routes/checkout.tsx')
    const before = await checksum()
    for (const token of [w.users.other.token, w.users.buyer.token, w.users.owner.token, undefined]) {
      for (const site of ['cross-site', 'same-origin', 'none']) {
        const request = buildRequest('GET', `/checkout/${w.listing.id}`, token)
        request.headers.set('Sec-Fetch-Site', site)
        expect((await callRoute(checkout, request, { id: w.listing.id })).status).toBeLessThan(500)
      }
    }
    expect(await checksum()).toEqual(before)
  })
})
