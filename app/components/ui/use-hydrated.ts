import * as React from 'react'

const subscribe = () => () => {}

/** False on the server and during hydration, true afterwards: for markup that must match SSR first. */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
