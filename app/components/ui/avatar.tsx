import type * as React from 'react'
import { cn } from './cn'

/**
 * A round picture with a fallback (initials) under it, without JavaScript: the fallback shows while
 * the image loads and if it cannot (an image with empty alt text draws nothing when broken), and the
 * image covers it once there. Put `AvatarImage` and `AvatarFallback` inside `Avatar`.
 */
export function Avatar({ className, ...props }: React.ComponentProps<'span'>) {
  return <span data-slot="avatar" className={cn('relative flex size-8 shrink-0 overflow-hidden rounded-full', className)} {...props} />
}

export function AvatarImage({ className, alt = '', ...props }: React.ComponentProps<'img'>) {
  return (
    <img
      data-slot="avatar-image"
      alt={alt}
      decoding="async"
      className={cn('absolute inset-0 z-10 aspect-square size-full object-cover', className)}
      {...props}
    />
  )
}

export function AvatarFallback({ className, ...props }: React.ComponentProps<'span'>) {
  return (
    <span
      data-slot="avatar-fallback"
      className={cn('flex size-full items-center justify-center rounded-full bg-muted text-sm font-medium', className)}
      {...props}
    />
  )
}
