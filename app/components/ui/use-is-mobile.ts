import * as React from 'react'

export const MOBILE_BREAKPOINT_PX = 768
const QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`

function subscribe(onChange: () => void) {
  const mql = window.matchMedia(QUERY)
  mql.addEventListener('change', onChange)
  return () => mql.removeEventListener('change', onChange)
}

/**
 * True below 768 px. The server (and the hydration pass) always sees `false`,
 * so markup matches; CSS keeps the desktop-only parts hidden on small screens
 * until the client re-renders with the real value.
 */
export function useIsMobile(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  )
}
