import * as React from 'react'
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react'

import { cn } from './cn'

export type ToastMessage = {
  id: string
  type: 'success' | 'error' | 'info'
  title: string
  description?: string
}

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

export type ShowToastInput = Omit<ToastMessage, 'id' | 'type'> &
  Partial<Pick<ToastMessage, 'id' | 'type'>>

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

const icons = { success: CircleCheck, error: CircleAlert, info: Info } as const

export const TOAST_DURATION_MS = 5000

/**
 * Render once, near the root. Pass the toast flashed by the server for this
 * request; `showToast()` feeds the same single slot from the client.
 *
 * Plain elements, no toast library (it was a tenth of every page's JavaScript):
 * two live regions that exist from the first paint, so screen readers announce
 * what is put in them — errors assertively, the rest politely. The toast stays
 * while the pointer or focus is on it (WCAG 2.2.1), Escape closes it, and F8
 * moves focus to it.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const current = React.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)
  // The id of the toast the pointer or focus is on; a new toast starts its timer afresh.
  const [pausedId, setPausedId] = React.useState<string | null>(null)
  const closeRef = React.useRef<HTMLButtonElement>(null)

  // Effects do not run on the server, so the flash is shown after hydration.
  // `showToast` ignores ids it has already shown, so revalidations are harmless.
  React.useEffect(() => {
    if (toast) showToast(toast)
  }, [toast])

  const message = current?.open ? current.message : null
  const messageId = message?.id
  const paused = messageId !== undefined && pausedId === messageId
  React.useEffect(() => {
    if (!messageId || paused) return
    const timer = setTimeout(dismissToast, TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [messageId, paused])

  React.useEffect(() => {
    if (!messageId) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault()
        closeRef.current?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [messageId])

  const Icon = message ? icons[message.type] : null
  const item =
    message && Icon ? (
      <div
        key={message.id}
        data-type={message.type}
        onPointerEnter={() => setPausedId(message.id)}
        onPointerLeave={() => setPausedId(null)}
        onFocus={() => setPausedId(message.id)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) setPausedId(null)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') dismissToast()
        }}
        className={cn(
          'pointer-events-auto relative flex w-full animate-toast-in items-start gap-3 overflow-hidden rounded-lg border bg-popover p-4 pe-10 text-popover-foreground shadow-lg',
          message.type === 'error' && 'border-destructive bg-destructive text-destructive-foreground',
        )}
      >
        <Icon
          aria-hidden="true"
          className={cn(
            'mt-0.5 size-5 shrink-0',
            message.type === 'success' && 'text-success',
            message.type === 'info' && 'text-primary',
          )}
        />
        <div className="grid gap-1">
          <p className="text-sm leading-5 font-semibold">{message.title}</p>
          {message.description ? (
            <p className={message.type === 'error' ? 'text-sm text-destructive-foreground/90' : 'text-sm text-muted-foreground'}>
              {message.description}
            </p>
          ) : null}
        </div>
        <button
          ref={closeRef}
          type="button"
          aria-label="Dismiss notification"
          onClick={dismissToast}
          className={cn(
            'absolute end-2 top-2 inline-flex size-7 items-center justify-center rounded-md opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100',
            message.type === 'error'
              ? 'hover:bg-destructive-foreground/10 focus-visible:outline-destructive-foreground'
              : 'hover:bg-accent',
          )}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
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
