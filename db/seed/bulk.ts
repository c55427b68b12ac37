/**
 * Synthetic marketplace data at scale, for the search indexes and the benchmark:
 *
 *   npm run db:seed:bulk -- --listings 100000 [--sellers 200] [--seed 1] [--reset]
 *
 * against DATABASE_URL (migrated first). Listings get varied titles from word
 * lists, descriptions, stacks drawn from the option lists (with a realistic
 * skew), prices, dates over two years, ~5 % hidden and ~1 % archived; a few
 * sellers are created for them. Rows go in through `INSERT … SELECT FROM
 * unnest($1::text[], …)` in batches (no COPY client is installed), two batches
 * in flight, then VACUUM ANALYZE. The same seed gives the same data.
 *
 * About one listing in 200 carries a rare codename word in its title
 * (RARE_WORDS: 'quokka', 'axolotl', …) for rare, highly selective searches.
 */
import { pathToFileURL } from 'node:url'
import { sql, type Kysely } from 'kysely'
import { DELIVERY_TIMEFRAMES, EMAIL_SUPPORT_DURATIONS } from '../../app/lib/options.ts'
import { ratingSummary, type RatingSummary } from '../../app/lib/ratings.ts'
import { DEPENDENCIES } from '../../app/lib/tech-stack.ts'
import { parseConfig } from '../../app/server/infra/env.server.ts'
import { createDb } from '../connection.ts'
import { migrateToLatest } from '../migrate.ts'
import type { DB } from '../schema.ts'

export const BULK_EMAIL_DOMAIN = 'bulk.forkmarket.dev'

const STACKS: { languages: string[]; frameworks: string[]; weight: number }[] = [
  { languages: ['TypeScript'], frameworks: ['Next.js', 'React'], weight: 14 },
  { languages: ['TypeScript'], frameworks: ['React'], weight: 9 },
  { languages: ['JavaScript'], frameworks: ['React'], weight: 4 },
  { languages: ['TypeScript'], frameworks: ['Remix', 'React'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['React Router', 'React'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['Astro'], weight: 4 },
  { languages: ['TypeScript'], frameworks: ['SvelteKit', 'Svelte'], weight: 4 },
  { languages: ['TypeScript'], frameworks: ['Nuxt', 'Vue.js'], weight: 4 },
  { languages: ['JavaScript'], frameworks: ['Vue.js'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['Angular'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['NestJS'], weight: 2 },
  { languages: ['TypeScript'], frameworks: ['Express'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['Hono'], weight: 1 },
  { languages: ['TypeScript'], frameworks: ['SolidJS'], weight: 1 },
  { languages: ['TypeScript'], frameworks: ['Qwik'], weight: 1 },
  { languages: ['JavaScript'], frameworks: ['Gatsby'], weight: 1 },
  { languages: ['TypeScript'], frameworks: ['React Native', 'Expo'], weight: 3 },
  { languages: ['TypeScript'], frameworks: ['Ionic', 'Angular'], weight: 1 },
  { languages: ['Python'], frameworks: ['Django'], weight: 5 },
  { languages: ['Python'], frameworks: ['FastAPI'], weight: 4 },
  { languages: ['Python'], frameworks: ['Flask'], weight: 2 },
  { languages: ['Python', 'TypeScript'], frameworks: ['FastAPI', 'React'], weight: 2 },
  { languages: ['PHP'], frameworks: ['Laravel'], weight: 4 },
  { languages: ['Ruby'], frameworks: ['Ruby on Rails'], weight: 3 },
  { languages: ['Go'], frameworks: [], weight: 3 },
  { languages: ['Go', 'TypeScript'], frameworks: ['React'], weight: 1 },
  { languages: ['Rust'], frameworks: [], weight: 2 },
  { languages: ['Java'], frameworks: ['Spring Boot'], weight: 2 },
  { languages: ['Kotlin'], frameworks: ['Spring Boot'], weight: 1 },
  { languages: ['C#'], frameworks: ['ASP.NET Core'], weight: 2 },
  { languages: ['Elixir'], frameworks: ['Phoenix'], weight: 1 },
  { languages: ['Dart'], frameworks: ['Flutter'], weight: 2 },
  { languages: ['Swift'], frameworks: [], weight: 1 },
  { languages: ['Scala'], frameworks: [], weight: 0.3 },
  { languages: ['HTML', 'CSS'], frameworks: [], weight: 2 },
  { languages: ['HTML', 'CSS', 'JavaScript'], frameworks: [], weight: 1 },
  { languages: ['SQL', 'Python'], frameworks: [], weight: 0.5 },
]

// Popular services first; picks are skewed towards the front of the list.
const POPULAR_DEPENDENCIES = ['PostgreSQL', 'Stripe', 'Tailwind CSS', 'Docker', 'Redis', 'Supabase', 'Prisma', 'Vercel', 'Sentry', 'Resend']
const OTHER_DEPENDENCIES = DEPENDENCIES.filter((d) => !POPULAR_DEPENDENCIES.includes(d))

const DOMAINS = [
  'Booking',
  'Invoice',
  'CRM',
  'Analytics',
  'Recipe',
  'Fitness',
  'Podcast',
  'Newsletter',
  'Portfolio',
  'Blog',
  'Helpdesk',
  'Inventory',
  'Marketplace',
  'Job Board',
  'Real Estate',
  'Ticketing',
  'Learning',
  'Chat',
  'Kanban',
  'Survey',
  'Wiki',
  'Documentation',
  'Status Page',
  'Link Shortener',
  'Feature Flag',
  'Expense',
  'Habit',
  'Meditation',
  'Travel',
  'Restaurant',
  'Donation',
  'School',
  'Clinic',
  'Gym',
  'Salon',
  'Photography',
  'Music',
  'Video',
  'Weather',
  'Budget',
  'Time Tracking',
  'Project Management',
  'Payroll',
  'Affiliate',
  'Waitlist',
  'Changelog',
  'Roadmap',
  'Forum',
  'Community',
  'Pet Care',
  'Car Rental',
  'Hotel',
  'Coworking',
  'Storefront',
  'Subscription',
  'Membership',
  'Course',
  'Quiz',
  'Calendar',
  'Email Marketing',
]
const KINDS = [
  'Starter',
  'Template',
  'Dashboard',
  'Boilerplate',
  'Kit',
  'Platform',
  'App',
  'Site',
  'Theme',
  'Admin Panel',
  'API',
  'Toolkit',
  'Engine',
  'Manager',
  'Tracker',
  'Portal',
  'Builder',
  'Studio',
  'Suite',
  'Landing Page',
]
const ADJECTIVES = [
  'Modern',
  'Minimal',
  'Headless',
  'Realtime',
  'Serverless',
  'Lightweight',
  'Multi-tenant',
  'Self-hosted',
  'Fast',
  'Accessible',
  'Responsive',
  'Elegant',
  'Scalable',
  'Secure',
  'AI-powered',
  'Mobile-first',
  'Offline-first',
  'Production-ready',
  'Simple',
  'Complete',
  'Pro',
  'Ultimate',
  'Tiny',
  'Cloud',
  'Smart',
  'Visual',
  'Collaborative',
  'Enterprise',
  'Open',
  'Clean',
]
const AUDIENCES = [
  'Freelancers',
  'Startups',
  'Agencies',
  'Creators',
  'Developers',
  'Small Businesses',
  'Nonprofits',
  'Teachers',
  'Coaches',
  'Restaurants',
  'Clinics',
  'Photographers',
  'Musicians',
  'Writers',
  'Landlords',
  'Recruiters',
]
const FEATURES = [
  'authentication',
  'team accounts',
  'role-based access',
  'Stripe billing',
  'dark mode',
  'an admin panel',
  'email notifications',
  'CSV export',
  'full-text search',
  'file uploads',
  'a REST API',
  'webhooks',
  'audit logs',
  'charts and reports',
  'multi-language support',
  'SEO metadata',
  'a REST API with OpenAPI docs',
  'background jobs',
  'realtime updates',
  'two-factor authentication',
  'PDF generation',
  'a mobile layout',
  'calendar sync',
  'inventory alerts',
  'a public status page',
  'onboarding emails',
  'usage analytics',
]
/** Codenames that appear in about one title in 200 in total: rare, highly selective search terms. */
export const RARE_WORDS = [
  'Quokka',
  'Axolotl',
  'Narwhal',
  'Pangolin',
  'Okapi',
  'Tardigrade',
  'Capybara',
  'Wombat',
  'Kinkajou',
  'Fossa',
  'Quetzal',
  'Saola',
  'Numbat',
  'Dugong',
  'Ocelot',
  'Tamarin',
  'Caracal',
  'Gharial',
  'Bilby',
  'Markhor',
]
const FIRST_NAMES = [
  'Ada',
  'Lin',
  'Mateo',
  'Sara',
  'Noah',
  'Priya',
  'Tomás',
  'Amara',
  'Kenji',
  'Elena',
  'Omar',
  'Freya',
  'Jonas',
  'Leila',
  'Ravi',
  'Chloe',
  'Ikenna',
  'Sofia',
  'Dmitri',
  'Hana',
]
const LAST_NAMES = [
  'Okafor',
  'Wei',
  'García',
  'Kowalski',
  'Becker',
  'Sharma',
  'Silva',
  'Mensah',
  'Tanaka',
  'Rossi',
  'Haddad',
  'Larsen',
  'Novak',
  'Nasser',
  'Iyer',
  'Dubois',
  'Eze',
  'Moreau',
  'Petrov',
  'Kim',
]

/** mulberry32: small, fast, seedable; the same seed gives the same marketplace. */
function createRandom(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (max: number) => Math.floor(next() * max)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  const chance = (p: number) => next() < p
  return { next, int, pick, chance }
}
type Random = ReturnType<typeof createRandom>

function weightedStack(random: Random) {
  const total = STACKS.reduce((sum, s) => sum + s.weight, 0)
  let roll = random.next() * total
  for (const stack of STACKS) {
    roll -= stack.weight
    if (roll <= 0) return stack
  }
  return STACKS[0]!
}

function pickDependencies(random: Random): string[] {
  const count = 1 + random.int(5)
  const chosen = new Set<string>()
  while (chosen.size < count) {
    // Roughly two picks in three from the popular few, like real stacks.
    chosen.add(
      random.chance(0.65)
        ? POPULAR_DEPENDENCIES[Math.floor(random.next() ** 1.5 * POPULAR_DEPENDENCIES.length)]!
        : random.pick(OTHER_DEPENDENCIES),
    )
  }
  return [...chosen]
}

function toSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '')
}

function priceCents(random: Random): number {
  // Log-uniform from $5 to $1,000, ending in 9 or 99 cents like real price tags.
  const dollars = Math.round(Math.exp(Math.log(5) + random.next() * (Math.log(1000) - Math.log(5))))
  return random.chance(0.5) ? dollars * 100 - 1 : dollars * 100
}

export interface BulkListing {
  sellerIndex: number
  title: string
  slug: string
  shortDescription: string
  longDescription: string
  type: 'template' | 'full_site'
  priceCents: number
  licence: 'personal' | 'commercial' | 'unlimited'
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  tags: string[]
  setupCallAvailable: boolean
  emailSupportDuration: string | null
  bespokeDevelopmentRateCents: number | null
  deliveryTimeframe: string
  visible: boolean
  archived: boolean
  /** ISO timestamp with microseconds. */
  createdAt: string
  /** Issue 18: the stored rating (app/lib/ratings.ts) of synthetic reviews; about a third of listings have some. */
  rating: RatingSummary
}

/** Synthetic review totals from the listing's index (not the shared random stream: the other columns stay as they were). */
export function bulkRating(index: number): RatingSummary {
  const h = Math.imul(index + 1, 2654435761) >>> 0
  if (h % 3 !== 0) return ratingSummary({ count: 0, sum: 0 })
  const count = 1 + ((h >>> 4) % 80)
  const mean = 2.5 + ((h >>> 12) % 26) / 10
  return ratingSummary({ count, sum: Math.min(5 * count, Math.max(count, Math.round(mean * count))) })
}

/** One synthetic listing; `index` makes the slug unique within a run tagged `runTag`. */
export function generateBulkListing(random: Random, index: number, runTag: string, sellers: number, nowMs: number): BulkListing {
  const stack = weightedStack(random)
  const domain = random.pick(DOMAINS)
  const kind = random.pick(KINDS)
  const framework = stack.frameworks[0] ?? stack.languages[0]!
  const codename = random.chance(1 / 200) ? `${random.pick(RARE_WORDS)} ` : ''
  const titleShape = random.int(4)
  const title =
    codename +
    (titleShape === 0
      ? `${random.pick(ADJECTIVES)} ${domain} ${kind}`
      : titleShape === 1
        ? `${framework} ${domain} ${kind}`
        : titleShape === 2
          ? `${domain} ${kind} for ${random.pick(AUDIENCES)}`
          : `${random.pick(ADJECTIVES)} ${framework} ${domain} ${kind}`)
  const features = [random.pick(FEATURES), random.pick(FEATURES), random.pick(FEATURES)]
  const audience = random.pick(AUDIENCES).toLowerCase()
  const dependencies = pickDependencies(random)
  const type = random.chance(0.6) ? 'template' : 'full_site'
  const shortDescription = `A ${domain.toLowerCase()} ${kind.toLowerCase()} built with ${framework}, with ${features[0]} and ${features[1]}.`
  const longDescription = [
    `${title} gives ${audience} a ${type === 'template' ? 'head start' : 'ready-to-run site'} for ${domain.toLowerCase()} work.`,
    `It ships with ${features.join(', ')}, and uses ${dependencies.join(', ')}.`,
    `Written in ${stack.languages.join(' and ')}${stack.frameworks.length ? ` on ${stack.frameworks.join(' and ')}` : ''}, with tests, a seed script and deployment notes.`,
    random.chance(0.5)
      ? 'The code is documented, linted and easy to extend; every screen works on mobile.'
      : 'Setup takes minutes: clone the fork, set the environment variables and run the migrations.',
  ].join(' ')
  const licenceRoll = random.next()
  const bespoke = random.chance(0.15)
  const emailSupport = random.chance(0.45)
  // Uniform over two years, with microseconds so sort keys rarely tie.
  const createdMs = nowMs - Math.floor(random.next() * 730 * 86_400_000)
  const micros = String(random.int(1000)).padStart(3, '0')
  const createdAt = new Date(createdMs).toISOString().replace('Z', `${micros}Z`)
  const tags = [...new Set([toSlug(domain), toSlug(kind), random.chance(0.5) ? toSlug(audience) : toSlug(random.pick(FEATURES))])]
  return {
    sellerIndex: random.int(sellers),
    title,
    slug: `${toSlug(title)}-${runTag}${index.toString(36)}`,
    shortDescription,
    longDescription,
    type,
    priceCents: priceCents(random),
    licence: licenceRoll < 0.45 ? 'commercial' : licenceRoll < 0.85 ? 'personal' : 'unlimited',
    languages: stack.languages,
    frameworks: stack.frameworks,
    dependencies,
    tags,
    setupCallAvailable: random.chance(0.25),
    emailSupportDuration: emailSupport ? random.pick(EMAIL_SUPPORT_DURATIONS) : null,
    bespokeDevelopmentRateCents: bespoke ? (50 + random.int(151)) * 100 : null,
    deliveryTimeframe: random.pick(DELIVERY_TIMEFRAMES),
    visible: !random.chance(0.05),
    archived: random.chance(0.01),
    createdAt,
    rating: bulkRating(index),
  }
}

export interface BulkSeedOptions {
  listings: number
  /** Default: one seller per 500 listings, between 5 and 1,000. */
  sellers?: number
  seed?: number
  batchSize?: number
  now?: Date
  log?: (message: string) => void
}

export interface BulkSeedResult {
  listings: number
  sellers: number
  milliseconds: number
}

/** Creates (or reuses) the bulk sellers; returns their ids in order. */
async function ensureSellers(db: Kysely<DB>, count: number, random: Random): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const number = String(i + 1).padStart(4, '0')
    return {
      username: `bulk-seller-${number}`,
      email: `seller-${number}@${BULK_EMAIL_DOMAIN}`,
      displayName: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
      bio: 'Synthetic seller created by the bulk seeder.',
    }
  })
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('users')
      .values(rows.slice(start, start + 500))
      .onConflict((oc) => oc.column('username').doNothing())
      .execute()
  }
  const found = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(
      'username',
      'in',
      rows.map((r) => r.username),
    )
    .execute()
  const byName = new Map(found.map((r) => [r.username, r.id]))
  return rows.map((r) => {
    const id = byName.get(r.username)
    if (!id) throw new Error(`bulk seller ${r.username} is missing (username taken by an e-mail conflict?)`)
    return id
  })
}

/** Bulk sellers can take payments (pending bank details): the marketplace shows only such sellers' listings (issue 26.13). */
async function ensureSellersCanSell(db: Kysely<DB>, sellerIds: string[]) {
  for (let start = 0; start < sellerIds.length; start += 500) {
    await db
      .insertInto('bankDetails')
      .values(
        sellerIds.slice(start, start + 500).map((userId) => ({
          userId,
          country: 'GB' as const,
          accountHolder: 'Bulk Seller',
          bankName: 'Bulk Bank',
          sortCode: '112233',
          accountNumberLast4: '1234',
          status: 'pending' as const,
          requestedAt: new Date(),
        })),
      )
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute()
  }
}

async function insertBatch(db: Kysely<DB>, batch: BulkListing[], sellerIds: string[]) {
  const column = <T>(get: (l: BulkListing) => T) => batch.map(get)
  // Arrays of arrays must be rectangular in Postgres, so list columns travel as '|'-joined text.
  const joined = (get: (l: BulkListing) => string[]) => batch.map((l) => get(l).join('|'))
  await sql`
    INSERT INTO listings (
      seller_id, title, slug, short_description, long_description, type, price_cents, licence,
      languages, frameworks, dependencies, tags,
      setup_call_available, setup_call_details, email_support_available, email_support_duration,
      delivery_timeframe, bespoke_development_available, bespoke_development_rate_cents,
      visible, archived_at, created_at, updated_at, rating_count, rating_average_tenths, rating_score
    )
    SELECT
      seller_id, title, slug, short_description, long_description, type, price_cents, licence,
      string_to_array(languages, '|'), string_to_array(frameworks, '|'),
      string_to_array(dependencies, '|'), string_to_array(tags, '|'),
      setup_call, CASE WHEN setup_call THEN 'A 30-minute video call to get you running.' END,
      email_support_duration IS NOT NULL, email_support_duration,
      delivery_timeframe, bespoke_rate IS NOT NULL, bespoke_rate,
      visible, CASE WHEN archived THEN created_at + interval '30 days' END, created_at, created_at,
      rating_count, rating_average_tenths, rating_score
    FROM unnest(
      ${column((l) => sellerIds[l.sellerIndex]!)}::uuid[], ${column((l) => l.title)}::text[],
      ${column((l) => l.slug)}::text[], ${column((l) => l.shortDescription)}::text[],
      ${column((l) => l.longDescription)}::text[], ${column((l) => l.type)}::text[],
      ${column((l) => l.priceCents)}::integer[], ${column((l) => l.licence)}::text[],
      ${joined((l) => l.languages)}::text[], ${joined((l) => l.frameworks)}::text[],
      ${joined((l) => l.dependencies)}::text[], ${joined((l) => l.tags)}::text[],
      ${column((l) => l.setupCallAvailable)}::boolean[], ${column((l) => l.emailSupportDuration)}::text[],
      ${column((l) => l.deliveryTimeframe)}::text[], ${column((l) => l.bespokeDevelopmentRateCents)}::integer[],
      ${column((l) => l.visible)}::boolean[], ${column((l) => l.archived)}::boolean[],
      ${column((l) => l.createdAt)}::timestamptz[], ${column((l) => l.rating.count)}::integer[],
      ${column((l) => l.rating.averageTenths)}::integer[], ${column((l) => l.rating.score)}::integer[]
    ) AS x(
      seller_id, title, slug, short_description, long_description, type, price_cents, licence,
      languages, frameworks, dependencies, tags, setup_call, email_support_duration,
      delivery_timeframe, bespoke_rate, visible, archived, created_at, rating_count, rating_average_tenths, rating_score
    )`.execute(db)
}

/**
 * Loads `listings` synthetic listings (and their sellers) into the database of
 * `db`, then ANALYZEs. Adds to what is there: slugs carry a per-run tag.
 */
export async function seedBulkListings(db: Kysely<DB>, options: BulkSeedOptions): Promise<BulkSeedResult> {
  const started = performance.now()
  const total = Math.max(0, Math.floor(options.listings))
  const sellerCount = options.sellers ?? Math.min(1000, Math.max(5, Math.round(total / 500)))
  const random = createRandom(options.seed ?? 1)
  const batchSize = options.batchSize ?? 5000
  const nowMs = (options.now ?? new Date()).getTime()
  // A per-run tag keeps slugs unique when a database is seeded twice.
  const runTag = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0')}x`

  const sellerIds = await ensureSellers(db, sellerCount, random)
  await ensureSellersCanSell(db, sellerIds)
  const inFlight = new Set<Promise<void>>()
  let inserted = 0
  for (let start = 0; start < total; start += batchSize) {
    const batch: BulkListing[] = []
    for (let i = start; i < Math.min(total, start + batchSize); i++) {
      batch.push(generateBulkListing(random, i, runTag, sellerCount, nowMs))
    }
    // Two batches in flight: Node builds the next one while Postgres indexes this one.
    const job: Promise<void> = insertBatch(db, batch, sellerIds).then(() => {
      inFlight.delete(job)
      inserted += batch.length
      if (inserted % 50_000 === 0 || inserted === total) options.log?.(`${inserted} / ${total} listings`)
    })
    inFlight.add(job)
    if (inFlight.size >= 2) await Promise.race(inFlight)
  }
  await Promise.all(inFlight)
  options.log?.(`inserted in ${((performance.now() - started) / 1000).toFixed(1)} s; vacuuming and analyzing…`)
  // VACUUM too: it empties the GIN indexes' pending lists, which otherwise make
  // the planner price (and Postgres run) every full-text lookup as a long scan.
  await sql`VACUUM (ANALYZE) listings`.execute(db)
  // bank_details too: every marketplace query asks whether the seller can take payments, and a table that
  // was never analysed (fewer than autovacuum's 50 changed rows) is priced as a big one — at 10k listings
  // that turned the search into one bitmap scan per seller.
  await sql`ANALYZE users, search_terms, bank_details`.execute(db)
  return { listings: total, sellers: sellerCount, milliseconds: Math.round(performance.now() - started) }
}

/** Removes the bulk sellers' listings (and the sellers) from earlier runs; listings with sales stay. */
export async function removeBulkListings(db: Kysely<DB>): Promise<number> {
  const bulkSellers = db.selectFrom('users').select('id').where('email', 'like', `%@${BULK_EMAIL_DOMAIN}`)
  const deleted = await db
    .deleteFrom('listings')
    .where('sellerId', 'in', bulkSellers)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('transactions').select('transactions.id').whereRef('transactions.listingId', '=', 'listings.id'))),
    )
    .executeTakeFirst()
  await db
    .deleteFrom('users')
    .where('email', 'like', `%@${BULK_EMAIL_DOMAIN}`)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('listings').select('listings.id').whereRef('listings.sellerId', '=', 'users.id'))))
    .execute()
  return Number(deleted.numDeletedRows)
}

function readFlag(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`)
  if (index >= 0) return args[index + 1]
  return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
}

async function main() {
  const args = process.argv.slice(2)
  const listings = Number(readFlag(args, 'listings') ?? '100000')
  const sellers = readFlag(args, 'sellers')
  const seed = readFlag(args, 'seed')
  if (!Number.isSafeInteger(listings) || listings < 0)
    throw new Error('Usage: npm run db:seed:bulk -- --listings 100000 [--sellers N] [--seed N] [--reset]')
  const { DATABASE_URL: url, EMBEDDED_PG_PORT } = parseConfig()
  if (!url) {
    throw new Error(
      `DATABASE_URL is not set. For the embedded database of \`npm start\`, use postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/forkmarket while it runs.`,
    )
  }
  const db = createDb(url, { max: 3, applicationName: 'forkmarket-seed-bulk', statementTimeoutMillis: 600_000 })
  try {
    await migrateToLatest(db)
    if (args.includes('--reset')) console.log(`removed ${await removeBulkListings(db)} earlier bulk listings`)
    const result = await seedBulkListings(db, {
      listings,
      sellers: sellers ? Number(sellers) : undefined,
      seed: seed ? Number(seed) : undefined,
      log: (message) => console.log(message),
    })
    console.log(`loaded ${result.listings} listings from ${result.sellers} sellers in ${(result.milliseconds / 1000).toFixed(1)} s`)
  } finally {
    await db.destroy()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
}
