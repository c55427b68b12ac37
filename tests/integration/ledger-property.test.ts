import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import * as webhook from '../../app/routes/api/stripe-webhook.ts'
import { AppError } from '../../app/server/domain/errors.server.ts'
import { confirmReceipt, deliverSale, disputeSale, refundSale, releaseFunds } from '../../app/server/domain/escrow-actions.server.ts'
import { autoConfirmDue } from '../../app/server/domain/escrow-auto-confirm.server.ts'
import { postLedgerEntry, postSellerPayout } from '../../app/server/domain/ledger.server.ts'
import {
  approvePayoutBatch,
  exportPayoutBatch,
  markPaid,
  markPayoutBatchSent,
  preparePayoutBatch,
} from '../../app/server/domain/payout-batches.server.ts'
import { listProviderCharges, reconcile, type ReconciliationException } from '../../app/server/domain/reconciliation.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import type { StripeEvent } from '../../emulators/stripe/server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { createListing, payIntent, signedEvent, signUp } from '../support/payment-fixtures.ts'
import { stripeEmulator, withWebhooksWithheld } from '../support/stripe.ts'
import { giveBankDetails } from './admin-fixtures.ts'

// Issue 19: whatever happens — purchases, declined cards, webhooks late, twice or out of
// order, confirmations, disputes, refunds, batches and single payouts — the ledger balances
// and the reconciliation (provider ↔ sales ↔ ledger) finds nothing, through the real domain
// functions, the real webhook route, the Stripe emulator and PostgreSQL. And a planted fault
// (a fee off by a cent, a payout posted twice) is found.

const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'charge.refunded'])
const GOOD_CARD = '4242424242424242'
const DECLINED_CARD = '4000000000000002'
const PRICES = [4900, 1999, 333, 12_345, 101]
const HOUR = 3_600_000

interface World {
  sellers: { id: string }[]
  buyers: { id: string; token: string }[]
  listings: { id: string; sellerId: string }[]
  alice: { id: string }
  bob: { id: string }
  /** Events raised by the provider, not yet delivered to the app. */
  pending: StripeEvent[]
  delivered: StripeEvent[]
  seen: Set<string>
}

async function emptyWorld(): Promise<void> {
  // What the per-test reset does, between fast-check runs of one test (and a fresh provider account).
  await sql`TRUNCATE audit_log, processed_events, transactions, listings, bank_details, users, payout_batches RESTART IDENTITY CASCADE`.execute(
    db,
  )
  stripeEmulator.clear()
}

async function makeWorld(): Promise<World> {
  const sellers = [await signUp('seller'), await signUp('seller')]
  for (const seller of sellers) await giveBankDetails(seller.id, 'approved')
  const buyers = [await signUp('buyer'), await signUp('buyer'), await signUp('buyer')]
  const listings = []
  for (const [i, priceCents] of PRICES.entries()) {
    const sellerId = sellers[i % 2]!.id
    const instant = i === 1 ? { instantDeliveryUrl: 'https://github.com/seller/instant-kit' } : {}
    const listing = await createListing(sellerId, { priceCents, ...instant })
    listings.push({ id: listing.id, sellerId })
  }
  return {
    sellers,
    buyers,
    listings,
    alice: await signUp('alice', { admin: true }),
    bob: await signUp('bob', { admin: true }),
    pending: [],
    delivered: [],
    seen: new Set(),
  }
}

/** Moves the provider's new events (of the kinds the app handles) into the pending pool. */
function collectEvents(world: World) {
  for (const event of stripeEmulator.events) {
    if (world.seen.has(event.id)) continue
    world.seen.add(event.id)
    if (HANDLED.has(event.type)) world.pending.push(event)
  }
}

async function postEvent(event: StripeEvent) {
  const { payload, header } = signedEvent(event)
  const headers = new Headers({ 'Content-Type': 'application/json', 'Stripe-Signature': header })
  const response = await callRoute(webhook, new Request(`${APP}/api/stripe/webhook`, { method: 'POST', headers, body: payload }))
  expect(response.status).toBe(200)
}

/** Refusals the domain answers with (409 wrong state, nothing due…) are part of the game; anything else fails. */
async function tolerate(work: () => Promise<unknown>) {
  try {
    await work()
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error
  }
}

async function salesIn(statuses: string[]) {
  return db
    .selectFrom('transactions')
    .select(['id', 'buyerId', 'sellerId', 'status'])
    .where('status', 'in', statuses as never)
    .orderBy('createdAt')
    .orderBy('id')
    .execute()
}

const pick = <T>(items: T[], k: number): T | undefined => (items.length === 0 ? undefined : items[k % items.length])

type Command =
  | { kind: 'purchase'; listing: number; buyer: number; declined: boolean }
  | { kind: 'deliverWebhook'; k: number }
  | { kind: 'redeliverWebhook'; k: number }
  | { kind: 'sellerDelivers'; k: number }
  | { kind: 'confirm'; k: number }
  | { kind: 'dispute'; k: number }
  | { kind: 'release'; k: number }
  | { kind: 'refund'; k: number }
  | { kind: 'autoConfirm' }
  | { kind: 'batch' }
  | { kind: 'markPaid'; k: number }

const k = fc.nat(50)
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    // One payment in five is declined.
    arbitrary: fc.record({
      kind: fc.constant('purchase' as const),
      listing: fc.nat(PRICES.length - 1),
      buyer: fc.nat(2),
      declined: fc.nat(4).map((n) => n === 0),
    }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('deliverWebhook' as const), k }), weight: 7 },
  { arbitrary: fc.record({ kind: fc.constant('redeliverWebhook' as const), k }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('sellerDelivers' as const), k }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('confirm' as const), k }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('dispute' as const), k }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('release' as const), k }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), k }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'autoConfirm' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'batch' as const }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('markPaid' as const), k }), weight: 3 },
)

async function run(world: World, command: Command): Promise<void> {
  switch (command.kind) {
    case 'purchase': {
      const listing = world.listings[command.listing]!
      const buyer = world.buyers[command.buyer]!
      const response = await callRoute(
        purchaseApi,
        apiRequest(`/api/listings/${listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
        { id: listing.id },
      )
      if (response.status !== 200) return // already owned, or an attempt open: refused like a person would be
      const { clientSecret } = (await response.json()) as { clientSecret: string }
      await payIntent(clientSecret, command.declined ? DECLINED_CARD : GOOD_CARD).catch((error: unknown) => {
        if (!command.declined) throw error
      })
      break
    }
    case 'deliverWebhook': {
      const index = command.k % Math.max(world.pending.length, 1)
      const [event] = world.pending.splice(index, 1)
      if (!event) return
      await postEvent(event)
      world.delivered.push(event)
      break
    }
    case 'redeliverWebhook': {
      const event = pick(world.delivered, command.k)
      if (event) await postEvent(event)
      break
    }
    case 'sellerDelivers': {
      const sale = pick(await salesIn(['paid']), command.k)
      if (sale)
        await tolerate(() => deliverSale({ transactionId: sale.id, sellerId: sale.sellerId, forkUrl: 'https://github.com/buyer/fork' }))
      break
    }
    case 'confirm': {
      const sale = pick(await salesIn(['delivered']), command.k)
      if (sale) await tolerate(() => confirmReceipt({ transactionId: sale.id, buyerId: sale.buyerId }))
      break
    }
    case 'dispute': {
      const sale = pick(await salesIn(['delivered']), command.k)
      if (sale) await tolerate(() => disputeSale({ transactionId: sale.id, buyerId: sale.buyerId, reason: 'It does not build' }))
      break
    }
    case 'release': {
      const sale = pick(await salesIn(['disputed']), command.k)
      if (sale) await tolerate(() => releaseFunds({ transactionId: sale.id, adminId: world.alice.id }))
      break
    }
    case 'refund': {
      const sale = pick(await salesIn(['paid', 'disputed']), command.k)
      if (sale) await tolerate(() => refundSale({ transactionId: sale.id, adminId: world.alice.id, reason: 'Refund' }))
      break
    }
    case 'autoConfirm':
      await autoConfirmDue(new Date(Date.now() + 73 * HOUR))
      break
    case 'batch':
      await tolerate(async () => {
        const batch = await preparePayoutBatch({ adminId: world.alice.id })
        await approvePayoutBatch({ batchId: batch.id, adminId: world.bob.id })
        await exportPayoutBatch({ batchId: batch.id, adminId: world.alice.id })
        await markPayoutBatchSent({ batchId: batch.id, adminId: world.bob.id, bankReference: `BACS-${batch.id.slice(0, 6)}` })
      })
      break
    case 'markPaid': {
      const sale = pick(await salesIn(['completed']), command.k)
      if (!sale) return
      await tolerate(async () => {
        const batch = await markPaid({ transactionId: sale.id, adminId: world.bob.id, paymentReference: `URGENT-${sale.id.slice(0, 6)}` })
        await approvePayoutBatch({ batchId: batch.id, adminId: world.alice.id })
      })
      break
    }
  }
  collectEvents(world)
}

async function ledgerTotals() {
  return db
    .selectFrom('ledgerLines')
    .select([sql<string>`coalesce(sum(debit_cents), 0)`.as('debits'), sql<string>`coalesce(sum(credit_cents), 0)`.as('credits')])
    .executeTakeFirstOrThrow()
}

async function reconcileNow(): Promise<ReconciliationException[]> {
  return (await reconcile(await listProviderCharges())).exceptions
}

/**
 * The invariant after every step. Events the provider raised but the app has not yet received
 * are money in flight: the only differences allowed are the provider-vs-ledger ones of exactly
 * those payments. Once everything is delivered, nothing at all.
 */
async function checkBooks(world: World) {
  const { debits, credits } = await ledgerTotals()
  expect(debits).toBe(credits)
  const exceptions = await reconcileNow()
  const inFlight = new Set(
    world.pending.map((event) => {
      const object = event.data.object as { id: string; payment_intent?: string }
      return object.payment_intent ?? object.id
    }),
  )
  const sales = await db.selectFrom('transactions').select(['id', 'stripePaymentIntentId']).execute()
  const saleIntent = new Map(sales.map((s) => [s.id, s.stripePaymentIntentId]))
  const unexplained = exceptions.filter(
    (e) => !(e.rule === 'provider_charges' && e.transactionId && inFlight.has(saleIntent.get(e.transactionId) ?? '')),
  )
  expect(unexplained).toEqual([])
}

describe('ledger and reconciliation, property-based', () => {
  it(
    'after every step of any sequence the ledger balances and the reconciliation finds nothing unexplained',
    { timeout: 180_000 },
    async () => {
      await withWebhooksWithheld(async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(commandArb, { minLength: 12, maxLength: 24 }),
            fc.array(fc.nat(50), { maxLength: 12 }),
            async (commands, order) => {
              await emptyWorld()
              const world = await makeWorld()
              for (const command of commands) {
                await run(world, command)
                await checkBooks(world)
              }
              // Then every event still in flight arrives, in a shuffled order, some twice.
              for (const k of order) await run(world, { kind: 'deliverWebhook', k })
              while (world.pending.length > 0) await run(world, { kind: 'deliverWebhook', k: 0 })
              await run(world, { kind: 'redeliverWebhook', k: order[0] ?? 0 })
              await checkBooks(world)
              expect(await reconcileNow()).toEqual([])
            },
          ),
          { numRuns: 25 },
        )
      })
    },
  )
})

/** A completed sale, paid for through the provider and the webhook (a clean ledger). */
async function completedSale() {
  const world = await makeWorld()
  const buyer = world.buyers[0]!
  const listing = world.listings[0]!
  await withWebhooksWithheld(async () => {
    await run(world, { kind: 'purchase', listing: 0, buyer: 0, declined: false })
    while (world.pending.length > 0) await run(world, { kind: 'deliverWebhook', k: 0 })
  })
  const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', listing.id).executeTakeFirstOrThrow()
  await deliverSale({ transactionId: sale.id, sellerId: listing.sellerId, forkUrl: 'https://github.com/buyer/fork' })
  return { world, buyer, listing, sale }
}

const rulesFor = (exceptions: ReconciliationException[], saleId: string) =>
  exceptions.filter((e) => e.transactionId === saleId || e.transactionId === null).map((e) => e.rule)

describe('an injected fault is found', () => {
  it('a fee off by one cent (computed wrong at checkout, then released) breaks the fee rule for that sale', async () => {
    stripeEmulator.clear()
    const { buyer, sale } = await completedSale()
    expect(await reconcileNow()).toEqual([])
    await db
      .updateTable('transactions')
      .set({ applicationFeeCents: sql`application_fee_cents + 1` })
      .where('id', '=', sale.id)
      .execute()
    await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id })
    const exceptions = await reconcileNow()
    expect(rulesFor(exceptions, sale.id)).toEqual(expect.arrayContaining(['fee_rule']))
    expect(exceptions.find((e) => e.rule === 'fee_rule' && e.transactionId === sale.id)).toMatchObject({
      expectedCents: sale.applicationFeeCents,
      actualCents: sale.applicationFeeCents + 1,
    })
  })

  it('a fee off by one cent in the ledger only (a balanced correction moving a cent) is found', async () => {
    stripeEmulator.clear()
    const { buyer, sale } = await completedSale()
    await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id })
    expect(await reconcileNow()).toEqual([])
    await postLedgerEntry(db, {
      key: `correction:${randomUUID()}`,
      kind: 'correction',
      description: 'a cent moved from the seller to the fee',
      postedAt: new Date(),
      lines: [
        { account: 'seller_payable', transactionId: sale.id, sellerId: sale.sellerId, debitCents: 1 },
        { account: 'platform_fee', transactionId: sale.id, creditCents: 1 },
      ],
    })
    const exceptions = await reconcileNow()
    expect(exceptions.filter((e) => e.transactionId === sale.id).map((e) => e.rule)).toEqual(
      expect.arrayContaining(['fee_rule', 'seller_payable']),
    )
  })

  it('a double payout (the payout posted twice) breaks the payable and the seller’s balance', async () => {
    stripeEmulator.clear()
    const { world, buyer, sale } = await completedSale()
    await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id })
    const batch = await markPaid({ transactionId: sale.id, adminId: world.alice.id, paymentReference: 'BACS-1' })
    await approvePayoutBatch({ batchId: batch.id, adminId: world.bob.id })
    expect(await reconcileNow()).toEqual([])
    await postSellerPayout(db, {
      batchId: randomUUID(),
      sellerId: sale.sellerId,
      bankReference: 'BACS-1 again',
      paidAt: new Date(),
      sales: [{ saleId: sale.id, sellerShareCents: sale.sellerShareCents }],
    })
    const exceptions = await reconcileNow()
    expect(exceptions.find((e) => e.rule === 'seller_payable' && e.transactionId === sale.id)?.details).toMatch(/paid more than once/)
    expect(exceptions.find((e) => e.rule === 'seller_balance')).toMatchObject({
      sellerId: sale.sellerId,
      expectedCents: sale.sellerShareCents,
      actualCents: 2 * sale.sellerShareCents,
    })
  })

  it('a charge at the provider the ledger never saw (a lost webhook) and a refunded sale paid out are found', async () => {
    stripeEmulator.clear()
    const world = await makeWorld()
    await withWebhooksWithheld(() => run(world, { kind: 'purchase', listing: 2, buyer: 1, declined: false }))
    const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', world.listings[2]!.id).executeTakeFirstOrThrow()
    expect(await reconcileNow()).toMatchObject([
      { rule: 'provider_charges', transactionId: sale.id, expectedCents: sale.amountCents, actualCents: 0 },
    ])

    const { sale: done, buyer } = await completedSale()
    await confirmReceipt({ transactionId: done.id, buyerId: buyer.id })
    await postSellerPayout(db, {
      batchId: randomUUID(),
      sellerId: done.sellerId,
      bankReference: 'X',
      paidAt: new Date(),
      sales: [{ saleId: done.id, sellerShareCents: done.sellerShareCents }],
    })
    await db.updateTable('transactions').set({ status: 'refunded', refundedAt: new Date() }).where('id', '=', done.id).execute()
    const rules = (await reconcileNow()).filter((e) => e.transactionId === done.id).map((e) => e.rule)
    expect(rules).toContain('refunded_not_paid_out')
  })
})
