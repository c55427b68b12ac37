import { describe, expect, it } from 'vitest'
import type { Transaction, TransactionStatus } from '../../../db/schema.ts'
import { decideEscrow, TRANSITIONS, type Actor, type EscrowEvent, type EventData, type Transition } from './escrow-transitions.server.ts'
import { UNCHANGED } from './state-machine.server.ts'

const NOW = new Date('2026-03-01T12:00:00Z')
const HOURS = 60 * 60_000
const BUYER = '00000000-0000-4000-8000-00000000000b'
const SELLER = '00000000-0000-4000-8000-00000000000s'

function sale(status: TransactionStatus, fields: Partial<Transaction> = {}): Transaction {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    listingId: '00000000-0000-4000-8000-00000000000l',
    buyerId: BUYER,
    sellerId: SELLER,
    status,
    amountCents: 10_000,
    currency: 'USD',
    stripePaymentIntentId: 'pi_1',
    stripeRefundId: null,
    refundRequestedAt: null,
    paidAt: null,
    deliveredAt: null,
    deliveryProof: null,
    ...fields,
  } as Transaction
}

function actorOf(rule: Transition): Actor {
  if (rule.actor === 'buyer') return { id: BUYER, role: 'buyer' }
  if (rule.actor === 'seller') return { id: SELLER, role: 'seller' }
  return { id: rule.actor === 'admin' ? '00000000-0000-4000-8000-00000000000a' : null, role: rule.actor }
}

/**
 * For each rule (by its audit action), a sale and event data its guard lets through, and one it
 * refuses when it has a guard. Several rules of one event are told apart by their guards.
 */
const CASES: Record<
  string,
  { fields?: Partial<Transaction>; data?: Partial<EventData>; refused?: Partial<EventData> | Partial<Transaction> }
> = {
  payment_succeeded: { data: { amountReceived: 10_000, currency: 'usd' }, refused: { amountReceived: 1 } },
  payment_held: { data: { amountReceived: 9_000, currency: 'usd' } },
  payment_failed: {},
  payment_canceled: {},
  checkout_canceled: {},
  deliver: { data: { forkUrl: 'https://github.com/b/f' }, refused: { refundRequestedAt: NOW } },
  instant_delivery: { data: { forkUrl: 'https://example.com/x' } },
  github_delivery_started: { refused: { refundRequestedAt: NOW } },
  access_confirmed: { data: { deliveryProof: { github: {} } as EventData['deliveryProof'] }, refused: { refundRequestedAt: NOW } },
  fork_recorded: {
    fields: { deliveryProof: { github: { repository: 'a/b' } } as Transaction['deliveryProof'] },
    data: { forkUrl: 'https://github.com/b/f' },
    refused: { deliveryProof: null },
  },
  delivery_failed: { data: { reason: 'Never accepted' }, refused: { reason: ' ' } },
  listing_taken_down: { data: { reason: 'Taken down for malware' }, refused: { reason: ' ' } },
  confirm_receipt: {},
  auto_confirm: {
    fields: { deliveredAt: new Date(NOW.getTime() - 73 * HOURS) },
    refused: { deliveredAt: new Date(NOW.getTime() - HOURS) },
  },
  dispute: { fields: { deliveredAt: new Date(NOW.getTime() - HOURS) }, refused: { deliveredAt: new Date(NOW.getTime() - 73 * HOURS) } },
  release: { refused: { refundRequestedAt: NOW } },
  refund_requested: { refused: { stripePaymentIntentId: null } },
  refund_failed: { fields: { refundRequestedAt: NOW }, data: { claimedAt: NOW }, refused: { refundRequestedAt: null } },
  refunded: { refused: { paidAt: NOW } },
  refund_unapplied: { fields: { paidAt: NOW }, refused: { paidAt: null } },
  partial_refund: { data: { amountRefunded: 100, amountCaptured: 10_000 } },
  duplicate_payment_refund: { data: { ownedSaleId: 'other' }, refused: { ownedSaleId: undefined } },
  payment_intent_attached: {
    fields: { stripePaymentIntentId: null },
    data: { paymentIntentId: 'pi_2' },
    refused: { stripePaymentIntentId: 'pi_1' },
  },
  refund_recorded: { data: { refundId: 're_1' }, refused: { stripeRefundId: 're_0' } },
  payout_recorded: { data: { paymentReference: 'BANK-1' }, refused: { paidAt: NOW } },
  'payout.mark_paid': { refused: { paidAt: NOW } },
}

const SALE_FIELDS = new Set(['refundRequestedAt', 'stripePaymentIntentId', 'paidAt', 'deliveredAt', 'deliveryProof', 'stripeRefundId'])

function refusedCase(rule: Transition, status: TransactionStatus) {
  const c = CASES[rule.action ?? rule.event]!
  const refused = (c.refused ?? {}) as Record<string, unknown>
  const fields = Object.fromEntries(Object.entries(refused).filter(([key]) => SALE_FIELDS.has(key)))
  const data = Object.fromEntries(Object.entries(refused).filter(([key]) => !SALE_FIELDS.has(key)))
  return { sale: sale(status, { ...c.fields, ...fields }), data: { now: NOW, ...c.data, ...data } }
}

describe('the escrow table (issue 27.3)', () => {
  it('has a test case for every rule', () => {
    expect(TRANSITIONS.map((rule) => rule.action ?? rule.event).sort()).toEqual(Object.keys(CASES).sort())
  })

  for (const rule of TRANSITIONS) {
    const name = rule.action ?? rule.event
    for (const from of rule.from) {
      it(`${name}: ${from} → ${rule.to === UNCHANGED ? from : rule.to}`, () => {
        const c = CASES[name]!
        const decision = decideEscrow(sale(from, c.fields), rule.event, actorOf(rule), { now: NOW, ...c.data })
        expect(decision.ok && decision.rule).toBe(rule)
        expect(decision.ok && decision.to).toBe(rule.to === UNCHANGED ? from : rule.to)
      })
    }
    if (rule.guard && CASES[name]!.refused) {
      it(`${name}: refused by its guard`, () => {
        const { sale: locked, data } = refusedCase(rule, rule.from[0]!)
        const decision = decideEscrow(locked, rule.event, actorOf(rule), data)
        // Either 409, or another rule of the same event (e.g. a refund after the payout is recorded, not applied).
        if (decision.ok) expect(decision.rule).not.toBe(rule)
        else expect(decision.error.status).toBe(409)
      })
    }
  }

  it('refuses an event from a state it does not fire from, naming the states it does', () => {
    const decision = decideEscrow(sale('paid'), 'confirm_receipt', { id: BUYER, role: 'buyer' }, { now: NOW })
    expect(decision.ok).toBe(false)
    if (!decision.ok) expect([decision.error.status, decision.error.message]).toEqual([409, 'This sale is paid, not delivered'])
    const refund = decideEscrow(sale('completed'), 'refund_requested', { id: 'a', role: 'admin' }, { now: NOW })
    expect(!refund.ok && refund.error.message).toBe('This sale is completed, not disputed, paid, delivering or held')
  })

  it('refuses the wrong actor before the state: 404 outside the sale, 403 for the other party or role', () => {
    const stranger = decideEscrow(sale('delivered'), 'confirm_receipt', { id: 'someone', role: 'buyer' }, { now: NOW })
    expect(!stranger.ok && stranger.error.status).toBe(404)
    const seller = decideEscrow(sale('delivered'), 'confirm_receipt', { id: SELLER, role: 'seller' }, { now: NOW })
    expect(!seller.ok && seller.error.message).toBe('Only the buyer can do this')
    const buyer = decideEscrow(sale('completed'), 'payout_recorded', { id: BUYER, role: 'buyer' }, { now: NOW, paymentReference: 'X' })
    expect(!buyer.ok && buyer.error.status).toBe(403)
  })

  it('a full refund after the payout is recorded, not applied; before it the sale is refunded', () => {
    const provider: Actor = { id: null, role: 'provider' }
    const paidOut = decideEscrow(sale('completed', { paidAt: NOW }), 'refunded', provider, { now: NOW })
    expect(paidOut.ok && [paidOut.rule.action, paidOut.to]).toEqual(['refund_unapplied', 'completed'])
    const due = decideEscrow(sale('completed'), 'refunded', provider, { now: NOW })
    expect(due.ok && [due.rule.action ?? due.rule.event, due.to]).toEqual(['refunded', 'refunded'])
    const twice = decideEscrow(sale('refunded'), 'refunded', provider, { now: NOW })
    expect(twice.ok).toBe(false)
  })

  it('each event has one actor (checked before the state)', () => {
    const events = new Set<EscrowEvent>(TRANSITIONS.map((rule) => rule.event))
    for (const event of events) expect(new Set(TRANSITIONS.filter((rule) => rule.event === event).map((r) => r.actor)).size, event).toBe(1)
  })
})
