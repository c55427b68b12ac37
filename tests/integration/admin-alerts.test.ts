import { describe, expect, it } from 'vitest'
import { alertOverdueDeliveries, sendBankDetailsDigest } from '../../app/server/domain/admin-alerts.server.ts'
import { deliverSale } from '../../app/server/domain/escrow-actions.server.ts'
import { sendOne } from '../../app/server/domain/notification-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { inbox } from '../support/mail.ts'
import { createListing, giveBankDetails, insertSale, signUp } from '../support/payment-fixtures.ts'

const HOUR = 60 * 60 * 1000

const rowsOf = (kind: string) =>
  db.selectFrom('notificationOutbox').selectAll().where('kind', '=', kind).orderBy('createdAt').orderBy('userId').execute()

async function paidSaleOf(timeframe: '1-hour' | '24-hours' | '3-5-days' | null) {
  const seller = await signUp('seller')
  const buyer = await signUp('buyer')
  const listing = await createListing(seller.id)
  await db.updateTable('listings').set({ deliveryTimeframe: timeframe }).where('id', '=', listing.id).execute()
  const sale = await insertSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, status: 'paid' })
  await db.updateTable('transactions').set({ paidAtProvider: sale.createdAt }).where('id', '=', sale.id).execute()
  return { seller, buyer, listing, sale }
}

describe('admin alerts (issue 17): overdue deliveries and the bank-details digest', () => {
  it('a delivery past its listing’s limit is reported to every admin once; one still within it, or delivered, is not', async () => {
    const first = await signUp('admin', { admin: true })
    const second = await signUp('admin', { admin: true })
    const day = await paidSaleOf('24-hours')
    const week = await paidSaleOf(null)
    const delivered = await paidSaleOf('1-hour')
    await deliverSale({ transactionId: delivered.sale.id, sellerId: delivered.seller.id, forkUrl: 'https://github.com/buyer/fork' })

    const paidAt = day.sale.createdAt.getTime()
    expect(await alertOverdueDeliveries(new Date(paidAt + 23 * HOUR))).toEqual([])
    expect(await alertOverdueDeliveries(new Date(paidAt + 25 * HOUR))).toEqual([day.sale.id])
    // The next sweeps (and a racing one) write nothing more for it.
    expect(await alertOverdueDeliveries(new Date(paidAt + 26 * HOUR))).toEqual([])
    const rows = await rowsOf('admin_delivery_stuck')
    expect(rows.map((r) => r.userId).sort()).toEqual([first.id, second.id].sort())

    // A listing without a timeframe gets a week.
    expect(await alertOverdueDeliveries(new Date(paidAt + 6 * 24 * HOUR))).toEqual([])
    expect(await alertOverdueDeliveries(new Date(paidAt + 7 * 24 * HOUR + HOUR))).toEqual([week.sale.id])

    expect(await sendOne(rows[0]!.id)).toBe('sent')
    const [mail] = inbox({ to: rows[0]!.userId === first.id ? first.email : second.email })
    expect(mail!.subject).toBe(`Delivery overdue: ${day.listing.title}`)
    expect(mail!.text).toContain('due within 1 day of payment')
    expect(mail!.text).toContain(day.sale.id)
  })

  it('the digest counts the bank details waiting, once a day per admin; an admin who turned digests off gets no mail', async () => {
    const admin = await signUp('admin', { admin: true })
    const quiet = await signUp('admin', { admin: true })
    await db.insertInto('notificationPreferences').values({ userId: quiet.id, digests: false }).execute()
    const now = new Date('2026-11-25T08:00:00Z')
    expect(await sendBankDetailsDigest(now)).toBe(false)

    for (const name of ['a', 'b']) await giveBankDetails((await signUp(`seller-${name}`)).id, 'pending')
    await giveBankDetails((await signUp('seller-ok')).id, 'approved')
    expect(await sendBankDetailsDigest(now)).toBe(true)
    expect(await sendBankDetailsDigest(new Date(now.getTime() + 2 * HOUR))).toBe(true)
    let rows = await rowsOf('admin_bank_details_digest')
    expect(rows.map((r) => r.userId).sort()).toEqual([admin.id, quiet.id].sort())
    expect(rows[0]!.payload).toMatchObject({ count: 2, date: '2026-11-25' })

    expect(await sendOne(rows.find((r) => r.userId === admin.id)!.id)).toBe('sent')
    expect(await sendOne(rows.find((r) => r.userId === quiet.id)!.id)).toBe('skipped')
    const [mail] = inbox({ to: admin.email })
    expect(mail!.subject).toBe('2 bank details wait for approval')
    expect(mail!.headers['list-unsubscribe']).toMatch(/\/profile/)
    expect(inbox({ to: quiet.email })).toEqual([])

    await sendBankDetailsDigest(new Date(now.getTime() + 24 * HOUR))
    rows = await rowsOf('admin_bank_details_digest')
    expect(rows).toHaveLength(4)
  })
})
