import { CircleAlert, CircleCheck, Info, X } from 'lucide-react'
import * as React from 'react'
import type { ToastMessage } from '~/lib/toast'
import { cn } from './cn'

const icons = { success: CircleCheck, error: CircleAlert, info: Info } as const

/**
 * One toast (rendered by Toaster inside its live regions). It stays while the
 * pointer or focus is on it (WCAG 2.2.1), closes after `durationMs` otherwise,
 * Escape closes it, and F8 moves focus to it.
 */
export default function ToastItem({
  message,
  onDismiss,
  durationMs,
}: {
  message: ToastMessage
  onDismiss: () => void
  durationMs: number
}) {
  const [paused, setPaused] = React.useState(false)
  const closeRef = React.useRef<HTMLButtonElement>(null)

  React.useEffect(() => {
    if (paused) return
    const timer = setTimeout(onDismiss, durationMs)
    return () => clearTimeout(timer)
  }, [paused, onDismiss, durationMs])

  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault()
        closeRef.current?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  const Icon = icons[message.type]
  return (
    <div
      data-type={message.type}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDismiss()
      }}
      className={cn(
        'pointer-events-auto relative flex w-full animate-toast-in items-start gap-3 overflow-hidden rounded-lg border bg-popover p-4 pe-10 text-popover-foreground shadow-lg',
        message.type === 'error' && 'border-destructive bg-destructive text-destructive-foreground',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('mt-0.5 size-5 shrink-0', message.type === 'success' && 'text-success', message.type === 'info' && 'text-primary')}
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
        onClick={onDismiss}
        className={cn(
          'absolute end-2 top-2 inline-flex size-7 items-center justify-center rounded-md opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100',
          message.type === 'error' ? 'hover:bg-destructive-foreground/10 focus-visible:outline-destructive-foreground' : 'hover:bg-accent',
        )}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  )
}
