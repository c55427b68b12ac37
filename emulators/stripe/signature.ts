import { createHmac } from 'node:crypto'

/**
 * The `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `${t}.${payload}`, keyed with the whole `whsec_…` string, which is what
 * `stripe.webhooks.constructEvent` verifies.
 */
export function signatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${computeSignature(payload, secret, timestampSeconds)}`
}

export function computeSignature(payload: string, secret: string, timestampSeconds: number): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex')
}
