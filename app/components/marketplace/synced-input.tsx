import * as React from 'react'
import { Input } from '~/components/ui/input'

/**
 * A text input that is uncontrolled while the user types (no lag, no lost
 * caret) but takes the value from the URL after Back/Forward or a reset,
 * unless it has the focus.
 */
export function SyncedInput({ value, ...props }: Omit<React.ComponentProps<typeof Input>, 'defaultValue' | 'value'> & { value: string }) {
  const ref = React.useRef<HTMLInputElement>(null)
  React.useEffect(() => {
    const input = ref.current
    if (input && document.activeElement !== input && input.value !== value) input.value = value
  }, [value])
  return <Input ref={ref} defaultValue={value} {...props} />
}
