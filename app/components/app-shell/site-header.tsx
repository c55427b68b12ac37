import { Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Separator } from '~/components/ui/separator'
import { SidebarTrigger } from '~/components/ui/sidebar'
import { LogoMark } from './logo-mark'
import { ThemeToggle } from './theme-toggle'

export function SiteHeader({ user }: { user: { email: string } | null }) {
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
        {user ? null : (
          <Button asChild size="sm">
            <Link to="/login">Sign In</Link>
          </Button>
        )}
      </div>
    </header>
  )
}
