import * as React from 'react'
import { cn } from './cn'

export type SwitchProps = Omit<React.ComponentProps<'input'>, 'type'> & {
  /** Always a checkbox; accepted so Conform/`Field` props can be spread as-is. */
  type?: 'checkbox'
}

/**
 * A native checkbox drawn as a switch, so it submits `name=on` when checked
 * (and nothing when unchecked) without JavaScript.
 */
export function Switch({ className, ...props }: SwitchProps) {
  return (
    <input
      role="switch"
      data-slot="switch"
      className={cn(
        'relative inline-block h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-input align-middle shadow-xs transition-colors checked:bg-primary disabled:cursor-not-allowed disabled:opacity-50',
        'before:pointer-events-none before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-background before:shadow-sm before:transition-transform checked:before:translate-x-4',
        'aria-invalid:outline-2 aria-invalid:outline-offset-2 aria-invalid:outline-destructive',
        // Forced-colours mode drops backgrounds, which would make the track invisible.
        'forced-colors:appearance-auto forced-colors:before:hidden',
        className,
      )}
      {...props}
      type="checkbox"
    />
  )
}
