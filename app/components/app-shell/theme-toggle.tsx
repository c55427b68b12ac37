import { Moon, Sun } from 'lucide-react'
import { Theme, useTheme } from 'remix-themes'

import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { useHydrated } from '~/components/ui/use-hydrated'

/** Flips light/dark via remix-themes, which persists the choice through `/action/set-theme`. */
export function ThemeToggle({ className }: { className?: string }) {
  const [theme, setTheme, { definedBy }] = useTheme()
  const hydrated = useHydrated()
  // A theme that follows the OS is unknown on the server (null) but known on
  // the client at once; until hydration ends, render what the server did.
  const current = hydrated || definedBy === 'USER' ? theme : null
  const isDark = current === Theme.DARK

  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className={cn('size-8', className)}
      aria-label={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={() => setTheme(isDark ? Theme.LIGHT : Theme.DARK)}
    >
      {/* Icons follow the `.dark` class so they are right before hydration too. */}
      <Sun aria-hidden="true" className="hidden dark:block" />
      <Moon aria-hidden="true" className="dark:hidden" />
    </Button>
  )
}
