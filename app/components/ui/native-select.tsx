import { ChevronDown } from 'lucide-react'
import * as React from 'react'
import { cn } from './cn'

export type NativeSelectProps = React.ComponentProps<'select'> & {
  /** Classes for the positioning wrapper (width, margins); `className` styles the `<select>`. */
  wrapperClassName?: string
}

/** A real `<select>` (submits without JavaScript) styled like the other inputs. */
export function NativeSelect({ className, wrapperClassName, multiple, ...props }: NativeSelectProps) {
  return (
    <div data-slot="native-select-wrapper" className={cn('relative w-full', wrapperClassName)}>
      <select
        data-slot="native-select"
        multiple={multiple}
        className={cn(
          'w-full min-w-0 appearance-none rounded-md border border-input bg-background text-base shadow-xs transition-colors focus-visible:border-ring focus-visible:outline-offset-0 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive md:text-sm',
          multiple ? 'px-2 py-1.5' : 'h-9 ps-3 pe-9',
          className,
        )}
        {...props}
      />
      {multiple ? null : (
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        />
      )}
    </div>
  )
}
