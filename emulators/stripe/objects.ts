/** The Stripe API objects the emulator keeps, in the shapes the API returns. */

import { randomBytes } from 'node:crypto'
import type { CardDetails, Decline } from './cards.ts'
import { docUrl } from './errors.ts'

export type Metadata = Record<string, string>

export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded'

export interface PaymentMethod {
  id: string
  object: 'payment_method'
  type: 'card'
  billing_details: { address: null; email: string | null; name: string | null; phone: string | null; tax_id: null }
  card: {
    brand: string
    checks: CardChecks
    country: 'US'
    display_brand: string
    exp_month: number
    exp_year: number
    funding: string
    generated_from: null
    last4: string
    networks: { available: string[]; preferred: null }
    regulated_status: 'unregulated'
    three_d_secure_usage: { supported: true }
    wallet: null
  }
  created: number
  customer: null
  customer_account: null
  livemode: false
  metadata: Metadata
}

export interface CardChecks {
  address_line1_check: null
  address_postal_code_check: null
  cvc_check: 'pass' | null
}

/** A charge's card details (payment_method_details.card): the card as charged, not the PaymentMethod's view of it. */
export interface ChargeCard {
  amount_authorized: number | null
  authorization_code: string | null
  brand: string
  checks: CardChecks
  country: 'US'
  electronic_commerce_indicator: null
  exp_month: number
  exp_year: number
  funding: string
  installments: null
  last4: string
  mandate: null
  network: string
  network_transaction_id: string | null
  regulated_status: 'unregulated'
  three_d_secure: null
  transaction_link_id: null
  wallet: null
}

export interface LastPaymentError {
  type: 'card_error' | 'invalid_request_error'
  code: string
  decline_code?: string
  message: string
  doc_url: string
  charge?: string
  payment_method: PaymentMethod
}

/** What the customer must do before the payment can go on: here, 3-D Secure through Stripe.js. */
export interface NextAction {
  type: 'use_stripe_sdk'
  use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string; source: string }
}

export interface PaymentIntent {
  id: string
  object: 'payment_intent'
  allowed_payment_method_types: string[] | null
  amount: number
  amount_capturable: number
  amount_received: number
  application: null
  application_fee_amount: number | null
  automatic_payment_methods: { enabled: boolean } | null
  canceled_at: number | null
  cancellation_reason: string | null
  capture_method: string
  client_secret: string
  confirmation_method: string
  created: number
  currency: string
  customer: string | null
  customer_account: string | null
  description: string | null
  excluded_payment_method_types: string[] | null
  last_payment_error: LastPaymentError | null
  latest_charge: string | null
  livemode: false
  managed_payments: null
  metadata: Metadata
  next_action: NextAction | null
  on_behalf_of: string | null
  payment_method: string | null
  payment_method_configuration_details: null
  payment_method_options: Record<string, unknown>
  payment_method_types: string[]
  payment_record: null
  processing: null
  receipt_email: string | null
  review: null
  setup_future_usage: string | null
  shipping: unknown
  source: null
  statement_descriptor: string | null
  statement_descriptor_suffix: string | null
  status: PaymentIntentStatus
  transfer_data: null
  transfer_group: string | null
}

export interface Refund {
  id: string
  object: 'refund'
  amount: number
  balance_transaction: string
  charge: string
  created: number
  currency: string
  customer: string | null
  customer_account: null
  metadata: Metadata
  payment_intent: string | null
  payment_method: string
  reason: string | null
  receipt_number: null
  source_transfer_reversal: null
  status: 'succeeded'
  transfer_reversal: null
}

export interface Charge {
  id: string
  object: 'charge'
  amount: number
  amount_captured: number
  amount_refunded: number
  application: null
  application_fee: null
  application_fee_amount: number | null
  balance_transaction: string | null
  billing_details: PaymentMethod['billing_details']
  calculated_statement_descriptor: string
  captured: boolean
  created: number
  currency: string
  customer: string | null
  description: string | null
  disputed: boolean
  failure_balance_transaction: null
  failure_code: string | null
  failure_message: string | null
  fraud_details: Record<string, never>
  livemode: false
  metadata: Metadata
  on_behalf_of: string | null
  outcome: {
    advice_code: null
    network_advice_code: null
    network_decline_code: null
    network_status: 'approved_by_network' | 'declined_by_network'
    reason: string | null
    risk_level: 'normal'
    seller_message: string
    type: 'authorized' | 'issuer_declined'
  }
  paid: boolean
  payment_intent: string
  payment_method: string
  payment_method_details: { type: 'card'; card: ChargeCard }
  receipt_email: string | null
  receipt_number: null
  receipt_url: null
  refunded: boolean
  /** Only when expanded (api.ts INCLUDABLE); a plain list: no `total_count`, which only search results carry. */
  refunds: { object: 'list'; data: Refund[]; has_more: false; url: string }
  review: null
  shipping: unknown
  source: null
  source_transfer: null
  statement_descriptor: string | null
  statement_descriptor_suffix: string | null
  status: 'succeeded' | 'failed'
  transfer_data: null
  transfer_group: string | null
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export function randomToken(length: number): string {
  return Array.from(randomBytes(length), (byte) => BASE62[byte % BASE62.length]).join('')
}

export function newId(prefix: string): string {
  return `${prefix}_${randomToken(24)}`
}

export function buildPaymentMethod(card: CardDetails, created: number): PaymentMethod {
  return {
    id: newId('pm'),
    object: 'payment_method',
    type: 'card',
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: 'US',
      display_brand: card.brand === 'amex' ? 'american_express' : card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
  }
}

export function buildPaymentIntent(fields: Pick<PaymentIntent, 'amount' | 'currency' | 'created'> & Partial<PaymentIntent>): PaymentIntent {
  const { amount, currency, created, ...rest } = fields
  const id = newId('pi')
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${randomToken(25)}`,
    confirmation_method: 'automatic',
    created,
    currency,
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
    ...rest,
  }
}

export function buildCharge(intent: PaymentIntent, paymentMethod: PaymentMethod, decline: Decline | null, created: number): Charge {
  const id = newId('ch')
  const paid = decline === null
  return {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: paid ? intent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: intent.application_fee_amount,
    balance_transaction: paid ? newId('txn') : null,
    billing_details: paymentMethod.billing_details,
    calculated_statement_descriptor: intent.statement_descriptor ?? 'STRIPE EMULATOR',
    captured: paid,
    created,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: { ...intent.metadata },
    on_behalf_of: intent.on_behalf_of,
    outcome: paid
      ? {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          seller_message: 'Payment complete.',
          type: 'authorized',
        }
      : {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'declined_by_network',
          reason: decline.declineCode,
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: { type: 'card', card: chargeCard(paymentMethod.card, paid ? intent.amount : null) },
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
    review: null,
    shipping: intent.shipping,
    source: null,
    source_transfer: null,
    statement_descriptor: intent.statement_descriptor,
    statement_descriptor_suffix: intent.statement_descriptor_suffix,
    status: paid ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: intent.transfer_group,
  }
}

function chargeCard(card: PaymentMethod['card'], amountAuthorized: number | null): ChargeCard {
  const { brand, checks, country, exp_month, exp_year, funding, last4, regulated_status } = card
  return {
    amount_authorized: amountAuthorized,
    authorization_code: amountAuthorized === null ? null : randomToken(6).toUpperCase(),
    brand,
    checks: { ...checks, cvc_check: amountAuthorized === null ? null : 'pass' },
    country,
    electronic_commerce_indicator: null,
    exp_month,
    exp_year,
    funding,
    installments: null,
    last4,
    mandate: null,
    network: brand,
    network_transaction_id: amountAuthorized === null ? null : randomToken(15),
    regulated_status,
    three_d_secure: null,
    transaction_link_id: null,
    wallet: null,
  }
}

export function buildLastPaymentError(decline: Decline, charge: Charge, paymentMethod: PaymentMethod): LastPaymentError {
  return {
    type: 'card_error',
    code: decline.code,
    decline_code: decline.declineCode,
    message: decline.message,
    doc_url: docUrl(decline.code),
    charge: charge.id,
    payment_method: paymentMethod,
  }
}

/** The cardholder failed (or abandoned) 3-D Secure: Stripe's `payment_intent_authentication_failure`. */
export function authenticationFailure(paymentMethod: PaymentMethod): LastPaymentError {
  return {
    type: 'invalid_request_error',
    code: 'payment_intent_authentication_failure',
    message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    doc_url: docUrl('payment_intent_authentication_failure'),
    payment_method: paymentMethod,
  }
}

export function buildRefund(
  charge: Charge,
  amount: number,
  fields: { metadata: Metadata; reason: string | null; created: number },
): Refund {
  return {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: newId('txn'),
    charge: charge.id,
    currency: charge.currency,
    customer: charge.customer,
    customer_account: null,
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
    ...fields,
  }
}
