import { Bell } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Separator } from '~/components/ui/separator'
import { SidebarTrigger } from '~/components/ui/sidebar'
import { LogoMark } from './logo-mark'
import { ThemeToggle } from './theme-toggle'

export function SiteHeader({ user }: { user: { email: string; unreadNotifications?: number } | null }) {
  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur-md sm:px-4">
      <SidebarTrigger className="-ms-1" />
      <Separator orientation="vertical" className="mx-1 data-[orientation=vertical]:h-5" />
      <Link
        to="/"
        className="flex items-center gap-2 rounded-md px-1 py-1 text-base font-semibold tracking-tight transition-opacity hover:opacity-85"
      >
        <LogoMark />
        <span>Forkmarket</span>
      </Link>
      <div className="ms-auto flex items-center gap-2">
        <ThemeToggle />
        {user ? <NotificationBell unread={user.unreadNotifications ?? 0} /> : null}
        {user ? null : (
          <Button asChild size="sm">
            <Link to="/login">Sign In</Link>
          </Button>
        )}
      </div>
    </header>
  )
}

/** A link to /notifications with the unread count (issue 17); works without JavaScript. */
function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`
  return (
    <Link
      to="/notifications"
      aria-label={label}
      title={label}
      className="relative inline-flex size-9 items-center justify-center rounded-md hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <Bell aria-hidden="true" className="size-5" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -end-0.5 -top-0.5 min-w-5 rounded-full bg-primary px-1 text-center text-xs leading-5 font-semibold text-primary-foreground"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  )
}
