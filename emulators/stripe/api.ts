/** The emulated Stripe resources: PaymentIntents, charges, refunds and the events they raise. */

import {
  authorize,
  brandOf,
  fundingOf,
  isWellFormedNumber,
  requiresAuthentication,
  TEST_PAYMENT_METHODS,
  type CardDetails,
} from './cards.ts'
import { docUrl, invalidRequest, parameterInvalid, parameterMissing, resourceMissing, StripeApiError, unexpectedState } from './errors.ts'
import type { Params } from './form.ts'
import {
  authenticationFailure,
  buildCharge,
  buildLastPaymentError,
  buildPaymentIntent,
  buildPaymentMethod,
  buildRefund,
  newId,
  type Charge,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentMethod,
  type Refund,
} from './objects.ts'
import { operation, type OperationId } from './operations.ts'
import {
  applyMetadata,
  nullableString,
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  optionalObject,
  optionalString,
  optionalStringList,
  rejectUnknown,
} from './params.ts'
import type { StripeEvent } from './webhooks.ts'

export type KeyKind = 'secret' | 'publishable'

export interface RequestContext {
  requestId: string
  idempotencyKey: string | null
  keyKind: KeyKind
}

export interface ApiDependencies {
  /** Milliseconds since the epoch. */
  now: () => number
  apiVersion: string
  /** Called for each new event, after it is recorded. */
  onEvent: (event: StripeEvent) => void
  pendingWebhooks: () => number
  /** The emulator's origin as clients reach it (the 3-D Secure challenge's address). */
  publicUrl: () => string
}

type Handler = (params: Params, ctx: RequestContext, id: string) => unknown

interface Route {
  /** Stripe's operationId (operations.ts), which the contract test validates the response by. */
  operationId: OperationId
  method: 'GET' | 'POST'
  pattern: RegExp
  /** Reachable from the browser with a publishable key (plus the client secret). */
  publishable: boolean
  handle: Handler
}

export interface RouteMatch {
  route: Route
  id: string
}

const MAX_AMOUNT = 99_999_999
const UPDATABLE_AMOUNT_STATUSES: PaymentIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action']
const CONFIRMABLE_STATUSES = UPDATABLE_AMOUNT_STATUSES
const CANCELABLE_STATUSES: PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
]

/** Fields that only describe the intent: settable on create and update, stored as given. */
const DESCRIPTIVE_FIELDS = [
  'customer',
  'customer_account',
  'description',
  'on_behalf_of',
  'receipt_email',
  'setup_future_usage',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_group',
] as const

const ACCEPTED_BUT_IGNORED = [
  'amount_details',
  'expand',
  'hooks',
  'payment_details',
  'payment_method_configuration',
  'payment_method_options',
  'radar_options',
  'use_stripe_sdk',
]

/** Older API versions say payment_method_types; 2026 ones allowed_payment_method_types. */
const PAYMENT_METHOD_TYPE_PARAMS = ['allowed_payment_method_types', 'payment_method_types'] as const

const CREATE_PARAMS = [
  ...DESCRIPTIVE_FIELDS,
  ...ACCEPTED_BUT_IGNORED,
  ...PAYMENT_METHOD_TYPE_PARAMS,
  'amount',
  'application_fee_amount',
  'automatic_payment_methods',
  'capture_method',
  'confirm',
  'confirmation_method',
  'confirmation_token',
  'currency',
  'error_on_requires_action',
  'excluded_payment_method_types',
  'mandate',
  'mandate_data',
  'metadata',
  'off_session',
  'payment_method',
  'payment_method_data',
  'return_url',
  'shipping',
]

const UPDATE_PARAMS = [
  ...DESCRIPTIVE_FIELDS,
  ...ACCEPTED_BUT_IGNORED,
  ...PAYMENT_METHOD_TYPE_PARAMS,
  'amount',
  'application_fee_amount',
  'currency',
  'excluded_payment_method_types',
  'metadata',
  'payment_method',
  'payment_method_data',
  'shipping',
]

const CONFIRM_PARAMS = [
  ...ACCEPTED_BUT_IGNORED,
  'client_secret',
  'error_on_requires_action',
  'mandate_data',
  'off_session',
  'payment_method',
  'payment_method_data',
  'receipt_email',
  'return_url',
  'save_payment_method',
  'setup_future_usage',
  'shipping',
]

const REFUND_PARAMS = [
  'amount',
  'charge',
  'expand',
  'instructions_email',
  'metadata',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
]

/** Everything the account holds, in creation order (for the emulator's data file: state-file.ts). */
export interface StripeApiState {
  events: StripeEvent[]
  paymentIntents: PaymentIntent[]
  paymentMethods: PaymentMethod[]
  /** [PaymentMethod id, full card number]: declines are decided by the number on confirm. */
  cardNumbers: Array<[string, string]>
  charges: Charge[]
  refunds: Refund[]
}

export class StripeApi {
  readonly events: StripeEvent[] = []
  private readonly eventsById = new Map<string, StripeEvent>()
  private readonly paymentIntents = new Map<string, PaymentIntent>()
  private readonly paymentMethods = new Map<string, PaymentMethod>()
  /** Full card numbers by PaymentMethod id; the API objects only show last4. */
  private readonly cardNumbers = new Map<string, string>()
  private readonly charges = new Map<string, Charge>()
  private readonly refunds = new Map<string, Refund>()
  private readonly routes: Route[]

  constructor(private readonly deps: ApiDependencies) {
    const route = (operationId: OperationId, handle: Handler, publishable = false): Route => {
      const { method, path } = operation(operationId)
      return { operationId, method, pattern: new RegExp(`^${path.replace(/\{\w+\}/, '([A-Za-z0-9_]+)')}$`), publishable, handle }
    }
    this.routes = [
      route('PostPaymentIntents', (p, c) => this.createPaymentIntent(p, c)),
      route('GetPaymentIntentsIntent', (p, c, id) => this.retrievePaymentIntent(p, c, id), true),
      route('PostPaymentIntentsIntent', (p, _c, id) => this.updatePaymentIntent(p, id)),
      route('PostPaymentIntentsIntentConfirm', (p, c, id) => this.confirmPaymentIntent(p, c, id), true),
      route('PostPaymentIntentsIntentCancel', (p, c, id) => this.cancelPaymentIntent(p, c, id)),
      route('PostRefunds', (p, c) => this.createRefund(p, c)),
      route('GetRefunds', (p) => this.listRefunds(p)),
      route('GetRefundsRefund', (p, _c, id) => this.retrieve(p, this.refunds, 'refund', id)),
      route('GetCharges', (p) => this.listCharges(p)),
      route('GetChargesCharge', (p, _c, id) => this.retrieve(p, this.charges, 'charge', id)),
      route('GetPaymentMethodsPaymentMethod', (p, _c, id) => this.retrieve(p, this.paymentMethods, 'PaymentMethod', id)),
      route('GetEventsId', (p, _c, id) => this.retrieve(p, this.eventsById, 'event', id)),
    ]
  }

  match(method: string, path: string): RouteMatch | undefined {
    for (const route of this.routes) {
      const found = route.method === method ? route.pattern.exec(path) : null
      if (found) return { route, id: found[1] ?? '' }
    }
    return undefined
  }

  /** Forgets every object and event: a fresh account (tests that empty their database between runs). */
  clear(): void {
    for (const store of [this.eventsById, this.paymentIntents, this.paymentMethods, this.cardNumbers, this.charges, this.refunds])
      store.clear()
    this.events.length = 0
  }

  /** A copy of the account's objects; ids are random (objects.ts newId), so none is reused after a restore. */
  snapshot(): StripeApiState {
    return structuredClone({
      events: this.events,
      paymentIntents: [...this.paymentIntents.values()],
      paymentMethods: [...this.paymentMethods.values()],
      cardNumbers: [...this.cardNumbers.entries()],
      charges: [...this.charges.values()],
      refunds: [...this.refunds.values()],
    })
  }

  /** Replaces the account's objects with a snapshot's (a restart on the same data file). */
  restore(state: StripeApiState): void {
    this.clear()
    for (const event of state.events) {
      this.events.push(event)
      this.eventsById.set(event.id, event)
    }
    for (const intent of state.paymentIntents) this.paymentIntents.set(intent.id, intent)
    // Data files written before the contract check: PaymentMethods without customer_account, refund lists with total_count.
    for (const paymentMethod of state.paymentMethods)
      this.paymentMethods.set(paymentMethod.id, { ...paymentMethod, customer_account: null })
    for (const [id, number] of state.cardNumbers) this.cardNumbers.set(id, number)
    // A charge lists its refunds; one object per refund, as before the restart (the Map's and the charge's).
    for (const refund of state.refunds) this.refunds.set(refund.id, refund)
    for (const charge of state.charges) {
      charge.refunds.data = charge.refunds.data.map((refund) => this.refunds.get(refund.id) ?? refund)
      delete (charge.refunds as { total_count?: number }).total_count
      this.charges.set(charge.id, charge)
    }
  }

  /** The intent, for the 3-D Secure page: only with its client secret. */
  findPaymentIntent(id: string, clientSecret: string): PaymentIntent | undefined {
    const intent = this.paymentIntents.get(id)
    return intent && intent.client_secret === clientSecret ? structuredClone(intent) : undefined
  }

  findEvent(id: string): StripeEvent | undefined {
    return this.eventsById.get(id)
  }

  // --- PaymentIntents -------------------------------------------------------

  private createPaymentIntent(params: Params, ctx: RequestContext): unknown {
    rejectUnknown(params, CREATE_PARAMS)
    if (optionalEnum(params, 'capture_method', ['automatic', 'automatic_async', 'manual']) === 'manual') {
      throw parameterInvalid('capture_method', 'capture_method=manual is not supported by the Stripe emulator.')
    }
    const confirmNow = optionalBoolean(params, 'confirm') ?? false
    const explicitTypes = readPaymentMethodTypes(params)
    const automatic = optionalObject(params, 'automatic_payment_methods')
    const intent = buildPaymentIntent({
      allowed_payment_method_types: optionalStringList(params, 'allowed_payment_method_types') ?? null,
      excluded_payment_method_types: optionalStringList(params, 'excluded_payment_method_types') ?? null,
      amount: readAmount(params),
      currency: readCurrency(params),
      created: this.nowSeconds(),
      automatic_payment_methods:
        explicitTypes && !automatic ? null : { enabled: (automatic && optionalBoolean(automatic, 'enabled')) ?? true },
      metadata: applyMetadata({}, params),
      application_fee_amount: optionalInteger(params, 'application_fee_amount') ?? null,
      shipping: params.shipping ?? null,
    })
    applyDescriptiveFields(intent, params)
    const paymentMethod = this.paymentMethodFromParams(params)
    if (paymentMethod) this.attachPaymentMethod(intent, paymentMethod)
    this.paymentIntents.set(intent.id, intent)
    this.emit('payment_intent.created', intent, ctx)
    if (confirmNow) this.confirm(intent, paymentMethod, ctx)
    return this.render(intent, params)
  }

  private retrievePaymentIntent(params: Params, ctx: RequestContext, id: string): unknown {
    rejectUnknown(params, ['client_secret', 'expand'])
    return this.render(this.intentForCaller(id, params, ctx), params)
  }

  private updatePaymentIntent(params: Params, id: string): unknown {
    rejectUnknown(params, UPDATE_PARAMS)
    const intent = this.getIntent(id)
    for (const field of ['amount', 'currency', 'payment_method', 'payment_method_data', ...PAYMENT_METHOD_TYPE_PARAMS]) {
      if (params[field] !== undefined && !UPDATABLE_AMOUNT_STATUSES.includes(intent.status)) {
        throw unexpectedState(
          `This PaymentIntent's ${field} could not be updated because it has a status of ${intent.status}. ` +
            `You may only update the ${field} of a PaymentIntent with one of the following statuses: ${UPDATABLE_AMOUNT_STATUSES.join(', ')}.`,
          intent,
        )
      }
    }
    if (params.amount !== undefined) intent.amount = readAmount(params)
    if (params.currency !== undefined) intent.currency = readCurrency(params)
    readPaymentMethodTypes(params)
    const allowed = optionalStringList(params, 'allowed_payment_method_types')
    if (allowed) intent.allowed_payment_method_types = allowed
    const excluded = optionalStringList(params, 'excluded_payment_method_types')
    if (excluded) intent.excluded_payment_method_types = excluded
    const applicationFee = optionalInteger(params, 'application_fee_amount')
    if (applicationFee !== undefined) intent.application_fee_amount = applicationFee
    if (params.shipping !== undefined) intent.shipping = params.shipping === '' ? null : params.shipping
    intent.metadata = applyMetadata(intent.metadata, params)
    applyDescriptiveFields(intent, params)
    const paymentMethod = this.paymentMethodFromParams(params)
    if (paymentMethod) this.attachPaymentMethod(intent, paymentMethod)
    return this.render(intent, params)
  }

  private confirmPaymentIntent(params: Params, ctx: RequestContext, id: string): unknown {
    rejectUnknown(params, CONFIRM_PARAMS)
    const intent = this.intentForCaller(id, params, ctx)
    if (!CONFIRMABLE_STATUSES.includes(intent.status)) {
      throw unexpectedState(
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. ` +
              `Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE_STATUSES.join(', ')}.`,
        intent,
      )
    }
    const receiptEmail = nullableString(params, 'receipt_email')
    if (receiptEmail !== undefined) intent.receipt_email = receiptEmail
    const setupFutureUsage = nullableString(params, 'setup_future_usage')
    if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage
    if (params.shipping !== undefined) intent.shipping = params.shipping
    this.confirm(intent, this.paymentMethodFromParams(params), ctx)
    return this.render(intent, params)
  }

  private cancelPaymentIntent(params: Params, ctx: RequestContext, id: string): unknown {
    rejectUnknown(params, ['cancellation_reason', 'expand'])
    const reason = optionalEnum(params, 'cancellation_reason', ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'])
    const intent = this.getIntent(id)
    if (!CANCELABLE_STATUSES.includes(intent.status)) {
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. ` +
          `Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE_STATUSES.join(', ')}.`,
        intent,
      )
    }
    intent.status = 'canceled'
    intent.canceled_at = this.nowSeconds()
    intent.cancellation_reason = reason ?? null
    this.emit('payment_intent.canceled', intent, ctx)
    return this.render(intent, params)
  }

  /** Confirms with the given (or attached) card: 3-D Secure first where the card asks for it, else charged. */
  private confirm(intent: PaymentIntent, given: PaymentMethod | undefined, ctx: RequestContext): void {
    const paymentMethod = given ?? (intent.payment_method ? this.paymentMethods.get(intent.payment_method) : undefined)
    if (!paymentMethod) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. " +
          'Update the payment_method parameter and try again.',
        { code: 'payment_intent_unexpected_state', param: 'payment_method', payment_intent: intent },
      )
    }
    if (requiresAuthentication(this.cardNumbers.get(paymentMethod.id) ?? '')) {
      // 3-D Secure: nothing is charged until the cardholder authenticates (authenticate() below).
      intent.status = 'requires_action'
      intent.payment_method = paymentMethod.id
      intent.last_payment_error = null
      intent.next_action = {
        type: 'use_stripe_sdk',
        use_stripe_sdk: {
          type: 'three_d_secure_redirect',
          stripe_js: `${this.deps.publicUrl()}/_emulator/3ds/${intent.id}`,
          source: newId('src'),
        },
      }
      this.emit('payment_intent.requires_action', intent, ctx)
      return
    }
    this.charge(intent, paymentMethod, ctx)
  }

  /**
   * The cardholder's answer to the 3-D Secure challenge (the stand-in Stripe.js's dialog, or the
   * challenge page at /_emulator/3ds/:id): completed, the card is charged; failed, the intent goes
   * back to requires_payment_method with `payment_intent_authentication_failure`.
   */
  authenticate(id: string, clientSecret: string, outcome: 'complete' | 'fail'): PaymentIntent {
    const intent = this.paymentIntents.get(id)
    if (!intent || intent.client_secret !== clientSecret) throw resourceMissing('payment_intent', id)
    const paymentMethod = intent.payment_method ? this.paymentMethods.get(intent.payment_method) : undefined
    if (intent.status !== 'requires_action' || !paymentMethod) {
      throw unexpectedState(`This PaymentIntent has a status of ${intent.status}: there is no authentication to complete.`, intent)
    }
    const ctx: RequestContext = { requestId: newId('req'), idempotencyKey: null, keyKind: 'publishable' }
    intent.next_action = null
    if (outcome === 'complete') {
      try {
        this.charge(intent, paymentMethod, ctx)
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error
      }
    } else {
      intent.status = 'requires_payment_method'
      intent.payment_method = null
      intent.last_payment_error = authenticationFailure(paymentMethod)
      this.emit('payment_intent.payment_failed', intent, ctx)
    }
    return structuredClone(intent)
  }

  /** Charges the card; a decline is recorded on the intent and then thrown as a 402. */
  private charge(intent: PaymentIntent, paymentMethod: PaymentMethod, ctx: RequestContext): void {
    const decline = authorize(this.cardNumbers.get(paymentMethod.id) ?? '')
    const charge = buildCharge(intent, paymentMethod, decline, this.nowSeconds())
    this.charges.set(charge.id, charge)
    intent.latest_charge = charge.id
    if (decline) {
      intent.status = 'requires_payment_method'
      intent.payment_method = null
      intent.last_payment_error = buildLastPaymentError(decline, charge, paymentMethod)
      this.emit('charge.failed', charge, ctx)
      this.emit('payment_intent.payment_failed', intent, ctx)
      throw new StripeApiError(402, {
        ...intent.last_payment_error,
        payment_intent: structuredClone(intent),
      })
    }
    intent.status = 'succeeded'
    intent.next_action = null
    intent.amount_received = intent.amount
    intent.payment_method = paymentMethod.id
    intent.last_payment_error = null
    this.emit('charge.succeeded', charge, ctx)
    this.emit('payment_intent.succeeded', intent, ctx)
  }

  private attachPaymentMethod(intent: PaymentIntent, paymentMethod: PaymentMethod): void {
    intent.payment_method = paymentMethod.id
    intent.status = 'requires_confirmation'
  }

  /** A browser (publishable key) only reaches an intent by proving it holds the client secret. */
  private intentForCaller(id: string, params: Params, ctx: RequestContext): PaymentIntent {
    const intent = this.getIntent(id)
    if (ctx.keyKind === 'publishable' && params.client_secret !== intent.client_secret) {
      throw resourceMissing('payment_intent', id)
    }
    return intent
  }

  private getIntent(id: string, param?: string): PaymentIntent {
    const intent = this.paymentIntents.get(id)
    if (!intent) throw resourceMissing('payment_intent', id, param)
    return intent
  }

  // --- PaymentMethods -------------------------------------------------------

  private paymentMethodFromParams(params: Params): PaymentMethod | undefined {
    const id = optionalString(params, 'payment_method')
    const data = optionalObject(params, 'payment_method_data')
    if (id && data) {
      throw parameterInvalid('payment_method_data', 'You cannot specify both payment_method and payment_method_data.')
    }
    if (id) return this.resolvePaymentMethod(id)
    if (data) return this.createCardPaymentMethod(data)
    return undefined
  }

  private resolvePaymentMethod(id: string): PaymentMethod {
    const testNumber = TEST_PAYMENT_METHODS[id]
    if (testNumber) {
      const expYear = new Date(this.deps.now()).getUTCFullYear() + 3
      return this.storePaymentMethod({ number: testNumber, expMonth: 12, expYear }, {})
    }
    const existing = this.paymentMethods.get(id)
    if (!existing) throw resourceMissing('PaymentMethod', id, 'payment_method')
    return existing
  }

  private createCardPaymentMethod(data: Params): PaymentMethod {
    if (optionalString(data, 'type') !== 'card') {
      throw parameterInvalid('payment_method_data[type]', 'The Stripe emulator only supports payment_method_data[type]=card.')
    }
    const card = optionalObject(data, 'card')
    if (!card) throw parameterMissing('payment_method_data[card]')
    const number = (optionalString(card, 'number') ?? '').replace(/[\s-]/g, '')
    if (!number) throw parameterMissing('payment_method_data[card][number]')
    if (!isWellFormedNumber(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', 'number')
    const expMonth = optionalInteger(card, 'exp_month')
    const rawYear = optionalInteger(card, 'exp_year')
    if (expMonth === undefined) throw parameterMissing('payment_method_data[card][exp_month]')
    if (rawYear === undefined) throw parameterMissing('payment_method_data[card][exp_year]')
    const expYear = rawYear < 100 ? 2000 + rawYear : rawYear
    this.validateExpiry(expMonth, expYear)
    const cvc = optionalString(card, 'cvc')
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) {
      throw cardError('invalid_cvc', "Your card's security code is invalid.", 'cvc')
    }
    return this.storePaymentMethod({ number, expMonth, expYear }, optionalObject(data, 'billing_details') ?? {})
  }

  private validateExpiry(month: number, year: number): void {
    if (month < 1 || month > 12) {
      throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month')
    }
    const today = new Date(this.deps.now())
    const currentYear = today.getUTCFullYear()
    if (year < currentYear || year > currentYear + 50) {
      throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year')
    }
    if (year === currentYear && month < today.getUTCMonth() + 1) {
      throw cardError('invalid_expiry_month', "Your card's expiration month is in the past.", 'exp_month')
    }
  }

  private storePaymentMethod(card: Pick<CardDetails, 'number' | 'expMonth' | 'expYear'>, billing: Params): PaymentMethod {
    const details: CardDetails = { ...card, brand: brandOf(card.number), funding: fundingOf(card.number) }
    const paymentMethod = buildPaymentMethod(details, this.nowSeconds())
    for (const field of ['email', 'name', 'phone'] as const) {
      paymentMethod.billing_details[field] = optionalString(billing, field) ?? null
    }
    this.paymentMethods.set(paymentMethod.id, paymentMethod)
    this.cardNumbers.set(paymentMethod.id, card.number)
    return paymentMethod
  }

  // --- Refunds ----------------------------------------------------------------

  private createRefund(params: Params, ctx: RequestContext): unknown {
    rejectUnknown(params, REFUND_PARAMS)
    const charge = this.refundableCharge(params)
    const remaining = charge.amount_captured - charge.amount_refunded
    if (remaining <= 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' })
    }
    const amount = optionalInteger(params, 'amount') ?? remaining
    if (amount < 1) {
      throw invalidRequest('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' })
    }
    if (amount > remaining) {
      throw invalidRequest(
        `Refund amount (${formatMoney(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatMoney(remaining, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      )
    }
    const refund = buildRefund(charge, amount, {
      created: this.nowSeconds(),
      metadata: applyMetadata({}, params),
      reason: optionalEnum(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer']) ?? null,
    })
    this.refunds.set(refund.id, refund)
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded }
    charge.amount_refunded += amount
    charge.refunded = charge.amount_refunded === charge.amount_captured
    charge.refunds.data.unshift(refund)
    this.emit('charge.refunded', charge, ctx, previous)
    this.emit('refund.created', refund, ctx)
    return this.render(refund, params)
  }

  private refundableCharge(params: Params): Charge {
    const chargeId = optionalString(params, 'charge')
    const intentId = optionalString(params, 'payment_intent')
    if (!chargeId && !intentId) {
      throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
        code: 'parameter_missing',
      })
    }
    const charge = chargeId ? this.charges.get(chargeId) : this.successfulChargeOf(this.getIntent(intentId ?? '', 'payment_intent'))
    if (!charge) throw resourceMissing('charge', chargeId ?? '', 'charge')
    if (intentId && charge.payment_intent !== intentId) {
      throw parameterInvalid('charge', `Charge ${charge.id} does not belong to PaymentIntent ${intentId}.`)
    }
    if (charge.status !== 'succeeded') {
      throw invalidRequest(`Charge ${charge.id} has failed and cannot be refunded.`, { code: 'charge_not_refundable' })
    }
    return charge
  }

  private successfulChargeOf(intent: PaymentIntent): Charge {
    const charge = intent.status === 'succeeded' && intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined
    if (!charge) {
      throw invalidRequest('This PaymentIntent does not have a successful charge to refund.', {
        code: 'payment_intent_unexpected_state',
        param: 'payment_intent',
      })
    }
    return charge
  }

  // --- Lists ------------------------------------------------------------------

  /** GET /v1/charges: newest first, `limit` (1–100, default 10), `starting_after`, `payment_intent`. */
  private listCharges(params: Params): unknown {
    rejectUnknown(params, ['limit', 'starting_after', 'ending_before', 'payment_intent', 'expand'])
    const limit = optionalInteger(params, 'limit') ?? 10
    if (limit < 1 || limit > 100) throw parameterInvalid('limit', 'This value must be between 1 and 100.')
    if (params.ending_before !== undefined)
      throw parameterInvalid('ending_before', 'ending_before is not supported by the Stripe emulator.')
    const intent = optionalString(params, 'payment_intent')
    // Insertion order is creation order; newest first as Stripe lists.
    let all = [...this.charges.values()].reverse().filter((charge) => !intent || charge.payment_intent === intent)
    const after = optionalString(params, 'starting_after')
    if (after) {
      const index = all.findIndex((charge) => charge.id === after)
      if (index < 0) throw resourceMissing('charge', after, 'starting_after')
      all = all.slice(index + 1)
    }
    const page = all.slice(0, limit)
    return this.list('/v1/charges', page, all.length > limit, params)
  }

  /** GET /v1/refunds: newest first, `charge` or `payment_intent`, `limit` (1–100, default 10), `starting_after`. */
  private listRefunds(params: Params): unknown {
    rejectUnknown(params, ['limit', 'starting_after', 'ending_before', 'charge', 'payment_intent', 'expand'])
    const limit = optionalInteger(params, 'limit') ?? 10
    if (limit < 1 || limit > 100) throw parameterInvalid('limit', 'This value must be between 1 and 100.')
    if (params.ending_before !== undefined)
      throw parameterInvalid('ending_before', 'ending_before is not supported by the Stripe emulator.')
    const charge = optionalString(params, 'charge')
    const intent = optionalString(params, 'payment_intent')
    let all = [...this.refunds.values()]
      .reverse()
      .filter((refund) => (!charge || refund.charge === charge) && (!intent || refund.payment_intent === intent))
    const after = optionalString(params, 'starting_after')
    if (after) {
      const index = all.findIndex((refund) => refund.id === after)
      if (index < 0) throw resourceMissing('refund', after, 'starting_after')
      all = all.slice(index + 1)
    }
    return this.list('/v1/refunds', all.slice(0, limit), all.length > limit, params)
  }

  /** A list object; its items take the request's `expand[]=data.…` paths. */
  private list(url: string, page: object[], hasMore: boolean, params: Params): unknown {
    const expand = (optionalStringList(params, 'expand') ?? []).filter((path) => path.startsWith('data.')).map((path) => path.slice(5))
    return { object: 'list', url, has_more: hasMore, data: page.map((item) => this.render(item, params, expand)) }
  }

  // --- Shared -----------------------------------------------------------------

  private retrieve(params: Params, store: Map<string, object>, kind: string, id: string): unknown {
    rejectUnknown(params, ['expand'])
    const found = store.get(id)
    if (!found) throw resourceMissing(kind, id)
    return this.render(found, params)
  }

  /**
   * A detached copy for the response, with `expand[]` paths replaced by the objects they name and the
   * includable fields left out unless expanded. `expand` defaults to the request's (a list's items are
   * rendered with its `data.` paths).
   */
  private render(object: object, params: Params, expand = optionalStringList(params, 'expand') ?? []): unknown {
    const copy = withoutIncludable(structuredClone(object) as Record<string, unknown>, expand)
    for (const path of expand) this.expandPath(copy, path.split('.'))
    return copy
  }

  private expandPath(target: Record<string, unknown>, [head = '', ...rest]: string[]): void {
    const value = target[head]
    const resolved = typeof value === 'string' ? this.lookup(value) : value
    if (resolved === undefined || resolved === null || typeof resolved !== 'object') return
    const copy = (
      resolved === value ? resolved : withoutIncludable(structuredClone(resolved) as Record<string, unknown>, [rest.join('.')])
    ) as Record<string, unknown>
    target[head] = copy
    if (rest.length > 0) this.expandPath(copy, rest)
  }

  private lookup(id: string): object | undefined {
    const stores: Record<string, Map<string, object>> = {
      pi: this.paymentIntents,
      pm: this.paymentMethods,
      ch: this.charges,
      re: this.refunds,
    }
    return stores[id.split('_')[0] ?? '']?.get(id)
  }

  private emit(type: string, object: object, ctx: RequestContext, previous?: Record<string, unknown>): void {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.deps.apiVersion,
      created: this.nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: this.deps.pendingWebhooks(),
      request: { id: ctx.requestId, idempotency_key: ctx.idempotencyKey },
      // Webhook payloads are never expanded: includable fields are absent (Stripe's docs, "Expanding responses").
      data: {
        object: withoutIncludable(structuredClone(object) as Record<string, unknown>, []),
        ...(previous ? { previous_attributes: previous } : {}),
      },
    }
    this.events.push(event)
    this.eventsById.set(event.id, event)
    this.deps.onEvent(event)
  }

  private nowSeconds(): number {
    return Math.floor(this.deps.now() / 1000)
  }
}

/**
 * Fields Stripe leaves out of an object unless the request expands them (API version 2022-11-15 on:
 * a Charge's `refunds`). The emulator keeps them internally; responses and events show them only so.
 */
const INCLUDABLE: Record<string, string[]> = { charge: ['refunds'] }

function withoutIncludable(copy: Record<string, unknown>, expand: string[]): Record<string, unknown> {
  for (const field of INCLUDABLE[String(copy.object)] ?? []) {
    if (!expand.some((path) => path === field || path.startsWith(`${field}.`))) delete copy[field]
  }
  return copy
}

function readAmount(params: Params): number {
  const amount = optionalInteger(params, 'amount')
  if (amount === undefined) throw parameterMissing('amount')
  if (amount < 1) {
    throw invalidRequest('This value must be greater than or equal to 1.', { code: 'amount_too_small', param: 'amount' })
  }
  if (amount > MAX_AMOUNT) {
    throw invalidRequest('Amount must be no more than $999,999.99', { code: 'amount_too_large', param: 'amount' })
  }
  return amount
}

function readCurrency(params: Params): string {
  const currency = optionalString(params, 'currency')
  if (currency === undefined) throw parameterMissing('currency')
  if (!/^[a-z]{3}$/i.test(currency)) throw parameterInvalid('currency', `Invalid currency: ${currency}.`)
  return currency.toLowerCase()
}

function readPaymentMethodTypes(params: Params): string[] | undefined {
  let found: string[] | undefined
  for (const param of PAYMENT_METHOD_TYPE_PARAMS) {
    const types = optionalStringList(params, param)
    if (types?.some((type) => type !== 'card')) {
      throw parameterInvalid(param, 'The Stripe emulator only supports the card payment method type.')
    }
    found ??= types
  }
  return found
}

function applyDescriptiveFields(intent: PaymentIntent, params: Params): void {
  for (const field of DESCRIPTIVE_FIELDS) {
    const value = nullableString(params, field)
    if (value !== undefined) intent[field] = value
  }
}

function cardError(code: string, message: string, param: string): StripeApiError {
  return new StripeApiError(402, { type: 'card_error', code, message, param, doc_url: docUrl(code) })
}

function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100)
  } catch {
    return `${amount} ${currency}`
  }
}
