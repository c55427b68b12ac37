import { cva, type VariantProps } from 'class-variance-authority'
import * as React from 'react'
import { cn } from './cn'

export const alertVariants = cva(
  'relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[calc(var(--spacing)*4)_1fr] has-[>svg]:gap-x-3 [&>svg]:size-4 [&>svg]:translate-y-0.5 [&>svg]:text-current',
  {
    variants: {
      variant: {
        default: 'bg-card text-card-foreground',
        destructive: 'border-destructive/50 bg-destructive/5 text-destructive *:data-[slot=alert-description]:text-foreground/90',
        warning: 'border-warning/50 bg-warning/5 text-warning *:data-[slot=alert-description]:text-foreground/90',
        success: 'border-success/50 bg-success/5 text-success *:data-[slot=alert-description]:text-foreground/90',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

export type AlertProps = React.ComponentProps<'div'> & VariantProps<typeof alertVariants>

/**
 * Problems (destructive, warning) interrupt assistive tech with `role="alert"`;
 * informational and success messages use the polite `role="status"`.
 * Pass `role` to override.
 */
export function Alert({ className, variant, role, ...props }: AlertProps) {
  const defaultRole = variant === 'destructive' || variant === 'warning' ? 'alert' : 'status'
  return <div data-slot="alert" role={role ?? defaultRole} className={cn(alertVariants({ variant }), className)} {...props} />
}

export function AlertTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="alert-title" className={cn('col-start-2 min-h-4 font-medium tracking-tight', className)} {...props} />
}

export function AlertDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-description"
      className={cn('col-start-2 grid justify-items-start gap-1 text-sm text-muted-foreground [&_p]:leading-relaxed', className)}
      {...props}
    />
  )
}
