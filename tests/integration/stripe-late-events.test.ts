import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import { refundSale } from '../../app/server/domain/escrow-actions.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { StripeEvent } from '../../emulators/stripe/server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { payIntent, saleStatus, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { stripeEmulator, webhookForwardUrl, webhooksDelivered } from '../support/stripe.ts'

/*
 * Events Stripe delivers long after the sale moved on (issue 25): the emulator retries a delivery
 * the endpoint did not answer with 2xx on Stripe's schedule (time-scaled here), and the retry
 * reaches the app after later events changed the sale. The app must answer 2xx (or Stripe keeps
 * retrying for days) and leave the sale where it is.
 *
 * A gate stands between the emulator and the app's webhook route: per event type it answers for an
 * app that is down (503), forwards and then loses the answer (504: the app processed it, Stripe
 * never heard), or holds the delivery until the test lets it through.
 */

type Policy = 'forward' | 'down' | 'lose-answer' | 'hold'

interface Gated {
  type: string
  eventId: string
  policy: Policy
  /** What the app answered, when the delivery reached it. */
  appStatus?: number
}

let gate: Server
let gateUrl = ''
const policies = new Map<string, Policy[]>()
const gated: Gated[] = []
let release = () => {}
let released = Promise.resolve()

async function forward(raw: string, signature: string): Promise<number> {
  const response = await fetch(webhookForwardUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: raw,
  })
  await response.arrayBuffer()
  return response.status
}

beforeAll(async () => {
  gate = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const event = JSON.parse(raw) as StripeEvent
    const policy = policies.get(event.type)?.shift() ?? 'forward'
    const record: Gated = { type: event.type, eventId: event.id, policy }
    gated.push(record)
    if (policy === 'down') return void res.writeHead(503).end()
    if (policy === 'hold') await released
    record.appStatus = await forward(raw, req.headers['stripe-signature'] as string)
    res.writeHead(policy === 'lose-answer' ? 504 : record.appStatus).end()
  })
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve))
  gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`
})
afterEach(() => {
  stripeEmulator.setWebhookUrl(webhookForwardUrl)
  policies.clear()
  gated.length = 0
})
afterAll(async () => {
  gate.closeAllConnections()
  await new Promise<void>((resolve) => gate.close(() => resolve()))
})

/** The next deliveries of `type` meet these policies, in order (then they are forwarded). */
function meet(type: string, ...next: Policy[]) {
  policies.set(type, next)
}

function holdUntilReleased() {
  released = new Promise<void>((resolve) => (release = resolve))
}

async function openSale() {
  const { listing } = await sellerWithListing({ priceCents: 4900 })
  const buyer = await signUp('buyer')
  const response = await callRoute(
    purchaseApi,
    apiRequest(`/api/listings/${listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
    {
      id: listing.id,
    },
  )
  const { clientSecret } = (await response.json()) as { clientSecret: string }
  const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', listing.id).executeTakeFirstOrThrow()
  return { sale, clientSecret }
}

async function auditActions(saleId: string) {
  const rows = await db.selectFrom('auditLog').select('action').where('entityId', '=', saleId).orderBy('id').execute()
  return rows.map((row) => row.action)
}

const deliveriesOf = (eventId: string) => stripeEmulator.deliveries.filter((d) => d.eventId === eventId).map((d) => [d.status, d.attempt])

describe('webhooks delivered long after the sale moved on', () => {
  it('a decline Stripe retries after the buyer paid with another card and the sale was refunded changes nothing, answered 2xx', async () => {
    stripeEmulator.setWebhookUrl(gateUrl)
    holdUntilReleased()
    meet('payment_intent.payment_failed', 'down', 'hold')
    const { sale, clientSecret } = await openSale()
    const admin = await signUp('admin', { admin: true })

    await expect(payIntent(clientSecret, '4000000000000002')).rejects.toMatchObject({ type: 'StripeCardError' })
    await expect.poll(() => gated.filter((g) => g.type === 'payment_intent.payment_failed').map((g) => g.policy)).toEqual(['down', 'hold'])
    // Meanwhile: another card pays, the admin refunds, Stripe confirms the refund.
    await payIntent(clientSecret)
    await expect.poll(() => saleStatus(sale.id)).toBe('paid')
    await refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Seller asked' })
    await expect.poll(() => saleStatus(sale.id)).toBe('refunded')
    const before = await auditActions(sale.id)

    release()
    await webhooksDelivered()
    const late = gated.find((g) => g.type === 'payment_intent.payment_failed' && g.policy === 'hold')!
    expect(late.appStatus).toBe(200)
    expect(deliveriesOf(late.eventId)).toEqual([
      [503, 1],
      [200, 2],
    ])
    expect(await saleStatus(sale.id)).toBe('refunded')
    expect(await auditActions(sale.id)).toEqual(before)
    const row = await db
      .selectFrom('transactions')
      .select(['failureReason', 'stripeRefundId'])
      .where('id', '=', sale.id)
      .executeTakeFirstOrThrow()
    expect(row.failureReason).toBeNull()
    expect(row.stripeRefundId).toMatch(/^re_/)
  })

  it('a payment_intent.succeeded whose answer was lost, retried after the refund, is a duplicate: the sale stays refunded', async () => {
    stripeEmulator.setWebhookUrl(gateUrl)
    holdUntilReleased()
    meet('payment_intent.succeeded', 'lose-answer', 'hold')
    const { sale, clientSecret } = await openSale()
    const admin = await signUp('admin', { admin: true })

    await payIntent(clientSecret)
    await expect.poll(() => saleStatus(sale.id)).toBe('paid')
    await expect
      .poll(() => gated.filter((g) => g.type === 'payment_intent.succeeded').map((g) => g.policy))
      .toEqual(['lose-answer', 'hold'])
    await refundSale({ transactionId: sale.id, adminId: admin.id, reason: 'Buyer changed their mind' })
    await expect.poll(() => saleStatus(sale.id)).toBe('refunded')
    const before = await auditActions(sale.id)

    release()
    await webhooksDelivered()
    const [first, retry] = gated.filter((g) => g.type === 'payment_intent.succeeded')
    expect(retry!.eventId).toBe(first!.eventId)
    expect([first!.appStatus, retry!.appStatus]).toEqual([200, 200])
    expect(deliveriesOf(first!.eventId)).toEqual([
      [504, 1],
      [200, 2],
    ])
    expect(await saleStatus(sale.id)).toBe('refunded')
    expect(await auditActions(sale.id)).toEqual(before)
    expect(before.filter((action) => action === 'refunded')).toHaveLength(1)
  })
})
