import { ArrowRight, Compass, Landmark, LifeBuoy, Mail, ShieldCheck, ShoppingCart, Store, UserRound, type LucideIcon } from 'lucide-react'
import { Link } from 'react-router'
import { LegalPageHeader, Prose, SUPPORT_EMAIL } from '~/components/prose'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { PLATFORM_FEE_PERCENT } from '~/lib/money'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/help'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

type Topic = {
  id: string
  icon: LucideIcon
  title: string
  summary: string
  links: { to: string; label: string }[]
}

const TOPICS: Topic[] = [
  {
    id: 'getting-started',
    icon: Compass,
    title: 'Getting started',
    summary:
      'Sign in with Google or GitHub, then browse the marketplace by tech stack, price and licence. You must be 18 or over to buy or sell.',
    links: [
      { to: '/marketplace', label: 'Browse the marketplace' },
      { to: '/faq#sign-in', label: 'How do I sign in?' },
    ],
  },
  {
    id: 'buying',
    icon: ShoppingCart,
    title: 'Buying',
    summary:
      'Pay once by card and get lifetime access. Delivered through GitHub, you accept the invitation to the repository and fork it; otherwise the seller delivers a fork link. Both appear in My Purchases.',
    links: [
      { to: '/faq#delivery', label: 'How do I receive what I buy?' },
      { to: '/faq#licences', label: 'Which licence do I need?' },
    ],
  },
  {
    id: 'escrow',
    icon: ShieldCheck,
    title: 'Escrow and disputes',
    summary: `Your payment is held until delivery is confirmed. You have ${DISPUTE_WINDOW_HOURS} hours after delivery to Confirm Receipt or Report a problem; after that the sale confirms automatically.`,
    links: [
      { to: '/faq#dispute-window', label: 'What is the dispute window?' },
      { to: '/faq#report-a-problem', label: 'How do I report a problem?' },
    ],
  },
  {
    id: 'selling',
    icon: Store,
    title: 'Selling',
    summary: `List an app, template or full site with its price, licence, tech stack and support options. Listing is free; a ${PLATFORM_FEE_PERCENT}% fee applies when it sells.`,
    links: [
      { to: '/seller/create', label: 'Create a listing' },
      { to: '/faq#fees', label: 'How much does it cost to sell?' },
    ],
  },
  {
    id: 'payouts',
    icon: Landmark,
    title: 'Payouts and bank details',
    summary:
      'Add bank details on your Profile; approval takes 1-2 business days. Completed sales are paid by bank transfer within 5 working days.',
    links: [
      { to: '/profile', label: 'Add bank details' },
      { to: '/faq#payouts', label: 'When and how do I get paid?' },
    ],
  },
  {
    id: 'account',
    icon: UserRound,
    title: 'Account and privacy',
    summary: 'How we handle your data, the few cookies we use, and how to ask for a copy of your data or close your account.',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/cookies', label: 'Cookie Policy' },
    ],
  },
]

const POPULAR = [
  { to: '/faq#escrow', label: 'How does escrow protection work?' },
  { to: '/faq#confirm-receipt', label: 'What does Confirm Receipt do?' },
  { to: '/faq#auto-confirm', label: "What happens if I don't confirm or report a problem?" },
  { to: '/faq#bank-details', label: 'Why do my bank details need approval?' },
  { to: '/faq#refunds', label: 'Can I get a refund?' },
]

export default function HelpPage() {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <LegalPageHeader
        title="Help Center"
        lead="Guides for buying and selling on Forkmarket. Pick a topic to get started; more articles are coming soon."
      />

      <section aria-labelledby="topics" className="mt-10">
        <h2 id="topics" className="text-xl font-semibold tracking-tight">
          Browse by topic
        </h2>
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {TOPICS.map((topic) => (
            <li
              key={topic.id}
              id={topic.id}
              className="flex scroll-mt-24 flex-col rounded-xl border border-border bg-card p-5 text-card-foreground shadow-xs"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <topic.icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 font-semibold">{topic.title}</h3>
              <p className="mt-2 flex-1 text-sm leading-6 text-muted-foreground">{topic.summary}</p>
              <ul className="mt-4 space-y-1.5 text-sm">
                {topic.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      className="inline-flex items-center gap-1.5 font-medium text-primary hover:underline hover:underline-offset-4"
                    >
                      {link.label}
                      <ArrowRight aria-hidden="true" className="size-3.5" />
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-12 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="popular">
          <Prose>
            <h2 id="popular">Popular questions</h2>
            <ul>
              {POPULAR.map((item) => (
                <li key={item.to}>
                  <Link to={item.to}>{item.label}</Link>
                </li>
              ))}
            </ul>
            <p>
              See all answers in the <Link to="/faq">Frequently Asked Questions</Link>. We are writing step-by-step guides for listing,
              delivering and payouts; more articles are coming soon.
            </p>
          </Prose>
        </section>

        <aside aria-labelledby="contact-support" className="h-fit rounded-xl border border-border bg-muted/50 p-6">
          <span className="flex size-10 items-center justify-center rounded-lg bg-background text-foreground">
            <LifeBuoy aria-hidden="true" className="size-5" />
          </span>
          <h2 id="contact-support" className="mt-4 text-lg font-semibold tracking-tight">
            Contact support
          </h2>
          <p className="mt-2 text-sm leading-6 text-muted-foreground">
            Can't find what you need? Email us from the address on your account and include the listing or order involved. For a problem
            with a purchase, use Report a problem within the {DISPUTE_WINDOW_HOURS}-hour dispute window so your payment stays protected.
          </p>
          <a
            href={`mailto:${SUPPORT_EMAIL}`}
            className="mt-4 inline-flex items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Mail aria-hidden="true" className="size-4" />
            {SUPPORT_EMAIL}
          </a>
        </aside>
      </div>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Help Center · Forkmarket' },
    {
      name: 'description',
      content:
        'Help with buying and selling on Forkmarket: getting started, escrow and disputes, listing your code, payouts and bank details.',
    },
  ]
}
