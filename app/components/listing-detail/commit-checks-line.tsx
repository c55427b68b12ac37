import { CircleCheck, CircleDashed, CircleMinus, CircleX } from 'lucide-react'
import { checksSentence, type ChecksReadingView } from '~/lib/commit-checks'
import { formatDateTime } from '~/lib/format'

export type { ChecksReadingView }

const ICONS = { passed: CircleCheck, failed: CircleX, pending: CircleDashed, none: CircleMinus, unavailable: CircleMinus } as const
const TONES = {
  passed: 'text-success',
  failed: 'text-destructive',
  pending: 'text-warning',
  none: 'text-muted-foreground',
  unavailable: 'text-muted-foreground',
} as const

/** "Checks failed at the listed commit: 2 of 5 failed (checked on GitHub May 3, 2026, 2:02 PM UTC)": the code host's own checks, as evidence. */
export function CommitChecksLine({ reading, subject = 'the listed commit' }: { reading: ChecksReadingView; subject?: string }) {
  const Icon = ICONS[reading.summary]
  return (
    <p className="flex items-start gap-2" data-checks={reading.summary}>
      <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${TONES[reading.summary]}`} />
      <span>
        <span className="font-medium">{checksSentence(reading, subject)}</span>{' '}
        <span className="text-muted-foreground">
          {'(checked on GitHub '}
          <time dateTime={reading.readAt}>{formatDateTime(reading.readAt)}</time>
          {')'}
        </span>
      </span>
    </p>
  )
}

/** A sale's two readings, the listed commit's and the delivered commit's (a dispute's evidence). */
export function SaleChecksLines({ checks }: { checks: { listed: ChecksReadingView | null; delivered: ChecksReadingView | null } }) {
  if (!checks.listed && !checks.delivered) return null
  return (
    <div className="grid gap-1 text-sm" data-sale-checks>
      {checks.listed ? <CommitChecksLine reading={checks.listed} /> : null}
      {checks.delivered ? <CommitChecksLine reading={checks.delivered} subject="the delivered commit" /> : null}
    </div>
  )
}
