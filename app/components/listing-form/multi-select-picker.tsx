import { Plus, Search, X } from 'lucide-react'
import * as React from 'react'
import { TechIcon } from '~/components/tech-icon'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { ErrorList } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { useHydrated } from '~/components/ui/use-hydrated'
import { MAX_TECH_VALUE_LENGTH } from '~/lib/listing-schema'

export type MultiSelectPickerProps = {
  /** Form field name; every selected value is submitted under it. */
  name: string
  /** Visible label, e.g. "Languages". */
  label: string
  /** Singular noun for messages and the custom entry, e.g. "language". */
  noun: string
  options: readonly string[]
  defaultValue?: readonly string[]
  errors?: string[]
  errorId?: string
  max?: number
  /**
   * The form's "validate this field" intent (Conform's `__intent__` value): without
   * JavaScript, Add posts the form with it, and the server answers with the
   * same form, the custom value now a ticked option, and nothing saved.
   */
  addIntent?: string
}

/** Why a custom value cannot be added, or null when it can (spec §5: trimmed, non-empty, no duplicate). */
export function customValueProblem(value: string, selected: readonly string[], noun: string): string | null {
  const trimmed = value.trim()
  if (!trimmed) return `Enter a ${noun}`
  if (trimmed.length > MAX_TECH_VALUE_LENGTH) return `A ${noun} must be at most ${MAX_TECH_VALUE_LENGTH} characters`
  if (selected.some((s) => s.toLowerCase() === trimmed.toLowerCase())) return `${trimmed} is already selected`
  return null
}

/**
 * Multi-select with search, the list of selected items, and a custom value
 * entry (Add / Cancel). The options are real checkboxes named `name`, so the
 * selection submits without JavaScript; without it the custom entry is a
 * plain text input under the same name (blank values are ignored) with an
 * Add button that round-trips the form (see `addIntent`), so any number of
 * custom values can be added one after another.
 */
export function MultiSelectPicker({
  name,
  label,
  noun,
  options,
  defaultValue = [],
  errors,
  errorId,
  max = 20,
  addIntent,
}: MultiSelectPickerProps) {
  const hydrated = useHydrated()
  const [selected, setSelected] = React.useState<string[]>(() => [...new Set(defaultValue)])
  const [query, setQuery] = React.useState('')
  const [adding, setAdding] = React.useState(false)
  const [custom, setCustom] = React.useState('')
  const [customError, setCustomError] = React.useState<string | null>(null)
  const customInput = React.useRef<HTMLInputElement>(null)
  const addButton = React.useRef<HTMLButtonElement>(null)
  const id = React.useId()

  // Custom values picked earlier are listed first, then the fixed options.
  const customs = selected.filter((v) => !options.some((o) => o.toLowerCase() === v.toLowerCase()))
  const all = [...customs, ...options]
  const needle = query.trim().toLowerCase()
  const visible = hydrated && needle ? all.filter((o) => o.toLowerCase().includes(needle)) : all
  const isSelected = (value: string) => selected.some((s) => s.toLowerCase() === value.toLowerCase())

  function toggle(value: string, on: boolean) {
    setSelected((current) => (on ? [...current, value] : current.filter((s) => s !== value)))
  }

  function addCustom() {
    const problem = customValueProblem(custom, selected, noun)
    if (problem) {
      setCustomError(problem)
      customInput.current?.focus()
      return
    }
    const trimmed = custom.trim()
    const known = options.find((o) => o.toLowerCase() === trimmed.toLowerCase())
    setSelected((current) => [...current, known ?? trimmed])
    closeCustom()
  }

  function closeCustom() {
    setAdding(false)
    setCustom('')
    setCustomError(null)
    requestAnimationFrame(() => addButton.current?.focus())
  }

  const describedBy = errors?.length ? errorId : undefined

  return (
    <fieldset className="grid gap-3" aria-describedby={describedBy}>
      <legend className="mb-2 text-sm font-medium">{label}</legend>

      {hydrated ? (
        <div aria-live="polite" className="flex min-h-7 flex-wrap gap-2">
          {selected.length === 0 ? (
            <p className="text-sm text-muted-foreground">None selected yet</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label={`Selected ${label.toLowerCase()}`}>
              {selected.map((value) => (
                <li key={value}>
                  <Badge variant="secondary" className="gap-1.5 py-1 ps-2 pe-1 text-sm">
                    <TechIcon name={value} size={14} />
                    {value}
                    <button
                      type="button"
                      onClick={() => toggle(value, false)}
                      className="rounded-full p-0.5 hover:bg-background"
                      aria-label={`Remove ${value}`}
                    >
                      <X aria-hidden="true" className="size-3.5" />
                    </button>
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}

      {hydrated ? (
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') event.preventDefault()
            }}
            placeholder={`Search ${label.toLowerCase()}…`}
            aria-label={`Search ${label.toLowerCase()}`}
            aria-controls={`${id}-options`}
            className="ps-9"
          />
        </div>
      ) : null}

      <div id={`${id}-options`} className="grid max-h-52 grid-cols-1 gap-x-4 gap-y-1 overflow-y-auto rounded-md border p-3 sm:grid-cols-2">
        {visible.length === 0 ? <p className="text-sm text-muted-foreground">Nothing matches “{query.trim()}”</p> : null}
        {all.map((option) => {
          const shown = visible.includes(option)
          const checked = isSelected(option)
          return (
            <label
              key={option}
              hidden={!shown}
              className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 text-sm hover:bg-accent"
            >
              <Checkbox
                name={name}
                value={option}
                checked={checked}
                onChange={(event) => toggle(option, event.target.checked)}
                disabled={!checked && selected.length >= max}
              />
              <TechIcon name={option} size={16} />
              <span>{option}</span>
            </label>
          )
        })}
      </div>

      {hydrated ? (
        adding ? (
          <div className="grid gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <Input
                ref={customInput}
                autoFocus
                value={custom}
                onChange={(event) => {
                  setCustom(event.target.value)
                  setCustomError(null)
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault()
                    addCustom()
                  } else if (event.key === 'Escape') {
                    event.preventDefault()
                    closeCustom()
                  }
                }}
                aria-label={`Custom ${noun}`}
                aria-invalid={customError ? true : undefined}
                aria-describedby={customError ? `${id}-custom-error` : undefined}
                placeholder={`Custom ${noun}`}
                className="max-w-xs"
              />
              <Button type="button" size="sm" onClick={addCustom}>
                Add
              </Button>
              <Button type="button" size="sm" variant="ghost" onClick={closeCustom}>
                Cancel
              </Button>
            </div>
            <ErrorList id={`${id}-custom-error`} errors={customError ? [customError] : []} />
          </div>
        ) : (
          <Button
            ref={addButton}
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            onClick={() => setAdding(true)}
            disabled={selected.length >= max}
          >
            <Plus aria-hidden="true" />
            Add custom {noun}
          </Button>
        )
      ) : (
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-other`} className="text-sm text-muted-foreground">
            Other {noun} (not in the list)
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <Input id={`${id}-other`} name={name} className="max-w-xs" />
            {addIntent ? (
              <Button
                type="submit"
                size="sm"
                variant="outline"
                name="__intent__"
                value={addIntent}
                formNoValidate
                aria-label={`Add custom ${noun}`}
              >
                <Plus aria-hidden="true" />
                Add
              </Button>
            ) : null}
          </div>
        </div>
      )}

      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  )
}
