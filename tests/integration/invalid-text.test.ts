import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { callRoute } from '../support/call-route.ts'
import { buildRequest, buildWorld, type Body, type World } from './hardening-fixtures.ts'
import { useTemporaryUploads } from './listings-support.ts'

/*
 * Issue 14.7: a NUL character (U+0000) in a path, a query or any text field
 * of a body is text PostgreSQL refuses. Every surface answers 400 with one
 * message (app/server/http/invalid-text.server.ts), never a 500 from the query
 * that meets it first. Each probe is signed in as the role that gets past
 * access control, so the NUL reaches the handler.
 */

const MESSAGE = 'The request contains a NUL character (U+0000), which is not allowed in text'
const NUL = '\u0000'

beforeAll(() => {
  useTemporaryUploads()
})

// Every test starts from an empty database (tests/setup/worker-setup.ts): the world is rebuilt each time.
let w: World
beforeEach(async () => {
  w = await buildWorld()
}, 60_000)

type As = 'owner' | 'buyer' | 'admin' | 'anon'
interface Probe {
  name: string
  file: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: (w: World) => string
  params?: (w: World) => Record<string, string>
  body?: (w: World) => Body
  as: As
}

const json = (value: Record<string, unknown>) => ({ json: value })
const form = (value: Record<string, string>) => ({ form: value })

const PROBES: Probe[] = [
  // Path parameters.
  {
    name: 'GET /listing/%00',
    file: 'routes/listing.tsx',
    method: 'GET',
    path: () => '/listing/%00',
    params: () => ({ slug: NUL }),
    as: 'anon',
  },
  {
    name: 'GET /api/listings/%00',
    file: 'routes/api/listing.ts',
    method: 'GET',
    path: () => '/api/listings/%00',
    params: () => ({ slugOrId: NUL }),
    as: 'anon',
  },
  {
    name: 'GET /api/listings/id/%00',
    file: 'routes/api/listing-by-id.ts',
    method: 'GET',
    path: () => '/api/listings/id/%00',
    params: () => ({ id: NUL }),
    as: 'anon',
  },
  {
    name: 'GET /seller/edit/%00',
    file: 'routes/listing-edit.tsx',
    method: 'GET',
    path: () => '/seller/edit/%00',
    params: () => ({ id: NUL }),
    as: 'owner',
  },
  {
    name: 'GET /checkout/%00',
    file: 'routes/checkout.tsx',
    method: 'GET',
    path: () => '/checkout/%00',
    params: () => ({ id: NUL }),
    as: 'buyer',
  },
  {
    name: 'GET /uploads/%00',
    file: 'routes/uploads.ts',
    method: 'GET',
    path: () => '/uploads/%00',
    params: () => ({ '*': NUL }),
    as: 'anon',
  },
  {
    name: 'PATCH /api/listings/%00',
    file: 'routes/api/listing.ts',
    method: 'PATCH',
    path: () => '/api/listings/%00',
    params: () => ({ slugOrId: NUL }),
    body: () => json({ title: 'x' }),
    as: 'owner',
  },
  {
    name: 'DELETE /api/listings/%00',
    file: 'routes/api/listing.ts',
    method: 'DELETE',
    path: () => '/api/listings/%00',
    params: () => ({ slugOrId: NUL }),
    as: 'owner',
  },
  {
    name: 'POST /api/listings/%00/purchase',
    file: 'routes/api/listing-purchase.ts',
    method: 'POST',
    path: () => '/api/listings/%00/purchase',
    params: () => ({ id: NUL }),
    as: 'buyer',
  },
  {
    name: 'POST /api/purchases/%00/confirm',
    file: 'routes/api/purchase-confirm.ts',
    method: 'POST',
    path: () => '/api/purchases/%00/confirm',
    params: () => ({ id: NUL }),
    as: 'buyer',
  },
  {
    name: 'POST /api/seller/transactions/%00/deliver',
    file: 'routes/api/seller-transaction-deliver.ts',
    method: 'POST',
    path: () => '/api/seller/transactions/%00/deliver',
    params: () => ({ id: NUL }),
    body: () => json({ forkUrl: 'https://github.com/a/b' }),
    as: 'owner',
  },
  {
    name: 'POST /api/admin/transactions/%00/release',
    file: 'routes/api/admin-release.ts',
    method: 'POST',
    path: () => '/api/admin/transactions/%00/release',
    params: () => ({ transactionId: NUL }),
    body: () => json({}),
    as: 'admin',
  },
  {
    name: 'POST /api/admin/bank-details/%00/approve',
    file: 'routes/api/admin-bank-approve.ts',
    method: 'POST',
    path: () => '/api/admin/bank-details/%00/approve',
    params: () => ({ userId: NUL }),
    body: () => json({ version: 1 }),
    as: 'admin',
  },

  // Query strings.
  { name: 'GET /marketplace?search=%00', file: 'routes/marketplace.tsx', method: 'GET', path: () => '/marketplace?search=%00', as: 'anon' },
  {
    name: 'GET /api/listings?search=%00',
    file: 'routes/api/listings.ts',
    method: 'GET',
    path: () => '/api/listings?search=a%00b',
    as: 'anon',
  },
  {
    name: 'GET /api/listings?languages=%00',
    file: 'routes/api/listings.ts',
    method: 'GET',
    path: () => '/api/listings?languages=%00',
    as: 'anon',
  },
  {
    name: 'GET /purchase-success?payment_intent=%00',
    file: 'routes/purchase-success.tsx',
    method: 'GET',
    path: () => '/purchase-success?payment_intent=pi_%00',
    as: 'buyer',
  },
  {
    name: 'GET /api/admin/transactions?status=%00',
    file: 'routes/api/admin-transactions.ts',
    method: 'GET',
    path: () => '/api/admin/transactions?status=%00',
    as: 'admin',
  },

  // Form fields (screens).
  {
    name: 'POST /seller/create title',
    file: 'routes/listing-create.tsx',
    method: 'POST',
    path: () => '/seller/create',
    body: () => form({ title: `Kit${NUL}`, shortDescription: 'x', type: 'template', licence: 'personal', price: '10' }),
    as: 'owner',
  },
  {
    name: 'POST /seller/edit/:id title',
    file: 'routes/listing-edit.tsx',
    method: 'POST',
    path: (w) => `/seller/edit/${w.listing.id}`,
    params: (w) => ({ id: w.listing.id }),
    body: () => form({ title: `Kit${NUL}`, shortDescription: 'x', type: 'template', licence: 'personal', price: '10' }),
    as: 'owner',
  },
  {
    name: 'POST /profile accountHolder',
    file: 'routes/profile.tsx',
    method: 'POST',
    path: () => '/profile',
    body: () => form({ country: 'GB', accountHolder: `A${NUL}`, bankName: 'Monzo', sortCode: '040004', accountNumber: '12345678' }),
    as: 'owner',
  },
  {
    name: 'POST /purchases report-problem reason',
    file: 'routes/purchases.tsx',
    method: 'POST',
    path: () => '/purchases',
    body: (w) => form({ intent: 'report-problem', transactionId: w.saleDelivered.id, reason: `Broken${NUL}` }),
    as: 'buyer',
  },
  {
    name: 'POST /seller/dashboard deliver forkUrl',
    file: 'routes/seller-dashboard.tsx',
    method: 'POST',
    path: () => '/seller/dashboard',
    body: (w) => form({ intent: 'deliver', transactionId: w.salePaid.id, forkUrl: `https://github.com/a/b${NUL}` }),
    as: 'owner',
  },
  {
    name: 'POST /admin mark-paid paymentReference',
    file: 'routes/admin.tsx',
    method: 'POST',
    path: () => '/admin',
    body: (w) => form({ intent: 'mark-paid', transactionId: w.saleCompleted.id, paymentReference: `REF${NUL}` }),
    as: 'admin',
  },
  {
    name: 'POST /admin with a NUL in the transaction id',
    file: 'routes/admin.tsx',
    method: 'POST',
    path: () => '/admin',
    body: () => form({ intent: 'release', transactionId: NUL }),
    as: 'admin',
  },
  {
    name: 'POST /login redirectTo',
    file: 'routes/login.tsx',
    method: 'POST',
    path: () => '/login',
    body: () => form({ provider: 'github', redirectTo: `/x${NUL}` }),
    as: 'anon',
  },

  // JSON fields (API).
  {
    name: 'POST /api/listings title',
    file: 'routes/api/listings.ts',
    method: 'POST',
    path: () => '/api/listings',
    body: () => json({ title: `Kit${NUL}`, shortDescription: 'x', type: 'template', licence: 'personal', priceCents: 100 }),
    as: 'owner',
  },
  {
    name: 'PATCH /api/listings/:id tags',
    file: 'routes/api/listing.ts',
    method: 'PATCH',
    path: (w) => `/api/listings/${w.listing.id}`,
    params: (w) => ({ slugOrId: w.listing.id }),
    body: () => json({ tags: [`a${NUL}`] }),
    as: 'owner',
  },
  {
    name: 'POST /api/profile/bank-details bankName',
    file: 'routes/api/bank-details.ts',
    method: 'POST',
    path: () => '/api/profile/bank-details',
    body: () => json({ country: 'GB', accountHolder: 'A', bankName: `M${NUL}`, sortCode: '040004', accountNumber: '12345678' }),
    as: 'owner',
  },
  {
    name: 'POST /api/purchases/:id/dispute reason',
    file: 'routes/api/purchase-dispute.ts',
    method: 'POST',
    path: (w) => `/api/purchases/${w.saleDelivered.id}/dispute`,
    params: (w) => ({ id: w.saleDelivered.id }),
    body: () => json({ reason: `Broken${NUL}` }),
    as: 'buyer',
  },
  {
    name: 'POST /api/admin/transactions/:id/mark-paid paymentReference',
    file: 'routes/api/admin-mark-paid.ts',
    method: 'POST',
    path: (w) => `/api/admin/transactions/${w.saleCompleted.id}/mark-paid`,
    params: (w) => ({ transactionId: w.saleCompleted.id }),
    body: () => json({ paymentReference: `REF${NUL}` }),
    as: 'admin',
  },
  {
    name: 'POST /api/admin/transactions/:id/refund reason',
    file: 'routes/api/admin-refund.ts',
    method: 'POST',
    path: (w) => `/api/admin/transactions/${w.saleDisputed.id}/refund`,
    params: (w) => ({ transactionId: w.saleDisputed.id }),
    body: () => json({ reason: `No${NUL}` }),
    as: 'admin',
  },
  {
    name: 'POST /api/admin/bank-details/:id/reject reason',
    file: 'routes/api/admin-bank-reject.ts',
    method: 'POST',
    path: (w) => `/api/admin/bank-details/${w.users.other.id}/reject`,
    params: (w) => ({ userId: w.users.other.id }),
    body: () => json({ reason: `No${NUL}`, version: 1 }),
    as: 'admin',
  },
  {
    name: 'POST /api/profile/bank-details with a NUL in a key',
    file: 'routes/api/bank-details.ts',
    method: 'POST',
    path: () => '/api/profile/bank-details',
    body: () => json({ country: 'GB', [`bankName${NUL}`]: 'x' }),
    as: 'owner',
  },
]

describe('a NUL character anywhere in a request is a 400, never a 500', () => {
  for (const probe of PROBES) {
    it(probe.name, async () => {
      const mod = (await import(/* @vite-ignore */ `../../app/${probe.file}`)) as object
      const token = probe.as === 'anon' ? undefined : w.users[probe.as].token
      const response = await callRoute(mod, buildRequest(probe.method, probe.path(w), token, probe.body?.(w)), probe.params?.(w) ?? {})
      const text = await response.text()
      expect(response.status, text.slice(0, 300)).toBe(400)
      if (probe.path(w).startsWith('/api/')) expect(JSON.parse(text)).toEqual({ error: MESSAGE })
      else expect(text).toContain(MESSAGE)
    })
  }
})

/*
 * Issue 26.2: a 20 KB body of 10,000 nested arrays overflowed the stack of the
 * invalid-text walk (a 500). Every JSON body is read by the same reader, so the
 * nesting is refused there: 400 with the usual `{ error }`.
 */
describe('deeply nested JSON is a 400, never a 500', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
  const TARGETS: {
    name: string
    file: string
    path: (w: World) => string
    params?: (w: World) => Record<string, string>
    raw: string
    as: 'buyer' | 'owner'
  }[] = [
    {
      name: 'POST /api/transactions/:id/messages',
      file: 'routes/api/sale-messages.ts',
      path: (w) => `/api/transactions/${w.saleDelivered.id}/messages`,
      params: (w) => ({ id: w.saleDelivered.id }),
      raw: `{"body":${deep(10_000)}}`,
      as: 'buyer',
    },
    {
      name: 'POST /api/profile/bank-details',
      file: 'routes/api/bank-details.ts',
      path: () => '/api/profile/bank-details',
      raw: `{"country":"GB","extra":${deep(10_000)}}`,
      as: 'owner',
    },
    {
      name: 'POST /api/listings',
      file: 'routes/api/listings.ts',
      path: () => '/api/listings',
      raw: `{"title":"Kit","tags":${deep(10_000)}}`,
      as: 'owner',
    },
  ]
  for (const target of TARGETS) {
    it(target.name, async () => {
      expect(target.raw.length).toBeGreaterThan(20_000)
      const mod = (await import(/* @vite-ignore */ `../../app/${target.file}`)) as object
      const request = buildRequest('POST', target.path(w), w.users[target.as].token, { raw: target.raw, contentType: 'application/json' })
      const response = await callRoute(mod, request, target.params?.(w) ?? {})
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: 'The request body is nested too deeply' })
    })
  }
})
