import * as React from 'react'
import type { ToastMessage } from '~/lib/toast'

type ToastState = { message: ToastMessage; open: boolean } | null

/*
 * One toast at a time for the whole page, shared by the server-flashed toast
 * (the `toast` prop) and client code (`showToast`). It lives at module level
 * so code outside React (e.g. a Stripe error handler) can raise one; on the
 * server nothing writes to it, so no state leaks between requests.
 */
let state: ToastState = null
const shownIds = new Set<string>()
const listeners = new Set<() => void>()

function setState(next: ToastState) {
  state = next
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

const getSnapshot = () => state
const getServerSnapshot = (): ToastState => null

function newId() {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `toast-${Date.now()}-${Math.random().toString(36).slice(2)}`
}

export type ShowToastInput = Omit<ToastMessage, 'id' | 'type'> & Partial<Pick<ToastMessage, 'id' | 'type'>>

/**
 * Raise a toast from client code. It replaces whatever toast is showing.
 * A message whose `id` was already shown is ignored, so re-rendering with the
 * same server toast never shows it twice.
 */
export function showToast(input: ShowToastInput): string {
  const message: ToastMessage = { ...input, id: input.id ?? newId(), type: input.type ?? 'info' }
  if (shownIds.has(message.id)) return message.id
  shownIds.add(message.id)
  setState({ message, open: true })
  return message.id
}

/** Close the current toast. */
export function dismissToast() {
  if (state?.open) setState({ ...state, open: false })
}

export const TOAST_DURATION_MS = 5000

/** The toast itself (icons, timer, keys): fetched the first time a toast shows. */
const ToastItem = React.lazy(() => import('./toast-item'))

/**
 * Render once, near the root. Pass the toast flashed by the server for this
 * request; `showToast()` feeds the same single slot from the client.
 *
 * Plain elements, no toast library (it was a tenth of every page's JavaScript):
 * two live regions that exist from the first paint, so screen readers announce
 * what is put in them — errors assertively, the rest politely.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const current = React.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)

  // Effects do not run on the server, so the flash is shown after hydration.
  // `showToast` ignores ids it has already shown, so revalidations are harmless.
  React.useEffect(() => {
    if (toast) showToast(toast)
  }, [toast])

  const message = current?.open ? current.message : null
  const item = message ? (
    <React.Suspense fallback={null}>
      {/* A new id remounts the item, so a new toast replaces the current one with a fresh timer. */}
      <ToastItem key={message.id} message={message} onDismiss={dismissToast} durationMs={TOAST_DURATION_MS} />
    </React.Suspense>
  ) : null

  return (
    <section
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed right-0 bottom-0 z-[100] flex w-full max-w-[min(100vw,26rem)] flex-col p-4"
    >
      <div role="alert">{message?.type === 'error' ? item : null}</div>
      <div role="status">{message && message.type !== 'error' ? item : null}</div>
    </section>
  )
}
