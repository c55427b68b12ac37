import { Star } from 'lucide-react'
import { describeRating, formatAverage } from '~/lib/ratings'

/** Five stars filled to the nearest whole star; the exact value is in the accessible name. */
export function Stars({ value, className }: { value: number; className?: string }) {
  const filled = Math.round(value)
  return (
    <span aria-hidden="true" className={`inline-flex items-center gap-0.5 ${className ?? ''}`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          className={
            n <= filled ? 'size-4 fill-amber-500 text-amber-700 dark:fill-amber-400 dark:text-amber-400' : 'size-4 text-muted-foreground'
          }
        />
      ))}
    </span>
  )
}

/** "★★★★☆ 4.3 (12 reviews)", or "No reviews yet". */
export function RatingSummary({ average, count, className }: { average: number | null; count: number; className?: string }) {
  if (count === 0 || average === null) return <p className={`text-sm text-muted-foreground ${className ?? ''}`}>No reviews yet</p>
  const tenths = Math.round(average * 10)
  return (
    <p className={`flex flex-wrap items-center gap-2 text-sm ${className ?? ''}`}>
      <Stars value={average} />
      <span aria-hidden="true" className="font-semibold tabular-nums">
        {formatAverage(tenths)}
      </span>
      <span aria-hidden="true" className="text-muted-foreground">
        ({count} {count === 1 ? 'review' : 'reviews'})
      </span>
      <span className="sr-only">{describeRating(tenths, count)}</span>
    </p>
  )
}
