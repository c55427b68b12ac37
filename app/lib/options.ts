/**
 * Fixed option lists and business enums (product spec §9).
 *
 * - The tech stack lists (LANGUAGES, FRAMEWORKS, …) are in tech-stack.ts.
 * - The business enums keep the order given by the spec (it is also the order
 *   they are shown in selects), each with a human label map.
 * - `techIconSlug` / `hasTechIcon` / `techIconUrl` map an option name to its
 *   static icon in `public/tech-icons/` (brand icons copied from Simple Icons,
 *   plus `generic.svg` for everything else).
 */

// ---------------------------------------------------------------------------
// Business enums (spec §9) with human labels
// ---------------------------------------------------------------------------

export const LISTING_TYPES = ['template', 'full_site'] as const
export type ListingType = (typeof LISTING_TYPES)[number]
export const LISTING_TYPE_LABELS: Record<ListingType, string> = {
  template: 'Template',
  full_site: 'Full Site',
}

export const LICENCES = ['personal', 'commercial', 'unlimited'] as const
export type Licence = (typeof LICENCES)[number]
export const LICENCE_LABELS: Record<Licence, string> = {
  personal: 'Personal',
  commercial: 'Commercial',
  unlimited: 'Unlimited',
}

export const DELIVERY_TIMEFRAMES = ['instant', '1-hour', '24-hours', '1-3-days', '3-5-days'] as const
export type DeliveryTimeframe = (typeof DELIVERY_TIMEFRAMES)[number]
export const DELIVERY_TIMEFRAME_LABELS: Record<DeliveryTimeframe, string> = {
  instant: 'Instant',
  '1-hour': 'Within 1 hour',
  '24-hours': 'Within 24 hours',
  '1-3-days': '1-3 days',
  '3-5-days': '3-5 days',
}

export const EMAIL_SUPPORT_DURATIONS = ['7-days', '30-days', '90-days', '6-months', '1-year', 'lifetime'] as const
export type EmailSupportDuration = (typeof EMAIL_SUPPORT_DURATIONS)[number]
export const EMAIL_SUPPORT_DURATION_LABELS: Record<EmailSupportDuration, string> = {
  '7-days': '7 days',
  '30-days': '30 days',
  '90-days': '90 days',
  '6-months': '6 months',
  '1-year': '1 year',
  lifetime: 'Lifetime',
}

// 'top-rated' (issue 18) is beyond the spec's four: the Bayesian average of app/lib/ratings.ts.
export const SORT_OPTIONS = ['newest', 'oldest', 'price-low', 'price-high', 'top-rated', 'recently-updated'] as const
export type SortOption = (typeof SORT_OPTIONS)[number]
export const DEFAULT_SORT: SortOption = 'newest'
export const SORT_LABELS: Record<SortOption, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  'price-low': 'Price: Low to High',
  'price-high': 'Price: High to Low',
  'top-rated': 'Top Rated',
  'recently-updated': 'Recently Updated',
}

export const COUNTRIES = ['GB', 'US', 'FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'OTHER'] as const
export type Country = (typeof COUNTRIES)[number]
export const COUNTRY_LABELS: Record<Country, string> = {
  GB: 'United Kingdom',
  US: 'United States',
  FR: 'France',
  DE: 'Germany',
  ES: 'Spain',
  IT: 'Italy',
  NL: 'Netherlands',
  BE: 'Belgium',
  OTHER: 'Other',
}

/** Type guard: is `value` one of the members of `list`? e.g. `isOneOf(LICENCES, x)`. */
export function isOneOf<const T extends readonly string[]>(list: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (list as readonly string[]).includes(value)
}

// ---------------------------------------------------------------------------
// Tech icons (public/tech-icons/<slug>.svg)
// ---------------------------------------------------------------------------

/** File base name of the neutral fallback icon: public/tech-icons/generic.svg. */
export const GENERIC_TECH_ICON_SLUG = 'generic'

/**
 * Brand icons present in public/tech-icons (copied from simple-icons, see
 * public/tech-icons/NOTICE.md). Keep in sync with that folder; the options
 * test checks both directions.
 */
// prettier-ignore
export const TECH_ICON_SLUGS: ReadonlySet<string> = new Set([
  'algolia', 'angular', 'anthropic', 'appwrite', 'astro', 'auth0', 'axios', 'bootstrap', 'chakraui',
  'chartdotjs', 'clerk', 'cloudflare', 'cloudinary', 'contentful', 'css', 'cypress', 'dart', 'django',
  'docker', 'dotnet', 'drizzle', 'elasticsearch', 'elixir', 'expo', 'express', 'fastapi', 'firebase',
  'flask', 'flutter', 'gatsby', 'githubactions', 'go', 'googleanalytics', 'graphql', 'hono', 'html5',
  'ionic', 'javascript', 'jest', 'kotlin', 'langchain', 'laravel', 'mapbox', 'mongodb', 'mysql', 'nestjs',
  'netlify', 'nextdotjs', 'nodedotjs', 'nuxt', 'openai', 'paypal', 'phoenixframework', 'php', 'planetscale',
  'postgresql', 'posthog', 'prisma', 'python', 'qwik', 'radixui', 'react', 'reactquery', 'reactrouter',
  'redis', 'redux', 'remix', 'resend', 'ruby', 'rubyonrails', 'rust', 'sanity', 'scala', 'sendgrid',
  'sentry', 'shadcnui', 'socketdotio', 'solid', 'springboot', 'sqlite', 'strapi', 'stripe', 'supabase',
  'svelte', 'swift', 'tailwindcss', 'threedotjs', 'trpc', 'turso', 'twilio', 'typescript', 'upstash',
  'vercel', 'vite', 'vuedotjs', 'zod',
])

/**
 * Brand icons whose colour is black or near-black, so they vanish on a dark
 * background: give them `dark:invert` (or show icons on a light chip).
 */
// prettier-ignore
export const DARK_TECH_ICON_SLUGS: ReadonlySet<string> = new Set([
  'angular', 'anthropic', 'expo', 'express', 'mapbox', 'nextdotjs', 'planetscale', 'posthog', 'radixui', 'remix',
  'resend', 'rust', 'shadcnui', 'socketdotio', 'threedotjs', 'vercel',
])

/**
 * Option names whose brand is not in Simple Icons (removed at the trademark
 * owner's request, or never added). They deliberately use generic.svg.
 */
export const GENERIC_ICON_NAMES: readonly string[] = ['AWS S3', 'C#', 'Java', 'Kysely', 'Neon', 'Playwright', 'SQL']

/**
 * Names whose icon slug is not what Simple Icons' title-to-slug rule gives:
 * a different brand title there, or a product shown with its parent brand's logo.
 */
const ICON_SLUG_ALIASES: Record<string, string> = {
  'ASP.NET Core': 'dotnet',
  'AWS S3': 'amazons3',
  'Drizzle ORM': 'drizzle',
  HTML: 'html5',
  Phoenix: 'phoenixframework',
  'React Native': 'react',
  SolidJS: 'solid',
  SvelteKit: 'svelte',
  'TanStack Query': 'reactquery',
}

const SLUG_REPLACEMENTS: Record<string, string> = {
  '+': 'plus',
  '.': 'dot',
  '&': 'and',
  '#': 'sharp',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ĸ: 'k',
  ŀ: 'l',
  ł: 'l',
  ß: 'ss',
  ŧ: 't',
  ø: 'o',
}

/**
 * Simple Icons style slug for a technology name, whether or not an icon file
 * exists for it: 'Next.js' → 'nextdotjs', 'C#' → 'csharp', 'Tailwind CSS' → 'tailwindcss'.
 */
export function brandSlug(name: string): string {
  const trimmed = name.trim()
  const alias = ICON_SLUG_ALIASES[trimmed]
  if (alias) return alias
  return trimmed
    .toLowerCase()
    .replace(/[+.&#đħıĸŀłßŧø]/g, (char) => SLUG_REPLACEMENTS[char] ?? '')
    .normalize('NFD')
    .replace(/[^a-z\d]/g, '')
}

/** True when public/tech-icons holds a brand icon for this name. */
export function hasTechIcon(name: string): boolean {
  return TECH_ICON_SLUGS.has(brandSlug(name))
}

/**
 * Base name of the icon file to show for a technology name: its brand slug
 * when public/tech-icons has that icon, otherwise 'generic'. Never names a
 * missing file, so custom picker values are safe too.
 */
export function techIconSlug(name: string): string {
  const slug = brandSlug(name)
  return TECH_ICON_SLUGS.has(slug) ? slug : GENERIC_TECH_ICON_SLUG
}

/** URL of the icon for a technology name, e.g. '/tech-icons/nextdotjs.svg'. */
export function techIconUrl(name: string): string {
  return `/tech-icons/${techIconSlug(name)}.svg`
}

/** URL of the neutral fallback icon, for `onError` handlers. */
export const GENERIC_TECH_ICON_URL = `/tech-icons/${GENERIC_TECH_ICON_SLUG}.svg`
