import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import {
  BankDetailsFieldsSchema,
  bankDetailsPayload,
  BankDetailsSchema,
  bicError,
  ibanChecksumValid,
  ibanError,
  isMaskedValue,
  maskLast4,
  routingChecksumValid,
} from './bank-details-schema.ts'

function errorsOf(input: Record<string, unknown>) {
  const result = BankDetailsSchema.safeParse(bankDetailsPayload(input))
  if (result.success) return {}
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) (fields[String(issue.path[0])] ??= []).push(issue.message)
  return fields
}

const GB = { country: 'GB', accountHolder: 'Ada Okafor', bankName: 'Monzo', sortCode: '04-00-04', accountNumber: '31415926' }
const US = { country: 'US', accountHolder: 'Ada Okafor', bankName: 'Chase', routingNumber: '021000021', accountNumber: '12345678' }
const DE = {
  country: 'DE',
  accountHolder: 'Ada Okafor',
  bankName: 'Commerzbank',
  iban: 'DE89 3704 0044 0532 0130 00',
  swift: 'cobadeffxxx',
}

describe('BankDetailsSchema', () => {
  it('requires country, account holder and bank name with the spec messages', () => {
    expect(errorsOf({})).toMatchObject({
      country: ['Country is required'],
      accountHolder: ['Account holder name is required'],
      bankName: ['Bank name is required'],
    })
    expect(errorsOf({ country: 'XX', accountHolder: '   ', bankName: ' ' })).toMatchObject({
      country: ['Country is required'],
      accountHolder: ['Account holder name is required'],
      bankName: ['Bank name is required'],
    })
  })

  it('accepts GB, US and IBAN countries and stores canonical values of the chosen country only', () => {
    expect(BankDetailsSchema.parse(bankDetailsPayload({ ...GB, iban: 'junk', routingNumber: 'junk' }))).toEqual({
      country: 'GB',
      accountHolder: 'Ada Okafor',
      bankName: 'Monzo',
      sortCode: '040004',
      accountNumber: '31415926',
      routingNumber: null,
      iban: null,
      swift: null,
    })
    expect(BankDetailsSchema.parse(bankDetailsPayload(US))).toMatchObject({
      routingNumber: '021000021',
      accountNumber: '12345678',
      sortCode: null,
    })
    expect(BankDetailsSchema.parse(bankDetailsPayload({ ...DE, accountNumber: '999' }))).toMatchObject({
      iban: 'DE89370400440532013000',
      swift: 'COBADEFFXXX',
      accountNumber: null,
    })
  })

  it('checks the chosen country fields, even while other required fields are missing', () => {
    expect(errorsOf({ country: 'GB' })).toMatchObject({
      sortCode: ['Sort code is required'],
      accountNumber: ['Account number is required'],
      accountHolder: ['Account holder name is required'],
    })
    expect(errorsOf({ ...GB, sortCode: '12345', accountNumber: '1234567' })).toEqual({
      sortCode: ['Sort code must be 6 digits'],
      accountNumber: ['Account number must be 8 digits'],
    })
    expect(errorsOf({ ...US, routingNumber: undefined, accountNumber: undefined })).toEqual({
      routingNumber: ['Routing number is required'],
      accountNumber: ['Account number is required'],
    })
    expect(errorsOf({ ...US, routingNumber: '12345678' })).toEqual({ routingNumber: ['Routing number must be 9 digits'] })
    expect(errorsOf({ ...US, routingNumber: '021000022' })).toEqual({
      routingNumber: ['Routing number is not valid (check digit mismatch)'],
    })
    expect(errorsOf({ ...US, accountNumber: '12a' })).toEqual({ accountNumber: ['Account number must be 4 to 17 digits'] })
    expect(errorsOf({ ...DE, iban: undefined })).toEqual({ iban: ['IBAN is required'] })
    expect(errorsOf({ ...DE, iban: 'DE88370400440532013000' })).toEqual({
      iban: ['IBAN check digits do not match — please check for typos'],
    })
    expect(errorsOf({ ...DE, iban: 'DE8937040044053201300' })).toEqual({ iban: ['A DE IBAN has 22 characters'] })
    expect(errorsOf({ ...DE, swift: 'COBADEFFX' })).toEqual({ swift: ['BIC must be 8 or 11 characters'] })
    expect(errorsOf({ ...DE, swift: '1OBADEFF' })).toEqual({
      swift: ['BIC is not valid (4-letter bank code, 2-letter country code, location)'],
    })
    expect(errorsOf({ ...DE, swift: undefined })).toEqual({})
  })

  it('lets a masked number through unchanged (the server resolves it against the stored one)', () => {
    expect(BankDetailsSchema.parse(bankDetailsPayload({ ...GB, accountNumber: '•••• 5926' })).accountNumber).toBe('•••• 5926')
    expect(BankDetailsSchema.parse(bankDetailsPayload({ ...DE, iban: '•••• 3000' })).iban).toBe('•••• 3000')
    expect(isMaskedValue(maskLast4('1234'))).toBe(true)
    expect(isMaskedValue('•••• 12345')).toBe(false)
  })

  it('works through Conform with form data (the /profile path)', () => {
    const form = new FormData()
    for (const [k, v] of Object.entries({ ...US, iban: '', swift: '' })) form.set(k, v)
    const submission = parseWithZod(form, { schema: BankDetailsSchema })
    expect(submission.status).toBe('success')
    const empty = parseWithZod(new FormData(), { schema: BankDetailsSchema })
    expect(empty.status).toBe('error')
    expect(empty.reply().error).toMatchObject({ country: ['Country is required'] })
  })

  it('gives the form its HTML constraints (required only where the spec requires)', () => {
    const constraint = getZodConstraint(BankDetailsFieldsSchema)
    expect(constraint.country?.required).toBe(true)
    expect(constraint.accountHolder?.required).toBe(true)
    expect(constraint.iban?.required).toBe(false)
  })

  it('ignores fields the client may not set', () => {
    expect(bankDetailsPayload({ ...GB, status: 'approved', approved: true, approvedAt: 'now' })).not.toHaveProperty('status')
    expect(bankDetailsPayload({ ...US, accountNumber: 12345678, bankName: { x: 1 } })).toMatchObject({
      accountNumber: '12345678',
      bankName: undefined,
    })
  })
})

describe('checksums', () => {
  it('IBAN mod-97', () => {
    for (const iban of [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'BE68539007547034',
    ]) {
      expect(ibanChecksumValid(iban), iban).toBe(true)
      expect(ibanError(iban), iban).toBeNull()
    }
    expect(ibanChecksumValid('GB82WEST12345698765433')).toBe(false)
  })
  it('ABA routing check digit', () => {
    expect(routingChecksumValid('021000021')).toBe(true)
    expect(routingChecksumValid('011000015')).toBe(true)
    expect(routingChecksumValid('021000022')).toBe(false)
    expect(routingChecksumValid('02100002')).toBe(false)
  })
  it('BIC shape', () => {
    expect(bicError('COBADEFF')).toBeNull()
    expect(bicError('COBADEFFXXX')).toBeNull()
    expect(bicError('COBADE')).toBe('BIC must be 8 or 11 characters')
  })
})

describe('real validation (issue 19: ibantools, sort code, ABA)', () => {
  it('IBAN: registered format and national check digits, country, length; valid ones pass', () => {
    expect(ibanError('DE89370400440532013000')).toBeNull()
    expect(ibanError('GB33BUKB20201555555555')).toBeNull()
    expect(ibanError('XX89370400440532013000')).toBe('XX is not a country that uses IBANs')
    expect(ibanError('GB82WEST1234569876543')).toBe('A GB IBAN has 22 characters')
    // Right length, wrong BBAN shape (a GB IBAN's bank code is 4 letters).
    expect(ibanError('GB82123412345698765432')).toBe('This is not the format of a GB IBAN — please check for typos')
    expect(ibanError('GB82WEST12345698765433')).toBe('IBAN check digits do not match — please check for typos')
    // Belgium's national check digits (the last two of the account): mod-97 right, national wrong.
    expect(ibanError('BE71096123456769')).toBeNull()
    expect(ibanError('BE98096123456768')).toBe('The account number inside this IBAN is not valid — please check for typos')
  })
  it('BIC: shape and a country that exists', () => {
    expect(bicError('DEUTDEFF')).toBeNull()
    expect(bicError('DEUTDEFF500')).toBeNull()
    expect(bicError('DEUTXXFF')).toBe('BIC country code XX does not exist')
    expect(bicError('DEU1DEFF')).toBe('BIC is not valid (4-letter bank code, 2-letter country code, location)')
  })
  it('UK sort code and account, US ABA routing, with the form messages', () => {
    expect(errorsOf({ ...GB, sortCode: '04-00-0', accountNumber: '3141592' })).toEqual({
      sortCode: ['Sort code must be 6 digits'],
      accountNumber: ['Account number must be 8 digits'],
    })
    expect(errorsOf({ ...US, routingNumber: '011000015' })).toEqual({})
    expect(errorsOf({ ...US, routingNumber: '011000016' })).toEqual({
      routingNumber: ['Routing number is not valid (check digit mismatch)'],
    })
    expect(errorsOf({ ...DE, iban: 'DE89 3704 0044 0532 0130 01' })).toEqual({
      iban: ['IBAN check digits do not match — please check for typos'],
    })
    expect(errorsOf({ ...DE, swift: 'COBAXXFF' })).toEqual({ swift: ['BIC country code XX does not exist'] })
  })
})
