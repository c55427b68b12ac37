import {
  ArrowRight,
  BadgeCheck,
  Banknote,
  CircleCheck,
  Clock,
  CreditCard,
  GitFork,
  Infinity as InfinityIcon,
  Percent,
  Search,
  ShieldCheck,
  Store,
  Tag,
  type LucideIcon,
} from 'lucide-react'
import { Link } from 'react-router'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { PLATFORM_FEE_PERCENT, SELLER_SHARE_PERCENT } from '~/lib/money'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/home'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

const buttonShape =
  'inline-flex items-center justify-center gap-2 rounded-md px-5 py-2.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2'
const buttonBase = `${buttonShape} outline-ring`
/**
 * On the primary-coloured closing banner the ring is drawn in the banner's text colour (the page's ring
 * colour would vanish on it) — set without the focus variant, so the ring does not fade in from the other.
 */
const bannerButtonBase = `${buttonShape} outline-primary-foreground`
const primaryButton = `${buttonBase} bg-primary text-primary-foreground shadow-xs hover:bg-primary/90`
const outlineButton = `${buttonBase} border border-border bg-background text-foreground shadow-xs hover:bg-accent hover:text-accent-foreground`

const STEPS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'Create or Browse',
    description:
      'Sellers turn a repository into a listing with its tech stack, licence and price; buyers search and filter the marketplace by stack and budget.',
    icon: Search,
  },
  {
    title: 'List or Purchase',
    description:
      'Publish your listing in minutes, or pay once by card and your payment is held safely in escrow until delivery is confirmed.',
    icon: CreditCard,
  },
  {
    title: 'Deliver & Earn',
    description: `The seller delivers a fork link, or GitHub invites the buyer to the repository to fork it; the buyer confirms receipt within ${DISPUTE_WINDOW_HOURS} hours, and the seller is paid out by bank transfer.`,
    icon: GitFork,
  },
]

const SELLER_BENEFITS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: `Free to list, ${PLATFORM_FEE_PERCENT}% platform fee`,
    description: `No monthly costs. You keep ${SELLER_SHARE_PERCENT}% of every sale.`,
    icon: Percent,
  },
  {
    title: 'Payouts within 5 working days',
    description: 'Paid by bank transfer to your approved bank details once a sale completes.',
    icon: Banknote,
  },
  {
    title: 'Payment secured up front',
    description: 'Buyers pay before you deliver, and escrow holds the money until the sale completes. No invoices to chase.',
    icon: ShieldCheck,
  },
  {
    title: 'Sell your way',
    description: 'Templates or full sites, personal, commercial or unlimited licences, plus optional setup calls and support.',
    icon: Tag,
  },
]

const BUYER_BENEFITS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'Escrow protection',
    description: 'Your payment is held by the platform until you have received what you paid for.',
    icon: ShieldCheck,
  },
  {
    title: `${DISPUTE_WINDOW_HOURS}-hour dispute window`,
    description: 'Check the code, then Confirm Receipt or report a problem and an admin steps in.',
    icon: Clock,
  },
  {
    title: 'Lifetime access',
    description: 'One-time purchase, no subscription. The code is yours to keep.',
    icon: InfinityIcon,
  },
  {
    title: 'Delivered as a fork',
    description:
      'Get a fork link to your own copy of the repository, or accept a GitHub invitation to the seller’s repository and fork it. Access is removed if the sale is refunded.',
    icon: GitFork,
  },
]

const HIGHLIGHTS = ['Escrow on every sale', `${DISPUTE_WINDOW_HOURS}-hour dispute window`, 'Lifetime access']

function BenefitList({ items }: { items: { title: string; description: string; icon: LucideIcon }[] }) {
  return (
    <ul className="mt-6 space-y-5">
      {items.map((item) => (
        <li key={item.title} className="flex gap-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <item.icon aria-hidden="true" className="size-4.5" />
          </span>
          <div>
            <p className="font-medium">{item.title}</p>
            <p className="mt-1 text-sm leading-6 text-muted-foreground">{item.description}</p>
          </div>
        </li>
      ))}
    </ul>
  )
}

/** A static illustration of an escrow-protected order, shown beside the hero text on large screens. */
function OrderTimeline() {
  const events = [
    { label: 'Payment received', detail: '$149.00 held in escrow', done: true },
    { label: 'Delivered', detail: 'GitHub invitation accepted, repository forked', done: true },
    { label: 'Receipt confirmed', detail: `Buyer confirmed within ${DISPUTE_WINDOW_HOURS} hours`, done: true },
    { label: 'Payout scheduled', detail: '$126.65 by bank transfer', done: false },
  ]
  return (
    <figure
      aria-label="Example order protected by escrow"
      className="rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-lg shadow-foreground/5"
    >
      <div className="flex items-start justify-between gap-4">
        <div>
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Order #1042</p>
          <p className="mt-1 font-semibold">SaaS Starter Kit</p>
          <p className="text-sm text-muted-foreground">Full Site · Commercial licence</p>
        </div>
        <span className="inline-flex items-center gap-1 rounded-full bg-primary/10 px-2.5 py-1 text-xs font-medium text-primary">
          <ShieldCheck aria-hidden="true" className="size-3.5" />
          Escrow
        </span>
      </div>
      <ol className="mt-6 space-y-4">
        {events.map((event) => (
          <li key={event.label} className="flex gap-3">
            {event.done ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            ) : (
              <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
            )}
            <div>
              <p className="text-sm font-medium">{event.label}</p>
              <p className="text-sm text-muted-foreground">{event.detail}</p>
            </div>
          </li>
        ))}
      </ol>
      <figcaption className="mt-6 border-t border-border pt-4 text-xs text-muted-foreground">
        Seller receives {SELLER_SHARE_PERCENT}% after the {PLATFORM_FEE_PERCENT}% platform fee.
      </figcaption>
    </figure>
  )
}

export default function Home() {
  return (
    <div className="w-full">
      {/* Hero */}
      <section className="relative overflow-hidden border-b border-border bg-linear-to-b from-muted/60 to-background">
        <div className="mx-auto grid w-full max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.4fr_1fr] lg:px-8">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-border bg-background px-3 py-1 text-xs font-medium text-muted-foreground">
              <BadgeCheck aria-hidden="true" className="size-3.5 text-primary" />
              Escrow-protected marketplace for code
            </p>
            <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-5xl sm:leading-[1.1]">
              Buy and Sell <span className="whitespace-nowrap">Production-Ready</span> Apps
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-pretty text-muted-foreground">
              Apps, templates and full sites from independent developers, delivered straight to your GitHub account as a fork. Pay once by
              card; the money stays in escrow until delivery is confirmed.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link to="/marketplace" className={primaryButton}>
                Browse Marketplace
                <ArrowRight aria-hidden="true" className="size-4" />
              </Link>
              <Link to="/seller/create" className={outlineButton}>
                <Store aria-hidden="true" className="size-4" />
                Start Selling
              </Link>
            </div>
            <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground">
              {HIGHLIGHTS.map((item) => (
                <li key={item} className="flex items-center gap-1.5">
                  <CircleCheck aria-hidden="true" className="size-4 text-primary" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className="hidden lg:block">
            <OrderTimeline />
          </div>
        </div>
      </section>

      {/* How it works */}
      <section aria-labelledby="how-it-works" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-2xl">
          <h2 id="how-it-works" className="text-3xl font-bold tracking-tight sm:text-4xl">
            How It Works
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">Three steps from repository to revenue, or from idea to launch.</p>
        </div>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xs">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                  {index + 1}
                </span>
                <step.icon aria-hidden="true" className="size-5 text-muted-foreground" />
              </div>
              <h3 className="mt-5 text-lg font-semibold">{step.title}</h3>
              <p className="mt-2 text-sm leading-6 text-muted-foreground">{step.description}</p>
            </li>
          ))}
        </ol>
      </section>

      {/* Benefits */}
      <section aria-label="Benefits" className="border-y border-border bg-muted/40">
        <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-16 sm:px-6 sm:py-20 md:grid-cols-2 lg:px-8">
          <div className="rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xs sm:p-8">
            <h2 className="text-2xl font-bold tracking-tight">For Sellers</h2>
            <p className="mt-2 text-muted-foreground">Turn the projects you have already built into income.</p>
            <BenefitList items={SELLER_BENEFITS} />
          </div>
          <div className="rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xs sm:p-8">
            <h2 className="text-2xl font-bold tracking-tight">For Buyers</h2>
            <p className="mt-2 text-muted-foreground">Skip months of boilerplate and launch on proven code.</p>
            <BenefitList items={BUYER_BENEFITS} />
          </div>
        </div>
      </section>

      {/* Closing call to action */}
      <section className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12 sm:py-16">
          <h2 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">Ready to ship faster?</h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-primary-foreground/90">
            Find your next starting point, or list the project you already built and get paid for it.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link
              to="/marketplace"
              className={`${bannerButtonBase} bg-primary-foreground text-primary shadow-xs hover:bg-primary-foreground/90`}
            >
              Browse Marketplace
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
            <Link
              to="/seller/create"
              className={`${bannerButtonBase} border border-primary-foreground/30 text-primary-foreground hover:bg-primary-foreground/10`}
            >
              Start Selling
            </Link>
          </div>
        </div>
      </section>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Forkmarket — Buy and sell code-hosted apps and templates' },
    {
      name: 'description',
      content: `Buy and sell apps, templates and full sites built on a code-hosting platform. Card payments, escrow protection, a ${DISPUTE_WINDOW_HOURS}-hour dispute window and delivery by GitHub invitation or fork link.`,
    },
  ]
}
