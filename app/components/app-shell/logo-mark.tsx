import * as React from 'react'
import { cn } from '~/components/ui/cn'

/** The Forkmarket mark: a fork (two branches joining) on a violet tile. Decorative. */
export function LogoMark({ className, ...props }: React.ComponentProps<'svg'>) {
  const gradientId = React.useId()
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn('size-7 shrink-0', className)} {...props}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="oklch(0.6 0.22 292)" />
          <stop offset="1" stopColor="oklch(0.47 0.22 270)" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <g fill="none" stroke="white" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="10.5" cy="8.5" r="2.5" />
        <circle cx="21.5" cy="8.5" r="2.5" />
        <circle cx="16" cy="23.5" r="2.5" />
        <path d="M10.5 11v1.5a3.5 3.5 0 0 0 3.5 3.5h4a3.5 3.5 0 0 0 3.5-3.5V11" />
        <path d="M16 16v5" />
      </g>
    </svg>
  )
}
