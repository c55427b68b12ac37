import { ArrowLeft, SearchX } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '~/components/ui/button'

/** Spec §8 "Listing missing": shown for missing, hidden (to others) and archived listings. */
export function ListingNotFound() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <title>Listing not found · Forkmarket</title>
      <span className="flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <SearchX aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight">Listing not found</h1>
      <p className="mt-4 text-muted-foreground">The listing you're looking for doesn't exist</p>
      <Button asChild className="mt-8">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to Marketplace
        </Link>
      </Button>
    </div>
  )
}

/** Someone else's listing (403): only its seller may edit it. */
export function NotYourListing() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <title>Not your listing · Forkmarket</title>
      <h1 className="text-3xl font-bold tracking-tight">Not your listing</h1>
      <p className="mt-4 text-muted-foreground">You can only edit your own listings.</p>
      <Button asChild className="mt-8">
        <Link to="/seller/dashboard">
          <ArrowLeft aria-hidden="true" />
          Back to your dashboard
        </Link>
      </Button>
    </div>
  )
}

/** Anything but a 404 on a listing screen: say so plainly, without internals. */
export function ListingError() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <title>Something went wrong · Forkmarket</title>
      <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">An unexpected error occurred. Please try again in a moment.</p>
    </div>
  )
}
