import * as React from 'react'
import { cn } from './cn'

export type TableProps = React.ComponentProps<'table'> & {
  /** What the table lists ("Audit log"): the table's accessible name, and its scrolling region's. */
  label: string
  /** Classes for the wrapper (the container the table measures itself against). */
  containerClassName?: string
}

/**
 * Whether the element's content is wider than the element (it scrolls sideways). True until
 * measured — on the server and without JavaScript — so the region stays reachable by keyboard
 * where nothing can measure it; after hydration it follows the element's and its content's size.
 */
function useScrollsSideways(ref: React.RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = React.useState(true)
  React.useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    if (element.firstElementChild) observer.observe(element.firstElementChild)
    return () => observer.disconnect()
  }, [ref])
  return scrolls
}

/**
 * The one table of the app. Where it fits it is a plain table; when its
 * container is narrower than 48rem (phones, narrow columns) every row becomes
 * a card of "label: value" lines (app.css, `.data-table`), so status and
 * actions are never hidden behind a sideways scroll. Give each `TableCell`
 * the `label` of its column; cells without one (the row's title, its
 * actions) span the card. The ARIA roles are explicit so the table keeps its
 * semantics when the stacked layout changes the display of its parts.
 *
 * Between 48rem and the table's own width the container scrolls sideways: it is then a named
 * region in the tab order, so a keyboard scrolls it too (WCAG 2.1.1; axe
 * `scrollable-region-focusable`, issue 26.15). A table that fits is not a tab stop.
 */
export function Table({ className, containerClassName, label, ...props }: TableProps) {
  const container = React.useRef<HTMLDivElement>(null)
  const scrolls = useScrollsSideways(container)
  return (
    <div
      ref={container}
      data-slot="table-container"
      className={cn('data-table-container relative w-full overflow-x-auto', containerClassName)}
      {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
    >
      <table
        data-slot="table"
        role="table"
        aria-label={label}
        className={cn('data-table w-full caption-bottom border-collapse text-sm', className)}
        {...props}
      />
    </div>
  )
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" role="rowgroup" className={cn('[&_tr]:border-b', className)} {...props} />
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" role="rowgroup" className={cn('[&_tr:last-child]:border-0', className)} {...props} />
}

export function TableRow({
  className,
  detail = false,
  ...props
}: React.ComponentProps<'tr'> & {
  /** A row that belongs to the row above (a form or note under it): stacked, it continues that card. */
  detail?: boolean
}) {
  return (
    <tr
      data-slot={detail ? 'table-row-detail' : 'table-row'}
      role="row"
      className={cn(
        'border-b transition-colors data-[state=selected]:bg-muted',
        detail ? 'hover:bg-transparent' : 'hover:bg-muted/50',
        className,
      )}
      {...props}
    />
  )
}

export function TableHead({ className, scope = 'col', ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      scope={scope}
      role="columnheader"
      className={cn(
        'h-10 px-3 text-start align-middle font-medium whitespace-nowrap text-muted-foreground [&:has([role=checkbox])]:pe-0',
        className,
      )}
      {...props}
    />
  )
}

export function TableCell({
  className,
  label,
  ...props
}: React.ComponentProps<'td'> & {
  /** The column's name, shown before the value when the table is stacked into cards. */
  label?: string
}) {
  return (
    <td
      data-slot="table-cell"
      data-label={label}
      role="cell"
      className={cn('px-3 py-2.5 align-middle [&:has([role=checkbox])]:pe-0', className)}
      {...props}
    />
  )
}

export function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
}
