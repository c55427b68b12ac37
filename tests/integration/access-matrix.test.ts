import { beforeAll, describe, expect, it } from 'vitest'
import { takeDownListing } from '../../app/server/domain/moderation.server.ts'
import {
  approvePayoutBatch,
  exportPayoutBatch,
  markPayoutBatchSent,
  preparePayoutBatch,
} from '../../app/server/domain/payout-batches.server.ts'
import { createReview } from '../../app/server/domain/reviews.server.ts'
import { createWebhookEndpoint } from '../../app/server/domain/webhook-endpoints.server.ts'
import { sendTestWebhook } from '../../app/server/domain/webhook-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { callRoute } from '../support/call-route.ts'
import { ROUTES } from '../support/route-table.ts'
import { withWebhooksWithheld } from '../support/stripe.ts'
import {
  API_LISTING,
  buildRequest,
  buildWorld,
  resetDatabase,
  ROLES,
  tinyPng,
  tokenFor,
  VALID_BANK_DETAILS,
  type Body,
  type Role,
  type World,
} from './hardening-fixtures.ts'
import { useTemporaryUploads } from './listings-support.ts'

/**
 * A payout batch of the owner's completed sale in the given state (issue 19), prepared by a
 * second admin so the world's admin may approve it (four eyes).
 */
async function batchIn(w: World, state: 'draft' | 'exported' | 'sent'): Promise<string> {
  // GET cells share one world: the batch made for the first role serves the others.
  const existing = await db.selectFrom('payoutBatches').select('id').executeTakeFirst()
  if (existing) return existing.id
  const second = await db
    .insertInto('users')
    .values({ username: 'second-admin', displayName: 'Second admin', email: 'second-admin@example.com', isAdmin: true })
    .returning('id')
    .executeTakeFirstOrThrow()
  const batch = await preparePayoutBatch({ adminId: second.id })
  if (state === 'draft') return batch.id
  await approvePayoutBatch({ batchId: batch.id, adminId: w.users.admin.id })
  await exportPayoutBatch({ batchId: batch.id, adminId: w.users.admin.id })
  if (state === 'sent') await markPayoutBatchSent({ batchId: batch.id, adminId: w.users.admin.id, bankReference: 'BANK-1' })
  return batch.id
}

/** A stored reconciliation run (issue 19), written straight into its table: running one calls the provider. */
async function reconciliationRun(w: World): Promise<string> {
  const existing = await db.selectFrom('reconciliationRuns').select('id').executeTakeFirst()
  if (existing) return existing.id
  const at = new Date()
  const run = await db
    .insertInto('reconciliationRuns')
    .values({
      trigger: 'admin',
      requestedBy: w.users.admin.id,
      startedAt: at,
      finishedAt: at,
      exceptionCount: 0,
      totals: '{}',
      exceptions: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return run.id
}

/** The owner's listing taken down by the world's admin (issue 30), once per world. */
async function takedownOf(w: World): Promise<string> {
  const existing = await db.selectFrom('listingTakedowns').select('id').executeTakeFirst()
  if (existing) return existing.id
  return (await takeDownListing({ listingId: w.listing.id, adminId: w.users.admin.id, category: 'spam', reason: 'Spam' })).id
}

/** The owner's webhook endpoint (issue 29) with one finished delivery (Resend needs one), once per world. */
async function webhookEndpointOf(w: World): Promise<{ id: string; deliveryId: string }> {
  const existing = await db.selectFrom('webhookDeliveries').select(['id as deliveryId', 'endpointId as id']).executeTakeFirst()
  if (existing) return existing
  const { endpoint } = await createWebhookEndpoint(w.users.owner.id, { url: 'http://127.0.0.1:9/hooks', events: ['sale.paid'] })
  const deliveryId = await sendTestWebhook(w.users.owner.id, endpoint.id)
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'failed', attempts: 1, completedAt: new Date() })
    .where('id', '=', deliveryId)
    .execute()
  return { id: endpoint.id, deliveryId }
}

const webhookRow = (form: (hook: { id: string; deliveryId: string }) => Record<string, string>, expect: Expect, note?: string): Row => ({
  method: 'POST',
  request: async (w) => {
    const hook = await webhookEndpointOf(w)
    return { path: `/seller/webhooks/${hook.id}`, params: { id: hook.id }, body: { form: form(hook) } }
  },
  expect,
  note,
})

/** The buyer's review of the completed sale, once per world (a world is shared by the cells that were refused). */
async function reviewOf(w: World, review: { stars: number; body: string }): Promise<{ id: string }> {
  const existing = await db.selectFrom('reviews').select('id').where('buyerId', '=', w.users.buyer.id).executeTakeFirst()
  return existing ?? createReview({ saleId: w.saleCompleted.id, buyerId: w.users.buyer.id, review })
}

async function usernameOf(id: string) {
  return (await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow()).username
}

/*
 * The access-control matrix (issue 9, OWASP ASVS V8): every route of
 * app/routes.ts with every method it can receive, called as anonymous, as a
 * buyer, as another seller, as the owner of the listing or sale involved and
 * as an admin. Ids in params and bodies are always the owner's (or the
 * buyer's) objects, so every other role is trying someone else's ids.
 *
 * A cell is the status code; for redirects "302 /login" (status + target
 * path). 'static' means the screen has no loader (nothing to protect, the
 * page renders for everyone). A route in app/routes.ts without a row here
 * fails the suite, so new routes must be added to the matrix.
 */

beforeAll(() => {
  useTemporaryUploads()
})

type Cell = number | string
type Expect = Record<Role, Cell>
interface Probe {
  path: string
  params?: Record<string, string>
  body?: Body
}
interface Row {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  request: (w: World) => Probe | Promise<Probe>
  expect: Expect
  /** Why a cell is what it is, where it isn't obvious. */
  note?: string
  /** Runs each cell's call inside it (e.g. with Stripe's webhooks withheld, so an answer does not race one). */
  around?: (call: () => Promise<Cell>) => Promise<Cell>
}

const all = (cell: Cell): Expect => ({ anon: cell, buyer: cell, other: cell, owner: cell, admin: cell })
const cells = (anon: Cell, buyer: Cell, other: Cell, owner: Cell, admin: Cell): Expect => ({ anon, buyer, other, owner, admin })
const LOGIN = '302 /login'
const signedIn = (cell: Cell, anon: Cell = 401): Expect => cells(anon, cell, cell, cell, cell)
const adminOnly = (cell: Cell): Expect => cells(401, 403, 403, 403, cell)
const adminScreen = (cell: Cell): Expect => cells(LOGIN, '302 /', '302 /', '302 /', cell)

const get =
  (path: string, params: Record<string, string> = {}) =>
  () => ({ path, params })
const uuidOf = (w: World, key: 'salePaid' | 'saleDelivered' | 'saleCompleted' | 'saleDisputed') => w[key].id

/** Methods not handled by an API module: every caller gets 405, before any auth. */
const methodNotAllowed = (method: Row['method'], path: string): Row => ({ method, request: get(path), expect: all(405) })

// One row per (route path, method). Keys are the paths exactly as in app/routes.ts.
const MATRIX: Record<string, Row[]> = {
  '/': [
    { method: 'GET', request: get('/'), expect: all('static') },
    { method: 'POST', request: get('/'), expect: all(405) },
  ],
  login: [
    { method: 'GET', request: get('/login'), expect: cells(200, '302 /', '302 /', '302 /', '302 /') },
    {
      method: 'POST',
      request: () => ({ path: '/login', body: { form: { provider: 'github', redirectTo: '/purchases' } } }),
      expect: all('302 EXTERNAL'),
      note: 'starts the OAuth flow at the identity provider',
    },
  ],
  'auth/callback': [{ method: 'GET', request: get('/auth/callback'), expect: all('302 /login') }],
  // GitHub's flows (issue 16) need a signed-in user; without the GitHub App (not configured here) or
  // without a valid signed state they go back with the reason, writing nothing.
  // Signed in, to GitHub's pages (each test file has its GitHub emulator): installing the App, the OAuth consent.
  'github/install': [{ method: 'GET', request: get('/github/install'), expect: signedIn('302 EXTERNAL', LOGIN) }],
  'github/install/callback': [
    { method: 'GET', request: get('/github/install/callback'), expect: signedIn('302 /seller/dashboard', LOGIN) },
  ],
  'github/authorize': [{ method: 'GET', request: get('/github/authorize'), expect: signedIn('302 EXTERNAL', LOGIN) }],
  'github/oauth/callback': [{ method: 'GET', request: get('/github/oauth/callback'), expect: signedIn('302 /purchases', LOGIN) }],
  logout: [
    { method: 'GET', request: get('/logout'), expect: all('302 /') },
    { method: 'POST', request: get('/logout'), expect: all('302 /') },
  ],
  marketplace: [
    { method: 'GET', request: get('/marketplace'), expect: all(200) },
    { method: 'POST', request: get('/marketplace'), expect: all(405) },
  ],
  'listing/:slug': [
    { method: 'GET', request: (w) => ({ path: `/listing/${w.listing.slug}`, params: { slug: w.listing.slug } }), expect: all(200) },
    {
      method: 'GET',
      request: (w) => ({ path: `/listing/${w.hidden.slug}`, params: { slug: w.hidden.slug } }),
      expect: cells(404, 404, 404, 200, 404),
      note: 'a hidden listing only for its seller',
    },
    {
      method: 'POST',
      request: (w) => ({ path: `/listing/${w.listing.slug}`, params: { slug: w.listing.slug }, body: { form: { intent: 'delete' } } }),
      expect: cells(LOGIN, 403, 403, '302 /seller/dashboard', 403),
    },
    // Issue 18: a review of the buyer's completed sale, the seller's reply, an admin hiding a review.
    {
      method: 'POST',
      request: (w) => ({
        path: `/listing/${w.listing.slug}`,
        params: { slug: w.listing.slug },
        body: { form: { intent: 'review', saleId: w.saleCompleted.id, stars: '5', body: 'Works as described.' } },
      }),
      expect: cells(LOGIN, '302 /listing/:slug', 404, 404, 404),
      note: "only the sale's buyer; anyone else is told the purchase does not exist",
    },
    {
      method: 'POST',
      request: async (w) => {
        const review = await reviewOf(w, { stars: 4, body: 'Good' })
        return {
          path: `/listing/${w.listing.slug}`,
          params: { slug: w.listing.slug },
          body: { form: { intent: 'reply', reviewId: review.id, reply: 'Thanks!' } },
        }
      },
      expect: cells(LOGIN, 403, 403, '302 /listing/:slug', 403),
    },
    {
      method: 'POST',
      request: async (w) => {
        const review = await reviewOf(w, { stars: 1, body: 'Bad' })
        return {
          path: `/listing/${w.listing.slug}`,
          params: { slug: w.listing.slug },
          body: { form: { intent: 'hide-review', reviewId: review.id, reason: 'Abusive' } },
        }
      },
      expect: cells(LOGIN, 403, 403, 403, '302 /listing/:slug'),
    },
  ],
  // Issue 18: the public seller page, the profile's avatar form, a listing's reviews as JSON.
  'sellers/:username': [
    {
      method: 'GET',
      request: async (w) => ({
        path: `/sellers/${await usernameOf(w.users.owner.id)}`,
        params: { username: await usernameOf(w.users.owner.id) },
      }),
      expect: all(200),
    },
    { method: 'GET', request: get('/sellers/nobody', { username: 'nobody' }), expect: all(404) },
    {
      method: 'POST',
      request: async (w) => ({
        path: `/sellers/${await usernameOf(w.users.owner.id)}`,
        params: { username: await usernameOf(w.users.owner.id) },
      }),
      expect: all(405),
    },
  ],
  'profile/avatar': [
    { method: 'GET', request: get('/profile/avatar'), expect: all('302 /profile') },
    {
      method: 'POST',
      request: async () => {
        const form = new FormData()
        form.append('avatar', new File([new Uint8Array(await tinyPng())], 'me.png', { type: 'image/png' }))
        return { path: '/profile/avatar', body: { multipart: form } }
      },
      expect: signedIn('302 /profile', LOGIN),
    },
  ],
  'api/listings/:id/reviews': [
    { method: 'GET', request: (w) => ({ path: `/api/listings/${w.listing.id}/reviews`, params: { id: w.listing.id } }), expect: all(200) },
    {
      method: 'GET',
      request: (w) => ({ path: `/api/listings/${w.hidden.id}/reviews`, params: { id: w.hidden.id } }),
      expect: cells(404, 404, 404, 200, 404),
      note: "a hidden listing's reviews only for its seller",
    },
    { method: 'POST', request: (w) => ({ path: `/api/listings/${w.listing.id}/reviews`, params: { id: w.listing.id } }), expect: all(405) },
  ],
  'api/listings/:id/views': [
    methodNotAllowed('GET', '/api/listings/x/views'),
    { method: 'POST', request: (w) => ({ path: `/api/listings/${w.listing.id}/views`, params: { id: w.listing.id } }), expect: all(200) },
    {
      method: 'POST',
      request: (w) => ({ path: `/api/listings/${w.hidden.id}/views`, params: { id: w.hidden.id } }),
      expect: cells(404, 404, 404, 200, 404),
      note: 'a hidden listing is seen only by its seller (whose views are not counted)',
    },
  ],
  'seller/dashboard': dashboardRows('/seller/dashboard'),
  'seller-dashboard': dashboardRows('/seller-dashboard'),
  'seller/create': createRows('/seller/create'),
  'create-listing': createRows('/create-listing'),
  'seller/edit/:id': [
    {
      method: 'GET',
      request: (w) => ({ path: `/seller/edit/${w.listing.id}`, params: { id: w.listing.id } }),
      expect: cells(LOGIN, 403, 403, 200, 403),
      note: 'one ownership rule on every surface (checkListingOwner): 403 for a visible listing that is not yours, as the API and the listing page answer',
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/seller/edit/${w.listing.id}`,
        params: { id: w.listing.id },
        body: { form: { title: 'Taken over', shortDescription: 'x', type: 'template', licence: 'personal', price: '10' } },
      }),
      expect: cells(LOGIN, 403, 403, '302 /listing/:slug', 403),
    },
  ],
  'seller/edit/:id/versions': [
    {
      method: 'GET',
      request: (w) => ({ path: `/seller/edit/${w.listing.id}/versions`, params: { id: w.listing.id } }),
      expect: cells(LOGIN, 403, 403, 200, 403),
      note: "issue 30: the listing's versions and the version-note form, its seller only (checkListingOwner)",
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/seller/edit/${w.listing.id}/versions`,
        params: { id: w.listing.id },
        body: { form: { version: `9.${Math.random().toString().slice(2, 8)}`, notes: 'Taken over' } },
      }),
      expect: cells(LOGIN, 403, 403, '302 /seller/edit/:id/versions', 403),
    },
  ],
  'checkout/:id': [
    {
      method: 'GET',
      request: (w) => ({ path: `/checkout/${w.listing.id}`, params: { id: w.listing.id } }),
      expect: cells(LOGIN, 200, 200, 403, 200),
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/checkout/${w.listing.id}`,
        params: { id: w.listing.id },
        body: { form: { amountCents: String(w.listing.priceCents) } },
      }),
      expect: cells(LOGIN, 200, 200, 403, 200),
      note: 'the page opens the payment attempt by POST (issue 14.6); the seller cannot buy their own listing',
    },
  ],
  purchases: [
    { method: 'GET', request: get('/purchases'), expect: signedIn(200, LOGIN) },
    {
      method: 'POST',
      request: (w) => ({ path: '/purchases', body: { form: { intent: 'confirm-receipt', transactionId: uuidOf(w, 'saleDelivered') } } }),
      expect: cells(LOGIN, '302 /purchases', 404, 403, 404),
    },
  ],
  'my-purchases': [{ method: 'GET', request: get('/my-purchases'), expect: all('301 /purchases') }],
  notifications: [
    { method: 'GET', request: get('/notifications'), expect: signedIn(200, LOGIN) },
    {
      method: 'POST',
      request: () => ({ path: '/notifications', body: { form: { intent: 'mark-all-read' } } }),
      expect: signedIn('302 /notifications', LOGIN),
    },
    {
      // Nobody's notification (each user may only mark their own): not found for everyone.
      method: 'POST',
      request: () => ({ path: '/notifications', body: { form: { intent: 'mark-read', id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b' } } }),
      expect: signedIn(404, LOGIN),
    },
  ],
  profile: [
    { method: 'GET', request: get('/profile'), expect: signedIn(200, LOGIN) },
    { method: 'POST', request: () => ({ path: '/profile', body: { form: VALID_BANK_DETAILS } }), expect: signedIn('302 /profile', LOGIN) },
    {
      method: 'POST',
      request: () => ({
        path: '/profile',
        body: { form: { intent: 'public-profile', username: 'fresh-name', displayName: 'Fresh', bio: '' } },
      }),
      expect: signedIn('302 /profile', LOGIN),
    },
    {
      method: 'POST',
      request: () => ({ path: '/profile', body: { form: { intent: 'notification-settings', reminders: 'on', timeZone: 'UTC' } } }),
      expect: signedIn('302 /profile', LOGIN),
    },
  ],
  admin: [
    { method: 'GET', request: get('/admin'), expect: adminScreen(200) },
    {
      method: 'POST',
      request: (w) => ({
        path: '/admin',
        body: { form: { intent: 'mark-paid', transactionId: uuidOf(w, 'saleCompleted'), paymentReference: 'REF-1' } },
      }),
      expect: adminScreen('302 /admin'),
    },
  ],
  // Issue 18: a sale's thread (its buyer and seller; an admin only while it is disputed, read only)
  // and a disputed sale's timeline (admins), whose decision goes through the escrow machine.
  'sales/:id/messages': [
    {
      method: 'GET',
      request: (w) => ({ path: `/sales/${w.saleDelivered.id}/messages`, params: { id: w.saleDelivered.id } }),
      expect: cells(LOGIN, 200, 404, 200, 403),
      note: 'no dispute: an admin cannot read it; anyone outside the sale gets 404',
    },
    {
      method: 'GET',
      request: (w) => ({ path: `/sales/${w.saleDisputed.id}/messages`, params: { id: w.saleDisputed.id } }),
      expect: cells(LOGIN, 200, 404, 200, 200),
      note: 'disputed: an admin reads it (audited)',
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/sales/${w.saleDisputed.id}/messages`,
        params: { id: w.saleDisputed.id },
        body: { form: { body: 'Hello' } },
      }),
      expect: cells(LOGIN, '302 /sales/:id/messages', 404, '302 /sales/:id/messages', 403),
      note: 'an admin reads a disputed thread but never writes on it',
    },
  ],
  'admin/disputes/:id': [
    {
      method: 'GET',
      request: (w) => ({ path: `/admin/disputes/${w.saleDisputed.id}`, params: { id: w.saleDisputed.id } }),
      expect: adminScreen(200),
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/admin/disputes/${w.saleDisputed.id}`,
        params: { id: w.saleDisputed.id },
        body: { form: { intent: 'release', transactionId: w.saleDisputed.id, reason: 'Delivered as listed' } },
      }),
      expect: adminScreen('302 /admin'),
    },
  ],
  // Issue 30: anyone signed in reports what the public sees (not their own); admins decide; the seller answers a takedown.
  report: [
    {
      method: 'GET',
      request: (w) => ({ path: `/report?targetType=listing&targetId=${w.listing.id}` }),
      expect: cells(LOGIN, 200, 200, 403, 200),
      note: 'nobody reports their own listing',
    },
    {
      method: 'POST',
      request: (w) => ({
        path: '/report',
        body: { form: { targetType: 'listing', targetId: w.listing.id, reason: 'spam', details: 'Looks like spam' } },
      }),
      expect: cells(LOGIN, '302 /listing/:slug', '302 /listing/:slug', 403, '302 /listing/:slug'),
    },
  ],
  'admin/moderation': [
    { method: 'GET', request: get('/admin/moderation'), expect: adminScreen(200) },
    {
      method: 'POST',
      request: (w) => ({
        path: '/admin/moderation',
        body: { form: { intent: 'take-down', targetId: w.listing.id, category: 'spam', note: 'Spam' } },
      }),
      expect: adminScreen('302 /admin/moderation'),
    },
  ],
  'seller/takedowns/:id': [
    {
      method: 'GET',
      request: async (w) => {
        const id = await takedownOf(w)
        return { path: `/seller/takedowns/${id}`, params: { id } }
      },
      expect: cells(LOGIN, 404, 404, 200, 404),
      note: 'only the seller of the listing taken down',
    },
    {
      method: 'POST',
      request: async (w) => {
        const id = await takedownOf(w)
        return { path: `/seller/takedowns/${id}`, params: { id }, body: { form: { takedownId: id, counterNotice: 'It is mine' } } }
      },
      expect: cells(LOGIN, 404, 404, '302 /seller/takedowns/:id', 404),
    },
  ],
  // Issue 29: a seller's webhook endpoints; anyone else's is not found.
  'seller/webhooks': [
    { method: 'GET', request: get('/seller/webhooks'), expect: signedIn(200, LOGIN) },
    {
      method: 'POST',
      request: () => ({
        path: '/seller/webhooks',
        body: { form: { intent: 'save-endpoint', url: 'http://127.0.0.1:9/hooks', events: 'sale.paid' } },
      }),
      expect: signedIn('302 /seller/webhooks/:id', LOGIN),
    },
  ],
  'seller/webhooks/:id': [
    {
      method: 'GET',
      request: async (w) => {
        const { id } = await webhookEndpointOf(w)
        return { path: `/seller/webhooks/${id}?rotate`, params: { id } }
      },
      expect: cells(LOGIN, 404, 404, 200, 404),
      note: 'only its owner, admins included (the page shows the signing secret)',
    },
    webhookRow(
      () => ({ intent: 'save-endpoint', url: 'http://127.0.0.1:9/taken', events: 'sale.paid' }),
      cells(LOGIN, 404, 404, '302 /seller/webhooks/:id', 404),
    ),
    webhookRow(() => ({ intent: 'rotate-secret' }), cells(LOGIN, 404, 404, '302 /seller/webhooks/:id', 404)),
    webhookRow(() => ({ intent: 'send-test' }), cells(LOGIN, 404, 404, '302 /seller/webhooks/:id', 404)),
    webhookRow((hook) => ({ intent: 'resend', deliveryId: hook.deliveryId }), cells(LOGIN, 404, 404, '302 /seller/webhooks/:id', 404)),
    webhookRow(() => ({ intent: 'enable-endpoint' }), cells(LOGIN, 404, 404, '302 /seller/webhooks/:id', 404)),
    webhookRow(() => ({ intent: 'delete-endpoint' }), cells(LOGIN, 404, 404, '302 /seller/webhooks', 404)),
  ],
  'purchase-success': [
    {
      method: 'GET',
      request: (w) => ({ path: `/purchase-success?payment_intent=${w.salePaid.stripePaymentIntentId}` }),
      expect: all(200),
      note: "Stripe's return page: anonymous gets the neutral 'unknown' outcome; a sale is looked up for the signed-in user only",
    },
  ],
  terms: [{ method: 'GET', request: get('/terms'), expect: all('static') }],
  privacy: [{ method: 'GET', request: get('/privacy'), expect: all('static') }],
  cookies: [{ method: 'GET', request: get('/cookies'), expect: all('static') }],
  disclaimer: [{ method: 'GET', request: get('/disclaimer'), expect: all('static') }],
  faq: [{ method: 'GET', request: get('/faq'), expect: all('static') }],
  help: [{ method: 'GET', request: get('/help'), expect: all('static') }],
  developers: [{ method: 'GET', request: get('/developers'), expect: all(200), note: 'the API reference: public, the same for everyone' }],
  healthz: [
    { method: 'GET', request: get('/healthz'), expect: all(200) },
    { method: 'POST', request: get('/healthz'), expect: all(405) },
  ],
  'action/set-theme': [
    { method: 'GET', request: get('/action/set-theme'), expect: all(405) },
    { method: 'POST', request: () => ({ path: '/action/set-theme', body: { json: { theme: 'dark' } } }), expect: all(200) },
    { method: 'POST', request: () => ({ path: '/action/set-theme', body: { form: { theme: 'dark' } } }), expect: all(400) },
  ],
  'uploads/*': [
    { method: 'GET', request: () => ({ path: '/uploads/listings/none.webp', params: { '*': 'listings/none.webp' } }), expect: all(404) },
    { method: 'GET', request: () => ({ path: '/uploads/../../etc/passwd', params: { '*': '../../etc/passwd' } }), expect: all(404) },
    { method: 'POST', request: get('/uploads/x.png'), expect: all(405) },
  ],

  // ---- JSON API (spec §7) ----
  'api/users/sync': [
    {
      method: 'POST',
      request: (w) => ({ path: '/api/users/sync', body: { json: { id: w.users.admin.id, isAdmin: true } } }),
      expect: signedIn(200),
    },
    methodNotAllowed('GET', '/api/users/sync'),
  ],
  'api/openapi.json': [
    { method: 'GET', request: get('/api/openapi.json'), expect: all(200) },
    { method: 'POST', request: get('/api/openapi.json'), expect: all(405) },
  ],
  'api/listings': [
    { method: 'GET', request: get('/api/listings'), expect: all(200) },
    { method: 'POST', request: () => ({ path: '/api/listings', body: { json: API_LISTING } }), expect: signedIn(201) },
    { method: 'PATCH', request: get('/api/listings'), expect: all(405) },
    { method: 'DELETE', request: get('/api/listings'), expect: all(405) },
  ],
  'api/listings/upload-images': [
    methodNotAllowed('GET', '/api/listings/upload-images'),
    {
      method: 'POST',
      request: async () => {
        const form = new FormData()
        form.append('images', new File([new Uint8Array(await tinyPng())], 'a.png', { type: 'image/png' }))
        return { path: '/api/listings/upload-images', body: { multipart: form } }
      },
      expect: signedIn(200),
    },
  ],
  'api/listings/id/:id': [
    {
      method: 'GET',
      request: (w) => ({ path: `/api/listings/id/${w.hidden.id}`, params: { id: w.hidden.id } }),
      expect: cells(404, 404, 404, 200, 404),
    },
    { method: 'POST', request: (w) => ({ path: `/api/listings/id/${w.listing.id}`, params: { id: w.listing.id } }), expect: all(405) },
  ],
  'api/listings/:slugOrId': [
    {
      method: 'GET',
      request: (w) => ({ path: `/api/listings/${w.listing.slug}`, params: { slugOrId: w.listing.slug } }),
      expect: all(200),
    },
    {
      method: 'GET',
      request: (w) => ({ path: `/api/listings/${w.hidden.slug}`, params: { slugOrId: w.hidden.slug } }),
      expect: cells(404, 404, 404, 200, 404),
    },
    {
      method: 'PATCH',
      request: (w) => ({
        path: `/api/listings/${w.listing.id}`,
        params: { slugOrId: w.listing.id },
        body: { json: { title: 'Taken over' } },
      }),
      expect: cells(401, 403, 403, 200, 403),
    },
    {
      method: 'DELETE',
      request: (w) => ({ path: `/api/listings/${w.listing.id}`, params: { slugOrId: w.listing.id } }),
      expect: cells(401, 403, 403, 200, 403),
    },
    { method: 'POST', request: (w) => ({ path: `/api/listings/${w.listing.id}`, params: { slugOrId: w.listing.id } }), expect: all(405) },
  ],
  'api/listings/:id/purchase': [
    methodNotAllowed('GET', '/api/listings/x/purchase'),
    {
      method: 'POST',
      request: (w) => ({ path: `/api/listings/${w.listing.id}/purchase`, params: { id: w.listing.id }, body: { json: {} } }),
      expect: cells(401, 200, 200, 403, 200),
      note: 'anyone signed in may buy, except the seller',
    },
  ],
  'api/seller/listings': [
    { method: 'GET', request: get('/api/seller/listings'), expect: signedIn(200) },
    { method: 'POST', request: get('/api/seller/listings'), expect: all(405) },
  ],
  'api/seller/transactions': [
    { method: 'GET', request: get('/api/seller/transactions'), expect: signedIn(200) },
    { method: 'POST', request: get('/api/seller/transactions'), expect: all(405) },
  ],
  'api/seller/transactions/:id/deliver': [
    methodNotAllowed('GET', '/api/seller/transactions/x/deliver'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/seller/transactions/${w.salePaid.id}/deliver`,
        params: { id: w.salePaid.id },
        body: { json: { forkUrl: 'https://github.com/someone/fork' } },
      }),
      expect: cells(401, 403, 404, 200, 404),
    },
  ],
  'api/purchases': [{ method: 'GET', request: get('/api/purchases'), expect: signedIn(200) }, methodNotAllowed('POST', '/api/purchases')],
  'api/purchases/:id/confirm': [
    methodNotAllowed('GET', '/api/purchases/x/confirm'),
    {
      method: 'POST',
      request: (w) => ({ path: `/api/purchases/${w.saleDelivered.id}/confirm`, params: { id: w.saleDelivered.id }, body: { json: {} } }),
      expect: cells(401, 200, 404, 403, 404),
    },
  ],
  'api/purchases/:id/dispute': [
    methodNotAllowed('GET', '/api/purchases/x/dispute'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/purchases/${w.saleDelivered.id}/dispute`,
        params: { id: w.saleDelivered.id },
        body: { json: { reason: 'It does not build' } },
      }),
      expect: cells(401, 200, 404, 403, 404),
    },
  ],
  // Issue 30: the report form as JSON; nobody reports their own listing.
  'api/reports': [
    methodNotAllowed('GET', '/api/reports'),
    {
      method: 'POST',
      request: (w) => ({
        path: '/api/reports',
        body: { json: { targetType: 'listing', targetId: w.listing.id, reason: 'spam', details: 'Looks like spam' } },
      }),
      expect: cells(401, 201, 201, 403, 201),
      note: 'nobody reports their own listing',
    },
  ],
  'api/transactions/:id/messages': [
    {
      method: 'GET',
      request: (w) => ({ path: `/api/transactions/${w.saleDelivered.id}/messages`, params: { id: w.saleDelivered.id } }),
      expect: cells(401, 200, 404, 200, 403),
    },
    {
      method: 'GET',
      request: (w) => ({ path: `/api/transactions/${w.saleDisputed.id}/messages`, params: { id: w.saleDisputed.id } }),
      expect: cells(401, 200, 404, 200, 200),
    },
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/transactions/${w.saleDisputed.id}/messages`,
        params: { id: w.saleDisputed.id },
        body: { json: { body: 'Hello' } },
      }),
      expect: cells(401, 201, 404, 201, 403),
    },
    { method: 'PATCH', request: get('/api/transactions/x/messages', { id: 'x' }), expect: all(405) },
  ],
  'api/profile/bank-details': [
    { method: 'GET', request: get('/api/profile/bank-details'), expect: signedIn(200) },
    { method: 'POST', request: () => ({ path: '/api/profile/bank-details', body: { json: VALID_BANK_DETAILS } }), expect: signedIn(200) },
    { method: 'PATCH', request: get('/api/profile/bank-details'), expect: all(405) },
  ],
  'api/admin/transactions': [
    { method: 'GET', request: get('/api/admin/transactions'), expect: adminOnly(200) },
    { method: 'POST', request: get('/api/admin/transactions'), expect: all(405) },
  ],
  'api/admin/transactions/:transactionId/mark-paid': [
    methodNotAllowed('GET', '/api/admin/transactions/x/mark-paid'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/admin/transactions/${w.saleCompleted.id}/mark-paid`,
        params: { transactionId: w.saleCompleted.id },
        body: { json: { paymentReference: 'REF-1' } },
      }),
      expect: adminOnly(200),
    },
  ],
  'api/admin/transactions/:transactionId/release': [
    methodNotAllowed('GET', '/api/admin/transactions/x/release'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/admin/transactions/${w.saleDisputed.id}/release`,
        params: { transactionId: w.saleDisputed.id },
        body: { json: { reason: 'Seller delivered' } },
      }),
      expect: adminOnly(200),
    },
  ],
  'api/admin/transactions/:transactionId/refund': [
    methodNotAllowed('GET', '/api/admin/transactions/x/refund'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/admin/transactions/${w.saleDisputed.id}/refund`,
        params: { transactionId: w.saleDisputed.id },
        body: { json: { reason: 'Buyer was right' } },
      }),
      expect: adminOnly(202),
      note: 'accepted: the sale becomes refunded when Stripe confirms (webhook; withheld here, or it could land first: 200)',
      around: withWebhooksWithheld,
    },
  ],
  'api/admin/bank-details/pending': [
    { method: 'GET', request: get('/api/admin/bank-details/pending'), expect: adminOnly(200) },
    { method: 'POST', request: get('/api/admin/bank-details/pending'), expect: all(405) },
  ],
  'api/admin/bank-details/:userId/approve': [
    methodNotAllowed('GET', '/api/admin/bank-details/x/approve'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/admin/bank-details/${w.users.other.id}/approve`,
        params: { userId: w.users.other.id },
        body: { json: { version: 1 } },
      }),
      expect: adminOnly(200),
    },
  ],
  'api/admin/bank-details/:userId/reject': [
    methodNotAllowed('GET', '/api/admin/bank-details/x/reject'),
    {
      method: 'POST',
      request: (w) => ({
        path: `/api/admin/bank-details/${w.users.other.id}/reject`,
        params: { userId: w.users.other.id },
        body: { json: { reason: 'Name mismatch', version: 1 } },
      }),
      expect: adminOnly(200),
    },
  ],
  // Issue 19: payout batches (admin), statements and analytics (each seller their own).
  'api/admin/payout-batches': [
    { method: 'GET', request: get('/api/admin/payout-batches'), expect: adminOnly(200) },
    { method: 'POST', request: () => ({ path: '/api/admin/payout-batches', body: { json: {} } }), expect: adminOnly(200) },
  ],
  'api/admin/payout-batches/:batchId': [
    {
      method: 'GET',
      request: async (w) => {
        const batchId = await batchIn(w, 'draft')
        return { path: `/api/admin/payout-batches/${batchId}`, params: { batchId } }
      },
      expect: adminOnly(200),
    },
    methodNotAllowed('POST', '/api/admin/payout-batches/x'),
  ],
  'api/admin/payout-batches/:batchId/files/:format': [
    {
      method: 'GET',
      request: async (w) => {
        const batchId = await batchIn(w, 'exported')
        return { path: `/api/admin/payout-batches/${batchId}/files/bank.csv`, params: { batchId, format: 'bank.csv' } }
      },
      expect: adminOnly(200),
    },
    methodNotAllowed('POST', '/api/admin/payout-batches/x/files/bank.csv'),
  ],
  'api/admin/payout-batches/:batchId/:action': [
    methodNotAllowed('GET', '/api/admin/payout-batches/x/approve'),
    {
      method: 'POST',
      request: async (w) => {
        const batchId = await batchIn(w, 'draft')
        return { path: `/api/admin/payout-batches/${batchId}/approve`, params: { batchId, action: 'approve' }, body: { json: {} } }
      },
      expect: adminOnly(200),
    },
  ],
  'api/seller/payouts': [
    { method: 'GET', request: get('/api/seller/payouts'), expect: signedIn(200) },
    methodNotAllowed('POST', '/api/seller/payouts'),
  ],
  'api/seller/payouts/:batchId/statement.csv': [
    {
      method: 'GET',
      request: async (w) => {
        const batchId = await batchIn(w, 'sent')
        return { path: `/api/seller/payouts/${batchId}/statement.csv`, params: { batchId } }
      },
      expect: cells(401, 404, 404, 200, 404),
      note: "a seller's own statement only; the admin reads batches under /api/admin",
    },
    methodNotAllowed('POST', '/api/seller/payouts/x/statement.csv'),
  ],
  'api/seller/analytics': [
    { method: 'GET', request: get('/api/seller/analytics'), expect: signedIn(200) },
    methodNotAllowed('POST', '/api/seller/analytics'),
  ],
  'api/admin/payouts.csv': [
    { method: 'GET', request: get('/api/admin/payouts.csv'), expect: adminOnly(200) },
    { method: 'POST', request: get('/api/admin/payouts.csv'), expect: all(405) },
  ],
  'api/admin/audit-log': [
    { method: 'GET', request: get('/api/admin/audit-log'), expect: adminOnly(200) },
    { method: 'POST', request: get('/api/admin/audit-log'), expect: all(405) },
  ],
  // Issue 19: a stored reconciliation run as CSV (running one is the POST on /admin, intent run-reconciliation).
  'api/admin/reconciliations/:runId/exceptions.csv': [
    {
      method: 'GET',
      request: async (w) => {
        const runId = await reconciliationRun(w)
        return { path: `/api/admin/reconciliations/${runId}/exceptions.csv`, params: { runId } }
      },
      expect: adminOnly(200),
    },
    methodNotAllowed('POST', '/api/admin/reconciliations/x/exceptions.csv'),
  ],
  'api/stripe/webhook': [
    methodNotAllowed('GET', '/api/stripe/webhook'),
    {
      method: 'POST',
      request: () => ({
        path: '/api/stripe/webhook',
        body: { raw: '{"type":"payment_intent.succeeded"}', contentType: 'application/json' },
      }),
      expect: all(400),
      note: 'unsigned: refused whoever sends it (signature, not session, authenticates Stripe)',
    },
  ],
  'api/github/webhook': [
    methodNotAllowed('GET', '/api/github/webhook'),
    {
      method: 'POST',
      request: () => ({ path: '/api/github/webhook', body: { raw: '{"action":"added"}', contentType: 'application/json' } }),
      expect: all(401),
      note: 'unsigned: refused whoever sends it (X-Hub-Signature-256, not a session, authenticates GitHub)',
    },
  ],
  'api/*': [
    { method: 'GET', request: () => ({ path: '/api/nope', params: { '*': 'nope' } }), expect: all(404) },
    { method: 'POST', request: () => ({ path: '/api/nope', params: { '*': 'nope' } }), expect: all(404) },
  ],
  '*': [{ method: 'GET', request: () => ({ path: '/no/such/page', params: { '*': 'no/such/page' } }), expect: all(404) }],
}

function dashboardRows(path: string): Row[] {
  return [
    { method: 'GET', request: get(path), expect: signedIn(200, LOGIN) },
    {
      method: 'POST',
      request: (w) => ({ path, body: { form: { intent: 'set-visibility', listingId: w.listing.id, visible: 'false' } } }),
      expect: cells(LOGIN, 404, 404, `302 ${path}`, 404),
      note: "another seller's listing id answers 404 (no hint that it exists)",
    },
    {
      method: 'POST',
      request: (w) => ({
        path,
        body: { form: { intent: 'deliver', transactionId: w.salePaid.id, forkUrl: 'https://github.com/someone/fork' } },
      }),
      expect: cells(LOGIN, 403, 404, `302 ${path}`, 404),
    },
  ]
}

function createRows(path: string): Row[] {
  return [
    { method: 'GET', request: get(path), expect: signedIn(200, LOGIN) },
    {
      method: 'POST',
      request: () => ({
        path,
        body: { form: { title: 'Fresh', shortDescription: 'x', type: 'template', licence: 'personal', price: '10' } },
      }),
      expect: signedIn('302 /listing/:slug', LOGIN),
    },
  ]
}

// ---- Route table ----

async function loadModule(file: string) {
  return (await import(/* @vite-ignore */ `../../app/${file}`)) as { loader?: (a: unknown) => unknown; action?: (a: unknown) => unknown }
}

/** What a cell shows: the status, a redirect's target path, 'static' for a screen with no loader. */
async function outcome(file: string, method: string, probe: Probe, role: Role, world: World): Promise<Cell> {
  const mod = await loadModule(file)
  const isScreen = file.endsWith('.tsx')
  if (method === 'GET' && !mod.loader && isScreen) return 'static'
  const response = await callRoute(mod, buildRequest(method, probe.path, tokenFor(world, role), probe.body), probe.params ?? {})
  const body = await response.text()
  if (response.status >= 500) return `${response.status} ${body.slice(0, 200)}`
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('Location') ?? ''
    if (/^https?:/.test(location) && !location.startsWith('http://localhost:3000')) return `${response.status} EXTERNAL`
    return `${response.status} ${new URL(location, 'http://localhost:3000').pathname}`
  }
  return response.status
}

/** Refused: a 4xx, or sent to sign in or home (the screens' answer to a role that may not act). */
function isRefusal(cell: Cell): boolean {
  return typeof cell === 'number' ? cell >= 400 && cell < 500 : cell === LOGIN || cell === '302 /'
}

/** A redirect to a listing page (its slug is generated) is written with ':slug'. */
function normalise(cell: Cell): Cell {
  if (typeof cell === 'string' && /^30[23] \/listing\/[a-z0-9-]+$/.test(cell)) return cell.replace(/[a-z0-9-]+$/, ':slug')
  if (typeof cell === 'string' && /^30[23] \/sales\/[0-9a-f-]+\/messages$/.test(cell))
    return cell.replace(/\/sales\/[0-9a-f-]+\//, '/sales/:id/')
  if (typeof cell === 'string' && /^30[23] \/seller\/takedowns\/[0-9a-f-]+$/.test(cell)) return cell.replace(/[0-9a-f-]+$/, ':id')
  if (typeof cell === 'string' && /^30[23] \/seller\/webhooks\/[0-9a-f-]+$/.test(cell)) return cell.replace(/[0-9a-f-]+$/, ':id')
  if (typeof cell === 'string' && /^30[23] \/seller\/edit\/[0-9a-f-]+\/versions$/.test(cell))
    return cell.replace(/\/edit\/[0-9a-f-]+\//, '/edit/:id/')
  return cell
}

describe('access matrix', () => {
  it('has a row for every route in app/routes.ts (add new routes to MATRIX)', () => {
    const missing = ROUTES.map((r) => r.path).filter((path) => !(path in MATRIX))
    expect(missing).toEqual([])
    const stale = Object.keys(MATRIX).filter((path) => !ROUTES.some((r) => r.path === path))
    expect(stale).toEqual([])
  })

  it('API modules get all four methods tried', () => {
    for (const route of ROUTES.filter((r) => r.path.startsWith('api/') && r.path !== 'api/*')) {
      const methods = new Set(MATRIX[route.path]!.map((row) => row.method))
      // An unlisted method falls to the module's action, which must refuse it: covered by the rows or by the 405 sweep below.
      expect(methods.size, route.path).toBeGreaterThanOrEqual(2)
    }
  })

  for (const route of ROUTES) {
    for (const [index, row] of (MATRIX[route.path] ?? []).entries()) {
      it(`${row.method} /${route.path === '/' ? '' : route.path} #${index + 1}`, async () => {
        const actual = {} as Expect
        let world: World | undefined
        let dirty = true
        for (const role of ROLES) {
          // A fresh world per cell whenever the previous cell may have written something: it was not a GET
          // and not refused (a refusal writes nothing; a refusal that did would show in the next role's cell).
          if (dirty) {
            await resetDatabase()
            world = await buildWorld()
          }
          const probe = await row.request(world!)
          const call = () => outcome(route.file, row.method, probe, role, world!)
          actual[role] = normalise(await (row.around ? row.around(call) : call()))
          dirty = row.method !== 'GET' && !isRefusal(actual[role])
        }
        if (process.env.MATRIX_PROBE) console.log(route.path, row.method, JSON.stringify(actual))
        expect(actual).toEqual(row.expect)
      })
    }
  }

  // Every API module refuses the methods it doesn't serve, with 405 JSON (never 5xx, never a state change).
  it('every /api module answers 405 to methods it does not serve', async () => {
    await resetDatabase()
    const world = await buildWorld()
    const failures: string[] = []
    for (const route of ROUTES.filter((r) => r.path.startsWith('api/') && r.path !== 'api/*')) {
      const served = new Set(MATRIX[route.path]!.filter((row) => row.expect.owner !== 405).map((row) => row.method))
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
        if (served.has(method)) continue
        const path = `/${route.path.replace(/:[a-zA-Z]+/g, world.listing.id)}`
        const params = Object.fromEntries([...route.path.matchAll(/:([a-zA-Z]+)/g)].map((m) => [m[1]!, world.listing.id]))
        for (const role of ROLES) {
          const mod = await loadModule(route.file)
          const response = await callRoute(
            mod,
            buildRequest(method, path, tokenFor(world, role), method === 'GET' ? undefined : { json: {} }),
            params,
          )
          if (response.status !== 405) failures.push(`${method} ${path} as ${role}: ${response.status}`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})
