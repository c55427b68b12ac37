import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { splitFee } from '../../app/lib/money.ts'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { backfillLedger, postLedgerEntry, saleBalances } from '../../app/server/domain/ledger.server.ts'
import { approvePayoutBatch, markPaid } from '../../app/server/domain/payout-batches.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { createListing, createSale, giveBankDetails, signUp } from './admin-fixtures.ts'

async function world() {
  const seller = await signUp('ledger-seller@example.com')
  const buyer = await signUp('ledger-buyer@example.com')
  const alice = await signUp('ledger-alice@example.com', { admin: true })
  const bob = await signUp('ledger-bob@example.com', { admin: true })
  await giveBankDetails(seller.id, 'approved')
  const listing = await createListing(seller.id, { priceCents: 4999 })
  return { seller, buyer, alice, bob, listing }
}

const totals = async () =>
  db
    .selectFrom('ledgerLines')
    .select([sql<number>`coalesce(sum(debit_cents), 0)::int`.as('debits'), sql<number>`coalesce(sum(credit_cents), 0)::int`.as('credits')])
    .executeTakeFirstOrThrow()

describe('the ledger in the database', () => {
  it('refuses an unbalanced entry, an entry of one line, and any UPDATE or DELETE of its rows', async () => {
    const { seller, buyer, listing } = await world()
    const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 4999, status: 'paid' })
    const at = new Date()
    await expect(
      postLedgerEntry(db, {
        key: 'correction:unbalanced',
        kind: 'correction',
        description: 'off by a cent',
        postedAt: at,
        lines: [
          { account: 'provider_cash', transactionId: sale.id, debitCents: 100 },
          { account: 'buyer_funds', transactionId: sale.id, creditCents: 99 },
        ],
      }),
    ).rejects.toThrow(/not balanced/)
    await expect(
      postLedgerEntry(db, {
        key: 'correction:one-line',
        kind: 'correction',
        description: 'one line',
        postedAt: at,
        lines: [{ account: 'provider_cash', transactionId: sale.id, debitCents: 100 }],
      }),
    ).rejects.toThrow(/not balanced/)
    // Straight SQL, not through our code: an entry with no lines is refused at commit too.
    await expect(
      db.insertInto('ledgerEntries').values({ eventKey: 'bare', kind: 'correction', description: 'no lines' }).execute(),
    ).rejects.toThrow(/not balanced/)
    expect(await db.selectFrom('ledgerEntries').select('id').execute()).toEqual([])

    expect(
      await postLedgerEntry(db, {
        key: 'correction:ok',
        kind: 'correction',
        description: 'balanced',
        postedAt: at,
        lines: [
          { account: 'provider_cash', transactionId: sale.id, debitCents: 100 },
          { account: 'buyer_funds', transactionId: sale.id, creditCents: 100 },
        ],
      }),
    ).toBe(true)
    await expect(db.updateTable('ledgerLines').set({ debitCents: 99 }).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('ledgerLines').execute()).rejects.toThrow(/append-only/)
    await expect(db.updateTable('ledgerEntries').set({ description: 'rewritten' }).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('ledgerEntries').execute()).rejects.toThrow(/append-only/)
    expect(await totals()).toEqual({ debits: 100, credits: 100 })
  })

  it('posts charge, release and payout in the transitions’ transactions, each once', async () => {
    const { seller, buyer, alice, bob, listing } = await world()
    const sale = await createSale({
      listingId: listing.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 4999,
      status: 'pending_payment',
    })
    const provider = { id: null, role: 'provider' as const }
    const paid = { saleId: sale.id, event: 'payment_succeeded' as const, by: provider, amountReceived: 4999, currency: 'usd' }
    await fire(paid)
    await expect(fire(paid)).rejects.toThrow(/paid/) // a replay applies nothing, posts nothing
    expect(await saleBalances(db, sale.id)).toEqual({ providerCash: 4999, buyerFunds: 4999, sellerPayable: 0, platformFee: 0, paidOut: 0 })

    await fire({ saleId: sale.id, event: 'deliver', by: { id: seller.id, role: 'seller' }, forkUrl: 'https://github.com/b/fork' })
    await fire({ saleId: sale.id, event: 'confirm_receipt', by: { id: buyer.id, role: 'buyer' } })
    const { applicationFeeCents, sellerShareCents } = splitFee(4999)
    expect(await saleBalances(db, sale.id)).toMatchObject({
      buyerFunds: 0,
      sellerPayable: sellerShareCents,
      platformFee: applicationFeeCents,
    })

    const batch = await markPaid({ transactionId: sale.id, adminId: alice.id, paymentReference: 'BACS-1' })
    expect((await saleBalances(db, sale.id)).sellerPayable).toBe(sellerShareCents) // not before the approval
    await approvePayoutBatch({ batchId: batch.id, adminId: bob.id })
    expect(await saleBalances(db, sale.id)).toMatchObject({ sellerPayable: 0, paidOut: sellerShareCents, providerCash: 4999 })
    const kinds = await db.selectFrom('ledgerEntries').select('kind').orderBy('postedAt').execute()
    expect(kinds.map((k) => k.kind)).toEqual(['charge', 'release', 'payout'])
    const { debits, credits } = await totals()
    expect(debits).toBe(credits)
  })

  it('a refund reverses what the sale holds; a refund before any charge posts nothing', async () => {
    const { seller, buyer, listing } = await world()
    const sale = await createSale({
      listingId: listing.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 4999,
      status: 'pending_payment',
    })
    const provider = { id: null, role: 'provider' as const }
    await fire({ saleId: sale.id, event: 'payment_succeeded', by: provider, amountReceived: 4999, currency: 'usd' })
    await fire({ saleId: sale.id, event: 'refunded', by: provider })
    expect(await saleBalances(db, sale.id)).toEqual({ providerCash: 0, buyerFunds: 0, sellerPayable: 0, platformFee: 0, paidOut: 0 })

    const other = await createListing(seller.id, { priceCents: 1000 })
    const unpaid = await createSale({
      listingId: other.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 1000,
      status: 'pending_payment',
    })
    await fire({ saleId: unpaid.id, event: 'refunded', by: provider })
    expect(await db.selectFrom('ledgerEntries').select('kind').where('transactionId', '=', unpaid.id).execute()).toEqual([])
  })

  it('backfills sales written without the machine (the demo seed) once, balanced', async () => {
    const { seller, buyer, listing } = await world()
    const l2 = await createListing(seller.id, { priceCents: 2000 })
    const l3 = await createListing(seller.id, { priceCents: 3000 })
    const done = await createSale({
      listingId: listing.id,
      sellerId: seller.id,
      buyerId: buyer.id,
      amountCents: 4999,
      status: 'completed',
      paymentReference: 'BACS-9',
    })
    const refunded = await createSale({ listingId: l2.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 2000, status: 'refunded' })
    const held = await createSale({ listingId: l3.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 3000, status: 'delivered' })
    await backfillLedger(db)
    await backfillLedger(db)
    expect(await saleBalances(db, done.id)).toMatchObject({ sellerPayable: 0, paidOut: splitFee(4999).sellerShareCents })
    expect(await saleBalances(db, refunded.id)).toMatchObject({ providerCash: 0, buyerFunds: 0 })
    expect(await saleBalances(db, held.id)).toMatchObject({ providerCash: 3000, buyerFunds: 3000 })
    const entries = await db.selectFrom('ledgerEntries').select('kind').execute()
    expect(entries).toHaveLength(6) // charge ×3, release, payout, refund
    const { debits, credits } = await totals()
    expect(debits).toBe(credits)
  })
})
