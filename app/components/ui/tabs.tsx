import * as React from 'react'
import { cn } from './cn'

/*
 * Tabs after the WAI-ARIA tabs pattern (automatic activation): a tablist of
 * buttons with a roving tabindex — arrow keys, Home and End move and select —
 * each controlling a tabpanel. Plain React instead of a UI library: the
 * listing page is public and every kilobyte of its JavaScript counts.
 */

type TabsContextValue = {
  baseId: string
  value: string
  select: (value: string) => void
}

const TabsContext = React.createContext<TabsContextValue | null>(null)

function useTabs(part: string): TabsContextValue {
  const context = React.useContext(TabsContext)
  if (!context) throw new Error(`<${part}> must be inside <Tabs>`)
  return context
}

const triggerId = (baseId: string, value: string) => `${baseId}-tab-${value}`
const panelId = (baseId: string, value: string) => `${baseId}-panel-${value}`

export function Tabs({
  defaultValue,
  value: controlledValue,
  onValueChange,
  className,
  ...props
}: Omit<React.ComponentProps<'div'>, 'defaultValue'> & {
  defaultValue?: string
  value?: string
  onValueChange?: (value: string) => void
}) {
  const baseId = React.useId()
  const [uncontrolledValue, setUncontrolledValue] = React.useState(defaultValue ?? '')
  const value = controlledValue ?? uncontrolledValue
  const context = React.useMemo(
    () => ({
      baseId,
      value,
      select: (next: string) => {
        if (controlledValue === undefined) setUncontrolledValue(next)
        onValueChange?.(next)
      },
    }),
    [baseId, value, controlledValue, onValueChange],
  )
  return (
    <TabsContext.Provider value={context}>
      <div data-slot="tabs" className={cn('flex flex-col gap-2', className)} {...props} />
    </TabsContext.Provider>
  )
}

export function TabsList({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn('inline-flex h-9 w-fit items-center justify-center rounded-lg bg-muted p-[3px] text-muted-foreground', className)}
      {...props}
    />
  )
}

function moveFocus(event: React.KeyboardEvent<HTMLButtonElement>) {
  const tabs = [
    ...(event.currentTarget.closest('[role="tablist"]')?.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)') ?? []),
  ]
  const index = tabs.indexOf(event.currentTarget)
  const target =
    event.key === 'ArrowRight'
      ? tabs[(index + 1) % tabs.length]
      : event.key === 'ArrowLeft'
        ? tabs[(index - 1 + tabs.length) % tabs.length]
        : event.key === 'Home'
          ? tabs[0]
          : event.key === 'End'
            ? tabs[tabs.length - 1]
            : undefined
  if (!target) return
  event.preventDefault()
  target.focus()
  target.click()
}

export function TabsTrigger({ value, className, onClick, onKeyDown, ...props }: React.ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs('TabsTrigger')
  const active = tabs.value === value
  return (
    <button
      type="button"
      role="tab"
      id={triggerId(tabs.baseId, value)}
      aria-selected={active}
      aria-controls={panelId(tabs.baseId, value)}
      tabIndex={active ? 0 : -1}
      data-state={active ? 'active' : 'inactive'}
      data-slot="tabs-trigger"
      onClick={(event) => {
        onClick?.(event)
        if (!event.defaultPrevented) tabs.select(value)
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event)
        if (!event.defaultPrevented) moveFocus(event)
      }}
      className={cn(
        "inline-flex h-full flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-2.5 py-1 text-sm font-medium whitespace-nowrap transition-[color,box-shadow] hover:text-foreground focus-visible:outline-offset-0 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm dark:data-[state=active]:border-input dark:data-[state=active]:bg-input/30 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
        className,
      )}
      {...props}
    />
  )
}

/** A tab's panel. `forceMount` keeps inactive panels in the DOM (style them with `data-[state=inactive]:…`). */
export function TabsContent({
  value,
  forceMount = false,
  className,
  ...props
}: React.ComponentProps<'div'> & { value: string; forceMount?: boolean }) {
  const tabs = useTabs('TabsContent')
  const active = tabs.value === value
  if (!active && !forceMount) return null
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.baseId, value)}
      aria-labelledby={triggerId(tabs.baseId, value)}
      tabIndex={0}
      data-state={active ? 'active' : 'inactive'}
      data-slot="tabs-content"
      className={cn('flex-1 focus-visible:outline-offset-4', className)}
      {...props}
    />
  )
}
