import { cn } from './cn'

export type ErrorListProps = {
  /** Must match the control's `aria-describedby` (Conform's `errorId`). */
  id?: string
  errors?: ReadonlyArray<string | null | undefined> | null
  className?: string
}

/** Field-level validation messages; renders nothing when there are none. */
export function ErrorList({ id, errors, className }: ErrorListProps) {
  const messages = errors?.filter((message): message is string => Boolean(message)) ?? []
  if (messages.length === 0) return null
  return (
    <div id={id} role="alert" data-slot="field-error" className={cn('text-sm font-medium text-destructive', className)}>
      <ul className="grid gap-1">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  )
}
