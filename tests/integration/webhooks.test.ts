import { lookup } from 'node:dns/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { approvePayoutBatch, markPaid } from '../../app/server/domain/payout-batches.server.ts'
import { createReview } from '../../app/server/domain/reviews.server.ts'
import {
  createWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  rotateWebhookSecret,
} from '../../app/server/domain/webhook-endpoints.server.ts'
import {
  DISABLE_AFTER_MS,
  MAX_ATTEMPTS,
  resendWebhookDelivery,
  sendTestWebhook,
  sendWebhookDelivery,
} from '../../app/server/domain/webhook-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { addressRefusal, ANSWER_READ_CAP, postGuarded, urlRefusal } from '../../app/server/infra/webhook-http.server.ts'
import { closedPort, startReceiver } from '../support/webhook-receiver.ts'
import { createListing, createSale, giveBankDetails, signUp } from './admin-fixtures.ts'

// Issue 29: outgoing webhooks, Standard Webhooks 1.0. Every delivery here goes over real HTTP to a
// receiver that verifies it with the specification's own library.

const provider = { id: null, role: 'provider' as const }

async function sellerWithSale(prefix: string) {
  const seller = await signUp(`${prefix}-seller@example.com`)
  const buyer = await signUp(`${prefix}-buyer@example.com`)
  const listing = await createListing(seller.id, { priceCents: 4999, title: `${prefix} kit` })
  const sale = await createSale({
    listingId: listing.id,
    sellerId: seller.id,
    buyerId: buyer.id,
    amountCents: 4999,
    status: 'pending_payment',
  })
  return { seller, buyer, listing, sale }
}

const pendingDeliveries = (endpointId: string) =>
  db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('endpointId', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('createdAt')
    .execute()

async function sendPending(endpointId: string, now?: Date) {
  for (const delivery of await pendingDeliveries(endpointId)) await sendWebhookDelivery(delivery.id, { now })
}

describe('deliveries', () => {
  it('a sale’s escrow steps and its review reach the seller’s endpoint, verified by the standardwebhooks package', async () => {
    const { seller, buyer, listing, sale } = await sellerWithSale('hooks-sale')
    let secret = ''
    const receiver = await startReceiver({ secret: () => secret })
    try {
      const created = await createWebhookEndpoint(seller.id, {
        url: receiver.url,
        events: ['sale.paid', 'sale.delivered', 'sale.completed', 'review.created'],
        description: 'Shop sync',
      })
      secret = created.secret
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      // Stored encrypted: the row does not hold the secret.
      const row = await db.selectFrom('webhookEndpoints').selectAll().where('id', '=', created.endpoint.id).executeTakeFirstOrThrow()
      expect(row.secretSealed).not.toContain(secret.slice(6, 20))
      expect((await getWebhookEndpoint(seller.id, created.endpoint.id))?.secret).toBe(secret)
      expect(await getWebhookEndpoint(buyer.id, created.endpoint.id)).toBeUndefined()

      await fire({ saleId: sale.id, event: 'payment_succeeded', by: provider, amountReceived: 4999, currency: 'usd' })
      await fire({ saleId: sale.id, event: 'deliver', by: { id: seller.id, role: 'seller' }, forkUrl: 'https://github.com/b/fork' })
      await fire({ saleId: sale.id, event: 'confirm_receipt', by: { id: buyer.id, role: 'buyer' } })
      await createReview({ saleId: sale.id, buyerId: buyer.id, review: { stars: 5, body: 'Works as described' } })
      await sendPending(created.endpoint.id)

      expect(receiver.received.map((r) => r.payload?.type)).toEqual(['sale.paid', 'sale.delivered', 'sale.completed', 'review.created'])
      const [paid, , completed, review] = receiver.received.map((r) => r.payload!)
      expect(paid!.data).toMatchObject({
        id: sale.id,
        status: 'paid',
        amountCents: 4999,
        listing: { id: listing.id, title: listing.title },
      })
      expect(completed!.data).toMatchObject({ id: sale.id, status: 'completed', sellerShareCents: expect.any(Number) })
      expect(review!.data).toMatchObject({ saleId: sale.id, stars: 5, body: 'Works as described' })
      for (const request of receiver.received) {
        expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
        expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
        expect(request.headers['content-type']).toBe('application/json')
      }
      const deliveries = await db.selectFrom('webhookDeliveries').selectAll().where('endpointId', '=', created.endpoint.id).execute()
      expect(deliveries.map((d) => [d.status, d.attempts])).toEqual(Array(4).fill(['succeeded', 1]))
    } finally {
      await receiver.close()
    }
  })

  it('a payout sent tells the seller’s payout.sent endpoint: amount, reference and its sales', async () => {
    const seller = await signUp('hooks-payout-seller@example.com')
    const buyer = await signUp('hooks-payout-buyer@example.com')
    const first = await signUp('hooks-payout-admin1@example.com', { admin: true })
    const second = await signUp('hooks-payout-admin2@example.com', { admin: true })
    await giveBankDetails(seller.id, 'approved')
    const listing = await createListing(seller.id, { priceCents: 10000 })
    const sale = await createSale({
      listingId: listing.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 10000,
      status: 'completed',
    })
    let secret = ''
    const receiver = await startReceiver({ secret: () => secret })
    try {
      const created = await createWebhookEndpoint(seller.id, { url: receiver.url, events: ['payout.sent'] })
      secret = created.secret
      const batch = await markPaid({ transactionId: sale.id, adminId: first.id, paymentReference: 'BANK-REF-42' })
      expect(await pendingDeliveries(created.endpoint.id)).toEqual([]) // prepared, not sent yet
      await approvePayoutBatch({ batchId: batch.id, adminId: second.id })
      await sendPending(created.endpoint.id)
      expect(receiver.received.map((r) => r.payload?.type)).toEqual(['payout.sent'])
      expect(receiver.received[0]!.payload!.data).toMatchObject({
        batchId: batch.id,
        bankReference: 'BANK-REF-42',
        amountCents: sale.sellerShareCents,
        sales: [{ saleId: sale.id, listingTitle: listing.title, sellerShareCents: sale.sellerShareCents }],
      })
    } finally {
      await receiver.close()
    }
  })

  it('a refused or replayed escrow event queues nothing; other sellers’ and unsubscribed events are not sent', async () => {
    const { seller, sale } = await sellerWithSale('hooks-scope')
    const other = await signUp('hooks-other@example.com')
    const mine = await createWebhookEndpoint(seller.id, { url: 'http://localhost:9/mine', events: ['sale.refunded'] })
    const theirs = await createWebhookEndpoint(other.id, { url: 'http://localhost:9/theirs', events: ['sale.paid'] })
    const paid = { saleId: sale.id, event: 'payment_succeeded' as const, by: provider, amountReceived: 4999, currency: 'usd' }
    await fire(paid)
    await expect(fire(paid)).rejects.toThrow()
    const count = (endpointId: string) => db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpointId).execute()
    expect(await count(mine.endpoint.id)).toEqual([])
    expect(await count(theirs.endpoint.id)).toEqual([])
  })

  it('a receiver that is down gets the same webhook-id when it comes back, and processes it once (Resend too)', async () => {
    const { seller, sale } = await sellerWithSale('hooks-retry')
    const port = await closedPort()
    const { endpoint, secret } = await createWebhookEndpoint(seller.id, { url: `http://127.0.0.1:${port}/hooks`, events: ['sale.paid'] })
    await fire({ saleId: sale.id, event: 'payment_succeeded', by: provider, amountReceived: 4999, currency: 'usd' })
    const [delivery] = await pendingDeliveries(endpoint.id)

    const t0 = new Date()
    expect(await sendWebhookDelivery(delivery!.id, { now: t0 })).toBe('retrying')
    const afterFailure = await db.selectFrom('webhookDeliveries').selectAll().where('id', '=', delivery!.id).executeTakeFirstOrThrow()
    expect(afterFailure).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null })
    expect(afterFailure.lastError).toMatch(/ECONNREFUSED/)
    // Not due yet: a second worker (or an early job) sends nothing.
    expect(await sendWebhookDelivery(delivery!.id, { now: t0 })).toBe('skipped')

    const receiver = await startReceiver({ secret: () => secret, port })
    try {
      expect(await sendWebhookDelivery(delivery!.id, { now: afterFailure.nextAttemptAt })).toBe('succeeded')
      expect(receiver.received).toHaveLength(1)
      expect(receiver.received[0]!.id).toBe(delivery!.webhookId)
      expect(receiver.received[0]!.payload?.type).toBe('sale.paid')

      await resendWebhookDelivery(seller.id, delivery!.id)
      expect(await sendWebhookDelivery(delivery!.id)).toBe('succeeded')
      expect(receiver.received.map((r) => r.id)).toEqual([delivery!.webhookId, delivery!.webhookId])
      expect(receiver.received.every((r) => r.payload !== null)).toBe(true)
      expect(receiver.processed.size).toBe(1)

      const attempts = await db
        .selectFrom('webhookAttempts')
        .selectAll()
        .where('deliveryId', '=', delivery!.id)
        .orderBy('attemptedAt')
        .execute()
      expect(attempts.map((a) => a.status)).toEqual([null, 200, 200])
      expect(attempts[1]!.responseExcerpt).toBe('ok')
      const audit = await db.selectFrom('auditLog').select('action').where('entityId', '=', endpoint.id).orderBy('createdAt').execute()
      expect(audit.map((a) => a.action)).toEqual(['webhook_endpoint.create', 'webhook_delivery.resend'])
    } finally {
      await receiver.close()
    }
  })

  it('during a rotation both secrets sign; after the overlap only the new one', async () => {
    const seller = await signUp('hooks-rotate@example.com')
    let secret = ''
    const receiver = await startReceiver({ secret: () => secret })
    try {
      const created = await createWebhookEndpoint(seller.id, { url: receiver.url, events: ['sale.paid'] })
      const old = created.secret
      await rotateWebhookSecret(seller.id, created.endpoint.id)
      const fresh = (await getWebhookEndpoint(seller.id, created.endpoint.id))!.secret
      expect(fresh).not.toBe(old)
      secret = old
      const test = await sendTestWebhook(seller.id, created.endpoint.id)
      expect(await sendWebhookDelivery(test)).toBe('succeeded')
      const request = receiver.received[0]!
      expect(request.payload?.type).toBe('webhook.test')
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2)
      expect(() => new Webhook(fresh).verify(request.body, request.headers as Record<string, string>)).not.toThrow()

      // A day later the old secret no longer signs: a receiver still on it refuses the event.
      const later = new Date(Date.now() + 25 * 3_600_000)
      const second = await sendTestWebhook(seller.id, created.endpoint.id, later)
      expect(await sendWebhookDelivery(second, { now: later })).toBe('retrying')
      expect(String(receiver.received[1]!.headers['webhook-signature']).split(' ')).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it('an endpoint failing for days is disabled and its owner told by mail and in the app; enabling it sends again', async () => {
    const seller = await signUp('hooks-disable@example.com')
    const port = await closedPort()
    const { endpoint } = await createWebhookEndpoint(seller.id, { url: `http://127.0.0.1:${port}/down`, events: ['sale.paid'] })
    const id = await sendTestWebhook(seller.id, endpoint.id)
    let now = new Date()
    let result = await sendWebhookDelivery(id, { now })
    let attempts = 1
    while (result === 'retrying') {
      now = (await db.selectFrom('webhookDeliveries').select('nextAttemptAt').where('id', '=', id).executeTakeFirstOrThrow()).nextAttemptAt
      result = await sendWebhookDelivery(id, { now })
      attempts += 1
    }
    expect(result).toBe('failed')
    expect(attempts).toBeLessThanOrEqual(MAX_ATTEMPTS)
    const row = await db.selectFrom('webhookEndpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow()
    expect(row.disabledAt).not.toBeNull()
    expect(now.getTime() - row.failingSince!.getTime()).toBeGreaterThanOrEqual(DISABLE_AFTER_MS)
    const mail = await db.selectFrom('notificationOutbox').select(['kind', 'userId']).where('userId', '=', seller.id).execute()
    expect(mail).toEqual([{ kind: 'webhook_endpoint_disabled', userId: seller.id }])
    const inApp = await db.selectFrom('notifications').select(['title', 'link']).where('userId', '=', seller.id).execute()
    expect(inApp).toEqual([{ title: 'A webhook endpoint was disabled', link: `/seller/webhooks/${endpoint.id}` }])

    // Disabled: no new events, no resend, no test until the owner enables it.
    await expect(sendTestWebhook(seller.id, endpoint.id)).rejects.toMatchObject({ status: 409 })
    await expect(resendWebhookDelivery(seller.id, id)).rejects.toMatchObject({ status: 409 })
    await enableWebhookEndpoint(seller.id, endpoint.id)
    await resendWebhookDelivery(seller.id, id)
    expect(
      (await db.selectFrom('webhookEndpoints').select('failingSince').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).failingSince,
    ).toBeNull()
  })
})

describe('addresses we refuse to send to', () => {
  it('production takes only https URLs to public addresses; locally http://localhost works too', () => {
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://100.64.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[fe80::1]/hook',
      'https://0.0.0.0/hook',
      'https://user:pass@example.com/hook',
      'ftp://example.com/hook',
    ])
      expect([url, urlRefusal(url, 'public')]).toEqual([url, expect.any(String)])
    expect(urlRefusal('https://example.com/hooks', 'public')).toBeNull()
    expect(urlRefusal('https://93.184.215.14/hooks', 'public')).toBeNull()
    expect(urlRefusal('http://localhost:3000/hooks', 'local')).toBeNull()
    expect(urlRefusal('http://127.0.0.1:3000/hooks', 'local')).toBeNull()
    expect(urlRefusal('http://example.com/hooks', 'local')).toMatch(/https/)
    expect(urlRefusal('https://10.0.0.5/hooks', 'local')).toMatch(/not a public address/)
    expect(addressRefusal('8.8.8.8', 'public')).toBeNull()
    expect(addressRefusal('2606:4700:4700::1111', 'public')).toBeNull()
  })

  it('a name is checked after DNS, on the address the connection uses, at send time', async () => {
    const name = hostname()
    const resolved = await lookup(name, { all: true })
    // The machine's own name resolves to this machine (loopback or a private address): never public.
    expect(resolved.map((a) => addressRefusal(a.address, 'public'))).not.toContain(null)
    let hits = 0
    const server = http.createServer((_, res) => {
      hits += 1
      res.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
    try {
      const url = `https://${name}:${(server.address() as AddressInfo).port}/hook`
      expect(urlRefusal(url, 'public')).toBeNull() // a name passes registration…
      const outcome = await postGuarded(url, {}, '{}', { policy: 'public' }) // …and is refused once resolved
      expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/^Refused: .* resolves to .* not a public address/) })
      expect(hits).toBe(0)

      // Through the sender: the refusal is an attempt in the delivery log, retried like any failure.
      const seller = await signUp('hooks-ssrf@example.com')
      const { endpoint } = await createWebhookEndpoint(seller.id, { url, events: ['sale.paid'] }, { policy: 'public' })
      const id = await sendTestWebhook(seller.id, endpoint.id)
      expect(await sendWebhookDelivery(id, { policy: 'public' })).toBe('retrying')
      const attempt = await db.selectFrom('webhookAttempts').selectAll().where('deliveryId', '=', id).executeTakeFirstOrThrow()
      expect(attempt.error).toMatch(/^Refused/)
      expect(hits).toBe(0)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('registering a private or plain-http address is refused in production', async () => {
    const seller = await signUp('hooks-register@example.com')
    await expect(
      createWebhookEndpoint(seller.id, { url: 'https://169.254.169.254/latest', events: ['sale.paid'] }, { policy: 'public' }),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { url: [expect.stringMatching(/not a public address/)] } })
    await expect(
      createWebhookEndpoint(seller.id, { url: 'http://example.com/x', events: ['sale.paid'] }, { policy: 'public' }),
    ).rejects.toMatchObject({
      status: 400,
    })
  })

  it('redirects are not followed, answers are read up to a cap, and a silent receiver times out', async () => {
    let redirectedTo = 0
    const server = http.createServer((req, res) => {
      if (req.url === '/redirect') return res.writeHead(307, { location: '/target' }).end()
      if (req.url === '/target') {
        redirectedTo += 1
        return res.end('ok')
      }
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(1024 * 1024))
      // /silent: never answers
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      expect(await postGuarded(`${base}/redirect`, {}, '{}', { policy: 'local' })).toMatchObject({ status: 307, error: null })
      expect(redirectedTo).toBe(0)
      const big = await postGuarded(`${base}/big`, {}, '{}', { policy: 'local' })
      expect(big.status).toBe(200)
      expect(big.body.length).toBeLessThanOrEqual(ANSWER_READ_CAP)
      const silent = await postGuarded(`${base}/silent`, {}, '{}', { policy: 'local', timeoutMs: 300 })
      expect(silent).toMatchObject({ status: null, error: 'Timed out after 0.3 s' })
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
