import Stripe from 'stripe'
import { config as appConfig } from './env.server.ts'

/**
 * The one Stripe client of the server. Configuration only decides where it
 * talks: the real API, or the local emulator when STRIPE_API_BASE is set
 * (emulators/local-services.ts sets it when no real keys are configured).
 * Read lazily, so tests can point it at their own emulator before first use.
 */
let cached: { key: string; base: string | undefined; client: Stripe } | undefined

export function getStripe(): Stripe {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_BASE: base } = appConfig()
  if (cached && cached.key === key && cached.base === base) return cached.client
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'Forkmarket' },
  }
  if (base) {
    const url = new URL(base)
    config.protocol = url.protocol === 'https:' ? 'https' : 'http'
    config.host = url.hostname
    config.port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  }
  cached = { key, base, client: new Stripe(key, config) }
  return cached.client
}

/** Stripe's signature tolerance for webhooks: events signed more than 5 minutes ago are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/** Verifies the Stripe-Signature header over the raw body; throws on any mismatch or a stale timestamp. */
export function verifyWebhook(rawBody: string, signature: string | null): Stripe.Event {
  if (!signature) throw new Error('Missing Stripe-Signature header')
  return getStripe().webhooks.constructEvent(rawBody, signature, appConfig().STRIPE_WEBHOOK_SECRET, WEBHOOK_TOLERANCE_SECONDS)
}

export interface StripeBrowserConfig {
  publishableKey: string
  /**
   * The emulator's stand-in for js.stripe.com (loaded with a plain script tag
   * before loadStripe, which then finds window.Stripe); null in production,
   * where loadStripe fetches the real Stripe.js.
   */
  scriptUrl: string | null
}

export function stripeBrowserConfig(): StripeBrowserConfig {
  return {
    publishableKey: appConfig().STRIPE_PUBLISHABLE_KEY,
    scriptUrl: appConfig().STRIPE_JS_URL ?? null,
  }
}

/** The Stripe error's message when it is meant for people (card declines), else null. */
export function stripeErrorMessage(error: unknown): string | null {
  if (error instanceof Stripe.errors.StripeError) return error.message
  return null
}
