import { ArrowLeft, SearchX, Store } from 'lucide-react'
import { data, Link } from 'react-router'
import type { Route } from './+types/not-found'

/** Splat route ('*'): render this page with an HTTP 404 status. */
export function loader() {
  return data({}, { status: 404 })
}

export default function NotFoundPage() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <span className="flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <SearchX aria-hidden="true" className="size-7" />
      </span>
      <p className="mt-6 text-sm font-semibold tracking-wide text-primary">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mt-4 text-base leading-7 text-pretty text-muted-foreground">
        Sorry, we couldn't find the page you're looking for. It may have been moved, or the link may be wrong.
      </p>
      <div className="mt-8 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
        <Link
          to="/"
          className="inline-flex items-center justify-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to home
        </Link>
        <Link
          to="/marketplace"
          className="inline-flex items-center justify-center gap-2 rounded-md border border-border bg-background px-4 py-2 text-sm font-medium shadow-xs transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <Store aria-hidden="true" className="size-4" />
          Browse Marketplace
        </Link>
      </div>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Page not found · Forkmarket' },
    { name: 'description', content: "The page you're looking for doesn't exist." },
    { name: 'robots', content: 'noindex' },
  ]
}
