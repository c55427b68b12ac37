import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    )
  })
}

// The server's HTML is complete and usable (forms and links work without
// JavaScript), so let the browser paint it first: hydration, the longest task
// of a first visit, starts after the next frame instead of holding it back.
requestAnimationFrame(() => setTimeout(hydrate, 0))
