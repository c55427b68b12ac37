import { Badge } from '~/components/ui/badge'

const LABELS = {
  pending: { text: 'Pending', variant: 'secondary' },
  succeeded: { text: 'Delivered', variant: 'success' },
  failed: { text: 'Failed', variant: 'destructive' },
} as const

/** A delivery's state in words (and the receiver's HTTP status when it answered). */
export function DeliveryStatus({ status, httpStatus }: { status: keyof typeof LABELS; httpStatus: number | null }) {
  const label = LABELS[status]
  return (
    <Badge variant={label.variant}>
      {label.text}
      {httpStatus !== null ? ` · ${httpStatus}` : ''}
    </Badge>
  )
}

/** Enabled, or disabled after failing (the owner enables it again). */
export function EndpointState({ disabled }: { disabled: boolean }) {
  return disabled ? <Badge variant="destructive">Disabled</Badge> : <Badge variant="success">Enabled</Badge>
}
