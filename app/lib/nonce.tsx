import { createContext, useContext } from 'react'

// The per-request CSP nonce, provided by entry.server around the whole app.
// In the browser the value is not needed after hydration, so it is ''.
export const NonceContext = createContext('')
export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
