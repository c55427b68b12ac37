import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { startGithubEmulator, type GithubEmulator } from '../../emulators/github/server.ts'
import { startMailEmulator, type MailEmulator } from '../../emulators/mail/server.ts'
import { startS3Emulator, type S3Emulator } from '../../emulators/s3/server.ts'
import { startStripeEmulator, type StripeEmulator } from '../../emulators/stripe/server.ts'
import { startAuthEmulator, type AuthEmulator } from '../../emulators/supabase-auth/server.ts'
import { setEnv } from './config.ts'
import { startWebhookForwarder } from './webhook-forwarder.ts'

/*
 * The emulators an integration test file talks to through the real clients (@supabase/ssr,
 * @aws-sdk/client-s3, stripe, Octokit, Nodemailer): Supabase Auth, S3, Stripe, GitHub and the mail
 * catcher, each on port 0 and in memory.
 *
 * The integration project runs without isolation (vitest.config.ts): a worker imports the app once
 * and runs its files one after another. What a file must not inherit from the file before it is made
 * afresh here for each one: tests/setup/worker-setup.ts calls startFileServices() before the file's
 * own imports run and stopFileServices() after its last test. The app's clients are keyed by the
 * configuration they were built from (stripe.server.ts, github.server.ts, mail.server.ts), so the new
 * addresses give new clients; nothing a file changed in an emulator is seen by the next.
 *
 * The bindings below are live: a file reads the emulators of its own run.
 */
export let authEmulator: AuthEmulator
export let s3Emulator: S3Emulator
export let stripeEmulator: StripeEmulator
export let githubEmulator: GithubEmulator
export let mailEmulator: MailEmulator
/** The secret the Stripe emulator signs its webhooks with (the app's STRIPE_WEBHOOK_SECRET). */
export let stripeWebhookSecret: string
/** Where the Stripe emulator sends events: a local server handing them to the app's webhook route. */
export let stripeWebhookForwardUrl: string
/** A receiver that answers 200 to every Stripe event without telling the app. */
export let stripeWebhookSinkUrl: string
/** The Stripe SDK pointed at this file's emulator, playing the browser's part (confirming an intent). */
export let stripeAsBrowser: Stripe
/** Where the GitHub emulator sends webhooks: a local server handing them to the app's webhook route. */
export let githubWebhookUrl: string
/** The app's answers to the GitHub emulator's webhook deliveries, newest last. */
export const githubWebhookAnswers: Array<{ event: string; status: number; body: string }> = []

// One GitHub App key per worker: generating an RSA key costs ~0.1 s, and each file's emulator (and so
// the app's client for it, keyed by the emulator's address) is new anyway.
const githubAppKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()

let closers: Array<() => Promise<void>> = []

export async function startFileServices(): Promise<void> {
  githubWebhookAnswers.length = 0
  stripeWebhookSecret = `whsec_${randomBytes(24).toString('hex')}`
  ;[authEmulator, s3Emulator, stripeEmulator, githubEmulator, mailEmulator] = await Promise.all([
    startAuthEmulator({ port: 0, accessTokenTtlSeconds: 3600 }),
    startS3Emulator({ port: 0, buckets: ['forkmarket-uploads'] }),
    // Stripe's 3 days of webhook retries in about 3 s (a test where the app answers 5xx still ends).
    startStripeEmulator({ port: 0, webhookSecret: stripeWebhookSecret, timeScale: 1e-5 }),
    startGithubEmulator({ port: 0, privateKey: githubAppKey }),
    startMailEmulator({ smtpPort: 0, webPort: 0 }),
  ])
  const [stripeForwarder, githubForwarder, sink] = await Promise.all([
    startWebhookForwarder({ path: '/api/stripe/webhook', route: () => import('../../app/routes/api/stripe-webhook.ts') }),
    startWebhookForwarder({
      path: '/api/github/webhook',
      route: () => import('../../app/routes/api/github-webhook.ts'),
      onAnswer: ({ headers, status, body }) => githubWebhookAnswers.push({ event: headers.get('x-github-event') ?? '', status, body }),
    }),
    startSink(),
  ])
  stripeWebhookForwardUrl = stripeForwarder.url
  stripeEmulator.setWebhookUrl(stripeWebhookForwardUrl)
  stripeWebhookSinkUrl = sink.url
  githubWebhookUrl = githubForwarder.url
  githubEmulator.setWebhookUrl(githubWebhookUrl)
  stripeAsBrowser = new Stripe(stripeEmulator.secretKey, { host: stripeEmulator.host, port: stripeEmulator.port, protocol: 'http' })
  closers = [authEmulator, s3Emulator, stripeEmulator, githubEmulator, mailEmulator, stripeForwarder, githubForwarder, sink].map(
    (service) => () => service.close(),
  )

  setEnv({
    ...authAndStorageEnv(),
    STRIPE_SECRET_KEY: stripeEmulator.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripeEmulator.publishableKey,
    STRIPE_API_BASE: stripeEmulator.url,
    STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
    STRIPE_JS_URL: stripeEmulator.scriptUrl,
    GITHUB_API_URL: githubEmulator.url,
    GITHUB_APP_ID: String(githubEmulator.appId),
    GITHUB_APP_PRIVATE_KEY: githubEmulator.privateKey,
    GITHUB_APP_CLIENT_ID: githubEmulator.clientId,
    GITHUB_APP_CLIENT_SECRET: githubEmulator.clientSecret,
    GITHUB_WEBHOOK_SECRET: githubEmulator.webhookSecret,
    SMTP_URL: mailEmulator.smtpUrl,
    MAIL_FROM: 'Forkmarket <notifications@forkmarket.test>',
  })
}

/** The variables that point an app (this process, or one a test spawns) at this file's auth and S3 emulators. */
export function authAndStorageEnv(): Record<string, string> {
  return {
    SUPABASE_URL: authEmulator.url,
    SUPABASE_ANON_KEY: authEmulator.anonKey,
    STORAGE: 's3',
    S3_ENDPOINT: s3Emulator.url,
    S3_BUCKET: 'forkmarket-uploads',
    S3_REGION: s3Emulator.region,
    S3_ACCESS_KEY_ID: s3Emulator.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3Emulator.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  }
}

export async function stopFileServices(): Promise<void> {
  const closing = closers
  closers = []
  await Promise.all(closing.map((close) => close()))
}

async function startSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const sink = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'))
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  }
}
