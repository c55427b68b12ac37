import * as React from 'react'
import { useLocation, useNavigate } from 'react-router'
import { describeFilterError, parseFilters, serializeFilters, type FilterError } from '~/lib/filters'

const TYPING_DELAY_MS = 350

function isTextField(target: EventTarget): target is HTMLInputElement {
  return target instanceof HTMLInputElement && ['search', 'text', 'number'].includes(target.type)
}

/**
 * With JavaScript, the filter form applies itself: a select or checkbox at
 * once, typed text after a pause. Each change navigates to the canonical URL
 * of the new filter state (back to the first page), so Back/Forward walk the
 * filter history; a typing burst replaces its own history entry instead of
 * adding one per pause. Without JavaScript the same form is a plain GET form.
 */
export function useFilterNavigation(path: string) {
  const navigate = useNavigate()
  const location = useLocation()
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const typingIn = React.useRef<string | null>(null)
  const form = React.useRef<HTMLFormElement>(null)
  const [error, setError] = React.useState<FilterError | null>(null)

  React.useEffect(() => () => clearTimeout(timer.current), [])
  // An error belongs to the values it was about. Back/Forward show other values, but a slower
  // navigation that lands after a bad entry leaves that entry in its (focused) field: ask the form
  // again (the fields have taken the URL's values by now; child effects run first).
  React.useEffect(() => {
    const parsed = form.current ? parseFilters(new FormData(form.current)) : null
    setError((current) => (current && parsed && !parsed.ok ? parsed.error : null))
  }, [location.key])

  const apply = React.useCallback(
    (form: HTMLFormElement, replace: boolean) => {
      clearTimeout(timer.current)
      const parsed = parseFilters(new FormData(form))
      if (!parsed.ok) {
        setError(parsed.error)
        return
      }
      setError(null)
      const query = serializeFilters(parsed.filters)
      navigate(query ? `${path}?${query}` : path, { replace, preventScrollReset: true })
    },
    [navigate, path],
  )

  const onChange = React.useCallback(
    (event: React.FormEvent<HTMLFormElement>) => {
      const target = event.target
      const form = event.currentTarget
      // Boxes that only narrow an option list are not filters.
      if (target instanceof HTMLElement && target.hasAttribute('data-local-filter')) return
      if (isTextField(target)) {
        clearTimeout(timer.current)
        timer.current = setTimeout(() => {
          const replace = typingIn.current === target.name
          typingIn.current = target.name
          apply(form, replace)
        }, TYPING_DELAY_MS)
        return
      }
      typingIn.current = null
      apply(form, false)
    },
    [apply],
  )

  const onSubmit = React.useCallback(
    (event: React.FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      typingIn.current = null
      apply(event.currentTarget, false)
    },
    [apply],
  )

  const onBlur = React.useCallback((event: React.FocusEvent<HTMLFormElement>) => {
    // Typing in a field again later is a new step in the history.
    if (isTextField(event.target)) typingIn.current = null
  }, [])

  return {
    formProps: { ref: form, onChange, onSubmit, onBlur },
    clientError: error ? { field: error.field, message: describeFilterError(error) } : null,
  }
}
