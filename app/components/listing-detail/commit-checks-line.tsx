import { CircleCheck, CircleDashed, CircleMinus, CircleX } from 'lucide-react'
import { checksCounts, checksHeadline, type ChecksSummary } from '~/lib/commit-checks'

/** A reading of a commit's checks as a screen receives it (issue 30). */
export interface ChecksReadingView {
  summary: ChecksSummary
  passed: number
  failed: number
  pending: number
  /** ISO time of the reading. */
  readAt: string
}

const ICONS = { passed: CircleCheck, failed: CircleX, pending: CircleDashed, none: CircleMinus, unavailable: CircleMinus } as const
const TONES = {
  passed: 'text-success',
  failed: 'text-destructive',
  pending: 'text-warning',
  none: 'text-muted-foreground',
  unavailable: 'text-muted-foreground',
} as const

/** "Checks passed at the listed commit (2 passed; read 3 May 2026, 14:02 UTC)": the code host's own checks, as evidence. */
export function CommitChecksLine({ reading, subject = 'the listed commit' }: { reading: ChecksReadingView; subject?: string }) {
  const Icon = ICONS[reading.summary]
  const counts = checksCounts(reading)
  const readAt = new Date(reading.readAt)
  return (
    <p className="flex items-start gap-2" data-checks={reading.summary}>
      <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${TONES[reading.summary]}`} />
      <span>
        <span className="font-medium">{checksHeadline(reading.summary, subject)}</span>{' '}
        <span className="text-muted-foreground">
          {`(${counts ? `${counts}; ` : ''}checked on GitHub `}
          <time
            dateTime={reading.readAt}
          >{`${readAt.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`}</time>
          {')'}
        </span>
      </span>
    </p>
  )
}
