import { beforeEach, describe, expect, it } from 'vitest'
import * as adminScreen from '../../app/routes/admin.tsx'
import * as rejectApi from '../../app/routes/api/admin-bank-reject.ts'
import * as markPaidApi from '../../app/routes/api/admin-mark-paid.ts'
import * as refundApi from '../../app/routes/api/admin-refund.ts'
import * as purchasesApi from '../../app/routes/api/purchases.ts'
import * as deliverApi from '../../app/routes/api/seller-transaction-deliver.ts'
import * as sellerDashboard from '../../app/routes/seller-dashboard.tsx'
import { callRoute } from '../support/call-route.ts'
import { buildRequest, buildWorld, type World } from './hardening-fixtures.ts'

/*
 * Issue 15.2: every /api/* resource route is declared with one helper
 * (app/server/api/api-route.server.ts): method, access, body schema, handler. What
 * a client sees is the same everywhere — 405 with Allow, 400 `{ error, field }`
 * for a body that does not parse, a domain error's status with `{ error }` —
 * and a text field has the same limits on the API as on the screen's form
 * (one schema in app/lib for both).
 */

let w: World
beforeEach(async () => {
  w = await buildWorld()
}, 60_000)

const post = (mod: object, path: string, token: string, body: unknown, params: Record<string, string>) =>
  callRoute(mod, buildRequest('POST', path, token, { json: body }), params)

describe('one helper for every API route', () => {
  it('405 with Allow for a method the route does not serve, before access control', async () => {
    const get = await callRoute(refundApi, buildRequest('GET', `/api/admin/transactions/${w.saleDisputed.id}/refund`, undefined), {
      transactionId: w.saleDisputed.id,
    })
    expect(get.status).toBe(405)
    expect(get.headers.get('Allow')).toBe('POST')
    expect(await get.json()).toEqual({ error: 'Method not allowed' })
    const postToList = await callRoute(purchasesApi, buildRequest('POST', '/api/purchases', w.users.buyer.token, { json: {} }))
    expect(postToList.status).toBe(405)
    expect(postToList.headers.get('Allow')).toBe('GET, HEAD')
  })

  it('400 { error, field } for a body that does not match the schema; 400 for a body that is not a JSON object', async () => {
    const path = `/api/admin/transactions/${w.saleCompleted.id}/mark-paid`
    const params = { transactionId: w.saleCompleted.id }
    const wrongType = await post(markPaidApi, path, w.users.admin.token, { paymentReference: 42 }, params)
    expect(wrongType.status).toBe(400)
    expect(await wrongType.json()).toEqual({ error: 'Payment reference is required', field: 'paymentReference' })
    const array = await callRoute(
      markPaidApi,
      buildRequest('POST', path, w.users.admin.token, { raw: '[1]', contentType: 'application/json' }),
      params,
    )
    expect(array.status).toBe(400)
    expect(await array.json()).toEqual({ error: 'The request body must be a JSON object' })
  })

  it("a domain error answers with its status and message (AppError), a 'user' route 401s anonymous callers first", async () => {
    const unknown = crypto.randomUUID()
    const missing = await post(
      deliverApi,
      `/api/seller/transactions/${unknown}/deliver`,
      w.users.owner.token,
      { forkUrl: 'https://github.com/a/b' },
      { id: unknown },
    )
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'Sale not found' })
    const anonymous = await callRoute(
      deliverApi,
      buildRequest('POST', `/api/seller/transactions/${w.salePaid.id}/deliver`, undefined, { json: { forkUrl: 42 } }),
      { id: w.salePaid.id },
    )
    expect(anonymous.status).toBe(401)
  })
})

describe('the same limits on the API and the screen', () => {
  const over = (max: number) => 'x'.repeat(max + 1)

  it('a refund reason: at most 500 characters on both', async () => {
    const api = await post(
      refundApi,
      `/api/admin/transactions/${w.saleDisputed.id}/refund`,
      w.users.admin.token,
      { reason: over(500) },
      { transactionId: w.saleDisputed.id },
    )
    expect(api.status).toBe(400)
    expect(await api.json()).toEqual({ error: 'Please keep the reason under 500 characters', field: 'reason' })
    const form = await callRoute(
      adminScreen,
      buildRequest('POST', '/admin', w.users.admin.token, {
        form: { intent: 'refund', transactionId: w.saleDisputed.id, reason: over(500) },
      }),
    )
    expect(form.status).toBe(400)
    expect(await form.json()).toMatchObject({ result: { error: { reason: ['Please keep the reason under 500 characters'] } } })
  })

  it('a rejection reason: at most 500 characters on both', async () => {
    const api = await post(
      rejectApi,
      `/api/admin/bank-details/${w.users.other.id}/reject`,
      w.users.admin.token,
      { reason: over(500), version: 1 },
      { userId: w.users.other.id },
    )
    expect(api.status).toBe(400)
    expect(await api.json()).toEqual({ error: 'Please keep the reason under 500 characters', field: 'reason' })
    const form = await callRoute(
      adminScreen,
      buildRequest('POST', '/admin', w.users.admin.token, {
        form: { intent: 'reject-bank', userId: w.users.other.id, version: '1', reason: over(500) },
      }),
    )
    expect(form.status).toBe(400)
    expect(await form.json()).toMatchObject({ result: { error: { reason: ['Please keep the reason under 500 characters'] } } })
  })

  it('a fork URL: at most 2,000 characters on both', async () => {
    const long = `https://github.com/${over(2000)}`
    const api = await post(
      deliverApi,
      `/api/seller/transactions/${w.salePaid.id}/deliver`,
      w.users.owner.token,
      { forkUrl: long },
      { id: w.salePaid.id },
    )
    expect(api.status).toBe(400)
    expect(await api.json()).toEqual({ error: 'The fork URL must be at most 2000 characters', field: 'forkUrl' })
    const form = await callRoute(
      sellerDashboard,
      buildRequest('POST', '/seller/dashboard', w.users.owner.token, {
        form: { intent: 'deliver', transactionId: w.salePaid.id, forkUrl: long },
      }),
    )
    expect(form.status).toBe(400)
    expect(await form.json()).toMatchObject({ result: { error: { forkUrl: ['The fork URL must be at most 2000 characters'] } } })
  })
})
