import { Check, ExternalLink, Minus } from 'lucide-react'
import * as React from 'react'
import { TechIcon } from '~/components/tech-icon'
import { Badge } from '~/components/ui/badge'
import { cn } from '~/components/ui/cn'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs'
import { useHydrated } from '~/components/ui/use-hydrated'
import { formatCents } from '~/lib/money'
import {
  DELIVERY_TIMEFRAME_LABELS,
  DELIVERY_TIMEFRAMES,
  EMAIL_SUPPORT_DURATION_LABELS,
  EMAIL_SUPPORT_DURATIONS,
  isOneOf,
} from '~/lib/options'

/** What the detail components read of a listing (a subset of ListingView). */
export interface ListingDetailData {
  title: string
  shortDescription: string
  longDescription: string
  languages: string[]
  frameworks: string[]
  dependencies: string[]
  setupCallAvailable: boolean
  setupCallDetails: string | null
  emailSupportAvailable: boolean
  emailSupportDuration: string | null
  deliveryTimeframe: string | null
  bespokeDevelopmentAvailable: boolean
  bespokeDevelopmentRateCents: number | null
  additionalNotes: string | null
}

/** Spec: the listing page shows the first 3 of each tech list. */
export const TECH_SHOWN = 3

export function TechBadge({ name }: { name: string }) {
  return (
    <Badge variant="outline" className="gap-1.5 px-2.5 py-1 text-sm font-normal">
      <TechIcon name={name} size={16} />
      {name}
    </Badge>
  )
}

/** First three languages, frameworks and dependencies, as icon badges. */
export function TechSummary({ listing }: { listing: Pick<ListingDetailData, 'languages' | 'frameworks' | 'dependencies'> }) {
  const groups = [
    { label: 'Languages', items: listing.languages.slice(0, TECH_SHOWN) },
    { label: 'Frameworks', items: listing.frameworks.slice(0, TECH_SHOWN) },
    { label: 'Dependencies', items: listing.dependencies.slice(0, TECH_SHOWN) },
  ].filter((g) => g.items.length > 0)
  if (groups.length === 0) return null
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tech stack highlights">
      {groups.flatMap((g) =>
        g.items.map((name) => (
          <li key={`${g.label}-${name}`}>
            <TechBadge name={name} />
          </li>
        )),
      )}
    </ul>
  )
}

function Paragraphs({ text }: { text: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
  return (
    <div className="grid gap-4 leading-7 text-foreground/90">
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  )
}

function TechList({ label, items }: { label: string; items: string[] }) {
  return (
    <section className="grid gap-3">
      <h3 className="font-semibold">{label}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">None listed</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label={label}>
          {items.map((name) => (
            <li key={name}>
              <TechBadge name={name} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** One support term: a <dt>/<dd> pair in its own <div> (the only wrapper a <dl> allows). */
function SupportRow({ label, available, children }: { label: string; available: boolean; children?: React.ReactNode }) {
  return (
    <div className="py-3">
      <dt className="flex items-center gap-3 font-medium">
        <span
          className={cn(
            'flex size-5 shrink-0 items-center justify-center rounded-full',
            available ? 'bg-success text-success-foreground' : 'bg-muted text-muted-foreground',
          )}
        >
          {available ? <Check aria-hidden="true" className="size-3.5" /> : <Minus aria-hidden="true" className="size-3.5" />}
        </span>
        {label}
      </dt>
      <dd className="mt-1 ps-8 text-sm text-muted-foreground">{children ?? (available ? 'Available' : 'Not available')}</dd>
    </div>
  )
}

export function timeframeLabel(value: string | null) {
  if (!value) return null
  return isOneOf(DELIVERY_TIMEFRAMES, value) ? DELIVERY_TIMEFRAME_LABELS[value] : value
}

export function durationLabel(value: string | null) {
  if (!value) return null
  return isOneOf(EMAIL_SUPPORT_DURATIONS, value) ? EMAIL_SUPPORT_DURATION_LABELS[value] : value
}

/**
 * Tabs Description / Tech Stack / Support. Every panel is in the HTML (and
 * shown stacked until JavaScript runs), so the content is there for no-JS
 * visitors and crawlers; once hydrated only the active tab shows.
 */
export function ListingTabs({ listing }: { listing: ListingDetailData }) {
  const hydrated = useHydrated()
  const panel = cn('mt-4', hydrated && 'data-[state=inactive]:hidden')
  const rate = listing.bespokeDevelopmentRateCents
  return (
    <Tabs defaultValue="description" className="mt-2">
      <TabsList>
        <TabsTrigger value="description">Description</TabsTrigger>
        <TabsTrigger value="tech">Tech Stack</TabsTrigger>
        <TabsTrigger value="support">Support</TabsTrigger>
      </TabsList>
      <TabsContent value="description" forceMount className={panel}>
        <Paragraphs text={listing.longDescription || listing.shortDescription} />
      </TabsContent>
      <TabsContent value="tech" forceMount className={panel}>
        <div className="grid gap-6">
          <TechList label="Languages" items={listing.languages} />
          <TechList label="Frameworks" items={listing.frameworks} />
          <TechList label="Dependencies & services" items={listing.dependencies} />
        </div>
      </TabsContent>
      <TabsContent value="support" forceMount className={panel}>
        <dl className="divide-y">
          <SupportRow label="Setup call" available={listing.setupCallAvailable}>
            {listing.setupCallAvailable ? listing.setupCallDetails || 'Available' : undefined}
          </SupportRow>
          <SupportRow label="Email support" available={listing.emailSupportAvailable}>
            {listing.emailSupportAvailable ? (durationLabel(listing.emailSupportDuration) ?? 'Available') : undefined}
          </SupportRow>
          <SupportRow label="Delivery" available={Boolean(listing.deliveryTimeframe)}>
            {timeframeLabel(listing.deliveryTimeframe) ?? 'Agreed with the seller'}
          </SupportRow>
          <SupportRow label="Bespoke development" available={listing.bespokeDevelopmentAvailable}>
            {listing.bespokeDevelopmentAvailable
              ? rate === null
                ? 'Available — rate on request'
                : `${formatCents(rate)}/hour`
              : undefined}
          </SupportRow>
        </dl>
        {listing.additionalNotes ? (
          <section className="mt-6 grid gap-2">
            <h3 className="font-semibold">Additional notes</h3>
            <Paragraphs text={listing.additionalNotes} />
          </section>
        ) : null}
      </TabsContent>
    </Tabs>
  )
}

export function DemoLink({ url }: { url: string }) {
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
    >
      <ExternalLink aria-hidden="true" className="size-4" />
      View Demo
    </a>
  )
}
