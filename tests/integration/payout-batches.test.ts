import { readFile } from 'node:fs/promises'
import { sql } from 'kysely'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { PendingBankDetails } from '../../app/components/admin/pending-bank-details.tsx'
import { isPayoutDue, sellerMayBePaid } from '../../app/lib/payouts.ts'
import * as adminScreen from '../../app/routes/admin.tsx'
import * as approveApi from '../../app/routes/api/admin-bank-approve.ts'
import * as batchActionApi from '../../app/routes/api/admin-payout-batch-action.ts'
import * as batchFileApi from '../../app/routes/api/admin-payout-batch-file.ts'
import * as batchApi from '../../app/routes/api/admin-payout-batch.ts'
import * as batchesApi from '../../app/routes/api/admin-payout-batches.ts'
import * as statementApi from '../../app/routes/api/seller-payout-statement.ts'
import * as sellerPayoutsApi from '../../app/routes/api/seller-payouts.ts'
import { getAdminTransaction } from '../../app/server/domain/admin.server.ts'
import { approveBankDetails, saveBankDetails } from '../../app/server/domain/bank-details.server.ts'
import { sha256 } from '../../app/server/domain/bank-files.server.ts'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { approvePayoutBatch, exportPayoutBatch, preparePayoutBatch } from '../../app/server/domain/payout-batches.server.ts'
import { payable } from '../../app/server/domain/payouts.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { encryptSecret } from '../../app/server/infra/secret-box.server.ts'
import type { BankDetailsStatus, TransactionStatus } from '../../db/schema.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, createSale, formRequest, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

const XSD = new URL('../fixtures/iso20022/pain.001.001.03.xsd', import.meta.url)
const DE_IBAN = 'DE89370400440532013000'

async function giveIbanDetails(userId: string) {
  await db
    .insertInto('bankDetails')
    .values({
      userId,
      country: 'DE',
      accountHolder: 'Jana Schmidt & Söhne <GmbH>',
      bankName: 'Commerzbank',
      swift: 'COBADEFFXXX',
      ibanEncrypted: encryptSecret(DE_IBAN),
      ibanLast4: DE_IBAN.slice(-4),
      status: 'approved',
      approvedAt: new Date(),
    })
    .execute()
}

async function world() {
  const alice = await signUp('alice-admin@example.com', { admin: true })
  const bob = await signUp('bob-admin@example.com', { admin: true })
  const carol = await signUp('carol-admin@example.com', { admin: true })
  const gbSeller = await signUp('gb-seller@example.com')
  const deSeller = await signUp('de-seller@example.com')
  const buyer = await signUp('buyer@example.com')
  await giveBankDetails(gbSeller.id, 'approved')
  await giveIbanDetails(deSeller.id)
  const sale = async (
    seller: { id: string },
    status: Parameters<typeof createSale>[0]['status'],
    amountCents: number,
    paymentReference?: string,
  ) => {
    const listing = await createListing(seller.id, { priceCents: amountCents, title: `Kit ${status} ${amountCents}` })
    return createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents, status, paymentReference })
  }
  return { alice, bob, carol, gbSeller, deSeller, buyer, sale }
}

const action = (token: string, batchId: string, name: string, json: unknown = {}) =>
  callRoute(batchActionApi, apiRequest(`/api/admin/payout-batches/${batchId}/${name}`, { method: 'POST', token, json }), {
    batchId,
    action: name,
  })

const file = (token: string, batchId: string, format: 'pain.001.xml' | 'bank.csv') =>
  callRoute(batchFileApi, apiRequest(`/api/admin/payout-batches/${batchId}/files/${format}`, { token }), { batchId, format })

async function validatePain001(xml: string) {
  const result = await validateXML({
    xml: [{ fileName: 'payouts.xml', contents: xml }],
    schema: [await readFile(XSD, 'utf8')],
  })
  return { valid: result.valid, errors: result.errors.map((e) => e.message) }
}

describe('payout batches', () => {
  it('prepares the due sales of sellers with approved details; refunded, unpaid-for, paid and blocked sales never enter', async () => {
    const { alice, gbSeller, deSeller, sale } = await world()
    const pending = await signUp('pending-seller@example.com')
    await giveBankDetails(pending.id, 'pending')
    const gb1 = await sale(gbSeller, 'completed', 4000)
    const gb2 = await sale(gbSeller, 'completed', 1000)
    const de = await sale(deSeller, 'completed', 2500)
    const refunded = await sale(gbSeller, 'refunded', 9000)
    await sale(gbSeller, 'delivered', 3000)
    await sale(gbSeller, 'completed', 5000, 'BACS-OLD')
    await sale(pending, 'completed', 7000)

    const response = await callRoute(batchesApi, apiRequest('/api/admin/payout-batches', { method: 'POST', token: alice.token, json: {} }))
    expect(response.status).toBe(200)
    const { batch } = await response.json()
    expect(batch).toMatchObject({ status: 'draft', kind: 'batch', preparedBy: alice.id, totalCents: 3400 + 850 + 2125 })
    const lines = await db.selectFrom('payoutBatchLines').selectAll().where('batchId', '=', batch.id).execute()
    expect(lines.map((l) => l.transactionId).sort()).toEqual([gb1.id, gb2.id, de.id].sort())
    expect(lines.map((l) => l.transactionId)).not.toContain(refunded.id)
    const payees = await db.selectFrom('payoutBatchPayees').selectAll().where('batchId', '=', batch.id).orderBy('position').execute()
    expect(payees.map((p) => [p.sellerId, p.amountCents])).toEqual(
      [
        [gbSeller.id, 4250],
        [deSeller.id, 2125],
      ].sort(([a], [b]) => String(a).localeCompare(String(b))),
    )

    // A sale in a live batch cannot enter another: nothing else is due.
    const again = await callRoute(batchesApi, apiRequest('/api/admin/payout-batches', { method: 'POST', token: alice.token, json: {} }))
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'No payouts are due to sellers with approved bank details' })
    // …and the database refuses it too.
    await expect(
      db
        .insertInto('payoutBatchLines')
        .values({ ...lines[0]!, batchId: (await preparedDraft(alice.id, [lines[0]!])).id })
        .execute(),
    ).rejects.toThrow(/payout_batch_lines_one_live/)

    const audit = await db.selectFrom('auditLog').selectAll().where('action', '=', 'payout_batch.prepare').execute()
    expect(audit).toMatchObject([{ actorId: alice.id, entityId: batch.id, toState: 'draft' }])
  })

  it('the admin who prepared a batch cannot approve it: the API refuses, and so does the database (direct UPDATE)', async () => {
    const { alice, gbSeller, sale } = await world()
    await sale(gbSeller, 'completed', 4000)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    const own = await action(alice.token, batch.id, 'approve')
    expect(own.status).toBe(403)
    expect(await own.json()).toEqual({ error: 'A different admin must approve this payout: you prepared it' })

    await expect(
      sql`UPDATE payout_batches SET status = 'approved', approved_by = prepared_by, approved_at = now() WHERE id = ${batch.id}`.execute(db),
    ).rejects.toThrow(/payout_batches_four_eyes/)
    // Nor can anything skip a state, or anyone but an admin approve.
    await expect(sql`UPDATE payout_batches SET status = 'sent' WHERE id = ${batch.id}`.execute(db)).rejects.toThrow(
      /cannot go from draft to sent/,
    )
    await expect(
      sql`UPDATE payout_batches SET status = 'approved', approved_by = ${gbSeller.id}, approved_at = now() WHERE id = ${batch.id}`.execute(
        db,
      ),
    ).rejects.toThrow(/Only an admin can approve/)
    const stored = await db
      .selectFrom('payoutBatches')
      .select(['status', 'approvedBy'])
      .where('id', '=', batch.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ status: 'draft', approvedBy: null })
  })

  it('approve → export → sent → reconciled: frozen lines, SHA-256 at approval, byte-identical re-export, Paid Out with the bank reference, audited', async () => {
    const { alice, bob, carol, gbSeller, deSeller, sale } = await world()
    const gb = await sale(gbSeller, 'completed', 4000)
    const de = await sale(deSeller, 'completed', 2500)
    const batch = await preparePayoutBatch({ adminId: alice.id })

    const approved = await action(bob.token, batch.id, 'approve')
    expect(approved.status).toBe(200)
    const afterApproval = (await approved.json()).batch
    expect(afterApproval).toMatchObject({ status: 'approved', approvedBy: bob.id, debtorIban: 'GB33BUKB20201555555555' })
    expect(afterApproval.xmlSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(afterApproval.csvSha256).toMatch(/^[0-9a-f]{64}$/)

    // Frozen: lines and totals cannot change any more (database).
    await expect(db.deleteFrom('payoutBatchLines').where('batchId', '=', batch.id).execute()).rejects.toThrow(/frozen/)
    await expect(db.updateTable('payoutBatches').set({ totalCents: 1 }).where('id', '=', batch.id).execute()).rejects.toThrow(/frozen/)
    // No file before export (a GET never exports).
    expect((await file(alice.token, batch.id, 'pain.001.xml')).status).toBe(409)

    expect((await action(carol.token, batch.id, 'export')).status).toBe(200)
    const xml1 = await (await file(alice.token, batch.id, 'pain.001.xml')).text()
    const csv1 = await (await file(alice.token, batch.id, 'bank.csv')).text()
    // The seller changes their details later: the batch's file does not.
    await db.updateTable('bankDetails').set({ swift: 'DEUTDEFF' }).where('userId', '=', deSeller.id).execute()
    const xmlResponse = await file(bob.token, batch.id, 'pain.001.xml')
    expect(xmlResponse.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
    expect(xmlResponse.headers.get('Cache-Control')).toBe('private, no-store')
    const xml2 = await xmlResponse.text()
    const csv2 = await (await file(bob.token, batch.id, 'bank.csv')).text()
    expect(Buffer.from(xml2)).toEqual(Buffer.from(xml1))
    expect(Buffer.from(csv2)).toEqual(Buffer.from(csv1))
    expect(sha256(xml1)).toBe(afterApproval.xmlSha256)
    expect(sha256(csv1)).toBe(afterApproval.csvSha256)

    // The XML pays the IBAN seller, the CSV the GB one, with the full numbers.
    expect(xml1).toContain(`<IBAN>${DE_IBAN}</IBAN>`)
    expect(xml1).toContain('<InstdAmt Ccy="USD">21.25</InstdAmt>')
    expect(xml1).toContain('<Nm>Jana Schmidt &amp; Söhne &lt;GmbH&gt;</Nm>')
    expect(xml1).not.toContain('31415926')
    expect(csv1).toContain('"GB","Test Seller","Monzo","040004","31415926","","34.00","USD"')
    expect(csv1).not.toContain(DE_IBAN)

    // Exporting again is refused (state), the files stay downloadable.
    const reexport = await action(alice.token, batch.id, 'export')
    expect(reexport.status).toBe(409)
    expect(await reexport.json()).toEqual({ error: 'This payout batch is exported: only an approved batch can be exported' })

    const noReference = await action(alice.token, batch.id, 'sent', { bankReference: '  ' })
    expect(noReference.status).toBe(400)
    const sent = await action(alice.token, batch.id, 'sent', { bankReference: 'BANK-RUN-2026-11-23' })
    expect(sent.status).toBe(200)
    // Each paid seller is told once (issue 17): amount, reference and the sales it covers.
    const payoutNotices = await db.selectFrom('notificationOutbox').selectAll().where('kind', '=', 'payout_recorded').execute()
    expect(payoutNotices.map((n) => n.userId).sort()).toEqual([deSeller.id, gbSeller.id].sort())
    expect(payoutNotices[0]!.payload).toMatchObject({ batchId: batch.id, bankReference: 'BANK-RUN-2026-11-23' })
    const paid = await db
      .selectFrom('transactions')
      .select(['id', 'paidAt', 'paymentReference'])
      .where('id', 'in', [gb.id, de.id])
      .execute()
    for (const row of paid) {
      expect(row.paymentReference).toBe('BANK-RUN-2026-11-23')
      expect(row.paidAt).toBeInstanceOf(Date)
    }
    expect((await action(bob.token, batch.id, 'cancel')).status).toBe(409)
    expect((await action(bob.token, batch.id, 'reconcile')).status).toBe(200)

    const audit = await db
      .selectFrom('auditLog')
      .select(['action', 'actorId', 'fromState', 'toState'])
      .where('entityId', '=', batch.id)
      .orderBy('id')
      .execute()
    expect(audit).toEqual([
      { action: 'payout_batch.prepare', actorId: alice.id, fromState: null, toState: 'draft' },
      { action: 'payout_batch.approve', actorId: bob.id, fromState: 'draft', toState: 'approved' },
      { action: 'payout_batch.export', actorId: carol.id, fromState: 'approved', toState: 'exported' },
      { action: 'payout_batch.sent', actorId: alice.id, fromState: 'exported', toState: 'sent' },
      { action: 'payout_batch.reconcile', actorId: bob.id, fromState: 'sent', toState: 'reconciled' },
    ])
  })

  it('the pain.001 file validates against the official ISO 20022 XSD (and a broken one does not)', async () => {
    const { alice, bob, deSeller, sale } = await world()
    await sale(deSeller, 'completed', 2500)
    await sale(deSeller, 'completed', 1999)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    await approvePayoutBatch({ batchId: batch.id, adminId: bob.id })
    await exportPayoutBatch({ batchId: batch.id, adminId: bob.id })
    const xml = await (await file(alice.token, batch.id, 'pain.001.xml')).text()
    expect(await validatePain001(xml)).toEqual({ valid: true, errors: [] })
    expect(xml).toContain('<NbOfTxs>1</NbOfTxs>')
    expect(xml).toContain(`<CtrlSum>${((2125 + 1699) / 100).toFixed(2)}</CtrlSum>`)
    // The validation can fail: an amount with three decimals and a missing debtor are refused.
    const broken = xml
      .replace('<InstdAmt Ccy="USD">38.24</InstdAmt>', '<InstdAmt Ccy="usd">38.245</InstdAmt>')
      .replace(/<Dbtr>[\s\S]*?<\/Dbtr>/, '')
    const result = await validatePain001(broken)
    expect(result.valid).toBe(false)
    expect(result.errors.join('\n')).toMatch(/Ccy|InstdAmt|Dbtr/)
    // The GB-only CSV does not exist for this batch.
    expect((await file(alice.token, batch.id, 'bank.csv')).status).toBe(404)
  })

  it('two admins racing to approve, then to export: exactly one succeeds each time', async () => {
    const { alice, bob, carol, gbSeller, sale } = await world()
    await sale(gbSeller, 'completed', 4000)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    const approvals = await Promise.all([action(bob.token, batch.id, 'approve'), action(carol.token, batch.id, 'approve')])
    expect(approvals.map((r) => r.status).sort()).toEqual([200, 409])
    const exports = await Promise.all([action(bob.token, batch.id, 'export'), action(carol.token, batch.id, 'export')])
    expect(exports.map((r) => r.status).sort()).toEqual([200, 409])
    const audit = await db.selectFrom('auditLog').select('action').where('entityId', '=', batch.id).execute()
    expect(audit.map((a) => a.action).sort()).toEqual(['payout_batch.approve', 'payout_batch.export', 'payout_batch.prepare'])
  })

  it('a sale refunded after preparation blocks the approval; a cancelled batch frees its sales for a new one', async () => {
    const { alice, bob, gbSeller, sale } = await world()
    const kept = await sale(gbSeller, 'completed', 4000)
    const refundedLater = await sale(gbSeller, 'completed', 2000)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    await db.updateTable('transactions').set({ status: 'refunded', refundedAt: new Date() }).where('id', '=', refundedLater.id).execute()
    const refused = await action(bob.token, batch.id, 'approve')
    expect(refused.status).toBe(409)
    expect((await refused.json()).error).toMatch(/is no longer due \(refunded\): cancel this batch and prepare a new one/)

    expect((await action(bob.token, batch.id, 'cancel', { reason: 'A sale was refunded' })).status).toBe(200)
    const next = await preparePayoutBatch({ adminId: bob.id })
    const lines = await db.selectFrom('payoutBatchLines').select('transactionId').where('batchId', '=', next.id).execute()
    expect(lines).toEqual([{ transactionId: kept.id }])
  })

  it('a refund at the provider while an exported batch pays the sale: refunded, and a money exception tells the admins', async () => {
    const { alice, bob, gbSeller, sale } = await world()
    const paying = await sale(gbSeller, 'completed', 4000)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    expect((await action(bob.token, batch.id, 'approve')).status).toBe(200)
    expect((await action(bob.token, batch.id, 'export')).status).toBe(200)
    await fire({ saleId: paying.id, event: 'refunded', by: { id: null, role: 'provider' }, refundId: 're_in_batch' })
    const exceptions = await db.selectFrom('moneyExceptions').selectAll().where('transactionId', '=', paying.id).execute()
    expect(exceptions).toHaveLength(1)
    expect(exceptions[0]).toMatchObject({ kind: 'refund_after_payout', amountCents: 4000, providerRef: 're_in_batch' })
    expect(exceptions[0]!.details).toContain(`payout batch ${batch.id} (exported)`)
  })

  it('the Payouts tab without JavaScript: prepare for the ticked sellers, the preparer cannot approve, another admin approves', async () => {
    const { alice, bob, gbSeller, deSeller, sale } = await world()
    await sale(gbSeller, 'completed', 4000)
    const none = await callRoute(adminScreen, formRequest('/admin?tab=payouts', { intent: 'prepare-batch' }, alice.token))
    expect(none.status).toBe(400)
    expect(await none.json()).toMatchObject({
      formId: 'prepare-batch-',
      result: { error: { sellerId: ['Choose at least one seller to pay'] } },
    })
    // The ticked sellers only: the DE seller's due sale stays out of this batch.
    const other = await sale(deSeller, 'completed', 2500)
    const prepared = await callRoute(
      adminScreen,
      formRequest('/admin?tab=payouts', { intent: 'prepare-batch', sellerId: gbSeller.id }, alice.token),
    )
    expect(prepared.status).toBe(302)
    expect(prepared.headers.get('Location')).toBe('/admin?tab=payouts')
    const page = await (await callRoute(adminScreen, screenRequest('/admin?tab=payouts', alice.token))).json()
    expect(page).toMatchObject({
      tab: 'payouts',
      adminId: alice.id,
      payoutsDue: [{ sellerId: deSeller.id, sales: 1, amountCents: other.sellerShareCents, blocker: null }],
      batches: [{ status: 'draft', totalCents: 3400 }],
    })
    expect(page.batches[0].payees[0]).toMatchObject({ sellerEmail: 'gb-seller@example.com', account: 'Sort code 040004 · •••• 5926' })
    const batchId = page.batches[0].id
    const own = await callRoute(adminScreen, formRequest('/admin?tab=payouts', { intent: 'approve-batch', batchId }, alice.token))
    expect(own.status).toBe(403)
    const byBob = await callRoute(adminScreen, formRequest('/admin?tab=payouts', { intent: 'approve-batch', batchId }, bob.token))
    expect(byBob.status).toBe(302)
    const noRef = await callRoute(
      adminScreen,
      formRequest('/admin?tab=payouts', { intent: 'send-batch', batchId, bankReference: '' }, bob.token),
    )
    expect(await noRef.json()).toMatchObject({
      formId: `send-batch-${batchId}`,
      result: { error: { bankReference: ['Payment reference is required'] } },
    })
  })
})

describe('seller statements', () => {
  it('one statement per payout received (sales, amounts, fees, reference, date), as JSON and CSV; nobody else sees it', async () => {
    const { alice, bob, gbSeller, deSeller, sale } = await world()
    const first = await sale(gbSeller, 'completed', 4000)
    const second = await sale(gbSeller, 'completed', 1000)
    await sale(deSeller, 'completed', 2500)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    await approvePayoutBatch({ batchId: batch.id, adminId: bob.id })
    await exportPayoutBatch({ batchId: batch.id, adminId: bob.id })
    // Not sent yet: no statement.
    const before = await callRoute(sellerPayoutsApi, apiRequest('/api/seller/payouts', { token: gbSeller.token }))
    expect((await before.json()).statements).toEqual([])
    await action(alice.token, batch.id, 'sent', { bankReference: 'BANK-42' })

    const list = await (await callRoute(sellerPayoutsApi, apiRequest('/api/seller/payouts', { token: gbSeller.token }))).json()
    expect(list.statements).toHaveLength(1)
    expect(list.statements[0]).toMatchObject({
      batchId: batch.id,
      bankReference: 'BANK-42',
      status: 'sent',
      amountCents: 5000,
      feeCents: 750,
      payoutCents: 4250,
    })
    expect(list.statements[0].lines.map((l: { transactionId: string }) => l.transactionId).sort()).toEqual([first.id, second.id].sort())

    const csv = await callRoute(statementApi, apiRequest(`/api/seller/payouts/${batch.id}/statement.csv`, { token: gbSeller.token }), {
      batchId: batch.id,
    })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Disposition')).toMatch(/^attachment; filename="forkmarket-payout-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv"$/)
    const text = await csv.text()
    expect(text.split('\r\n')[0]).toBe(
      '"payout_date","bank_reference","sale_id","listing","completed_at","amount_usd","platform_fee_usd","payout_usd"',
    )
    expect(text).toContain(`"BANK-42","${first.id}","Kit completed 4000"`)
    expect(text).toContain('"40.00","6.00","34.00"')
    expect(text).toContain('"total","","","","","50.00","7.50","42.50"')

    // Another seller (who was paid in the same batch) and a buyer get 404.
    for (const token of [deSeller.token, (await signUp('nosy@example.com')).token]) {
      const other = await callRoute(statementApi, apiRequest(`/api/seller/payouts/${batch.id}/statement.csv`, { token }), {
        batchId: batch.id,
      })
      if (token === deSeller.token) expect(other.status).toBe(200)
      else expect(other.status).toBe(404)
    }
    const deText = await (
      await callRoute(statementApi, apiRequest(`/api/seller/payouts/${batch.id}/statement.csv`, { token: deSeller.token }), {
        batchId: batch.id,
      })
    ).text()
    expect(deText).not.toContain(first.id)
  })
})

describe('bank details: four eyes on a change of approved details', () => {
  const DE = { country: 'DE' as const, accountHolder: 'Ada', bankName: 'N26', sortCode: null, accountNumber: null, routingNumber: null }

  it('needs two different admins; the same admin twice is refused by the API and the database', async () => {
    const { alice, bob, gbSeller } = await world()
    const seller = gbSeller
    // Their details were approved (version 1); they change them: pending, and two approvals needed.
    const changed = await saveBankDetails(seller.id, { ...DE, iban: DE_IBAN, swift: 'COBADEFFXXX' })
    const version = changed.bankDetails.version
    expect(changed.bankDetails).toMatchObject({ status: 'pending', needsTwoApprovals: true, version: 2 })
    // Never the seller themself.
    await expect(approveBankDetails({ userId: seller.id, adminId: seller.id, version })).rejects.toThrow(
      'You cannot approve your own bank details',
    )

    const response = await callRoute(
      approveApi,
      apiRequest(`/api/admin/bank-details/${seller.id}/approve`, { method: 'POST', token: alice.token, json: { version } }),
      { userId: seller.id },
    )
    expect(response.status).toBe(200)
    const once = await response.json()
    expect(once.message).toBe('First approval recorded: a different admin must approve')
    expect(once.bankDetails).toMatchObject({ status: 'pending', needsTwoApprovals: true })
    expect(once.bankDetails.firstApprovedAt).toEqual(expect.any(String))
    await expect(approveBankDetails({ userId: seller.id, adminId: alice.id, version })).rejects.toThrow(
      'A different admin must give the second approval of changed bank details',
    )
    await expect(
      sql`UPDATE bank_details SET status = 'approved', approved_at = now(), approved_by = first_approved_by WHERE user_id = ${seller.id}`.execute(
        db,
      ),
    ).rejects.toThrow(/bank_details_four_eyes/)
    const done = await approveBankDetails({ userId: seller.id, adminId: bob.id, version })
    expect(done).toMatchObject({ status: 'approved', needsTwoApprovals: false })
    const audit = await db.selectFrom('auditLog').select(['action', 'actorId']).where('entityId', '=', seller.id).orderBy('id').execute()
    expect(audit.slice(-2)).toEqual([
      { action: 'bank_details.first_approve', actorId: alice.id },
      { action: 'bank_details.approve', actorId: bob.id },
    ])
  })
})

/** A draft batch with the given lines' seller as payee (to try the one-live-line index). */
async function preparedDraft(adminId: string, lines: { sellerId: string }[]) {
  const batch = await db
    .insertInto('payoutBatches')
    .values({ totalCents: 1, preparedBy: adminId, preparedAt: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow()
  await db
    .insertInto('payoutBatchPayees')
    .values({
      batchId: batch.id,
      sellerId: lines[0]!.sellerId,
      position: 1,
      amountCents: 1,
      bankDetailsVersion: 1,
      country: 'GB',
      accountHolder: 'x',
      bankName: 'x',
    })
    .execute()
  return batch
}

describe('one bank account approved for two sellers (issue 26.5)', () => {
  it('the approving admin is warned on the bank-details screen, and the batch shows it on both payees', async () => {
    const { alice, bob, gbSeller, deSeller, sale } = await world()
    // The same sort code and account number as gbSeller's approved details, typed differently.
    const twin = await signUp('twin-seller@example.com')
    await giveBankDetails(twin.id, 'pending')
    await db.updateTable('bankDetails').set({ sortCode: '04-00-04' }).where('userId', '=', twin.id).execute()
    const other = await signUp('other-seller@example.com')
    await giveBankDetails(other.id, 'pending', '99887766')

    const screen = await (await callRoute(adminScreen, screenRequest('/admin?tab=bank-details', alice.token))).json()
    const shared = Object.fromEntries(
      screen.pendingBank.map((e: { email: string; sharedAccountWith: string[] }) => [e.email, e.sharedAccountWith]),
    )
    expect(shared).toEqual({ 'twin-seller@example.com': ['gb-seller@example.com'], 'other-seller@example.com': [] })
    const html = renderToString(
      createElement(
        createRoutesStub([{ path: '/', Component: () => createElement(PendingBankDetails, { entries: screen.pendingBank }) }]),
        {
          initialEntries: ['/'],
        },
      ),
    )
    expect(html.replaceAll('<!-- -->', '')).toContain('This bank account is already approved for gb-seller@example.com')

    await approveBankDetails({ adminId: bob.id, userId: twin.id, version: 1 })
    await sale(gbSeller, 'completed', 5000)
    await sale(twin, 'completed', 3000)
    await sale(deSeller, 'completed', 2000)
    const batch = await preparePayoutBatch({ adminId: alice.id })
    const view = await (
      await callRoute(batchApi, apiRequest(`/api/admin/payout-batches/${batch.id}`, { token: bob.token }), { batchId: batch.id })
    ).json()
    const payees = Object.fromEntries(
      view.batch.payees.map((p: { sellerEmail: string; sharedAccountWith: string[] }) => [p.sellerEmail, p.sharedAccountWith]),
    )
    expect(payees).toEqual({
      'gb-seller@example.com': ['twin-seller@example.com'],
      'twin-seller@example.com': ['gb-seller@example.com'],
      'de-seller@example.com': [],
    })
  })
})

describe('may this seller be paid: one rule, in SQL and in code (issue 27.4)', () => {
  it('`payable` selects exactly the sales isPayoutDue and sellerMayBePaid accept, a suspended seller included (issue 30)', async () => {
    const buyer = await signUp('rule-buyer@example.com')
    const [first, second] = [
      await signUp('rule-admin-1@example.com', { admin: true }),
      await signUp('rule-admin-2@example.com', { admin: true }),
    ]
    const sales: { id: string; status: TransactionStatus; paidAt: Date | null; sellerId: string }[] = []
    // Each bank state, and approved details under each suspension state: only an active one holds payouts.
    const sellers = [
      ...([null, 'pending', 'approved', 'rejected'] as const).map((bank) => ({ bank, suspension: null })),
      ...(['requested', 'active', 'lifted'] as const).map((suspension) => ({ bank: 'approved' as const, suspension })),
    ]
    for (const { bank, suspension } of sellers) {
      const seller = await signUp(`rule-seller-${bank ?? 'none'}-${suspension ?? 'free'}@example.com`)
      if (bank) await giveBankDetails(seller.id, bank)
      if (suspension) {
        const approved = suspension === 'requested' ? {} : { approvedBy: second.id, approvedAt: new Date() }
        const ended = suspension === 'lifted' ? { endedBy: second.id, endedAt: new Date(), endReason: 'Lifted' } : {}
        await db
          .insertInto('userSuspensions')
          .values({
            userId: seller.id,
            status: suspension,
            reason: 'Rule test',
            requestedBy: first.id,
            requestedAt: new Date(),
            ...approved,
            ...ended,
          })
          .execute()
      }
      for (const [status, paymentReference] of [['completed'], ['completed', 'BANK-9'], ['delivered'], ['refunded']] as const) {
        const listing = await createListing(seller.id, {
          priceCents: 2000,
          title: `Rule ${bank} ${suspension} ${status} ${paymentReference ?? ''}`,
        })
        const row = await createSale({
          listingId: listing.id,
          sellerId: seller.id,
          buyerId: buyer.id,
          amountCents: 2000,
          status,
          paymentReference,
        })
        const { paidAt } = await db.selectFrom('transactions').select('paidAt').where('id', '=', row.id).executeTakeFirstOrThrow()
        sales.push({ id: row.id, status, paidAt, sellerId: seller.id })
      }
    }
    // The code's rule reads the seller's standing as the screens do (the admin's sales table), on the same rows.
    const standing = new Map<string, { bankStatus: BankDetailsStatus | null; suspended: boolean }>()
    for (const sale of sales) {
      const t = (await getAdminTransaction(sale.id))!
      standing.set(sale.id, { bankStatus: t.sellerBankStatus, suspended: t.sellerSuspended })
    }
    const selected = await db
      .selectFrom('transactions')
      .select('id')
      .where(payable)
      .where(
        'id',
        'in',
        sales.map((s) => s.id),
      )
      .execute()
    const expected = sales.filter((s) => isPayoutDue(s) && sellerMayBePaid(standing.get(s.id)!)).map((s) => s.id)
    // Due and approved: the seller without a suspension, the one whose request is not approved, the one lifted.
    expect(expected).toHaveLength(3)
    expect(selected.map((r) => r.id).sort()).toEqual(expected.sort())
  })
})
