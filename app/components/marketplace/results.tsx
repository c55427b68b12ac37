import { ChevronLeft, ChevronRight, SearchX } from 'lucide-react'
import { Link } from 'react-router'
import { ListingCard, ListingCardSkeleton, type ListingCardData } from '~/components/listing-card'
import { Button } from '~/components/ui/button'

const SKELETON_COUNT = 6
// Columns follow the width of the results area (a container query), not the window's.
const GRID = 'grid gap-5 @xl:grid-cols-2 @4xl:grid-cols-3'
/** Cards in the first row (at the widest layout), loaded without lazy-loading. */
const FIRST_ROW = 3

export function ListingGrid({ listings, loading }: { listings: ListingCardData[]; loading: boolean }) {
  if (loading) {
    return (
      <div className={GRID} aria-busy="true" aria-label="Loading listings">
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <ListingCardSkeleton key={i} />
        ))}
      </div>
    )
  }
  if (listings.length === 0) return <EmptyResults />
  return (
    <ul className={GRID} aria-label="Listings">
      {listings.map((listing, index) => (
        <li key={listing.id} className="flex *:flex-1">
          <ListingCard listing={listing} eager={index < FIRST_ROW} />
        </li>
      ))}
    </ul>
  )
}

function EmptyResults() {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed px-6 py-16 text-center">
      <SearchX aria-hidden="true" className="size-10 text-muted-foreground" />
      <h2 className="mt-4 text-lg font-semibold">No listings found</h2>
      <p className="mt-1 text-sm text-muted-foreground">Try adjusting your filters or search criteria</p>
      <Button asChild variant="outline" className="mt-6">
        <Link to="/marketplace">Clear all filters</Link>
      </Button>
    </div>
  )
}

/** Previous/next page links: plain links, so paging works without JavaScript. */
export function Pager({ previousHref, nextHref }: { previousHref: string | null; nextHref: string | null }) {
  if (!previousHref && !nextHref) return null
  return (
    <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-4">
      {previousHref ? (
        <Button asChild variant="outline">
          <Link to={previousHref} rel="prev">
            <ChevronLeft aria-hidden="true" />
            Previous page
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {nextHref ? (
        <Button asChild variant="outline">
          <Link to={nextHref} rel="next">
            Next page
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  )
}
