import { cva, type VariantProps } from 'class-variance-authority'
import { PanelLeft } from 'lucide-react'
import { Slot } from 'radix-ui'
import * as React from 'react'
import { Button } from './button'
import { cn } from './cn'
import { Separator } from './separator'
import { useIsMobile } from './use-is-mobile'

const MobileSidebarSheet = React.lazy(() => import('./sidebar-sheet'))

/** Read on the server to render the right state on first paint (`true` | `false`). */
export const SIDEBAR_COOKIE_NAME = 'sidebar_state'
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7
const SIDEBAR_WIDTH = '16rem'
const SIDEBAR_WIDTH_MOBILE = '18rem'
const SIDEBAR_WIDTH_ICON = '3rem'
const SIDEBAR_KEYBOARD_SHORTCUT = 'b'

/** The `Set-Cookie`-style string the client writes whenever the desktop state changes. */
export function sidebarStateCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}`
}

type ShortcutEvent = Pick<KeyboardEvent, 'key' | 'metaKey' | 'ctrlKey' | 'altKey' | 'shiftKey'>

/** Ctrl+B (Windows/Linux) or Cmd+B (macOS), without Shift or Alt. */
export function isSidebarShortcut(event: ShortcutEvent): boolean {
  return (
    typeof event.key === 'string' &&
    event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT &&
    (event.metaKey || event.ctrlKey) &&
    !event.altKey &&
    !event.shiftKey
  )
}

type SidebarContextValue = {
  state: 'expanded' | 'collapsed'
  /** Desktop: expanded (true) or collapsed to icons (false). */
  open: boolean
  setOpen: (open: boolean | ((open: boolean) => boolean)) => void
  /** Mobile: whether the sheet is showing. */
  openMobile: boolean
  setOpenMobile: (open: boolean) => void
  isMobile: boolean
  toggleSidebar: () => void
  /** The id of the sidebar panel, for the trigger's `aria-controls`. */
  sidebarId: string
}

const SidebarContext = React.createContext<SidebarContextValue | null>(null)

export function useSidebar(): SidebarContextValue {
  const context = React.useContext(SidebarContext)
  if (!context) throw new Error('useSidebar must be used within a SidebarProvider.')
  return context
}

export type SidebarProviderProps = React.ComponentProps<'div'> & {
  /** Initial desktop state; pass the server-read `sidebar_state` cookie so SSR matches. */
  defaultOpen?: boolean
  /** Controlled desktop state. */
  open?: boolean
  onOpenChange?: (open: boolean) => void
}

export function SidebarProvider({
  defaultOpen = true,
  open: openProp,
  onOpenChange,
  className,
  style,
  children,
  ...props
}: SidebarProviderProps) {
  const isMobile = useIsMobile()
  const sidebarId = React.useId()
  const [openMobile, setOpenMobile] = React.useState(false)
  const [uncontrolledOpen, setUncontrolledOpen] = React.useState(defaultOpen)
  const open = openProp ?? uncontrolledOpen

  const setOpen = React.useCallback(
    (value: boolean | ((open: boolean) => boolean)) => {
      const next = typeof value === 'function' ? value(open) : value
      if (onOpenChange) onOpenChange(next)
      else setUncontrolledOpen(next)
      document.cookie = sidebarStateCookie(next)
    },
    [onOpenChange, open],
  )

  const toggleSidebar = React.useCallback(() => {
    if (isMobile) setOpenMobile((current) => !current)
    else setOpen((current) => !current)
  }, [isMobile, setOpen])

  React.useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (isSidebarShortcut(event)) {
        event.preventDefault()
        toggleSidebar()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggleSidebar])

  const state = open ? 'expanded' : 'collapsed'
  const value = React.useMemo<SidebarContextValue>(
    () => ({ state, open, setOpen, openMobile, setOpenMobile, isMobile, toggleSidebar, sidebarId }),
    [state, open, setOpen, openMobile, isMobile, toggleSidebar, sidebarId],
  )

  return (
    <SidebarContext.Provider value={value}>
      <div
        data-slot="sidebar-wrapper"
        style={
          {
            '--sidebar-width': SIDEBAR_WIDTH,
            '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
            ...style,
          } as React.CSSProperties
        }
        className={cn('group/sidebar-wrapper flex min-h-svh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  )
}

export type SidebarProps = React.ComponentProps<'div'> & {
  side?: 'left' | 'right'
  /** `icon` collapses to a 3rem icon rail, `offcanvas` slides away, `none` never collapses. */
  collapsible?: 'icon' | 'offcanvas' | 'none'
}

/**
 * The sidebar panel. Give it an `aria-label` and the panel becomes a
 * `<nav>` landmark with that name (on desktop and in the mobile sheet).
 */
export function Sidebar({ side = 'left', collapsible = 'icon', className, children, 'aria-label': ariaLabel, ...props }: SidebarProps) {
  const { isMobile, state, openMobile, setOpenMobile, sidebarId } = useSidebar()
  const Panel = ariaLabel ? 'nav' : 'div'
  const [mobileSheetWanted, setMobileSheetWanted] = React.useState(false)
  if (openMobile && !mobileSheetWanted) setMobileSheetWanted(true)

  if (collapsible === 'none') {
    return (
      <Panel
        id={sidebarId}
        aria-label={ariaLabel}
        data-slot="sidebar"
        data-sidebar="sidebar"
        className={cn('flex h-full w-(--sidebar-width) flex-col bg-sidebar text-sidebar-foreground', className)}
        {...props}
      >
        {children}
      </Panel>
    )
  }

  if (isMobile) {
    // The sheet (a modal dialog) is fetched the first time it opens: most visits never open it.
    if (!mobileSheetWanted) return null
    return (
      <React.Suspense fallback={null}>
        <MobileSidebarSheet
          id={sidebarId}
          side={side}
          open={openMobile}
          onOpenChange={setOpenMobile}
          ariaLabel={ariaLabel}
          className={className}
          width={SIDEBAR_WIDTH_MOBILE}
        >
          {children}
        </MobileSidebarSheet>
      </React.Suspense>
    )
  }

  return (
    <div
      className="group peer hidden text-sidebar-foreground md:block"
      data-state={state}
      data-collapsible={state === 'collapsed' ? collapsible : ''}
      data-side={side}
      data-slot="sidebar"
      {...props}
    >
      {/* Reserves the sidebar's width in the page flow; the panel itself is fixed. */}
      <div
        data-slot="sidebar-gap"
        className={cn(
          'relative w-(--sidebar-width) bg-transparent transition-[width] duration-200 ease-linear',
          'group-data-[collapsible=offcanvas]:w-0',
          'group-data-[collapsible=icon]:w-(--sidebar-width-icon)',
        )}
      />
      <div
        data-slot="sidebar-container"
        className={cn(
          'fixed inset-y-0 z-10 hidden h-svh w-(--sidebar-width) border-sidebar-border transition-[left,right,width] duration-200 ease-linear md:flex',
          side === 'left'
            ? 'left-0 border-r group-data-[collapsible=offcanvas]:left-[calc(var(--sidebar-width)*-1)]'
            : 'right-0 border-l group-data-[collapsible=offcanvas]:right-[calc(var(--sidebar-width)*-1)]',
          // Off-canvas content must not stay reachable by Tab.
          'group-data-[collapsible=offcanvas]:invisible',
          'group-data-[collapsible=icon]:w-(--sidebar-width-icon)',
        )}
      >
        <Panel
          id={sidebarId}
          aria-label={ariaLabel}
          data-sidebar="sidebar"
          data-slot="sidebar-inner"
          className={cn('flex h-full w-full flex-col bg-sidebar', className)}
        >
          {children}
        </Panel>
      </div>
    </div>
  )
}

export function SidebarTrigger({ className, onClick, ...props }: React.ComponentProps<typeof Button>) {
  const { toggleSidebar, open, openMobile, isMobile, sidebarId } = useSidebar()
  return (
    <Button
      type="button"
      data-sidebar="trigger"
      data-slot="sidebar-trigger"
      variant="ghost"
      size="icon"
      className={cn('size-8', className)}
      aria-label="Toggle Sidebar"
      aria-expanded={isMobile ? openMobile : open}
      aria-controls={sidebarId}
      aria-keyshortcuts="Control+B Meta+B"
      onClick={(event) => {
        onClick?.(event)
        toggleSidebar()
      }}
      {...props}
    >
      <PanelLeft aria-hidden="true" />
    </Button>
  )
}

/** The page area beside the sidebar. A `<div>`: put your own `<main>` inside. */
export function SidebarInset({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="sidebar-inset" className={cn('relative flex w-full min-w-0 flex-1 flex-col bg-background', className)} {...props} />
  )
}

export function SidebarHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="sidebar-header" data-sidebar="header" className={cn('flex flex-col gap-2 p-2', className)} {...props} />
}

export function SidebarFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="sidebar-footer" data-sidebar="footer" className={cn('flex flex-col gap-2 p-2', className)} {...props} />
}

export function SidebarSeparator({ className, ...props }: React.ComponentProps<typeof Separator>) {
  return (
    <Separator
      data-slot="sidebar-separator"
      data-sidebar="separator"
      className={cn('mx-2 bg-sidebar-border data-[orientation=horizontal]:w-auto', className)}
      {...props}
    />
  )
}

export function SidebarContent({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-content"
      data-sidebar="content"
      className={cn('flex min-h-0 flex-1 flex-col gap-1 overflow-auto group-data-[collapsible=icon]:overflow-hidden', className)}
      {...props}
    />
  )
}

export function SidebarGroup({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="sidebar-group" data-sidebar="group" className={cn('relative flex w-full min-w-0 flex-col p-2', className)} {...props} />
  )
}

export function SidebarGroupLabel({ className, asChild = false, ...props }: React.ComponentProps<'div'> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'div'
  return (
    <Comp
      data-slot="sidebar-group-label"
      data-sidebar="group-label"
      className={cn(
        'flex h-8 shrink-0 items-center rounded-md px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase transition-[margin,opacity] duration-200 ease-linear [&>svg]:size-4 [&>svg]:shrink-0',
        'group-data-[collapsible=icon]:-mt-8 group-data-[collapsible=icon]:opacity-0',
        className,
      )}
      {...props}
    />
  )
}

export function SidebarGroupContent({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="sidebar-group-content" data-sidebar="group-content" className={cn('w-full text-sm', className)} {...props} />
}

export function SidebarMenu({ className, ...props }: React.ComponentProps<'ul'>) {
  return <ul data-slot="sidebar-menu" data-sidebar="menu" className={cn('flex w-full min-w-0 flex-col gap-1', className)} {...props} />
}

export function SidebarMenuItem({ className, ...props }: React.ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-item" data-sidebar="menu-item" className={cn('group/menu-item relative', className)} {...props} />
}

export const sidebarMenuButtonVariants = cva(
  'peer/menu-button flex w-full items-center gap-2 overflow-hidden rounded-md p-2 text-start text-sm text-sidebar-foreground transition-[width,height,padding,background-color,color] hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:outline-offset-0 focus-visible:outline-sidebar-ring active:bg-sidebar-accent disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground data-[active=true]:[&>svg]:text-sidebar-primary group-data-[collapsible=icon]:size-8! group-data-[collapsible=icon]:p-2! [&>span:last-child]:truncate [&>svg]:size-4 [&>svg]:shrink-0',
  {
    variants: {
      size: {
        default: 'h-9',
        sm: 'h-7 text-xs',
        lg: 'h-12 group-data-[collapsible=icon]:p-0!',
      },
    },
    defaultVariants: { size: 'default' },
  },
)

export type SidebarMenuButtonProps = React.ComponentProps<'button'> &
  VariantProps<typeof sidebarMenuButtonVariants> & {
    /** Render the single child (e.g. a `<NavLink>`) with menu-button styling. */
    asChild?: boolean
    isActive?: boolean
    /** Shown to the right of the button only while the sidebar is collapsed to icons. */
    tooltip?: string
  }

export function SidebarMenuButton({
  asChild = false,
  isActive = false,
  size = 'default',
  tooltip,
  className,
  ...props
}: SidebarMenuButtonProps) {
  const Comp = asChild ? Slot.Root : 'button'
  const { isMobile, state } = useSidebar()
  // Where the tooltip goes (beside the button, in viewport coordinates), or null when hidden.
  const [tip, setTip] = React.useState<{ top: number; left: number } | null>(null)
  const enabled = Boolean(tooltip) && state === 'collapsed' && !isMobile
  const show = (event: React.SyntheticEvent<HTMLElement>) => {
    if (!enabled) return
    const rect = event.currentTarget.getBoundingClientRect()
    setTip({ top: rect.top + rect.height / 2, left: rect.right + 8 })
  }
  const hide = () => setTip(null)

  return (
    <>
      <Comp
        data-slot="sidebar-menu-button"
        data-sidebar="menu-button"
        data-size={size}
        data-active={isActive}
        className={cn(sidebarMenuButtonVariants({ size }), className)}
        {...props}
        {...(tooltip
          ? {
              onPointerEnter: show,
              onPointerLeave: hide,
              onFocus: (event: React.FocusEvent<HTMLElement>) => {
                if (event.currentTarget.matches(':focus-visible')) show(event)
              },
              onBlur: hide,
              onKeyDown: (event: React.KeyboardEvent<HTMLElement>) => {
                if (event.key === 'Escape') hide()
              },
              onClick: (event: React.MouseEvent<HTMLButtonElement>) => {
                hide()
                props.onClick?.(event)
              },
            }
          : null)}
      />
      {/*
        A plain positioned label instead of a tooltip library (it cost a tenth of every page's
        JavaScript). Hidden from assistive technology: the button's own text is its name.
      */}
      {enabled && tip ? (
        // Fixed to the viewport (no ancestor of the sidebar is transformed), so the sidebar's overflow does not clip it.
        <span
          aria-hidden="true"
          data-slot="sidebar-tooltip"
          style={{ top: tip.top, left: tip.left }}
          className="pointer-events-none fixed z-50 w-fit max-w-xs -translate-y-1/2 animate-fade-in rounded-md bg-foreground px-2.5 py-1.5 text-xs whitespace-nowrap text-background shadow-md"
        >
          {tooltip}
        </span>
      ) : null}
    </>
  )
}
