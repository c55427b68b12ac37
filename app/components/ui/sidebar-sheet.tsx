import type * as React from 'react'
import { cn } from './cn'
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet'

/** The sidebar below 768 px: a modal sheet. Loaded on first open (see `Sidebar`). */
export default function MobileSidebarSheet({
  id,
  side,
  open,
  onOpenChange,
  ariaLabel,
  className,
  width,
  children,
}: {
  id: string
  side: 'left' | 'right'
  open: boolean
  onOpenChange: (open: boolean) => void
  ariaLabel: string | undefined
  className: string | undefined
  width: string
  children: React.ReactNode
}) {
  const Panel = ariaLabel ? 'nav' : 'div'
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        id={id}
        side={side}
        data-slot="sidebar"
        data-sidebar="sidebar"
        data-mobile="true"
        className="w-(--sidebar-width) gap-0 bg-sidebar p-0 text-sidebar-foreground sm:max-w-none"
        style={{ '--sidebar-width': width } as React.CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{ariaLabel ? `${ariaLabel} menu` : 'Sidebar'}</SheetTitle>
          <SheetDescription>Site navigation</SheetDescription>
        </SheetHeader>
        <Panel aria-label={ariaLabel} className={cn('flex h-full w-full flex-col', className)}>
          {children}
        </Panel>
      </SheetContent>
    </Sheet>
  )
}
