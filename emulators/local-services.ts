import { randomBytes } from 'node:crypto'
import path from 'node:path'
import Stripe from 'stripe'
import type { Config } from '../app/server/infra/env.server.ts'
import { localSecret } from '../db/local-secrets.ts'
import { assertPortFree } from '../db/ports.ts'
import { emailUserId } from '../db/seed/demo-data.ts'
import { demoGithubSpec, type DemoGithub } from '../db/seed/demo-github.ts'
import type { AuthEmulator } from './supabase-auth/server.ts'

/**
 * Starts the local stand-ins for hosted services (Supabase Auth, Stripe, GitHub, mail) when
 * their production variables are absent, and returns the variables that point
 * the app's configuration at them. Refuses in production: there, configure the real ones.
 */
export interface LocalServices {
  /** Variables that must point at the emulators (they override nothing the operator set). */
  supplied: Record<string, string>
  /** Local defaults the operator may still override (the demo admin). */
  defaults: Record<string, string>
  /** The GitHub emulator's demo repositories, for the demo data's GitHub-delivered sales. */
  demoGithub?: DemoGithub
  /** A client of the Stripe emulator when it was started: the demo data's sales are paid there. */
  demoStripe?: Stripe
  /**
   * The auth emulator's session for any e-mail, without a browser, when it was started (the soak signs
   * its buyers in with it, bench/soak.ts).
   */
  createSession?: AuthEmulator['createSession']
  /**
   * Points the emulators' webhooks and redirects at the app on `port`: a launcher that started them with
   * `appPort` 0 calls it once its server has bound a port (decision 031).
   */
  setAppPort: (port: number) => void
  stop: () => Promise<void>
}

export async function startLocalServices(options: {
  config: Config
  dataDir: string
  /** Where the webhooks and redirects go; 0 when the app binds a port only later (then call setAppPort). */
  appPort: number
  log: (message: string) => void
  /** The address the emulators listen on (default 127.0.0.1): containers reach them at their network's gateway. */
  host?: string
}): Promise<LocalServices> {
  const stops: Array<() => Promise<void>> = []
  // What follows the app's port: each emulator's webhooks and redirects, set at the start and again by setAppPort.
  const appPortSetters: Array<(port: number) => void> = []
  const env = options.config
  const production = env.NODE_ENV === 'production'
  const supplied: Record<string, string> = {}
  const defaults: Record<string, string> = {}

  // GitHub first: the auth emulator's GitHub sign-ins are accounts of the GitHub emulator (one id for both).
  let githubAccount: ((profile: { email: string; login: string; fullName: string }) => { id: number; login: string }) | undefined
  let demoGithub: DemoGithub | undefined
  let demoStripe: Stripe | undefined
  let createSession: AuthEmulator['createSession'] | undefined
  if (!env.GITHUB_APP_ID) {
    if (production) {
      options.log('no GITHUB_APP_ID: GitHub delivery is off (every listing is delivered by its seller)')
    } else {
      const port = env.GITHUB_EMULATOR_PORT
      await assertPortFree(port, 'GitHub emulator', 'GITHUB_EMULATOR_PORT')
      const { startGithubEmulator } = await import('./github/server.ts')
      const appUrls = (appPort: number) => {
        const appOrigin = env.APP_URL ?? `http://localhost:${appPort}`
        // Without APP_URL the app answers at localhost and 127.0.0.1 alike (issue 26.19): both are the App's
        // callback URLs, as a GitHub App registers several; its one Setup URL is localhost's, and the app
        // sends a seller who started at 127.0.0.1 back there (flowOriginRedirect).
        const appOrigins = env.APP_URL ? [env.APP_URL] : [appOrigin, `http://127.0.0.1:${appPort}`]
        return {
          webhookUrl: `http://127.0.0.1:${appPort}/api/github/webhook`,
          setupUrl: `${appOrigin}/github/install/callback`,
          callbackUrls: appOrigins.map((origin) => `${origin}/github/oauth/callback`),
        }
      }
      const github = await startGithubEmulator({
        host: options.host,
        port,
        dataFile: path.join(options.dataDir, 'github-emulator.json'),
        webhookSecret: env.GITHUB_WEBHOOK_SECRET,
        ...appUrls(options.appPort),
      })
      appPortSetters.push((appPort) => {
        const { webhookUrl, ...redirects } = appUrls(appPort)
        github.setWebhookUrl(webhookUrl)
        github.setAppUrls(redirects)
      })
      // The demo organizations, repositories and buyers (created when missing; db/seed/demo-github.ts).
      const seeded = github.seed(demoGithubSpec(new Date()))
      demoGithub = {
        repositories: Object.fromEntries(
          seeded.repositories.map((r) => [r.fullName, { id: r.id, headSha: r.headSha, htmlUrl: r.htmlUrl }]),
        ),
      }
      supplied.GITHUB_API_URL = github.url
      supplied.GITHUB_APP_ID = String(github.appId)
      supplied.GITHUB_APP_PRIVATE_KEY = github.privateKey
      supplied.GITHUB_APP_CLIENT_ID = github.clientId
      supplied.GITHUB_APP_CLIENT_SECRET = github.clientSecret
      supplied.GITHUB_WEBHOOK_SECRET = github.webhookSecret
      githubAccount = ({ login, fullName, email }) => {
        const existing = github.account({ login })
        const account = existing ?? github.createUser({ login, name: fullName || undefined, email })
        return { id: account.id, login: account.login }
      }
      options.log(`no GITHUB_APP_ID: using the local GitHub emulator at ${github.url}`)
      stops.push(() => github.close())
    }
  }

  if (!env.SUPABASE_URL) {
    if (production) throw new Error('SUPABASE_URL and SUPABASE_ANON_KEY must be set in production.')
    const port = env.SUPABASE_EMULATOR_PORT
    await assertPortFree(port, 'Supabase Auth emulator', 'SUPABASE_EMULATOR_PORT')
    const { startAuthEmulator } = await import('./supabase-auth/server.ts')
    const auth = await startAuthEmulator({
      host: options.host,
      port,
      dataFile: path.join(options.dataDir, 'auth-emulator.json'),
      accessTokenTtlSeconds: env.AUTH_ACCESS_TOKEN_TTL,
      siteUrl: `http://localhost:${options.appPort}`,
      userIdForEmail: emailUserId,
      githubAccount,
    })
    appPortSetters.push((appPort) => auth.setSiteUrl(`http://localhost:${appPort}`))
    createSession = (input) => auth.createSession(input)
    supplied.SUPABASE_URL = auth.url
    supplied.SUPABASE_ANON_KEY = auth.anonKey
    defaults.ADMIN_EMAILS = 'admin@forkmarket.dev'
    options.log(`no SUPABASE_URL: using the local Supabase Auth emulator at ${auth.url}`)
    stops.push(() => auth.close())
  }

  // Mail: the local catcher (emulators/mail/) takes every mail; its inbox page shows them. No mail
  // leaves the machine unless SMTP_URL is set.
  if (!env.SMTP_URL) {
    if (production) {
      options.log('no SMTP_URL: e-mail is off (set SMTP_URL and MAIL_FROM to send mail)')
    } else {
      await assertPortFree(env.MAIL_EMULATOR_SMTP_PORT, 'mail emulator (SMTP)', 'MAIL_EMULATOR_SMTP_PORT')
      await assertPortFree(env.MAIL_EMULATOR_WEB_PORT, 'mail emulator (inbox)', 'MAIL_EMULATOR_WEB_PORT')
      const { startMailEmulator } = await import('./mail/server.ts')
      const mail = await startMailEmulator({
        host: options.host,
        smtpPort: env.MAIL_EMULATOR_SMTP_PORT,
        webPort: env.MAIL_EMULATOR_WEB_PORT,
        dataFile: path.join(options.dataDir, 'mail-emulator.json'),
      })
      supplied.SMTP_URL = mail.smtpUrl
      options.log(`no SMTP_URL: mail goes to the local mail catcher (${mail.smtpUrl}). Mail inbox: http://localhost:${mail.webPort}`)
      stops.push(() => mail.close())
    }
  }

  if (!env.STRIPE_SECRET_KEY) {
    if (production) throw new Error('STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set in production.')
    const port = env.STRIPE_EMULATOR_PORT
    await assertPortFree(port, 'Stripe emulator', 'STRIPE_EMULATOR_PORT')
    const { startStripeEmulator } = await import('./stripe/server.ts')
    const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('hex')}`
    const stripe = await startStripeEmulator({
      host: options.host,
      port,
      // Payments made before a restart are still at the provider, as with Stripe (the reconciliation reads them).
      dataFile: path.join(options.dataDir, 'stripe-emulator.json'),
      webhookSecret,
      webhookUrl: `http://127.0.0.1:${options.appPort}/api/stripe/webhook`,
      // Stripe retries an unanswered webhook for 3 days; the e2e suite scales that down.
      timeScale: env.STRIPE_EMULATOR_TIME_SCALE,
    })
    appPortSetters.push((appPort) => stripe.setWebhookUrl(`http://127.0.0.1:${appPort}/api/stripe/webhook`))
    supplied.STRIPE_WEBHOOK_SECRET = webhookSecret
    supplied.STRIPE_SECRET_KEY = stripe.secretKey
    supplied.STRIPE_PUBLISHABLE_KEY = stripe.publishableKey
    supplied.STRIPE_API_BASE = stripe.url
    supplied.STRIPE_JS_URL = stripe.scriptUrl
    demoStripe = new Stripe(stripe.secretKey, { host: stripe.host, port: stripe.port, protocol: 'http' })
    options.log(`no STRIPE_SECRET_KEY: using the local Stripe emulator at ${stripe.url}`)
    stops.push(() => stripe.close())
  }

  // Listing images: an S3-compatible bucket shared by every instance (STORAGE=local opts out, one instance only).
  if (env.STORAGE === 's3' && !env.S3_BUCKET) {
    if (production)
      throw new Error(
        'S3_BUCKET (with S3_ENDPOINT, S3_REGION and keys as the provider needs) must be set in production, or STORAGE=local for a single instance.',
      )
    const port = env.S3_EMULATOR_PORT
    await assertPortFree(port, 'S3 emulator', 'S3_EMULATOR_PORT')
    const { startS3Emulator } = await import('./s3/server.ts')
    const bucket = 'forkmarket-uploads'
    const s3 = await startS3Emulator({
      host: options.host,
      port,
      dataDir: path.join(options.dataDir, 's3'),
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? localSecret(options.dataDir, 's3-emulator-secret'),
      buckets: [bucket],
    })
    // Images uploaded before storage moved to S3 (files in DATA_DIR/uploads) keep working: copied in once.
    const { importLocalUploads } = await import('./s3/import-local.ts')
    const imported = await importLocalUploads(path.join(options.dataDir, 'uploads'), s3.store, bucket)
    if (imported) options.log(`copied ${imported} image files from ${path.join(options.dataDir, 'uploads')} into the S3 emulator`)
    supplied.S3_ENDPOINT = s3.url
    supplied.S3_BUCKET = bucket
    supplied.S3_REGION = s3.region
    supplied.S3_ACCESS_KEY_ID = s3.accessKeyId
    supplied.S3_SECRET_ACCESS_KEY = s3.secretAccessKey
    supplied.S3_FORCE_PATH_STYLE = 'true'
    options.log(`no S3_BUCKET: using the local S3 emulator at ${s3.url} (browse: ${s3.url}/_emulator/)`)
    stops.push(() => s3.close())
  }

  return {
    supplied,
    defaults,
    demoGithub,
    demoStripe,
    createSession,
    setAppPort: (port) => {
      for (const setAppPort of appPortSetters) setAppPort(port)
    },
    stop: async () => {
      for (const stop of stops.reverse()) await stop()
    },
  }
}
