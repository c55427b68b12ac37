// The emulators first: they point the app's Stripe and GitHub configuration at themselves.
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { listProviderCharges, reconcile } from '../../app/server/domain/reconciliation.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { localDiskStorage, setStorageForTesting } from '../../app/server/infra/storage.server.ts'
import { demoGithubSpec } from '../../db/seed/demo-github.ts'
import { demoImagesStored, seedDemoDataOnce } from '../../db/seed/demo.ts'
import { githubEmulator } from '../support/github.ts'
import { stripeEmulator } from '../support/stripe.ts'

async function makeSeller(username = 'seller') {
  return db
    .insertInto('users')
    .values({ username, displayName: 'Seller', email: `${username}@example.com` })
    .returning('id')
    .executeTakeFirstOrThrow()
}

const listing = (sellerId: string, overrides: Record<string, unknown> = {}) => ({
  sellerId,
  title: 'A listing',
  slug: 'a-listing',
  shortDescription: 'Short',
  type: 'template' as const,
  priceCents: 100,
  licence: 'personal' as const,
  ...overrides,
})

function constraintOf(promise: Promise<unknown>) {
  return promise.then(
    () => 'no error',
    (error: { constraint?: string; code?: string }) => error.constraint ?? error.code,
  )
}

describe('schema constraints', () => {
  it('applies every migration from scratch (the tables exist)', async () => {
    const { rows } = await sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(db)
    expect(rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(['app_meta', 'audit_log', 'bank_details', 'listings', 'processed_events', 'transactions', 'users']),
    )
  })

  it('rejects a price of 0 cents', async () => {
    const { id } = await makeSeller()
    await expect(
      constraintOf(
        db
          .insertInto('listings')
          .values(listing(id, { priceCents: 0 }))
          .execute(),
      ),
    ).resolves.toBe('listings_price_cents_check')
  })

  it('rejects an unknown licence and type', async () => {
    const { id } = await makeSeller()
    await expect(
      constraintOf(
        db
          .insertInto('listings')
          .values(listing(id, { licence: 'gpl' as never }))
          .execute(),
      ),
    ).resolves.toBe('listings_licence_check')
    await expect(
      constraintOf(
        db
          .insertInto('listings')
          .values(listing(id, { type: 'plugin' as never }))
          .execute(),
      ),
    ).resolves.toBe('listings_type_check')
  })

  it('rejects a duplicate slug', async () => {
    const { id } = await makeSeller()
    await db.insertInto('listings').values(listing(id)).execute()
    await expect(constraintOf(db.insertInto('listings').values(listing(id)).execute())).resolves.toBe('listings_slug_key')
  })

  it('rejects duplicate usernames and e-mails (case-insensitive)', async () => {
    await makeSeller('dup')
    await expect(
      constraintOf(db.insertInto('users').values({ username: 'dup', displayName: 'x', email: 'other@example.com' }).execute()),
    ).resolves.toBe('users_username_key')
    await expect(
      constraintOf(db.insertInto('users').values({ username: 'other', displayName: 'x', email: 'DUP@example.com' }).execute()),
    ).resolves.toBe('users_email_key')
  })

  it('guards transaction money and states', async () => {
    const seller = await makeSeller('s1')
    const buyer = await makeSeller('b1')
    const { id: listingId } = await db.insertInto('listings').values(listing(seller.id)).returning('id').executeTakeFirstOrThrow()
    const sale = { listingId, sellerId: seller.id, buyerId: buyer.id, amountCents: 100, applicationFeeCents: 15 }
    await expect(
      constraintOf(
        db
          .insertInto('transactions')
          .values({ ...sale, amountCents: -1 })
          .execute(),
      ),
    ).resolves.toBe('transactions_amount_cents_check')
    await expect(
      constraintOf(
        db
          .insertInto('transactions')
          .values({ ...sale, status: 'lost' as never })
          .execute(),
      ),
    ).resolves.toBe('transactions_status_check')
    await expect(
      constraintOf(
        db
          .insertInto('transactions')
          .values({ ...sale, buyerId: seller.id })
          .execute(),
      ),
    ).resolves.toBe('transactions_not_self_purchase')
    await expect(
      constraintOf(
        db
          .insertInto('transactions')
          .values({ ...sale, status: 'paid', paidAt: new Date(), paymentReference: 'X' })
          .execute(),
      ),
    ).resolves.toBe('transactions_payout_only_completed')
    await db
      .insertInto('transactions')
      .values({ ...sale, status: 'paid' })
      .execute()
    await expect(
      constraintOf(
        db
          .insertInto('transactions')
          .values({ ...sale, status: 'paid' })
          .execute(),
      ),
    ).resolves.toBe('transactions_one_owned_copy')
  })

  // 3 min: on a fresh machine (CI's clean clone) the first seed renders every demo image, cached afterwards
  // in node_modules/.cache (about 1 s then); 30 s ran out beside the other worker (2026-11-27).
  it('loads the demo data once', { timeout: 180_000 }, async () => {
    // The demo images go to a folder of this test's own (tests/integration/demo-data.test.ts checks them).
    setStorageForTesting(localDiskStorage(mkdtempSync(path.join(os.tmpdir(), 'forkmarket-demo-'))))
    expect(await seedDemoDataOnce(db)).toBe(true)
    expect(await seedDemoDataOnce(db)).toBe(false)
    const counts = await db
      .selectFrom('listings')
      .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('sellerId').distinct().as('sellers')])
      .executeTakeFirstOrThrow()
    expect(counts.all).toBeGreaterThanOrEqual(40)
    expect(counts.sellers).toBeGreaterThanOrEqual(4)
    const hidden = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('visible', '=', false)
      .executeTakeFirstOrThrow()
    expect(hidden.n).toBeGreaterThan(0)
    const admins = await db.selectFrom('users').select('email').where('isAdmin', '=', true).orderBy('email').execute()
    // The demo admin and the finance admin who approves payout batches (four eyes, issue 19).
    expect(admins.map((a) => a.email)).toEqual(['admin@forkmarket.dev', 'finance@forkmarket.dev'])
    const states = await db.selectFrom('transactions').select('status').distinct().execute()
    expect(states.length).toBeGreaterThanOrEqual(4)
    // Issue 19: the demo's sales and payout are in the ledger, balanced, and agree with the sales.
    // Seeded without a Stripe emulator (`npm run db:seed`), only the provider side differs: the
    // demo's payments were not made anywhere (the next test pays them).
    const { exceptions, totals } = await reconcile([])
    expect(totals.ledgerChargesCents).toBeGreaterThan(0)
    expect(totals.paidOutCents).toBeGreaterThan(0)
    expect(totals.ledgerDebitsCents).toBe(totals.ledgerCreditsCents)
    expect(exceptions.filter((e) => e.rule !== 'provider_charges')).toEqual([])
    await demoImagesStored()
  })

  it('pays the demo sales at the Stripe emulator: the reconciliation is clean, and seeding again charges nobody twice', async () => {
    setStorageForTesting(localDiskStorage(mkdtempSync(path.join(os.tmpdir(), 'forkmarket-demo-'))))
    // The launcher's client of its emulator (emulators/local-services.ts demoStripe).
    const stripe = new Stripe(stripeEmulator.secretKey, { host: stripeEmulator.host, port: stripeEmulator.port, protocol: 'http' })
    stripeEmulator.clear()
    // As the launcher does: the GitHub emulator's demo repositories, so the GitHub-delivered demo sales are there too.
    const seeded = githubEmulator.seed(demoGithubSpec(new Date()))
    const github = {
      repositories: Object.fromEntries(seeded.repositories.map((r) => [r.fullName, { id: r.id, headSha: r.headSha, htmlUrl: r.htmlUrl }])),
    }
    expect(await seedDemoDataOnce(db, new Date(), { stripe, github })).toBe(true)
    await demoImagesStored()

    const sales = await db.selectFrom('transactions').select(['stripePaymentIntentId', 'stripeRefundId', 'status', 'amountCents']).execute()
    const charges = await listProviderCharges()
    expect(charges).toHaveLength(sales.length)
    expect(charges.map((c) => c.paymentIntentId).sort()).toEqual(sales.map((s) => s.stripePaymentIntentId).sort())
    const refunded = sales.filter((s) => s.status === 'refunded')
    expect(refunded.length).toBeGreaterThanOrEqual(2)
    for (const sale of refunded) {
      const refund = await stripe.refunds.retrieve(sale.stripeRefundId!)
      expect(refund).toMatchObject({ payment_intent: sale.stripePaymentIntentId, amount: sale.amountCents, status: 'succeeded' })
    }
    const clean = await reconcile(charges)
    expect(clean.exceptions).toEqual([])
    expect(clean.totals.providerChargesCents).toBe(sales.reduce((total, s) => total + s.amountCents, 0))

    // A fresh database seeded against the same emulator (or a seed retried after a rollback): the
    // same sales, the same intents replayed by their idempotency keys, no second charge.
    await sql`TRUNCATE transactions, listings, users, app_meta RESTART IDENTITY CASCADE`.execute(db)
    expect(await seedDemoDataOnce(db, new Date(), { stripe, github })).toBe(true)
    await demoImagesStored()
    const again = await listProviderCharges()
    expect(again.map((c) => c.id).sort()).toEqual(charges.map((c) => c.id).sort())
    expect((await reconcile(again)).exceptions).toEqual([])
  })
})
