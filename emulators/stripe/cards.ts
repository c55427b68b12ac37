/** Stripe's documented test cards and `pm_card_*` test PaymentMethods. */

export type CardBrand = 'amex' | 'mastercard' | 'visa' | 'unknown'

export interface CardDetails {
  number: string
  brand: CardBrand
  expMonth: number
  expYear: number
  funding: 'credit' | 'debit'
}

export interface Decline {
  code: string
  declineCode: string
  message: string
}

const DECLINED = 'Your card was declined.'

const DECLINES: Record<string, Decline> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': { code: 'card_declined', declineCode: 'stolen_card', message: DECLINED },
  '4000000000000069': {
    code: 'expired_card',
    declineCode: 'expired_card',
    message: 'Your card has expired.',
  },
  '4000000000000127': {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
}

const APPROVED = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '378282246310005',
])

const DEBIT = new Set(['4000056655665556', '5200828282828210'])

/**
 * 3-D Secure test cards (Stripe's "Authentication and 3D Secure" test cards): every on-session
 * payment asks the cardholder to authenticate; once authenticated, the payment succeeds.
 */
const AUTHENTICATION_REQUIRED = new Set(['4000002500003155', '4000002760003184', '4000000000003220'])

export function requiresAuthentication(digits: string): boolean {
  return AUTHENTICATION_REQUIRED.has(digits)
}

/** Numbers behind the `pm_card_*` shortcuts the server-side API accepts. */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_visa_debit: '4000056655665556',
  pm_card_mastercard: '5555555555554444',
  pm_card_mastercard_debit: '5200828282828210',
  pm_card_amex: '378282246310005',
  pm_card_authenticationRequired: '4000002760003184',
  pm_card_authenticationRequiredOnSetup: '4000002500003155',
  pm_card_threeDSecure2Required: '4000000000003220',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedLostCard: '4000000000009987',
  pm_card_chargeDeclinedStolenCard: '4000000000009979',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
  pm_card_chargeDeclinedIncorrectCvc: '4000000000000127',
  pm_card_chargeDeclinedProcessingError: '4000000000000119',
}

export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

export function isWellFormedNumber(digits: string): boolean {
  return /^\d{12,19}$/.test(digits) && luhnValid(digits)
}

export function brandOf(digits: string): CardBrand {
  if (/^3[47]/.test(digits)) return 'amex'
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard'
  if (digits.startsWith('4')) return 'visa'
  return 'unknown'
}

export function fundingOf(digits: string): CardDetails['funding'] {
  return DEBIT.has(digits) ? 'debit' : 'credit'
}

/**
 * What the card network "says" about a well-formed number. Real numbers are
 * refused the way Stripe refuses them in test mode.
 */
export function authorize(digits: string): Decline | null {
  if (APPROVED.has(digits) || AUTHENTICATION_REQUIRED.has(digits)) return null
  return (
    DECLINES[digits] ?? {
      code: 'card_declined',
      declineCode: 'test_mode_live_card',
      message:
        'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
    }
  )
}
