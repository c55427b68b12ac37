import { countrySpecs, validateBIC, validateIBAN, ValidationErrorsBIC, ValidationErrorsIBAN } from 'ibantools'
import { z } from '~/lib/zod'
import { COUNTRIES, type Country } from './options.ts'

/**
 * The bank details form (spec §3 "Bank details", §5 validation), shared by
 * /profile (Conform, both sides) and POST /api/profile/bank-details.
 *
 * The spec only requires country, account holder and bank name and gives the
 * rest as hints. We also require the identifiers a bank transfer needs for the
 * chosen country (GB: sort code + account number, US: routing + account
 * number, every other country: IBAN) and check them for real (issue 19):
 * IBAN and BIC with ibantools (registered length and format, mod-97 and
 * national check digits, BIC country), UK sort code 6 digits and account 8
 * digits, US routing 9 digits with the ABA check digit. Fields of the other
 * countries are ignored (without JavaScript the form shows every group).
 */

/** How a stored account number or IBAN is shown back: never more than the last four characters. */
export const MASK_PREFIX = '•••• '
const MASKED = /^•••• [0-9A-Z]{4}$/

export function maskLast4(last4: string | null | undefined): string | null {
  return last4 ? `${MASK_PREFIX}${last4}` : null
}

/** True for the masked value we sent out: submitting it unchanged keeps the stored number. */
export function isMaskedValue(value: string | null | undefined): boolean {
  return typeof value === 'string' && MASKED.test(value)
}

/**
 * A seller's bank account, one shape everywhere: in full on the admin's approval and payout
 * screens and in the bank files, masked (last four) in the seller's own form.
 */
export interface BankAccountDetails {
  country: string
  accountHolder: string
  bankName: string
  sortCode: string | null
  accountNumber: string | null
  routingNumber: string | null
  iban: string | null
  swift: string | null
}

export type FieldGroup = 'sortCode' | 'accountNumber' | 'routingNumber' | 'iban' | 'swift'

/** Which account fields a country uses (spec §5: GB sort code + account number, US routing + account number, others IBAN + BIC/SWIFT). */
export function fieldsForCountry(country: Country | '' | undefined | null): FieldGroup[] {
  if (country === 'GB') return ['sortCode', 'accountNumber']
  if (country === 'US') return ['routingNumber', 'accountNumber']
  if (country) return ['iban', 'swift']
  return []
}

/** Hints as the spec words them (§5: "hints only"). */
export const BANK_FIELD_HINTS = {
  sortCode: 'UK sort code: 6 digits',
  accountNumber: 'Account number: 8 digits',
  accountNumberUs: 'US account number: 4 to 17 digits',
  routingNumber: 'US routing number: 9 digits',
  swift: 'BIC: 8 or 11 characters',
  iban: 'IBAN: country code, 2 check digits, then the account (spaces allowed)',
} as const

const compact = (value: string) => value.replace(/[\s-]+/g, '')

/** ISO 13616 check digits (mod 97 = 1), by ibantools. */
export function ibanChecksumValid(iban: string): boolean {
  return !validateIBAN(iban).errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) && /^[A-Z]{2}\d{2}/.test(iban)
}

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function routingChecksumValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false
  const d = [...routing].map(Number)
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)
  return sum % 10 === 0
}

/**
 * Issue 19: the IBAN checked for real by ibantools — the country's registered length and
 * BBAN format (ISO 13616 registry), the mod-97 check digits, and the national check digits
 * ibantools knows (e.g. Belgium, France, Spain) — with a message for each problem.
 */
export function ibanError(iban: string): string | null {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return 'IBAN must start with a 2-letter country code and 2 check digits'
  const country = iban.slice(0, 2)
  const spec = countrySpecs[country]
  const { errorCodes } = validateIBAN(iban)
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry) || !spec?.chars) return `${country} is not a country that uses IBANs`
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return `A ${country} IBAN has ${spec.chars} characters`
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat))
    return `This is not the format of a ${country} IBAN — please check for typos`
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return 'IBAN check digits do not match — please check for typos'
  if (errorCodes.length > 0) return 'The account number inside this IBAN is not valid — please check for typos'
  return null
}

/** ISO 9362 BIC, by ibantools: 4-letter bank code, a country code that exists, location, optional branch. */
export function bicError(bic: string): string | null {
  if (bic.length !== 8 && bic.length !== 11) return 'BIC must be 8 or 11 characters'
  const { errorCodes } = validateBIC(bic)
  if (errorCodes.includes(ValidationErrorsBIC.WrongBICFormat))
    return 'BIC is not valid (4-letter bank code, 2-letter country code, location)'
  if (errorCodes.includes(ValidationErrorsBIC.NoBICCountry)) return `BIC country code ${bic.slice(4, 6)} does not exist`
  return errorCodes.length > 0 ? 'BIC is not valid (4-letter bank code, 2-letter country code, location)' : null
}

const optionalText = z.string().trim().max(64, 'Too long').optional()

function normaliseAccountField(name: FieldGroup, raw: string): string {
  if (isMaskedValue(raw)) return raw
  const value = compact(raw)
  return name === 'iban' || name === 'swift' ? value.toUpperCase() : value
}

/** The raw fields (for Conform's HTML constraints, which cannot read through the transform). */
export const BankDetailsFieldsSchema = z.object({
  country: z.enum(COUNTRIES, { error: 'Country is required' }),
  accountHolder: z
    .string({ error: 'Account holder name is required' })
    .trim()
    .min(1, 'Account holder name is required')
    .max(100, 'Account holder name must be at most 100 characters'),
  bankName: z
    .string({ error: 'Bank name is required' })
    .trim()
    .min(1, 'Bank name is required')
    .max(100, 'Bank name must be at most 100 characters'),
  sortCode: optionalText,
  accountNumber: optionalText,
  routingNumber: optionalText,
  iban: optionalText,
  swift: optionalText,
})

type BankDetailsFields = z.output<typeof BankDetailsFieldsSchema>

/** The chosen country's account fields in canonical form; the other countries' fields are dropped. */
function accountFields(value: BankDetailsFields) {
  const used = new Set(fieldsForCountry(value.country))
  const pick = (name: FieldGroup) => {
    const raw = value[name]
    return used.has(name) && raw ? normaliseAccountField(name, raw) : null
  }
  return {
    sortCode: pick('sortCode'),
    accountNumber: pick('accountNumber'),
    routingNumber: pick('routingNumber'),
    iban: pick('iban'),
    swift: pick('swift'),
  }
}

function checkAccountFields(value: BankDetailsFields, ctx: z.RefinementCtx) {
  const issue = (path: FieldGroup, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
  const { country } = value
  const fields = accountFields(value)
  if (country === 'GB' || country === 'US') {
    const account = fields.accountNumber
    if (!account) issue('accountNumber', 'Account number is required')
    else if (!isMaskedValue(account)) {
      if (country === 'GB' && !/^\d{8}$/.test(account)) issue('accountNumber', 'Account number must be 8 digits')
      if (country === 'US' && !/^\d{4,17}$/.test(account)) issue('accountNumber', 'Account number must be 4 to 17 digits')
    }
  }
  if (country === 'GB') {
    if (!fields.sortCode) issue('sortCode', 'Sort code is required')
    else if (!/^\d{6}$/.test(fields.sortCode)) issue('sortCode', 'Sort code must be 6 digits')
  }
  if (country === 'US') {
    const routing = fields.routingNumber
    if (!routing) issue('routingNumber', 'Routing number is required')
    else if (!/^\d{9}$/.test(routing)) issue('routingNumber', 'Routing number must be 9 digits')
    else if (!routingChecksumValid(routing)) issue('routingNumber', 'Routing number is not valid (check digit mismatch)')
  }
  if (country !== 'GB' && country !== 'US') {
    if (!fields.iban) issue('iban', 'IBAN is required')
    else if (!isMaskedValue(fields.iban)) {
      const problem = ibanError(fields.iban)
      if (problem) issue('iban', problem)
    }
    if (fields.swift) {
      const problem = bicError(fields.swift)
      if (problem) issue('swift', problem)
    }
  }
}

export const BankDetailsSchema = BankDetailsFieldsSchema.superRefine(checkAccountFields, {
  // Run the country's checks even while the holder or bank name is missing, so every error shows at once.
  when: (payload) => (COUNTRIES as readonly unknown[]).includes((payload.value as { country?: unknown } | undefined)?.country),
}).transform((value) => ({
  country: value.country,
  accountHolder: value.accountHolder,
  bankName: value.bankName,
  ...accountFields(value),
}))

export type BankDetailsInput = z.output<typeof BankDetailsSchema>

/** The fields a client may send (spec §7 POST /api/profile/bank-details); anything else is ignored. */
export const BANK_DETAILS_FIELDS = [
  'country',
  'accountHolder',
  'bankName',
  'sortCode',
  'accountNumber',
  'routingNumber',
  'iban',
  'swift',
] as const

/** Shape a JSON body like a form submission: known string fields only, blanks as absent. */
export function bankDetailsPayload(body: unknown): Record<string, string | undefined> {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const out: Record<string, string | undefined> = {}
  for (const name of BANK_DETAILS_FIELDS) {
    const raw = source[name]
    // JSON clients may send digits as numbers; anything else that is not text counts as absent.
    const value = typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw
    out[name] = typeof value === 'string' && value.trim() !== '' ? value : undefined
  }
  return out
}

/**
 * The version of a seller's bank details an admin reviewed (issue 14.1): sent
 * with approve/reject by the admin form and the API, so a change saved since
 * the admin opened them is refused instead of approved unseen.
 */
export const BankDetailsVersionSchema = z.coerce
  .number({ error: 'Reload the bank details: the version you reviewed is missing' })
  .int('Reload the bank details: the version you reviewed is missing')
  .min(1, 'Reload the bank details: the version you reviewed is missing')
