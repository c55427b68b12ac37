import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CLIENT_IP_HEADER } from '../../app/server/http/client-ip.server.ts'
import { resetRateLimits } from '../../app/server/http/rate-limit.server.ts'
import { callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { signedEvent } from '../support/payment-fixtures.ts'
import { webhookSecret } from '../support/stripe.ts'
import { buildRequest, buildWorld, VALID_BANK_DETAILS, type World } from './hardening-fixtures.ts'

/*
 * Logging (issue 9, ASVS V16): one structured JSON line per security event,
 * with who (user/admin id or client address), what (event, path) and when;
 * and no token, key, card number or account number in any line. Console
 * output is captured while the paths that log are exercised.
 */

let lines: string[] = []
let w: World

beforeEach(async () => {
  w = await buildWorld()
  lines = []
  setEnv({ LOG_SILENT: 'false' })
  const capture = (...args: unknown[]) => {
    lines.push(args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message}\n${a.stack}` : JSON.stringify(a))).join(' '))
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(capture)
})

afterEach(async () => {
  setEnv({ LOG_SILENT: 'true', RATE_LIMIT_MULTIPLIER: '1000' })
  await resetRateLimits()
  vi.restoreAllMocks()
})

const mod = {
  callback: () => import('../../app/routes/auth-callback.tsx'),
  login: () => import('../../app/routes/login.tsx'),
  purchases: () => import('../../app/routes/api/purchases.ts'),
  adminTransactions: () => import('../../app/routes/api/admin-transactions.ts'),
  webhook: () => import('../../app/routes/api/stripe-webhook.ts'),
  approve: () => import('../../app/routes/api/admin-bank-approve.ts'),
  reject: () => import('../../app/routes/api/admin-bank-reject.ts'),
  markPaid: () => import('../../app/routes/api/admin-mark-paid.ts'),
  bank: () => import('../../app/routes/api/bank-details.ts'),
}

function events(): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as unknown
      return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : []
    } catch {
      return []
    }
  })
}

function find(event: string, count = 1) {
  const found = events().filter((e) => e.event === event)
  expect(found, `log lines for ${event}`).toHaveLength(count)
  const line = found[0]!
  // When: an ISO timestamp on every line.
  expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false)
  return line
}

describe('security events are logged, secrets are not', () => {
  it('logs each security event once, with who/what/when, and nothing secret', async () => {
    // The address the server resolved (app/server/http/client-ip.server.ts) travels in this header.
    const ip = { [CLIENT_IP_HEADER]: '203.0.113.9' }
    // Failed sign-in (the provider sent the user back without a code).
    await callRoute(
      await mod.callback(),
      new Request('http://localhost:3000/auth/callback?error_description=access_denied', { headers: ip }),
    )
    // 401 and 403.
    expect((await callRoute(await mod.purchases(), buildRequest('GET', '/api/purchases', undefined))).status).toBe(401)
    expect(
      (await callRoute(await mod.adminTransactions(), buildRequest('GET', '/api/admin/transactions', w.users.buyer.token))).status,
    ).toBe(403)
    // An invalid bearer token (a forged one): logged without the token.
    const forged = `${w.users.buyer.token.slice(0, -6)}AAAAAA`
    await callRoute(await mod.purchases(), buildRequest('GET', '/api/purchases', forged))
    // Webhook signed with another secret.
    const { payload, header } = signedEvent(
      { id: 'evt_forged', type: 'payment_intent.succeeded', data: { object: {} } },
      { secret: 'whsec_wrong' },
    )
    const webhook = await callRoute(
      await mod.webhook(),
      new Request('http://localhost:3000/api/stripe/webhook', {
        method: 'POST',
        headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' },
        body: payload,
      }),
    )
    expect(webhook.status).toBe(400)
    // Bank details saved with a full account number, then approved; another rejected.
    expect(
      (
        await callRoute(
          await mod.bank(),
          buildRequest('POST', '/api/profile/bank-details', w.users.buyer.token, { json: VALID_BANK_DETAILS }),
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await callRoute(
          await mod.approve(),
          buildRequest('POST', `/api/admin/bank-details/${w.users.buyer.id}/approve`, w.users.admin.token, { json: { version: 1 } }),
          { userId: w.users.buyer.id },
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await callRoute(
          await mod.reject(),
          buildRequest('POST', `/api/admin/bank-details/${w.users.other.id}/reject`, w.users.admin.token, {
            json: { reason: 'Name mismatch', version: 1 },
          }),
          {
            userId: w.users.other.id,
          },
        )
      ).status,
    ).toBe(200)
    // Payout recorded.
    expect(
      (
        await callRoute(
          await mod.markPaid(),
          buildRequest('POST', `/api/admin/transactions/${w.saleCompleted.id}/mark-paid`, w.users.admin.token, {
            json: { paymentReference: 'REF-LOG' },
          }),
          { transactionId: w.saleCompleted.id },
        )
      ).status,
    ).toBe(200)
    // 429 on sign-in.
    setEnv({ RATE_LIMIT_MULTIPLIER: '0.1' })
    await resetRateLimits()
    const login = await mod.login()
    const statuses: number[] = []
    for (let i = 0; i < 3; i += 1) {
      const request = buildRequest('POST', '/login', undefined, { form: { provider: 'github' } })
      request.headers.set(CLIENT_IP_HEADER, '198.51.100.7')
      statuses.push((await callRoute(login, request)).status)
    }
    expect(statuses).toContain(429)

    expect(find('sign_in_failed')).toMatchObject({
      category: 'security',
      path: '/auth/callback',
      reason: 'access_denied',
      ip: '203.0.113.9',
    })
    // Two 401s: anonymous, and the forged token below.
    expect(find('unauthenticated', 2)).toMatchObject({ category: 'security', method: 'GET', path: '/api/purchases' })
    expect(find('forbidden')).toMatchObject({ category: 'security', path: '/api/admin/transactions', userId: w.users.buyer.id })
    expect(find('auth_invalid_token')).toMatchObject({ category: 'security', path: '/api/purchases' })
    expect(find('webhook_signature_invalid')).toMatchObject({ category: 'security' })
    expect(find('bank_details_approved')).toMatchObject({ adminId: w.users.admin.id, userId: w.users.buyer.id })
    expect(find('bank_details_rejected')).toMatchObject({ adminId: w.users.admin.id, userId: w.users.other.id })
    expect(find('payout_recorded')).toMatchObject({ adminId: w.users.admin.id, transactionId: w.saleCompleted.id })
    expect(events().filter((e) => e.event === 'rate_limited').length).toBeGreaterThanOrEqual(1)
    expect(events().find((e) => e.event === 'rate_limited')).toMatchObject({
      category: 'security',
      rule: 'sign-in',
      path: '/login',
      ip: '198.51.100.7',
    })

    // Nothing secret in any captured line.
    const secrets = [
      ...Object.values(w.users).map((u) => u.token),
      forged,
      process.env.BANK_DETAILS_KEY!,
      process.env.SESSION_SECRET!,
      process.env.STRIPE_SECRET_KEY!,
      process.env.STRIPE_WEBHOOK_SECRET!,
      webhookSecret,
      'whsec_wrong',
      header,
      '4242424242424242',
      VALID_BANK_DETAILS.accountNumber,
    ].filter((s) => s && s.length >= 8)
    const all = lines.join('\n')
    for (const secret of secrets) expect(all.includes(secret), `a secret (${secret.slice(0, 6)}…) appears in the logs`).toBe(false)
    // JWT-shaped strings of any kind.
    expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./)
  })
})
