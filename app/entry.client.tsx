import { startTransition, StrictMode, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

/**
 * Marks <html data-hydrated> once hydration has committed (its effect runs after
 * the router's): end-to-end tests wait on it before using client-side behaviour.
 */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return null
}

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
        <HydrationMarker />
      </StrictMode>,
    )
  })
}

// The server's HTML is complete and usable (forms and links work without
// JavaScript), so let the browser paint it first: hydration, the longest task
// of a first visit, starts after the next frame instead of holding it back.
requestAnimationFrame(() => setTimeout(hydrate, 0))
