import { Link } from 'react-router'
import { badgeVariants } from '~/components/ui/badge'
import { Skeleton } from '~/components/ui/skeleton'
import { IMAGE_SIZES, imageVariant } from '~/lib/images'
import { formatCents } from '~/lib/money'
import { LISTING_TYPE_LABELS, type ListingType } from '~/lib/options'
import { describeRating } from '~/lib/ratings'
import { updatedAgo } from '~/lib/releases'

/** What a card shows: a listing reduced to a few fields, so a page of 24 stays light. */
export interface ListingCardData {
  id: string
  slug: string
  title: string
  shortDescription: string
  priceCents: number
  type: ListingType
  /** The first language, or null ('Code' is shown). */
  language: string | null
  /** The first framework, if any. */
  framework: string | null
  thumbnailUrl: string | null
  /** Issue 18: the shown average (null without reviews) and the number of reviews. */
  rating: { average: number | null; count: number }
  /** The seller's page (/sellers/{username}); absent on the seller's own page. */
  seller: { username: string; displayName: string } | null
  /** Issue 30: "Updated 3 days ago" (the latest version, else when it was listed), worded when the data was read. */
  updated: string | null
}

export function toListingCardData(
  listing: {
    id: string
    slug: string
    title: string
    shortDescription: string
    priceCents: number
    type: ListingType
    languages: string[]
    frameworks: string[]
    thumbnailUrl: string | null
    rating?: { average: number | null; count: number }
    seller?: { username: string; displayName: string } | null
    lastUpdatedAt?: Date | string
  },
  now: Date = new Date(),
): ListingCardData {
  return {
    id: listing.id,
    slug: listing.slug,
    title: listing.title,
    shortDescription: listing.shortDescription,
    priceCents: listing.priceCents,
    type: listing.type,
    language: listing.languages[0] ?? null,
    framework: listing.frameworks[0] ?? null,
    thumbnailUrl: listing.thumbnailUrl,
    rating: listing.rating ?? { average: null, count: 0 },
    seller: listing.seller ? { username: listing.seller.username, displayName: listing.seller.displayName } : null,
    updated: listing.lastUpdatedAt ? updatedAgo(listing.lastUpdatedAt, now) : null,
  }
}

// Placeholder backgrounds, picked from the id so a listing keeps its colour.
const PLACEHOLDER_TONES = [
  'from-primary/20 via-accent to-muted',
  'from-accent via-secondary to-primary/15',
  'from-secondary via-primary/10 to-accent',
  'from-muted via-accent to-primary/25',
]

function toneFor(id: string): string {
  let hash = 0
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0
  return PLACEHOLDER_TONES[Math.abs(hash) % PLACEHOLDER_TONES.length]!
}

const { width, height } = IMAGE_SIZES.card

// Computed once: a results page shows 72 of these.
const TAG = badgeVariants({ variant: 'secondary' })
const OUTLINE_TAG = badgeVariants({ variant: 'outline' })

/** A result card. Its shape lives in app.css (`.listing-card…`): 24 render per page. */
export function ListingCard({ listing, eager = false }: { listing: ListingCardData; eager?: boolean }) {
  return (
    <article className="listing-card">
      <div className="listing-card-media">
        {listing.thumbnailUrl ? (
          <img
            src={imageVariant(listing.thumbnailUrl, 'card')}
            width={width}
            height={height}
            // The first row is above the fold: load it at once.
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            alt=""
          />
        ) : (
          // A tinted panel with a code mark, drawn by CSS (app.css): no image, no SVG elements.
          <div aria-hidden="true" className={`listing-card-placeholder bg-linear-to-br ${toneFor(listing.id)}`} />
        )}
      </div>
      <div className="listing-card-body">
        <h3>
          {/* The whole card is clickable; the link's name stays the title. */}
          <Link to={`/listing/${listing.slug}`}>{listing.title}</Link>
        </h3>
        <p className="listing-card-price">{formatCents(listing.priceCents)}</p>
        {listing.rating.count > 0 && listing.rating.average !== null ? (
          <p className="listing-card-rating">
            <span aria-hidden="true">★ {listing.rating.average.toFixed(1)}</span>
            <span aria-hidden="true" className="text-muted-foreground">
              ({listing.rating.count})
            </span>
            <span className="sr-only">{describeRating(Math.round(listing.rating.average * 10), listing.rating.count)}</span>
          </p>
        ) : null}
        <p className="listing-card-summary">{listing.shortDescription}</p>
        {listing.updated ? <p className="listing-card-updated">{listing.updated}</p> : null}
        {listing.seller ? (
          <p className="listing-card-seller">
            by <Link to={`/sellers/${listing.seller.username}`}>{listing.seller.displayName}</Link>
          </p>
        ) : null}
        <ul aria-label="Stack and type" className="listing-card-tags">
          <li className={TAG}>{listing.language ?? 'Code'}</li>
          {listing.framework ? <li className={OUTLINE_TAG}>{listing.framework}</li> : null}
          <li className={OUTLINE_TAG}>{LISTING_TYPE_LABELS[listing.type]}</li>
        </ul>
      </div>
    </article>
  )
}

/** The card's shape while results load. */
export function ListingCardSkeleton() {
  return (
    <div className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-xs">
      <Skeleton className="aspect-[16/10] rounded-none" />
      <div className="flex flex-col gap-3 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-6 w-16" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
        <div className="flex gap-1.5 pt-2">
          <Skeleton className="h-5 w-16 rounded-full" />
          <Skeleton className="h-5 w-14 rounded-full" />
          <Skeleton className="h-5 w-16 rounded-full" />
        </div>
      </div>
    </div>
  )
}
