import { CreditCard, GitBranch, GitCommitHorizontal, ListChecks, MessageSquare, Receipt, ScrollText } from 'lucide-react'
import { Badge } from '~/components/ui/badge'
import { formatDateTime } from '~/lib/format'
import type { TimelineEntry, TimelineSource } from '~/server/domain/dispute-timeline.server'

const ICONS: Record<TimelineSource, typeof Receipt> = {
  sale: Receipt,
  stripe: CreditCard,
  github: GitCommitHorizontal,
  'github-checks': ListChecks,
  'github-webhook': GitBranch,
  audit: ScrollText,
  message: MessageSquare,
}

/** One chronological list of what the system recorded about a disputed sale, each entry with its source. */
export function DisputeTimelineList({ entries, sourceLabels }: { entries: TimelineEntry[]; sourceLabels: Record<TimelineSource, string> }) {
  return (
    <ol className="grid gap-0 border-s ps-5" aria-label="Timeline, oldest first">
      {entries.map((entry) => {
        const Icon = ICONS[entry.source]
        return (
          <li key={entry.key} className="relative grid gap-1 pb-5" data-timeline-source={entry.source}>
            <span className="absolute -start-[1.95rem] top-0.5 grid size-6 place-items-center rounded-full border bg-background">
              <Icon aria-hidden="true" className="size-3.5" />
            </span>
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h3 className="font-medium">{entry.title}</h3>
              <Badge variant="outline" className="font-normal">
                <span className="sr-only">Source: </span>
                {sourceLabels[entry.source]}
              </Badge>
            </div>
            <p className="text-xs text-muted-foreground">
              <time dateTime={new Date(entry.at).toISOString()}>{formatDateTime(entry.at)}</time> · {entry.actor}
            </p>
            {entry.detail ? (
              <p className="rounded-md bg-muted/50 p-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{entry.detail}</p>
            ) : null}
            {entry.facts.length > 0 ? (
              <dl className="grid gap-x-3 gap-y-0.5 text-xs sm:grid-cols-[auto_1fr]">
                {entry.facts.map((fact) => (
                  <div key={fact.label} className="contents">
                    <dt className="text-muted-foreground">{fact.label}</dt>
                    <dd className="font-mono [overflow-wrap:anywhere]">{fact.value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </li>
        )
      })}
    </ol>
  )
}
