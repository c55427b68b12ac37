import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { assertPortFree } from '../db/ports.ts'
import { emailUserId } from '../db/seed.ts'

/**
 * Starts the local stand-ins for hosted services (Supabase Auth, Stripe) when
 * their production variables are absent, and points the app's configuration
 * (process.env) at them. Refuses in production: there, configure the real ones.
 */
export interface LocalServices {
  stop: () => Promise<void>
}

export async function startLocalServices(options: {
  dataDir: string
  appPort: number
  log: (message: string) => void
}): Promise<LocalServices> {
  const stops: Array<() => Promise<void>> = []
  const production = process.env.NODE_ENV === 'production'
  const env = process.env

  if (!env.SUPABASE_URL) {
    if (production) throw new Error('SUPABASE_URL and SUPABASE_ANON_KEY must be set in production.')
    const port = Number(env.SUPABASE_EMULATOR_PORT ?? 54321)
    await assertPortFree(port, 'Supabase Auth emulator', 'SUPABASE_EMULATOR_PORT')
    const { startAuthEmulator } = await import('./supabase-auth/server.ts')
    const auth = await startAuthEmulator({
      port,
      dataFile: path.join(options.dataDir, 'auth-emulator.json'),
      accessTokenTtlSeconds: env.AUTH_ACCESS_TOKEN_TTL ? Number(env.AUTH_ACCESS_TOKEN_TTL) : undefined,
      siteUrl: `http://localhost:${options.appPort}`,
      userIdForEmail: emailUserId,
    })
    env.SUPABASE_URL = auth.url
    env.SUPABASE_ANON_KEY = auth.anonKey
    env.ADMIN_EMAILS ??= 'admin@forkmarket.dev'
    options.log(`no SUPABASE_URL: using the local Supabase Auth emulator at ${auth.url}`)
    stops.push(() => auth.close())
  }

  if (!env.STRIPE_SECRET_KEY) {
    if (production) throw new Error('STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set in production.')
    const port = Number(env.STRIPE_EMULATOR_PORT ?? 12111)
    await assertPortFree(port, 'Stripe emulator', 'STRIPE_EMULATOR_PORT')
    const { startStripeEmulator } = await import('./stripe/server.ts')
    env.STRIPE_WEBHOOK_SECRET ??= `whsec_${randomBytes(24).toString('hex')}`
    const stripe = await startStripeEmulator({
      port,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${options.appPort}/api/stripe/webhook`,
    })
    env.STRIPE_SECRET_KEY = stripe.secretKey
    env.STRIPE_PUBLISHABLE_KEY = stripe.publishableKey
    env.STRIPE_API_BASE = stripe.url
    env.STRIPE_JS_URL = stripe.scriptUrl
    options.log(`no STRIPE_SECRET_KEY: using the local Stripe emulator at ${stripe.url}`)
    stops.push(() => stripe.close())
  }

  return {
    stop: async () => {
      for (const stop of stops.reverse()) await stop()
    },
  }
}
