// The demo marketplace loaded on the first local start: believable listings
// across the stacks from several sellers. Values of languages/frameworks/
// dependencies are members of the option lists in app/lib/options.ts.

export interface DemoSeller {
  email: string
  username: string
  displayName: string
  bio: string
  bank?: 'approved' | 'pending' | 'rejected'
}

export const DEMO_ADMIN = { email: 'admin@forkmarket.dev', username: 'admin', displayName: 'Forkmarket Admin' }

export const DEMO_SELLERS: DemoSeller[] = [
  { email: 'ada@forkmarket.dev', username: 'adabuilds', displayName: 'Ada Okafor', bio: 'Full-stack developer shipping SaaS starters since 2016.', bank: 'approved' },
  { email: 'lin@forkmarket.dev', username: 'linstudio', displayName: 'Lin Wei', bio: 'Designer-developer. Pixel-perfect templates for founders.', bank: 'approved' },
  { email: 'mateo@forkmarket.dev', username: 'mateo-dev', displayName: 'Mateo García', bio: 'Python and data tooling. I build dashboards people actually use.', bank: 'pending' },
  { email: 'sara@forkmarket.dev', username: 'sarak', displayName: 'Sara Kowalski', bio: 'Mobile and e-commerce apps, from prototype to production.', bank: 'rejected' },
  { email: 'noah@forkmarket.dev', username: 'noahcodes', displayName: 'Noah Becker', bio: 'Go and Rust services, CLI tools and developer platforms.' },
]

export const DEMO_BUYERS = [
  { email: 'buyer@forkmarket.dev', username: 'demobuyer', displayName: 'Demo Buyer' },
  { email: 'jules@forkmarket.dev', username: 'jules', displayName: 'Jules Martin' },
]

export interface DemoListing {
  seller: number
  title: string
  short: string
  type: 'template' | 'full_site'
  price: number
  licence: 'personal' | 'commercial' | 'unlimited'
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  tags: string[]
  hidden?: boolean
  delivery?: 'instant' | '1-hour' | '24-hours' | '1-3-days' | '3-5-days'
  setupCall?: boolean
  emailSupport?: '7-days' | '30-days' | '90-days' | '6-months' | '1-year' | 'lifetime'
  bespokeRate?: number
  demo?: boolean
}

export const DEMO_LISTINGS: DemoListing[] = [
  { seller: 0, title: 'LaunchKit SaaS Starter', short: 'Next.js SaaS boilerplate with auth, billing, teams and an admin panel.', type: 'template', price: 14900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js', 'React'], dependencies: ['Stripe', 'PostgreSQL', 'Prisma', 'Tailwind CSS'], tags: ['saas', 'boilerplate', 'billing'], delivery: 'instant', emailSupport: '90-days', setupCall: true, demo: true },
  { seller: 0, title: 'React Admin Dashboard Pro', short: 'A fast React dashboard with 40 screens, charts and dark mode.', type: 'template', price: 4900, licence: 'personal', languages: ['TypeScript'], frameworks: ['React'], dependencies: ['Vite', 'Tailwind CSS', 'Chart.js'], tags: ['dashboard', 'admin', 'charts'], delivery: 'instant', emailSupport: '30-days', demo: true },
  { seller: 0, title: 'Remix Marketplace Template', short: 'Two-sided marketplace with listings, search and Stripe checkout.', type: 'template', price: 19900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Remix', 'React'], dependencies: ['Stripe', 'PostgreSQL', 'Supabase'], tags: ['marketplace', 'ecommerce'], delivery: '24-hours', setupCall: true, bespokeRate: 9000 },
  { seller: 0, title: 'Invoice Tracker for Freelancers', short: 'Create invoices, track payments and export to PDF.', type: 'full_site', price: 7900, licence: 'personal', languages: ['TypeScript'], frameworks: ['SvelteKit'], dependencies: ['Supabase', 'Resend'], tags: ['invoicing', 'freelance', 'pdf'], delivery: '1-3-days', emailSupport: '6-months' },
  { seller: 0, title: 'Headless Blog Engine', short: 'Markdown-powered blog with RSS, search and an editor.', type: 'template', price: 2900, licence: 'unlimited', languages: ['TypeScript'], frameworks: ['Astro'], dependencies: ['Sanity', 'Algolia'], tags: ['blog', 'markdown', 'seo'], delivery: 'instant', demo: true },
  { seller: 0, title: 'Team Chat with Realtime Presence', short: 'Slack-style chat with channels, threads and typing indicators.', type: 'full_site', price: 24900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js', 'React'], dependencies: ['Supabase', 'Redis', 'Tailwind CSS'], tags: ['chat', 'realtime', 'websocket'], delivery: '3-5-days', setupCall: true, emailSupport: '1-year', bespokeRate: 12000 },
  { seller: 0, title: 'Waitlist Landing Page', short: 'A conversion-tuned waitlist page with referral tracking.', type: 'template', price: 900, licence: 'personal', languages: ['JavaScript'], frameworks: ['Astro'], dependencies: ['Resend', 'Vercel'], tags: ['landing-page', 'waitlist'], delivery: 'instant' },
  { seller: 0, title: 'Old Beta Starter (retired)', short: 'An early version of LaunchKit, kept for existing buyers.', type: 'template', price: 1900, licence: 'personal', languages: ['JavaScript'], frameworks: ['Next.js'], dependencies: ['MongoDB'], tags: ['legacy'], hidden: true },
  { seller: 1, title: 'Portfolio Template for Designers', short: 'A minimal, image-first portfolio with case-study pages.', type: 'template', price: 3900, licence: 'personal', languages: ['TypeScript'], frameworks: ['Next.js'], dependencies: ['Tailwind CSS', 'Radix UI'], tags: ['portfolio', 'design'], delivery: 'instant', demo: true },
  { seller: 1, title: 'Agency Website Kit', short: 'Multi-page agency site with services, team and contact forms.', type: 'template', price: 5900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Nuxt', 'Vue.js'], dependencies: ['Tailwind CSS', 'Netlify'], tags: ['agency', 'marketing'], delivery: 'instant', emailSupport: '30-days' },
  { seller: 1, title: 'Restaurant Ordering Site', short: 'Online menu, table booking and takeaway orders for restaurants.', type: 'full_site', price: 29900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js', 'React'], dependencies: ['Stripe', 'PostgreSQL', 'Twilio'], tags: ['restaurant', 'ordering', 'booking'], delivery: '3-5-days', setupCall: true, emailSupport: '6-months' },
  { seller: 1, title: 'Documentation Site Starter', short: 'Beautiful docs with versioning, search and code tabs.', type: 'template', price: 1900, licence: 'unlimited', languages: ['TypeScript'], frameworks: ['Astro'], dependencies: ['Sanity', 'Algolia'], tags: ['docs', 'documentation'], delivery: 'instant', demo: true },
  { seller: 1, title: 'Svelte UI Component Library', short: '60 accessible Svelte components with a theming system.', type: 'template', price: 3400, licence: 'unlimited', languages: ['TypeScript'], frameworks: ['Svelte', 'SvelteKit'], dependencies: ['Tailwind CSS'], tags: ['components', 'ui-kit', 'accessibility'], delivery: 'instant' },
  { seller: 1, title: 'Wedding Website Template', short: 'RSVP, schedule, gallery and gift registry in one template.', type: 'template', price: 2400, licence: 'personal', languages: ['JavaScript'], frameworks: ['Vue.js'], dependencies: ['Firebase'], tags: ['wedding', 'rsvp'], delivery: 'instant' },
  { seller: 1, title: 'Photography Store', short: 'Sell prints and digital downloads with a lightbox gallery.', type: 'full_site', price: 17900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Remix', 'React'], dependencies: ['Stripe', 'Cloudinary', 'PostgreSQL'], tags: ['photography', 'ecommerce', 'gallery'], delivery: '1-3-days', emailSupport: '90-days' },
  { seller: 1, title: 'Newsletter Platform Theme', short: 'Publish a newsletter with archives, paid tiers and an RSS feed.', type: 'template', price: 4400, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js'], dependencies: ['Resend', 'Stripe', 'Supabase'], tags: ['newsletter', 'publishing'], delivery: 'instant', hidden: true },
  { seller: 2, title: 'Django CRM Starter', short: 'Contacts, deals pipeline and tasks with a clean Django admin.', type: 'template', price: 8900, licence: 'commercial', languages: ['Python'], frameworks: ['Django'], dependencies: ['PostgreSQL', 'Sentry', 'Redis'], tags: ['crm', 'sales'], delivery: '24-hours', setupCall: true, bespokeRate: 8000 },
  { seller: 2, title: 'FastAPI Analytics Backend', short: 'Event ingestion API with dashboards and scheduled reports.', type: 'template', price: 12900, licence: 'commercial', languages: ['Python'], frameworks: ['FastAPI'], dependencies: ['PostgreSQL', 'Redis', 'Docker'], tags: ['analytics', 'api', 'events'], delivery: '24-hours', emailSupport: '90-days' },
  { seller: 2, title: 'Flask Recipe Book', short: 'Share and search recipes with shopping lists and meal plans.', type: 'full_site', price: 3900, licence: 'personal', languages: ['Python', 'HTML'], frameworks: ['Flask'], dependencies: ['SQLite'], tags: ['recipes', 'food'], delivery: '1-hour' },
  { seller: 2, title: 'Machine Learning Model Dashboard', short: 'Track experiments, compare runs and serve models over HTTP.', type: 'full_site', price: 34900, licence: 'commercial', languages: ['Python', 'TypeScript'], frameworks: ['FastAPI', 'React'], dependencies: ['PostgreSQL', 'Docker', 'OpenAI'], tags: ['machine-learning', 'mlops'], delivery: '3-5-days', setupCall: true, emailSupport: '1-year', bespokeRate: 15000 },
  { seller: 2, title: 'Data Portal with Charts', short: 'Publish open datasets with filters, charts and CSV export.', type: 'template', price: 6900, licence: 'unlimited', languages: ['Python'], frameworks: ['Django'], dependencies: ['PostgreSQL', 'Chart.js'], tags: ['data', 'open-data', 'charts'], delivery: '1-3-days' },
  { seller: 2, title: 'Telegram Bot Toolkit', short: 'Build Telegram bots with commands, payments and a web admin.', type: 'template', price: 2900, licence: 'personal', languages: ['Python'], frameworks: ['FastAPI'], dependencies: ['Redis', 'Stripe'], tags: ['bot', 'telegram', 'automation'], delivery: 'instant' },
  { seller: 2, title: 'School Timetable Manager', short: 'Plan classes, rooms and teachers without clashes.', type: 'full_site', price: 15900, licence: 'commercial', languages: ['Python', 'JavaScript'], frameworks: ['Django', 'Vue.js'], dependencies: ['PostgreSQL'], tags: ['education', 'scheduling'], delivery: '3-5-days', emailSupport: '6-months' },
  { seller: 3, title: 'Flutter Fitness Tracker', short: 'Workouts, streaks and health stats for iOS and Android.', type: 'full_site', price: 21900, licence: 'commercial', languages: ['Dart'], frameworks: ['Flutter'], dependencies: ['Firebase', 'Sentry'], tags: ['fitness', 'mobile', 'health'], delivery: '3-5-days', setupCall: true, emailSupport: '90-days' },
  { seller: 3, title: 'Shopify-style Storefront', short: 'Headless storefront with cart, wishlists and fast product search.', type: 'template', price: 9900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js', 'React'], dependencies: ['Stripe', 'Algolia', 'Tailwind CSS'], tags: ['ecommerce', 'storefront', 'shop'], delivery: 'instant', emailSupport: '30-days', demo: true },
  { seller: 3, title: 'React Native Delivery App', short: 'Courier app with live map tracking and push notifications.', type: 'full_site', price: 39900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['React Native', 'Expo'], dependencies: ['Firebase', 'Mapbox', 'Stripe'], tags: ['delivery', 'mobile', 'maps'], delivery: '3-5-days', setupCall: true, bespokeRate: 11000 },
  { seller: 3, title: 'Laravel Booking System', short: 'Appointments, reminders and staff calendars for salons and clinics.', type: 'full_site', price: 18900, licence: 'commercial', languages: ['PHP'], frameworks: ['Laravel'], dependencies: ['MySQL', 'Stripe', 'Twilio'], tags: ['booking', 'appointments', 'calendar'], delivery: '1-3-days', emailSupport: '6-months' },
  { seller: 3, title: 'WooCommerce Theme Alternative', short: 'A fast PHP shop theme with product variants and coupons.', type: 'template', price: 4900, licence: 'personal', languages: ['PHP'], frameworks: ['Laravel'], dependencies: ['MySQL', 'Stripe'], tags: ['ecommerce', 'shop'], delivery: 'instant' },
  { seller: 3, title: 'Event Ticketing Platform', short: 'Sell tickets with QR check-in, seat maps and refunds.', type: 'full_site', price: 44900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['NestJS', 'Angular'], dependencies: ['PostgreSQL', 'Stripe', 'Redis'], tags: ['events', 'tickets', 'qr'], delivery: '3-5-days', setupCall: true, emailSupport: '1-year' },
  { seller: 3, title: 'Kotlin Habit Tracker', short: 'Native Android habit tracker with widgets and reminders.', type: 'full_site', price: 5900, licence: 'personal', languages: ['Kotlin'], frameworks: ['Spring Boot'], dependencies: ['Firebase'], tags: ['android', 'habits', 'mobile'], delivery: '24-hours', hidden: true },
  { seller: 4, title: 'Go REST API Boilerplate', short: 'Production-ready Go API with auth, migrations and observability.', type: 'template', price: 6900, licence: 'unlimited', languages: ['Go'], frameworks: [], dependencies: ['PostgreSQL', 'Docker', 'Sentry'], tags: ['api', 'backend', 'boilerplate'], delivery: 'instant', emailSupport: '30-days' },
  { seller: 4, title: 'Rust URL Shortener', short: 'Blazing-fast link shortener with analytics and custom domains.', type: 'full_site', price: 8900, licence: 'commercial', languages: ['Rust'], frameworks: [], dependencies: ['PostgreSQL', 'Redis', 'Docker'], tags: ['url-shortener', 'analytics'], delivery: '24-hours', bespokeRate: 13000 },
  { seller: 4, title: 'Status Page Service', short: 'Public status pages with incident updates and uptime checks.', type: 'full_site', price: 16900, licence: 'commercial', languages: ['Go', 'TypeScript'], frameworks: ['React'], dependencies: ['PostgreSQL', 'Resend'], tags: ['status-page', 'uptime', 'monitoring'], delivery: '1-3-days', setupCall: true, emailSupport: '90-days' },
  { seller: 4, title: 'Developer CLI Template', short: 'Ship a polished command-line tool with plugins and auto-update.', type: 'template', price: 1900, licence: 'unlimited', languages: ['Rust'], frameworks: [], dependencies: ['GitHub Actions'], tags: ['cli', 'developer-tools'], delivery: 'instant' },
  { seller: 4, title: 'Feature Flag Service', short: 'Self-hosted feature flags with SDKs and gradual rollouts.', type: 'full_site', price: 27900, licence: 'commercial', languages: ['Go'], frameworks: [], dependencies: ['PostgreSQL', 'Redis', 'Cloudflare'], tags: ['feature-flags', 'devops'], delivery: '3-5-days', emailSupport: 'lifetime', bespokeRate: 14000 },
  { seller: 4, title: 'Ruby on Rails Job Board', short: 'Post jobs, take payments and email alerts to candidates.', type: 'full_site', price: 12900, licence: 'commercial', languages: ['Ruby'], frameworks: ['Ruby on Rails'], dependencies: ['PostgreSQL', 'Stripe', 'Redis'], tags: ['job-board', 'hiring'], delivery: '1-3-days', setupCall: true },
  { seller: 4, title: 'Elixir Live Polls', short: 'Realtime audience polls and Q&A built on Phoenix LiveView.', type: 'template', price: 3900, licence: 'personal', languages: ['Elixir'], frameworks: ['Phoenix'], dependencies: ['PostgreSQL'], tags: ['polls', 'realtime', 'events'], delivery: 'instant' },
  { seller: 0, title: 'AI Writing Assistant', short: 'Draft, rewrite and summarise text with an OpenAI-backed editor.', type: 'full_site', price: 19900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Next.js', 'React'], dependencies: ['OpenAI', 'Supabase', 'Stripe'], tags: ['ai', 'writing', 'gpt'], delivery: '24-hours', emailSupport: '90-days', demo: true },
  { seller: 1, title: 'Minimal Resume Template', short: 'A printable one-page resume site with a JSON data file.', type: 'template', price: 500, licence: 'personal', languages: ['HTML', 'CSS'], frameworks: ['Astro'], dependencies: ['Netlify'], tags: ['resume', 'cv'], delivery: 'instant' },
  { seller: 2, title: 'Inventory Management System', short: 'Stock levels, suppliers and purchase orders with barcode scanning.', type: 'full_site', price: 22900, licence: 'commercial', languages: ['Python', 'TypeScript'], frameworks: ['Django', 'React'], dependencies: ['PostgreSQL', 'Redis', 'Docker'], tags: ['inventory', 'warehouse', 'barcode'], delivery: '3-5-days', setupCall: true, emailSupport: '1-year' },
  { seller: 3, title: 'Vue Real Estate Listings', short: 'Property listings with map search, filters and agent pages.', type: 'template', price: 7400, licence: 'commercial', languages: ['TypeScript'], frameworks: ['Vue.js', 'Nuxt'], dependencies: ['Mapbox', 'Supabase'], tags: ['real-estate', 'maps', 'listings'], delivery: 'instant', emailSupport: '30-days' },
  { seller: 4, title: 'Kubernetes Deploy Dashboard', short: 'See deployments, roll back and stream logs across clusters.', type: 'full_site', price: 31900, licence: 'commercial', languages: ['Go', 'TypeScript'], frameworks: ['React'], dependencies: ['Cloudflare', 'Sentry', 'Docker'], tags: ['kubernetes', 'devops', 'dashboard'], delivery: '3-5-days', setupCall: true, bespokeRate: 16000 },
  { seller: 0, title: 'Chrome Extension Starter', short: 'Manifest V3 extension with popup, options page and sync storage.', type: 'template', price: 1500, licence: 'unlimited', languages: ['TypeScript'], frameworks: ['React'], dependencies: ['Vite', 'Tailwind CSS'], tags: ['chrome-extension', 'browser'], delivery: 'instant' },
  { seller: 1, title: 'Nonprofit Donation Site', short: 'Campaign pages, recurring donations and donor receipts.', type: 'full_site', price: 13900, licence: 'commercial', languages: ['TypeScript'], frameworks: ['SvelteKit', 'Svelte'], dependencies: ['Stripe', 'PostgreSQL', 'Resend'], tags: ['nonprofit', 'donations', 'fundraising'], delivery: '1-3-days', emailSupport: '6-months' },
  { seller: 2, title: 'Spring Boot Banking API', short: 'Accounts, transfers and statements with double-entry ledgers.', type: 'template', price: 17900, licence: 'commercial', languages: ['Java'], frameworks: ['Spring Boot'], dependencies: ['PostgreSQL', 'Docker', 'Elasticsearch'], tags: ['fintech', 'ledger', 'api'], delivery: '24-hours', setupCall: true, bespokeRate: 15000 },
  { seller: 3, title: 'Swift Meditation App', short: 'Guided sessions, timers and streaks for iPhone.', type: 'full_site', price: 9900, licence: 'personal', languages: ['Swift'], frameworks: [], dependencies: ['Firebase', 'PostHog'], tags: ['ios', 'meditation', 'wellness'], delivery: '1-3-days' },
]

/** Paragraphs for a listing's long description, written from its fields. */
export function demoLongDescription(listing: DemoListing): string {
  const stack = [...listing.languages, ...listing.frameworks].join(', ')
  return [
    `${listing.title} is a ${listing.type === 'full_site' ? 'complete, deployable site' : 'template'} built with ${stack}. ${listing.short}`,
    `What you get: the full source as a fork on the code-hosting platform, a README that takes you from clone to production, seed data, and tests for the important paths. Integrations: ${listing.dependencies.join(', ') || 'none — it runs on its own'}.`,
    `Why buyers pick it: clean structure, sensible defaults, and a codebase you will be comfortable changing. Tags: ${listing.tags.join(', ')}.`,
  ].join('\n\n')
}
