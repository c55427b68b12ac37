import path from 'node:path'
import { z } from '../../lib/zod.ts'

/**
 * The configuration: every environment variable the app, its launcher (server.ts)
 * and the database scripts read, parsed once by one Zod schema. `.env.example`
 * and the README's table are generated from ENV_DOCS below (`npm run gen:env-docs`;
 * a test fails when they drift). Nothing else reads process.env.
 */

const blankIsUnset = (value: unknown) => (value === '' ? undefined : value)
const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true')
const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a port number')
  .min(0, 'must be a port number')
  .max(65_535, 'must be a port number')
const positiveInt = z.coerce
  .number({ error: 'must be a whole number above 0' })
  .int('must be a whole number above 0')
  .positive('must be a whole number above 0')
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
const text = z.string().min(1)

const shape = {
  NODE_ENV: z.enum(['development', 'test', 'production'], { error: 'must be development, test or production' }).default('development'),
  PORT: port.default(3000),
  HOST: text.default('0.0.0.0'),
  APP_URL: httpUrl.transform((url) => url.replace(/\/$/, '')).optional(),
  TRUST_PROXY: text.optional(),
  DATA_DIR: text.transform((dir) => path.resolve(dir)).prefault('.data'),
  BUILD_DIR: text.default('build'),
  SKIP_BUILD: flag.default(false),

  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  EMBEDDED_PG_PORT: port.default(12132),
  DB_POOL_MAX: positiveInt.default(10),
  SEED_DEMO_DATA: flag.optional(),

  SESSION_SECRET: text.optional(),
  BANK_DETAILS_KEY: text.optional(),

  SUPABASE_URL: httpUrl.optional(),
  SUPABASE_ANON_KEY: text.optional(),
  SUPABASE_EMULATOR_PORT: port.default(12121),
  AUTH_ACCESS_TOKEN_TTL: positiveInt.default(600),
  ADMIN_EMAILS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .prefault(''),

  STRIPE_SECRET_KEY: text.optional(),
  STRIPE_PUBLISHABLE_KEY: text.optional(),
  STRIPE_WEBHOOK_SECRET: text.optional(),
  STRIPE_EMULATOR_PORT: port.default(12111),
  STRIPE_EMULATOR_TIME_SCALE: z.coerce.number({ error: 'must be a number above 0' }).positive('must be a number above 0').default(1),
  STRIPE_API_BASE: httpUrl.optional(),
  STRIPE_JS_URL: httpUrl.optional(),

  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an address, or a name and <address>')
    .default('Forkmarket <notifications@forkmarket.localhost>'),
  MAIL_EMULATOR_SMTP_PORT: port.default(12125),
  MAIL_EMULATOR_WEB_PORT: port.default(12126),

  STORAGE: z.enum(['s3', 'local'], { error: 'must be s3 or local' }).default('s3'),
  S3_BUCKET: text.optional(),
  S3_ENDPOINT: httpUrl.transform((url) => url.replace(/\/$/, '')).optional(),
  S3_REGION: text.default('us-east-1'),
  S3_ACCESS_KEY_ID: text.optional(),
  S3_SECRET_ACCESS_KEY: text.optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  S3_EMULATOR_PORT: port.default(12113),

  GITHUB_APP_ID: z.coerce
    .number({ error: 'must be the App ID (a number)' })
    .int('must be the App ID (a number)')
    .positive('must be the App ID (a number)')
    .optional(),
  // A PEM key; `\n` escapes (one-line environment files) are turned into newlines.
  GITHUB_APP_PRIVATE_KEY: text
    .transform((key) => key.replaceAll('\\n', '\n').trim())
    .refine((key) => key.startsWith('-----BEGIN') && key.includes('PRIVATE KEY-----'), "must be the App's PEM private key")
    .optional(),
  GITHUB_APP_CLIENT_ID: text.optional(),
  GITHUB_APP_CLIENT_SECRET: text.optional(),
  GITHUB_WEBHOOK_SECRET: text.optional(),
  GITHUB_API_URL: httpUrl.transform((url) => url.replace(/\/$/, '')).optional(),
  GITHUB_EMULATOR_PORT: port.default(12112),
  // The platform's account the sellers' payouts are paid from (issue 19: pain.001's debtor).
  PAYOUT_DEBTOR_NAME: text.max(140, 'must be at most 140 characters').optional(),
  PAYOUT_DEBTOR_IBAN: z
    .string()
    .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, 'must be an IBAN in capitals without spaces')
    .optional(),
  PAYOUT_DEBTOR_BIC: z
    .string()
    .regex(/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/, 'must be a BIC (8 or 11 characters)')
    .optional(),

  LOG_SILENT: flag.default(false),
  RATE_LIMIT_MULTIPLIER: z.coerce.number({ error: 'must be a number above 0' }).positive('must be a number above 0').default(1),
  HEAP_GROWING_PERCENT: z.coerce
    .number({ error: "must be a whole number of percent (0 for V8's own)" })
    .int("must be a whole number of percent (0 for V8's own)")
    .min(0, "must be a whole number of percent (0 for V8's own)")
    .max(1000, 'must be at most 1000')
    .default(50),
}

/** One variable read before the configuration is loaded (app/server/infra/heap-policy.server.ts), by the same rule. */
export function heapGrowingPercent(source: Record<string, string | undefined> = process.env) {
  return shape.HEAP_GROWING_PERCENT.safeParse(blankIsUnset(source.HEAP_GROWING_PERCENT))
}

export type EnvName = keyof typeof shape

/** What production must set: there is no embedded database, emulator or generated secret to fall back on. */
const REQUIRED_IN_PRODUCTION = [
  'DATABASE_URL',
  'SESSION_SECRET',
  'BANK_DETAILS_KEY',
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const satisfies readonly EnvName[]

/** Values whose content never appears in an error message. */
const SECRET: ReadonlySet<EnvName> = new Set([
  'DATABASE_URL',
  'SESSION_SECRET',
  'BANK_DETAILS_KEY',
  'SUPABASE_ANON_KEY',
  'S3_SECRET_ACCESS_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'GITHUB_APP_PRIVATE_KEY',
  'GITHUB_APP_CLIENT_SECRET',
  'GITHUB_WEBHOOK_SECRET',
])

/** The GitHub App is configured all together or not at all (then, locally, the emulator stands in). */
export const GITHUB_APP_VARIABLES = [
  'GITHUB_APP_ID',
  'GITHUB_APP_PRIVATE_KEY',
  'GITHUB_APP_CLIENT_ID',
  'GITHUB_APP_CLIENT_SECRET',
  'GITHUB_WEBHOOK_SECRET',
] as const satisfies readonly EnvName[]

export const ConfigSchema = z.object(shape)

export type Config = z.output<typeof ConfigSchema>
type Supplied = (typeof REQUIRED_IN_PRODUCTION)[number]
/**
 * What the app reads. The variables production must set are always present here: locally the
 * launcher (server.ts) supplies them (embedded database, emulators, generated secrets) before
 * the app loads; reading one without the launcher (a script) throws a ConfigError naming it.
 */
export type AppConfig = Omit<Config, Supplied> & { readonly [K in Supplied]: NonNullable<Config[K]> }

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
    this.name = 'ConfigError'
  }
}

/** Parses an environment; throws a ConfigError with one line per missing or malformed variable. */
export function parseConfig(source: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.keys(shape).map((name) => [name, blankIsUnset(source[name])]))
  const result = ConfigSchema.safeParse(input)
  const problems = new Map<string, string>()
  for (const issue of result.error?.issues ?? []) {
    const name = String(issue.path[0]) as EnvName
    if (problems.has(name)) continue
    const value = input[name]
    const shown = value === undefined || SECRET.has(name) ? '' : ` (got ${JSON.stringify(value)})`
    problems.set(name, `${name} ${issue.message}${shown}`)
  }
  const githubSet = GITHUB_APP_VARIABLES.filter((name) => input[name] !== undefined)
  if (githubSet.length > 0) {
    for (const name of GITHUB_APP_VARIABLES) {
      if (input[name] === undefined && !problems.has(name))
        problems.set(name, `${name} must be set with ${githubSet[0]} (the GitHub App is configured all together)`)
    }
  }
  if (input.NODE_ENV === 'production' && input.SMTP_URL !== undefined && input.MAIL_FROM === undefined && !problems.has('MAIL_FROM')) {
    problems.set('MAIL_FROM', 'MAIL_FROM must be set with SMTP_URL in production (an address of your domain)')
  }
  if ((input.S3_ACCESS_KEY_ID === undefined) !== (input.S3_SECRET_ACCESS_KEY === undefined)) {
    const missing = input.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'
    if (!problems.has(missing))
      problems.set(
        missing,
        `${missing} must be set with ${missing === 'S3_ACCESS_KEY_ID' ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} (one key pair)`,
      )
  }
  if (input.NODE_ENV === 'production') {
    for (const name of REQUIRED_IN_PRODUCTION) {
      if (input[name] === undefined && !problems.has(name)) problems.set(name, `${name} must be set in production`)
    }
  }
  if (problems.size > 0 || !result.success) throw new ConfigError([...problems.values()])
  return result.data
}

const CURRENT = Symbol.for('forkmarket.config')
type Holder = { [CURRENT]?: AppConfig }

function supplied(config: Config): AppConfig {
  const result: Record<string, unknown> = { ...config }
  for (const name of REQUIRED_IN_PRODUCTION) {
    if (config[name] !== undefined) continue
    Object.defineProperty(result, name, {
      enumerable: true,
      get() {
        throw new ConfigError([`${name} is not set: start the app with npm start or npm run dev, which supply it locally, or set it`])
      },
    })
  }
  return Object.freeze(result) as AppConfig
}

/**
 * Parses the environment and makes it the configuration of this process. The launcher calls it
 * once at start-up, after supplying the local defaults. The result is kept on globalThis, so the
 * server bundle (and Vite's dev modules) read the launcher's one parse rather than their own.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const config = supplied(parseConfig(source))
  ;(globalThis as Holder)[CURRENT] = config
  return config
}

/** The configuration of this process (parsed from process.env on first use when no launcher loaded it). */
export function config(): AppConfig {
  return (globalThis as Holder)[CURRENT] ?? loadConfig()
}

/**
 * The AWS SDK tells every start, over eight lines, that its releases after January 2027 need Node 22 (this
 * machine's Node 20 is past its end of life, README; the image runs Node 26): off, as the SDK documents
 * (aws/aws-sdk-js-v3#7983), unless the operator set the variable. Only that warning: the SDK reads it alone.
 * Here because this module is the one place that touches process.env.
 */
export function quietAwsSdkNodeNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
}

export function isProduction(): boolean {
  return config().NODE_ENV === 'production'
}

/** Hosts whose own address may stand in for APP_URL: this machine (local development, tests). */
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The public origin of the app, used to build absolute links (OAuth callback,
 * Stripe return_url): APP_URL when set. Without it, the request's own origin
 * only when it is this machine — the Host header is the client's choice, and
 * must not steer a sign-in or a payment's return to another address (issue
 * 14.8) — else `http://localhost:PORT`.
 */
export function appUrl(request?: Request): string {
  const { APP_URL, PORT } = config()
  if (APP_URL) return APP_URL
  const origin = request ? new URL(request.url) : undefined
  if (origin && LOCAL_HOSTNAMES.has(origin.hostname)) return origin.origin
  return `http://localhost:${PORT}`
}

export interface EnvDoc {
  group:
    | 'Server'
    | 'Database'
    | 'Secrets'
    | 'Identity (Supabase Auth)'
    | 'Payments (Stripe)'
    | 'Delivery (GitHub App)'
    | 'Mail'
    | 'Storage'
    | 'Logs and limits'
  /** The default, as the README states it. */
  default: string
  meaning: string
  /** A sample value for .env.example when the default is not one. */
  example?: string
}

/** Documentation of every variable: the source of `.env.example` and the README's table. */
export const ENV_DOCS: { readonly [K in EnvName]: EnvDoc } = {
  NODE_ENV: {
    group: 'Server',
    default: '`development`',
    meaning: '`production`: no emulators, no auto-build, HSTS, Secure cookies, required secrets; `test` for the e2e server',
    example: 'production',
  },
  PORT: { group: 'Server', default: '`3000`', meaning: 'where the app listens' },
  HOST: { group: 'Server', default: '`0.0.0.0`', meaning: 'the interface the app listens on' },
  APP_URL: {
    group: 'Server',
    default: "the request's origin on localhost, else `http://localhost:PORT`",
    meaning: 'public origin, used for the OAuth callback and Stripe `return_url` (set it when the app is reached by any other name)',
    example: 'https://forkmarket.example',
  },
  TRUST_PROXY: { group: 'Server', default: '`false`', meaning: 'Express "trust proxy" (e.g. `1` behind one load balancer)' },
  DATA_DIR: { group: 'Server', default: '`.data`', meaning: 'embedded database, uploads, emulator state, generated local secrets' },
  BUILD_DIR: { group: 'Server', default: '`build`', meaning: 'where `react-router build` writes and `npm start` reads' },
  SKIP_BUILD: { group: 'Server', default: '`false`', meaning: 'skip the "build if stale" check of `npm start`' },
  DATABASE_URL: {
    group: 'Database',
    default: 'embedded PostgreSQL',
    meaning: 'an external PostgreSQL (no embedded server is started); required in production',
    example: 'postgres://user:pass@host:5432/forkmarket',
  },
  EMBEDDED_PG_PORT: { group: 'Database', default: '`12132`', meaning: 'port of the embedded PostgreSQL' },
  DB_POOL_MAX: { group: 'Database', default: '`10`', meaning: 'connections per app process' },
  SEED_DEMO_DATA: {
    group: 'Database',
    default: '`true` with the embedded DB, else `false`',
    meaning: 'load the demo data on the first start',
    example: 'true',
  },
  SESSION_SECRET: {
    group: 'Secrets',
    default: 'generated in `DATA_DIR/secrets`',
    meaning: 'signs the theme and toast cookies (required in production)',
    example: '…',
  },
  BANK_DETAILS_KEY: {
    group: 'Secrets',
    default: 'generated in `DATA_DIR/secrets`',
    meaning: 'AES-256-GCM key material for bank account numbers (required in production)',
    example: '…',
  },
  SUPABASE_URL: {
    group: 'Identity (Supabase Auth)',
    default: 'local GoTrue emulator',
    meaning: 'hosted Supabase Auth (Google + GitHub providers; required in production)',
    example: 'https://<project>.supabase.co',
  },
  SUPABASE_ANON_KEY: {
    group: 'Identity (Supabase Auth)',
    default: 'local GoTrue emulator',
    meaning: "the project's anon key (required in production)",
    example: '…',
  },
  SUPABASE_EMULATOR_PORT: { group: 'Identity (Supabase Auth)', default: '`12121`', meaning: 'port of the local auth emulator' },
  AUTH_ACCESS_TOKEN_TTL: {
    group: 'Identity (Supabase Auth)',
    default: '`600`',
    meaning: "emulator only: access-token lifetime in seconds (set the hosted project's JWT expiry to the same; docs/decisions/009)",
    example: '600',
  },
  ADMIN_EMAILS: {
    group: 'Identity (Supabase Auth)',
    default: '`admin@forkmarket.dev` locally, empty otherwise',
    meaning: 'comma-separated e-mails made admins at sign-in',
    example: 'admin@example.com',
  },
  STRIPE_SECRET_KEY: {
    group: 'Payments (Stripe)',
    default: 'local Stripe emulator',
    meaning: 'Stripe secret API key (required in production)',
    example: 'sk_live_…',
  },
  STRIPE_PUBLISHABLE_KEY: {
    group: 'Payments (Stripe)',
    default: 'local Stripe emulator',
    meaning: 'Stripe publishable key (required in production)',
    example: 'pk_live_…',
  },
  STRIPE_WEBHOOK_SECRET: {
    group: 'Payments (Stripe)',
    default: 'generated for the emulator',
    meaning: 'verifies `POST /api/stripe/webhook` (required in production)',
    example: 'whsec_…',
  },
  STRIPE_EMULATOR_PORT: { group: 'Payments (Stripe)', default: '`12111`', meaning: 'port of the local Stripe emulator' },
  STRIPE_EMULATOR_TIME_SCALE: {
    group: 'Payments (Stripe)',
    default: '`1`',
    meaning:
      "multiplies the local Stripe emulator's waits between webhook retries (Stripe's schedule: exponential backoff over three days); the e2e suite runs them 1000× faster",
  },
  STRIPE_API_BASE: {
    group: 'Payments (Stripe)',
    default: "Stripe's API (the launcher sets the emulator's)",
    meaning: 'where the Stripe client talks; leave unset with real keys',
    example: 'http://127.0.0.1:12111',
  },
  STRIPE_JS_URL: {
    group: 'Payments (Stripe)',
    default: "js.stripe.com (the launcher sets the emulator's)",
    meaning: "the emulator's stand-in for Stripe.js; leave unset with real keys",
    example: 'http://127.0.0.1:12111/v3/stripe.js',
  },
  SMTP_URL: {
    group: 'Mail',
    default: 'local mail catcher (`npm start`: inbox at `http://localhost:MAIL_EMULATOR_WEB_PORT`); unset in production: no mail is sent',
    meaning:
      'the SMTP server mail is sent through, e.g. `smtps://user:pass@smtp.example.com:465` (any provider); no mail leaves the machine without it',
    example: 'smtps://user:password@smtp.example.com:465',
  },
  MAIL_FROM: {
    group: 'Mail',
    default: '`Forkmarket <notifications@forkmarket.localhost>` (required with SMTP_URL in production)',
    meaning: 'the From of every mail: an address of your domain that the SMTP provider may send for',
    example: 'Forkmarket <notifications@forkmarket.example>',
  },
  MAIL_EMULATOR_SMTP_PORT: { group: 'Mail', default: '`12125`', meaning: 'SMTP port of the local mail catcher' },
  MAIL_EMULATOR_WEB_PORT: { group: 'Mail', default: '`12126`', meaning: "port of the local mail catcher's inbox page and JSON API" },
  GITHUB_APP_ID: {
    group: 'Delivery (GitHub App)',
    default: 'local GitHub emulator',
    meaning:
      "the Forkmarket GitHub App's ID (set the five `GITHUB_APP_*`/`GITHUB_WEBHOOK_SECRET` together; unset in production: GitHub delivery is off and every listing is delivered by its seller)",
    example: '123456',
  },
  GITHUB_APP_PRIVATE_KEY: {
    group: 'Delivery (GitHub App)',
    default: 'local GitHub emulator',
    meaning: "the App's private key (PEM; `\\n` escapes allowed), signs the App's JWTs",
    example: '-----BEGIN RSA PRIVATE KEY-----\\n…',
  },
  GITHUB_APP_CLIENT_ID: {
    group: 'Delivery (GitHub App)',
    default: 'local GitHub emulator',
    meaning: "the App's client ID (buyers connect GitHub through the App's user authorization)",
    example: 'Iv23li…',
  },
  GITHUB_APP_CLIENT_SECRET: {
    group: 'Delivery (GitHub App)',
    default: 'local GitHub emulator',
    meaning: "the App's client secret",
    example: '…',
  },
  GITHUB_WEBHOOK_SECRET: {
    group: 'Delivery (GitHub App)',
    default: 'generated for the emulator',
    meaning: 'verifies `POST /api/github/webhook` (`X-Hub-Signature-256`)',
    example: '…',
  },
  GITHUB_API_URL: {
    group: 'Delivery (GitHub App)',
    default: "`https://api.github.com` (the launcher sets the emulator's)",
    meaning: "GitHub's REST API (GitHub Enterprise: `https://HOST/api/v3`); the OAuth and install pages follow it",
    example: 'https://api.github.com',
  },
  GITHUB_EMULATOR_PORT: { group: 'Delivery (GitHub App)', default: '`12112`', meaning: 'port of the local GitHub emulator' },
  PAYOUT_DEBTOR_NAME: {
    group: 'Payments (Stripe)',
    default: 'locally `Forkmarket Ltd`; production: set it',
    meaning:
      'name of the platform account payout batches are paid from (pain.001 debtor); export refuses in production without all three PAYOUT_DEBTOR_*',
    example: 'Forkmarket Ltd',
  },
  PAYOUT_DEBTOR_IBAN: {
    group: 'Payments (Stripe)',
    default: 'locally a published example IBAN; production: set it',
    meaning: 'IBAN of that account (capitals, no spaces)',
    example: 'GB33BUKB20201555555555',
  },
  PAYOUT_DEBTOR_BIC: {
    group: 'Payments (Stripe)',
    default: 'locally `BUKBGB22`; production: set it',
    meaning: 'BIC of that account’s bank',
    example: 'BUKBGB22',
  },
  STORAGE: {
    group: 'Storage',
    default: '`s3`',
    meaning:
      '`s3`: listing images in an S3-compatible bucket (shared by every instance); `local`: files in `DATA_DIR/uploads`, for a single instance only',
    example: 's3',
  },
  S3_BUCKET: {
    group: 'Storage',
    default: 'local S3 emulator (bucket `forkmarket-uploads`)',
    meaning: 'the bucket for listing images (it must exist); required in production with `STORAGE=s3`',
    example: 'forkmarket-uploads',
  },
  S3_ENDPOINT: {
    group: 'Storage',
    default: "AWS S3 of S3_REGION (the launcher sets the emulator's)",
    meaning:
      'the S3 API of another provider: R2 `https://<account>.r2.cloudflarestorage.com`, MinIO, Supabase `https://<project>.supabase.co/storage/v1/s3`',
    example: 'https://<account>.r2.cloudflarestorage.com',
  },
  S3_REGION: {
    group: 'Storage',
    default: '`us-east-1`',
    meaning: "the bucket's region (R2: `auto`; Supabase: the project's region)",
    example: 'us-east-1',
  },
  S3_ACCESS_KEY_ID: {
    group: 'Storage',
    default: "the SDK's default credentials (IAM role, AWS_* variables); the emulator's locally",
    meaning: 'access key id for the bucket (set with S3_SECRET_ACCESS_KEY)',
    example: 'AKIA…',
  },
  S3_SECRET_ACCESS_KEY: { group: 'Storage', default: 'as S3_ACCESS_KEY_ID', meaning: 'its secret', example: '…' },
  S3_FORCE_PATH_STYLE: {
    group: 'Storage',
    default: '`false` (`true` for the emulator)',
    meaning: '`true`: `https://endpoint/bucket/key` URLs instead of `https://bucket.endpoint/key` (MinIO and Supabase Storage need it)',
    example: 'false',
  },
  S3_EMULATOR_PORT: { group: 'Storage', default: '`12113`', meaning: 'port of the local S3 emulator' },
  LOG_SILENT: { group: 'Logs and limits', default: '`false`', meaning: '`true` drops info/warn log lines (errors are always written)' },
  RATE_LIMIT_MULTIPLIER: { group: 'Logs and limits', default: '`1`', meaning: 'multiplies every rate limit (the tests relax them)' },
  HEAP_GROWING_PERCENT: {
    group: 'Logs and limits',
    default: '`50`',
    meaning:
      "how far V8 lets the heap grow past what its last full collection kept before collecting again (`0`: V8's own factor, up to 4×; docs/decisions/037)",
  },
}
