import * as React from 'react'
import { Toast as ToastPrimitive } from 'radix-ui'
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

/** Close the current toast (with its exit animation). */
export function dismissToast() {
  if (state?.open) setState({ ...state, open: false })
}

const icons = { success: CircleCheck, error: CircleAlert, info: Info } as const

export const TOAST_DURATION_MS = 5000

/**
 * Render once, near the root. Pass the toast flashed by the server for this
 * request; `showToast()` feeds the same single slot from the client.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const current = React.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)

  // Effects do not run on the server, so the flash is shown after hydration.
  // `showToast` ignores ids it has already shown, so revalidations are harmless.
  React.useEffect(() => {
    if (toast) showToast(toast)
  }, [toast])

  const message = current?.message
  const Icon = message ? icons[message.type] : null

  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={50}
    >
      {message && Icon ? (
        <ToastPrimitive.Root
          // A new id remounts the root, so a new toast replaces the current one.
          key={message.id}
          open={current.open}
          onOpenChange={(open) => {
            if (!open) dismissToast()
          }}
          // Radix announces foreground toasts assertively, background ones politely.
          type={message.type === 'error' ? 'foreground' : 'background'}
          data-type={message.type}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border bg-popover p-4 pe-10 text-popover-foreground shadow-lg',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-fade-out',
            'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-[translate] data-[swipe=end]:animate-toast-swipe-out',
            message.type === 'error' &&
              'border-destructive bg-destructive text-destructive-foreground',
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
            <ToastPrimitive.Title className="text-sm leading-5 font-semibold">
              {message.title}
            </ToastPrimitive.Title>
            {message.description ? (
              <ToastPrimitive.Description
                className={cn(
                  'text-sm',
                  message.type === 'error'
                    ? 'text-destructive-foreground/90'
                    : 'text-muted-foreground',
                )}
              >
                {message.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Dismiss notification"
            className={cn(
              'absolute end-2 top-2 inline-flex size-7 items-center justify-center rounded-md opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100',
              message.type === 'error'
                ? 'hover:bg-destructive-foreground/10 focus-visible:outline-destructive-foreground'
                : 'hover:bg-accent',
            )}
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ) : null}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 pointer-events-none z-[100] m-0 flex w-full max-w-[min(100vw,26rem)] list-none flex-col gap-2 p-4" />
    </ToastPrimitive.Provider>
  )
}
