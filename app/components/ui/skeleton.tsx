import * as React from 'react'
import { cn } from './cn'

/** A loading placeholder. Mark the loading region with `aria-busy` where it is used. */
export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="skeleton" aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />
}
