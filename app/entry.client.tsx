import { startTransition, StrictMode, useEffect, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

/**
 * Marks <html data-hydrated> once hydration has committed (its effect runs after
 * the router's): end-to-end tests wait on it before using client-side behaviour.
 * It wraps the router rather than sitting beside it: a sibling would change the
 * tree positions useId() derives its ids from, so ids made in the browser
 * would no longer match the server's (aria-controls pointing nowhere).
 */
function HydrationMarker({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return children
}

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydrationMarker>
          <HydratedRouter />
        </HydrationMarker>
      </StrictMode>,
    )
  })
}

// The server's HTML is complete and usable (forms and links work without
// JavaScript), so let the browser paint it first: hydration, the longest task
// of a first visit, starts after the next frame instead of holding it back.
requestAnimationFrame(() => setTimeout(hydrate, 0))
