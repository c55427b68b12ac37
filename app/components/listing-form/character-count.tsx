import { cn } from '~/components/ui/cn'

const count = new Intl.NumberFormat('en-US')

/**
 * "12/120 characters" under a limited text field, counting what the schema
 * counts (the trimmed text). Over the limit it turns red and says by how much,
 * instead of the browser silently cutting a paste at `maxLength`.
 */
export function CharacterCount({ value, max }: { value: unknown; max: number }) {
  const length = typeof value === 'string' ? value.trim().length : 0
  const over = length - max
  return (
    <span data-slot="character-count" className={cn('tabular-nums', over > 0 && 'font-medium text-destructive')}>
      {count.format(length)}/{count.format(max)} characters
      {over > 0 ? `: ${count.format(over)} too many` : null}
    </span>
  )
}
