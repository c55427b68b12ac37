import type { TransactionStatus } from '../../db/schema.ts'
import { ESCROW_STATUSES } from './escrow'

/** The platform's share of every sale (design.md §5); the only place the rate lives. */
export const PLATFORM_FEE_RATE = 0.15
/** The fee and the seller's share as whole percentages, for copy ("a 15% fee", "you receive 85%"). */
export const PLATFORM_FEE_PERCENT = Math.round(PLATFORM_FEE_RATE * 100)
export const SELLER_SHARE_PERCENT = 100 - PLATFORM_FEE_PERCENT

export interface FeeSplit {
  amountCents: number
  applicationFeeCents: number
  sellerShareCents: number
}

/** Fee = round(15 % of the price); the seller receives the rest, so the parts always add up. */
export function splitFee(amountCents: number): FeeSplit {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) {
    throw new RangeError(`amountCents must be a positive integer, got ${amountCents}`)
  }
  const applicationFeeCents = Math.round(amountCents * PLATFORM_FEE_RATE)
  return { amountCents, applicationFeeCents, sellerShareCents: amountCents - applicationFeeCents }
}

/**
 * Where a sale's platform fee stands — the ledger's rule (docs/decisions/020): earned when the sale
 * completes (the release posts it to the platform_fee account); until then it is part of the buyer's
 * payment held in escrow; a refunded or unpaid sale has none. Every figure of fees uses these two.
 */
export const FEE_EARNED_STATUSES = ['completed'] as const satisfies readonly TransactionStatus[]
export const FEE_IN_ESCROW_STATUSES = ESCROW_STATUSES

export function feeStanding(status: TransactionStatus): 'earned' | 'in-escrow' | null {
  if ((FEE_EARNED_STATUSES as readonly TransactionStatus[]).includes(status)) return 'earned'
  if ((FEE_IN_ESCROW_STATUSES as readonly TransactionStatus[]).includes(status)) return 'in-escrow'
  return null
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

export function formatCents(cents: number): string {
  return usd.format(cents / 100)
}

/** Dollars as typed in a form ("12.5") to integer cents, rounded like the spec says. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100)
}

/** Plain decimal notation only: no hex (`0x10`), exponent (`1e3`), `Infinity` or thousands separators. */
export const DECIMAL_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/

/**
 * Dollars as text ("49", "49.9", "12.345", "-1") to integer cents, rounded half
 * up on the exact digits (no floating point: 12.345 is 1235 cents); null when
 * the text is not a plain decimal number.
 */
export function parseDollarsToCents(text: string): number | null {
  const value = text.trim()
  if (!DECIMAL_TEXT.test(value)) return null
  const negative = value.startsWith('-')
  const [whole = '', fraction = ''] = value.replace('-', '').split('.')
  const digits = fraction.padEnd(3, '0')
  const cents = Number(whole || '0') * 100 + Number(digits.slice(0, 2)) + (digits[2]! >= '5' ? 1 : 0)
  return negative ? -cents : cents
}

export function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2)
}
