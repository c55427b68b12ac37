import { describe, expect, it } from 'vitest'
import * as adminScreen from '../../app/routes/admin.tsx'
import * as csvApi from '../../app/routes/api/admin-reconciliation-csv.ts'
import { RECONCILIATION_JOBS, RECONCILIATION_TASK } from '../../app/server/domain/reconciliation.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { stripeEmulator } from '../support/stripe.ts'
import { createListing, createSale, formRequest, screenRequest, signUp } from './admin-fixtures.ts'

// Issue 19: the admin's Reconciliation tab: a POST runs and stores a reconciliation, the GET
// only reads, a CSV per run, and admins are told when differences are found.

const run = (token: string) => callRoute(adminScreen, formRequest('/admin?tab=reconciliation', { intent: 'run-reconciliation' }, token))
const csv = (token: string, runId: string) =>
  callRoute(csvApi, apiRequest(`/api/admin/reconciliations/${runId}/exceptions.csv`, { token }), { runId })

describe('the Reconciliation tab', () => {
  it('a clean run is stored and says so; the tab only reads; the CSV has one row saying clean', async () => {
    stripeEmulator.clear()
    const admin = await signUp('recon-admin@example.com', { admin: true })
    const page = async () => (await callRoute(adminScreen, screenRequest('/admin?tab=reconciliation', admin.token))).json()
    expect(await page()).toMatchObject({ tab: 'reconciliation', reconciliationRuns: [] })
    expect(await db.selectFrom('reconciliationRuns').select('id').execute()).toEqual([]) // GET wrote nothing

    const response = await run(admin.token)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/admin?tab=reconciliation')
    const [stored] = (await page()).reconciliationRuns
    expect(stored).toMatchObject({ trigger: 'admin', requestedBy: admin.id, exceptionCount: 0, exceptions: [] })

    const file = await csv(admin.token, stored.id)
    expect(file.status).toBe(200)
    expect(file.headers.get('Content-Type')).toMatch(/text\/csv/)
    const lines = (await file.text()).trim().split('\r\n')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('"clean","No differences found"')
    expect(await db.selectFrom('notificationOutbox').select('id').execute()).toEqual([])
  })

  it('differences are listed with their sale and rule, in the CSV too, and every admin is notified', async () => {
    stripeEmulator.clear()
    const alice = await signUp('recon-alice@example.com', { admin: true })
    const bob = await signUp('recon-bob@example.com', { admin: true })
    const seller = await signUp('recon-seller@example.com')
    const buyer = await signUp('recon-buyer@example.com')
    const listing = await createListing(seller.id, { priceCents: 4900 })
    // A sale the provider never charged and the ledger never saw: escrow and seller balance disagree.
    const sale = await createSale({ listingId: listing.id, sellerId: seller.id, buyerId: buyer.id, amountCents: 4900, status: 'paid' })

    expect((await run(bob.token)).status).toBe(302)
    const stored = await db.selectFrom('reconciliationRuns').selectAll().executeTakeFirstOrThrow()
    expect(stored.exceptionCount).toBeGreaterThan(0)
    expect(stored.exceptions).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'escrow', transactionId: sale.id, expectedCents: 4900, actualCents: 0 })]),
    )

    const text = await (await csv(alice.token, stored.id)).text()
    expect(text).toContain(`"escrow","A sale’s money is in escrow exactly while it is paid and not completed or refunded","${sale.id}"`)
    expect(text).toContain('"49.00","0.00"')

    const told = await db.selectFrom('notificationOutbox').select(['userId', 'kind']).orderBy('userId').execute()
    expect(told).toEqual([alice.id, bob.id].sort().map((userId) => ({ userId, kind: 'admin_reconciliation_exceptions' })))
  })

  it('only admins run it or read a run; an unknown run is 404', async () => {
    const seller = await signUp('recon-not-admin@example.com')
    const admin = await signUp('recon-admin2@example.com', { admin: true })
    const refused = await run(seller.token)
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe('/')
    expect(await db.selectFrom('reconciliationRuns').select('id').execute()).toEqual([])
    expect((await csv(admin.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await csv(admin.token, 'not-a-uuid')).status).toBe(404)
    expect((await csv(seller.token, '00000000-0000-4000-8000-000000000000')).status).toBe(403)
  })

  it('runs daily with the job worker', () => {
    expect(RECONCILIATION_JOBS).toEqual([expect.objectContaining({ name: RECONCILIATION_TASK, sweep: '15 4 * * *' })])
  })
})
