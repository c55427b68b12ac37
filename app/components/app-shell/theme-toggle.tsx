import { Moon, Sun } from 'lucide-react'
import * as React from 'react'
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

/** Where the spec keeps the theme in the browser (spec §4: local storage under 'theme'). */
export const THEME_STORAGE_KEY = 'theme'

/**
 * Mirrors the theme into `localStorage['theme']` whenever it is known or
 * changes. The cookie (remix-themes) stays the source of truth, because the
 * server needs it to render the right theme on the first paint.
 */
export function ThemeStorageMirror() {
  const [theme] = useTheme()
  React.useEffect(() => {
    if (!theme) return
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme)
    } catch {
      // Storage can be disabled (privacy modes); the cookie still carries the theme.
    }
  }, [theme])
  return null
}
