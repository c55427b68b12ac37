import { describe, expect, it } from 'vitest'
import * as purchaseApi from '../../app/routes/api/listing-purchase.ts'
import { approveBankDetails, rejectBankDetails } from '../../app/server/domain/bank-details.server.ts'
import { confirmReceipt, deliverSale, disputeSale } from '../../app/server/domain/escrow-actions.server.ts'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { NOTIFICATION_JOBS, SEND_CLAIM_MS, sendOne } from '../../app/server/domain/notification-sender.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { startJobWorker } from '../../app/server/infra/jobs.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { inbox, mailEmulator, withSmtpDown } from '../support/mail.ts'
import { giveBankDetails, payIntent, saleStatus, sellerWithListing, signUp } from '../support/payment-fixtures.ts'
import { stripeEmulator, webhooksDelivered } from '../support/stripe.ts'

async function paidSale() {
  const { listing, seller } = await sellerWithListing({ priceCents: 4900 })
  const buyer = await signUp('buyer')
  const response = await callRoute(
    purchaseApi,
    apiRequest(`/api/listings/${listing.id}/purchase`, { method: 'POST', token: buyer.token, json: {} }),
    { id: listing.id },
  )
  const { clientSecret } = await response.json()
  await payIntent(clientSecret as string)
  await webhooksDelivered()
  const sale = await db.selectFrom('transactions').selectAll().where('listingId', '=', listing.id).executeTakeFirstOrThrow()
  expect(sale.status).toBe('paid')
  return { listing, seller, buyer, sale }
}

const outbox = (saleId: string) =>
  db
    .selectFrom('notificationOutbox')
    .selectAll()
    .where(({ eb, ref }) => eb(eb.fn('jsonb_extract_path_text', [ref('payload'), eb.val('saleId')]), '=', saleId))
    .orderBy('createdAt')
    .orderBy('kind')
    .execute()

const sendAll = async (saleId: string) => {
  for (const row of await outbox(saleId)) await sendOne(row.id).catch(() => undefined)
}

describe('notifications: each escrow step writes its outbox rows, each mail is sent once', () => {
  it('a payment writes the receipt and the new-sale notice once, however often the webhook is replayed', async () => {
    const { sale, buyer, seller } = await paidSale()
    const [succeeded] = stripeEmulator.events.filter(
      (e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === sale.stripePaymentIntentId,
    )
    for (let i = 0; i < 5; i++) expect(await stripeEmulator.resend(succeeded!.id)).toBe(200)
    const rows = await outbox(sale.id)
    expect(rows.map((r) => [r.kind, r.userId])).toEqual([
      ['new_sale', seller.id],
      ['purchase_receipt', buyer.id],
    ])
    const inApp = await db
      .selectFrom('notifications')
      .select(['kind', 'userId', 'link'])
      .where('userId', 'in', [buyer.id, seller.id])
      .execute()
    expect(inApp).toHaveLength(2)

    await sendAll(sale.id)
    await sendAll(sale.id) // a second run finds them sent
    const receipts = inbox({ to: buyer.email })
    expect(receipts).toHaveLength(1)
    expect(receipts[0]!.subject).toMatch(/^Your receipt for /)
    expect(receipts[0]!.text).toContain('$49.00')
    expect(receipts[0]!.text).toContain('$7.35') // the 15 % fee of $49.00
    expect(receipts[0]!.text).toMatch(/View My Purchases: http:\/\/localhost:3000\/purchases/)
    expect(receipts[0]!.html).not.toMatch(/undefined|NaN/)
    expect(inbox({ to: seller.email }).map((m) => m.subject)).toEqual([expect.stringMatching(/^New sale: /)])
  })

  it('two workers racing on one row send it once', async () => {
    const { sale, buyer } = await paidSale()
    const receipt = (await outbox(sale.id)).find((r) => r.kind === 'purchase_receipt')!
    const results = await Promise.all([sendOne(receipt.id), sendOne(receipt.id), sendOne(receipt.id)])
    expect(results.sort()).toEqual(['done', 'done', 'sent'])
    expect(inbox({ to: buyer.email })).toHaveLength(1)
  })

  it('a fresh claim on a row is left to its sender; a crashed sender’s stale claim is taken over, and the mail goes once', async () => {
    const { sale, buyer } = await paidSale()
    const receipt = (await outbox(sale.id)).find((r) => r.kind === 'purchase_receipt')!
    const claimedAt = new Date()
    await db.updateTable('notificationOutbox').set({ sendingSince: claimedAt }).where('id', '=', receipt.id).execute()
    expect(await sendOne(receipt.id, new Date(claimedAt.getTime() + SEND_CLAIM_MS - 1000))).toBe('done')
    expect(inbox({ to: buyer.email })).toHaveLength(0)
    expect(await sendOne(receipt.id, new Date(claimedAt.getTime() + SEND_CLAIM_MS + 1000))).toBe('sent')
    expect(inbox({ to: buyer.email })).toHaveLength(1)
    const sent = await db.selectFrom('notificationOutbox').selectAll().where('id', '=', receipt.id).executeTakeFirstOrThrow()
    expect(sent).toMatchObject({ sendingSince: null, attempts: 1 })
  })

  it('SMTP down: the send fails and is recorded, nothing is lost; once it is back the mail goes, once', async () => {
    const { sale, buyer } = await paidSale()
    const receipt = (await outbox(sale.id)).find((r) => r.kind === 'purchase_receipt')!
    await withSmtpDown(async () => {
      await expect(sendOne(receipt.id)).rejects.toThrow()
      await expect(sendOne(receipt.id)).rejects.toThrow()
    })
    const failed = await db.selectFrom('notificationOutbox').selectAll().where('id', '=', receipt.id).executeTakeFirstOrThrow()
    expect(failed).toMatchObject({ sentAt: null, sendingSince: null, attempts: 2, lastError: expect.stringMatching(/421/) })
    expect(inbox({ to: buyer.email })).toHaveLength(0)
    expect(await sendOne(receipt.id)).toBe('sent')
    expect(await sendOne(receipt.id)).toBe('done')
    expect(inbox({ to: buyer.email })).toHaveLength(1)
  })

  it('delivery tells both parties and schedules the reminder 24 hours before the window ends; a confirmation first skips it', async () => {
    const { sale, buyer, seller } = await paidSale()
    const deliveredAt = new Date()
    await deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: 'https://github.com/buyer/fork', now: deliveredAt })
    const reminder = (await outbox(sale.id)).find((r) => r.kind === 'confirm_reminder')!
    expect(reminder.userId).toBe(buyer.id)
    expect(reminder.sendAfter.getTime()).toBe(deliveredAt.getTime() + 48 * 3600_000)
    expect((await outbox(sale.id)).map((r) => r.kind)).toEqual(
      expect.arrayContaining(['purchase_delivered', 'sale_delivered', 'confirm_reminder']),
    )

    await confirmReceipt({ transactionId: sale.id, buyerId: buyer.id })
    expect(await saleStatus(sale.id)).toBe('completed')
    expect(await sendOne(reminder.id)).toBe('skipped')
    const kinds = (await outbox(sale.id)).map((r) => r.kind)
    expect(kinds).toEqual(expect.arrayContaining(['purchase_confirmed', 'funds_released']))
    await sendAll(sale.id)
    expect(inbox({ to: buyer.email }).map((m) => m.subject)).not.toContain(expect.stringMatching(/hours left/))
  })

  it('the reminder is sent while the sale still waits for the buyer; turning reminders off stops only reminders', async () => {
    const first = await paidSale()
    await deliverSale({ transactionId: first.sale.id, sellerId: first.seller.id, forkUrl: 'https://github.com/buyer/fork' })
    const reminder = (await outbox(first.sale.id)).find((r) => r.kind === 'confirm_reminder')!
    expect(await sendOne(reminder.id)).toBe('sent')
    const mail = inbox({ to: first.buyer.email }).find((m) => /hours left/.test(m.subject))!
    expect(mail.headers['list-unsubscribe']).toMatch(/\/profile/)

    const second = await paidSale()
    await db.insertInto('notificationPreferences').values({ userId: second.buyer.id, reminders: false }).execute()
    await deliverSale({ transactionId: second.sale.id, sellerId: second.seller.id, forkUrl: 'https://github.com/buyer/fork' })
    const rows = await outbox(second.sale.id)
    expect(await sendOne(rows.find((r) => r.kind === 'confirm_reminder')!.id)).toBe('skipped')
    expect(await sendOne(rows.find((r) => r.kind === 'purchase_delivered')!.id)).toBe('sent')
  })

  it('a dispute tells the buyer, the seller and every admin; a refund tells both parties', async () => {
    const admin = await signUp('admin', { admin: true })
    const { sale, buyer, seller } = await paidSale()
    await deliverSale({ transactionId: sale.id, sellerId: seller.id, forkUrl: 'https://github.com/buyer/fork' })
    await disputeSale({ transactionId: sale.id, buyerId: buyer.id, reason: 'It does not build' })
    const disputeRows = (await outbox(sale.id)).filter((r) => r.kind.includes('dispute'))
    expect(disputeRows.map((r) => [r.kind, r.userId]).sort()).toEqual(
      [
        ['admin_dispute_opened', admin.id],
        ['dispute_opened', buyer.id],
        ['dispute_opened', seller.id],
      ].sort(),
    )
    await fire({ saleId: sale.id, event: 'refunded', by: { id: null, role: 'provider' }, refundId: 're_test' })
    const kinds = (await outbox(sale.id)).map((r) => [r.kind, r.userId])
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['refund_issued', buyer.id],
        ['sale_refunded', seller.id],
      ]),
    )
  })

  it('bank details approved or rejected: the seller is told, with the reason, once per version', async () => {
    const admin = await signUp('admin', { admin: true })
    const approved = await signUp('seller-ok')
    const rejected = await signUp('seller-no')
    await giveBankDetails(approved.id, 'pending')
    await giveBankDetails(rejected.id, 'pending')
    await approveBankDetails({ userId: approved.id, adminId: admin.id, version: 1 })
    await rejectBankDetails({ userId: rejected.id, adminId: admin.id, version: 1, reason: 'The name does not match the account' })
    const rows = await db.selectFrom('notificationOutbox').selectAll().where('userId', 'in', [approved.id, rejected.id]).execute()
    expect(rows.map((r) => [r.kind, r.userId]).sort()).toEqual(
      [
        ['bank_details_approved', approved.id],
        ['bank_details_rejected', rejected.id],
      ].sort(),
    )
    for (const row of rows) expect(await sendOne(row.id)).toBe('sent')
    expect(inbox({ to: rejected.email })[0]!.text).toContain('The name does not match the account')
    expect(inbox({ to: approved.email })[0]!.subject).toBe('Your bank details are approved')
  })

  it('the job worker sends what is due', async () => {
    const { sale, buyer } = await paidSale()
    const worker = await startJobWorker(NOTIFICATION_JOBS, { concurrency: 2 })
    try {
      await mailEmulator.waitForMessage({ to: buyer.email, subject: /receipt/ }, 15_000)
    } finally {
      await worker.stop()
    }
    const sent = (await outbox(sale.id)).filter((r) => r.sentAt)
    expect(sent.map((r) => r.kind)).toContain('purchase_receipt')
  })
})
