import { ChevronDown } from 'lucide-react'
import * as React from 'react'
import { Input } from '~/components/ui/input'
import { useHydrated } from '~/components/ui/use-hydrated'

/**
 * A multi-select filter as a disclosure of checkboxes named `name`: it submits
 * repeated values without JavaScript; with it, a box narrows the list.
 * Selected values outside `options` (custom stack values from a link) are
 * listed first so the form keeps them.
 */
export function OptionGroup({
  name,
  label,
  options,
  selected,
}: {
  name: string
  label: string
  options: readonly string[]
  selected: string[]
}) {
  const hydrated = useHydrated()
  const [query, setQuery] = React.useState('')
  // Open at first render when something is selected; afterwards the user decides.
  const [initiallyOpen] = React.useState(selected.length > 0)
  const all = [...selected.filter((value) => !options.includes(value)), ...options]
  const needle = query.trim().toLowerCase()
  const visible = needle ? all.filter((value) => value.toLowerCase().includes(needle)) : all

  return (
    <details open={initiallyOpen} className="group/options rounded-lg border bg-background">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        <span>
          {label}
          {selected.length ? <span className="ms-1.5 text-muted-foreground">({selected.length})</span> : null}
        </span>
        <ChevronDown aria-hidden="true" className="size-4 text-muted-foreground transition-transform group-open/options:rotate-180" />
      </summary>
      <fieldset className="border-t px-3 pt-2 pb-3">
        <legend className="sr-only">{label}</legend>
        {hydrated && options.length > 8 ? (
          <Input
            type="search"
            // No name: it narrows this list and is never submitted.
            data-local-filter=""
            aria-label={`Search ${label.toLowerCase()}`}
            placeholder={`Search ${label.toLowerCase()}…`}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            className="mb-2 h-8"
          />
        ) : null}
        {/*
          Native checkboxes wrapped in their labels, styled by one class on the list:
          a hundred of these render on every marketplace page.
        */}
        <div className="option-list">
          {all.map((value) => (
            <label key={value} hidden={needle ? !visible.includes(value) : undefined}>
              <input type="checkbox" name={name} value={value} checked={selected.includes(value)} onChange={() => {}} />
              {value}
            </label>
          ))}
        </div>
        {visible.length === 0 ? <p className="py-1 text-sm text-muted-foreground">No matches</p> : null}
      </fieldset>
    </details>
  )
}
