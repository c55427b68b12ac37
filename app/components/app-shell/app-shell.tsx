import type * as React from 'react'
import { SidebarInset, SidebarProvider } from '~/components/ui/sidebar'
import { AppSidebar } from './app-sidebar'
import { SiteFooter } from './site-footer'
import { SiteHeader } from './site-header'

export type AppShellProps = {
  user: { email: string; isAdmin: boolean; unreadNotifications?: number } | null
  /** The `sidebar_state` cookie read on the server (default true). */
  sidebarOpen: boolean
  children: React.ReactNode
}

export function AppShell({ user, sidebarOpen, children }: AppShellProps) {
  return (
    <SidebarProvider defaultOpen={sidebarOpen}>
      <a
        href="#main"
        className="fixed start-3 top-3 z-[60] -translate-y-[calc(100%+3rem)] rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground shadow-lg transition-transform focus:translate-y-0"
      >
        Skip to content
      </a>
      <AppSidebar user={user} />
      <SidebarInset>
        <SiteHeader user={user} />
        {/* tabIndex lets the skip link move keyboard focus here, not just scroll. */}
        <main id="main" tabIndex={-1} className="user-text min-w-0 flex-1">
          {children}
        </main>
        <SiteFooter />
      </SidebarInset>
    </SidebarProvider>
  )
}
