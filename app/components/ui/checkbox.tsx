import { Check } from 'lucide-react'
import * as React from 'react'
import { cn } from './cn'

export type CheckboxProps = Omit<React.ComponentProps<'input'>, 'type'> & {
  /** Always a checkbox; accepted so Conform/`Field` props can be spread as-is. */
  type?: 'checkbox'
}

/** A native checkbox (submits without JavaScript) with a custom check mark. */
export function Checkbox({ className, ...props }: CheckboxProps) {
  return (
    <span data-slot="checkbox-wrapper" className="relative inline-grid size-4 shrink-0 place-items-center align-middle">
      <input
        data-slot="checkbox"
        className={cn(
          'peer col-start-1 row-start-1 size-4 cursor-pointer appearance-none rounded-[4px] border border-input bg-background shadow-xs transition-colors checked:border-primary checked:bg-primary disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive',
          'forced-colors:appearance-auto',
          className,
        )}
        {...props}
        type="checkbox"
      />
      <Check
        aria-hidden="true"
        strokeWidth={3}
        className="pointer-events-none col-start-1 row-start-1 size-3 text-primary-foreground opacity-0 peer-checked:opacity-100 forced-colors:hidden"
      />
    </span>
  )
}
