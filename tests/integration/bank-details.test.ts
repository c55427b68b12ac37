import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { BankDetailsInput } from '../../app/lib/bank-details-schema.ts'
import * as bankDetailsApi from '../../app/routes/api/bank-details.ts'
import * as profile from '../../app/routes/profile.tsx'
import { saveBankDetails } from '../../app/server/domain/bank-details.server.ts'
import { AppError } from '../../app/server/domain/errors.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { decryptSecret } from '../../app/server/infra/secret-box.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { formRequest, giveBankDetails, screenRequest, signUp } from './admin-fixtures.ts'

const GB = { country: 'GB', accountHolder: 'Ada Okafor', bankName: 'Monzo', sortCode: '04-00-04', accountNumber: '31415926' }
const US = { country: 'US', accountHolder: 'Ada Okafor', bankName: 'Chase', routingNumber: '021000021', accountNumber: '12345678' }
const DE = {
  country: 'DE',
  accountHolder: 'Ada Okafor',
  bankName: 'Commerzbank',
  iban: 'DE89 3704 0044 0532 0130 00',
  swift: 'COBADEFFXXX',
}

async function post(token: string | undefined, json: unknown) {
  return callRoute(bankDetailsApi, apiRequest('/api/profile/bank-details', { method: 'POST', token, json }))
}
async function get(token: string | undefined) {
  return callRoute(bankDetailsApi, apiRequest('/api/profile/bank-details', { token }))
}
async function row(userId: string) {
  return db.selectFrom('bankDetails').selectAll().where('userId', '=', userId).executeTakeFirstOrThrow()
}

describe('GET/POST /api/profile/bank-details', () => {
  it('anonymous → 401 JSON on both', async () => {
    expect((await get(undefined)).status).toBe(401)
    const response = await post(undefined, GB)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'Authentication required' })
  })

  it('no details yet → { bankDetails: null }', async () => {
    const { token } = await signUp('new@example.com')
    const response = await get(token)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ bankDetails: null })
  })

  it('saves GB details as pending, encrypted at rest and masked in every response', async () => {
    const { id, token } = await signUp('gb@example.com')
    const response = await post(token, GB)
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain('31415926')
    const body = JSON.parse(text)
    expect(body.message).toMatch(/submitted for approval/)
    expect(body.bankDetails).toMatchObject({
      country: 'GB',
      sortCode: '040004',
      accountNumber: '•••• 5926',
      iban: null,
      status: 'pending',
      approved: false,
      approvedAt: null,
      rejectionReason: null,
    })

    const stored = await row(id)
    expect(stored.accountNumberEncrypted).toBeTruthy()
    expect(stored.accountNumberEncrypted).not.toContain('31415926')
    expect(JSON.stringify(stored)).not.toContain('31415926')
    expect(decryptSecret(stored.accountNumberEncrypted!)).toBe('31415926')
    expect(stored.accountNumberLast4).toBe('5926')

    const read = await (await get(token)).text()
    expect(read).not.toContain('31415926')
    expect(JSON.parse(read).bankDetails.accountNumber).toBe('•••• 5926')

    const audit = await db.selectFrom('auditLog').selectAll().execute()
    expect(audit).toMatchObject([{ action: 'bank_details.submit', actorId: id, toState: 'pending' }])
  })

  it('saves US and IBAN-country details, keeping only the chosen country fields', async () => {
    const us = await signUp('us@example.com')
    const usBody = await (await post(us.token, { ...US, iban: 'DE89370400440532013000' })).json()
    expect(usBody.bankDetails).toMatchObject({ country: 'US', routingNumber: '021000021', accountNumber: '•••• 5678', iban: null })

    const de = await signUp('de@example.com')
    const deResponse = await post(de.token, { ...DE, accountNumber: '11112222' })
    const deText = await deResponse.text()
    expect(deText).not.toContain('DE89370400440532013000')
    expect(JSON.parse(deText).bankDetails).toMatchObject({ country: 'DE', iban: '•••• 3000', swift: 'COBADEFFXXX', accountNumber: null })
    const stored = await row(de.id)
    expect(stored.ibanEncrypted).not.toContain('DE89')
    expect(decryptSecret(stored.ibanEncrypted!)).toBe('DE89370400440532013000')
    expect(stored.accountNumberEncrypted).toBeNull()
  })

  it('answers 400 { error, fields } with every validation message', async () => {
    const { token, id } = await signUp('bad@example.com')
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{}, { country: ['Country is required'], accountHolder: ['Account holder name is required'], bankName: ['Bank name is required'] }],
      [
        { ...GB, accountHolder: '  ', bankName: '' },
        { accountHolder: ['Account holder name is required'], bankName: ['Bank name is required'] },
      ],
      [{ ...GB, country: 'ZZ' }, { country: ['Country is required'] }],
      [{ ...GB, sortCode: '1234567' }, { sortCode: ['Sort code must be 6 digits'] }],
      [{ ...GB, accountNumber: '123' }, { accountNumber: ['Account number must be 8 digits'] }],
      [
        { ...GB, sortCode: undefined, accountNumber: undefined },
        { sortCode: ['Sort code is required'], accountNumber: ['Account number is required'] },
      ],
      [{ ...US, routingNumber: '021000022' }, { routingNumber: ['Routing number is not valid (check digit mismatch)'] }],
      [{ ...US, routingNumber: '0210000' }, { routingNumber: ['Routing number must be 9 digits'] }],
      [{ ...DE, iban: 'DE89370400440532013001' }, { iban: ['IBAN check digits do not match — please check for typos'] }],
      [{ ...DE, iban: undefined }, { iban: ['IBAN is required'] }],
      [{ ...DE, swift: 'COBADEFFX' }, { swift: ['BIC must be 8 or 11 characters'] }],
    ]
    for (const [input, fields] of cases) {
      const response = await post(token, input)
      expect(response.status, JSON.stringify(input)).toBe(400)
      const body = await response.json()
      expect(body.error).toBe('Please check the highlighted fields')
      expect(body.fields, JSON.stringify(input)).toEqual(fields)
    }
    expect(await db.selectFrom('bankDetails').where('userId', '=', id).selectAll().execute()).toEqual([])
  })

  it('a body that is not JSON → 400, never a 500', async () => {
    const { token } = await signUp('json@example.com')
    const request = apiRequest('/api/profile/bank-details', {
      method: 'POST',
      token,
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
    })
    const response = await callRoute(bankDetailsApi, request)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'The request body is not valid JSON' })
  })

  it('ignores status, approval and rejection fields in the body (mass assignment)', async () => {
    const { id, token } = await signUp('sneaky@example.com')
    const response = await post(token, { ...GB, status: 'approved', approved: true, approvedAt: new Date().toISOString(), approvedBy: id })
    expect((await response.json()).bankDetails).toMatchObject({ status: 'pending', approved: false, approvedAt: null })
    expect(await row(id)).toMatchObject({ status: 'pending', approvedAt: null, approvedBy: null })
  })

  it('resubmitting rejected details and editing approved ones send them back to pending', async () => {
    const rejected = await signUp('rejected@example.com')
    await giveBankDetails(rejected.id, 'rejected')
    const resubmitted = await (await post(rejected.token, GB)).json()
    expect(resubmitted.bankDetails).toMatchObject({ status: 'pending', rejectedAt: null, rejectionReason: null })

    const approved = await signUp('approved@example.com')
    await giveBankDetails(approved.id, 'approved')
    const edited = await (await post(approved.token, { ...GB, bankName: 'Barclays', accountNumber: '•••• 5926' })).json()
    expect(edited.message).toMatch(/need admin approval again/)
    expect(edited.bankDetails).toMatchObject({ status: 'pending', approvedAt: null, bankName: 'Barclays', accountNumber: '•••• 5926' })
    expect(decryptSecret((await row(approved.id)).accountNumberEncrypted!)).toBe('31415926')
  })

  it('saving approved details unchanged keeps the approval', async () => {
    const { id, token } = await signUp('same@example.com')
    await giveBankDetails(id, 'approved')
    const body = await (await post(token, { ...GB, accountHolder: 'Test Seller', accountNumber: '•••• 5926' })).json()
    expect(body).toMatchObject({ message: 'Your bank details are unchanged.', bankDetails: { status: 'approved', approved: true } })
  })

  it('keeps the stored number when the masked value comes back, refuses a mask that does not match', async () => {
    const { id, token } = await signUp('mask@example.com')
    await post(token, GB)
    const before = (await row(id)).accountNumberEncrypted
    await post(token, { ...GB, bankName: 'Starling', accountNumber: '•••• 5926' })
    expect((await row(id)).accountNumberEncrypted).toBe(before)

    const wrong = await post(token, { ...GB, accountNumber: '•••• 1111' })
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).fields).toEqual({ accountNumber: ['Please enter the full account number'] })

    // A masked IBAN cannot stand in for an account number that was never stored.
    const switched = await post(token, { ...DE, iban: '•••• 3000' })
    expect(switched.status).toBe(400)
    expect((await switched.json()).fields).toEqual({ iban: ['Please enter the full IBAN'] })
  })
})

describe('/profile screen', () => {
  it('redirects an anonymous visitor to the login page', async () => {
    const response = await callRoute(profile, screenRequest('/profile'))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fprofile')
  })

  it('shows masked details only', async () => {
    const { id, token } = await signUp('screen@example.com')
    await giveBankDetails(id, 'rejected')
    const response = await callRoute(profile, screenRequest('/profile', token))
    const text = await response.text()
    expect(text).not.toContain('31415926')
    expect(JSON.parse(text).bankDetails).toMatchObject({ accountNumber: '•••• 5926', status: 'rejected', rejectionReason: 'Name mismatch' })
  })

  it('a form post without JavaScript saves and redirects with a toast; errors come back as field errors', async () => {
    const { id, token } = await signUp('form@example.com')
    // Every country group is posted without JavaScript: only the chosen country's fields count.
    const ok = await callRoute(profile, formRequest('/profile', { ...US, sortCode: '', iban: 'junk', swift: '' }, token))
    expect(ok.status).toBe(302)
    expect(ok.headers.get('Location')).toBe('/profile')
    expect(ok.headers.get('Set-Cookie')).toContain('fm_toast')
    expect(await row(id)).toMatchObject({ country: 'US', routingNumber: '021000021', ibanEncrypted: null })

    const bad = await callRoute(profile, formRequest('/profile', { country: '', accountHolder: '', bankName: '' }, token))
    expect(bad.status).toBe(400)
    const body = await bad.json()
    expect(body.result.error).toMatchObject({
      country: ['Country is required'],
      accountHolder: ['Account holder name is required'],
      bankName: ['Bank name is required'],
    })
  })
})

describe('first submissions racing (issue 27.4: the machine writes once per state and version)', () => {
  it('a first submission that finds another one just made is refused (409), never written over it', async () => {
    const { id } = await signUp('racing@example.com')
    const input = { ...GB, sortCode: '040004', routingNumber: null, swift: null, iban: null } as BankDetailsInput
    let second: Promise<unknown> | undefined
    await db.transaction().execute(async (trx) => {
      // The other submission's row, not yet committed: the second one cannot see it, and its INSERT waits.
      await trx
        .insertInto('bankDetails')
        .values({
          userId: id,
          country: 'GB',
          accountHolder: 'Ada Okafor',
          bankName: 'Monzo',
          sortCode: '040004',
          accountNumberLast4: '5926',
        })
        .execute()
      second = saveBankDetails(id, input).then(
        () => 'saved',
        (error: unknown) => error,
      )
      for (let i = 0; i < 200; i++) {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'insert into "bank_details"%'`.execute(db)
        if (rows[0]!.n > 0) break
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    })
    const outcome = await second
    expect(outcome).toBeInstanceOf(AppError)
    expect(outcome).toMatchObject({ status: 409, message: 'These bank details changed since you opened them' })
    expect(await row(id)).toMatchObject({ version: 1, accountHolder: 'Ada Okafor', accountNumberLast4: '5926' })
    const audit = await db.selectFrom('auditLog').select('action').where('entityId', '=', id).execute()
    expect(audit).toEqual([])
  })
})
