/** Stripe-shaped API errors: thrown by handlers, rendered by the server. */

export type StripeErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error'

export interface StripeErrorBody {
  type: StripeErrorType
  message: string
  code?: string
  decline_code?: string
  param?: string
  doc_url?: string
  charge?: string
  payment_intent?: unknown
  payment_method?: unknown
  request_log_url?: string
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message)
    this.name = 'StripeApiError'
  }
}

export function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`
}

export function invalidRequest(
  message: string,
  details: { code?: string; param?: string; status?: number; payment_intent?: unknown } = {},
): StripeApiError {
  const { status = 400, code, ...rest } = details
  return new StripeApiError(status, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...rest,
  })
}

export function resourceMissing(kind: string, id: string, param?: string): StripeApiError {
  return invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param, status: 404 })
}

export function parameterMissing(param: string): StripeApiError {
  return invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param })
}

export function parameterInvalid(param: string, message: string): StripeApiError {
  return invalidRequest(message, { code: 'parameter_invalid', param })
}

export function parameterUnknown(param: string): StripeApiError {
  return invalidRequest(`Received unknown parameter: ${param}`, { code: 'parameter_unknown', param })
}

export function unexpectedState(message: string, paymentIntent?: unknown): StripeApiError {
  return invalidRequest(message, {
    code: 'payment_intent_unexpected_state',
    ...(paymentIntent ? { payment_intent: paymentIntent } : {}),
  })
}
