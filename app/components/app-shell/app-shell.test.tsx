import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { Theme, ThemeProvider } from 'remix-themes'
import { describe, expect, it } from 'vitest'
import { AppShell, type AppShellProps } from './app-shell'

function render(path: string, user: AppShellProps['user'], sidebarOpen = true) {
  const Stub = createRoutesStub([
    {
      path,
      Component: () => (
        <ThemeProvider specifiedTheme={Theme.LIGHT} themeAction="/action/set-theme">
          <AppShell user={user} sidebarOpen={sidebarOpen}>
            <h1>Page</h1>
          </AppShell>
        </ThemeProvider>
      ),
    },
  ])
  return renderToString(<Stub initialEntries={[path]} />)
}

describe('AppShell', () => {
  it('hides Admin Dashboard from non-admins and shows the upper-cased initial', () => {
    const html = render('/', { email: 'jane@example.com', isAdmin: false })
    expect(html).not.toContain('Admin Dashboard')
    expect(html).not.toContain('href="/admin"')
    expect(html).toMatch(/data-slot="user-initial"[^>]*>J</)
    expect(html).toContain('jane@example.com')
    expect(html).toMatch(/<form[^>]*action="\/logout"[^>]*method="post"/)
    expect(html).toContain('Sign Out')
    expect(html).not.toContain('href="/login"')
  })

  it('shows Admin Dashboard to admins', () => {
    const html = render('/', { email: 'admin@example.com', isAdmin: true })
    expect(html).toMatch(/href="\/admin"[^>]*>.*Admin Dashboard/)
  })

  it('offers Sign In and no account footer when signed out', () => {
    const html = render('/', null)
    expect(html).toMatch(/href="\/login"[^>]*>Sign In</)
    expect(html).not.toContain('Sign Out')
  })

  it('marks the current section active and renders the landmarks', () => {
    const html = render('/marketplace', null)
    expect(html).toMatch(
      /<a[^>]*aria-current="page"[^>]*data-active="true"[^>]*href="\/marketplace"|<a[^>]*data-active="true"[^>]*aria-current="page"[^>]*href="\/marketplace"/,
    )
    expect(html).toMatch(/<a[^>]*data-active="false"[^>]*href="\/"/)
    expect(html).toContain('<nav id=')
    expect(html).toContain('aria-label="Main"')
    expect(html).toMatch(/<main id="main" tabindex="-1"/)
    expect(html).toMatch(/<a href="#main"[^>]*>Skip to content<\/a>/)
    expect(html).toContain('aria-label="Switch to dark theme"')
    expect(html).toContain('© 2026 Forkmarket')
    for (const href of [
      '/marketplace',
      '/seller/create',
      '/my-purchases',
      '/faq',
      '/help',
      '/terms',
      '/privacy',
      '/cookies',
      '/disclaimer',
    ]) {
      expect(html).toContain(`href="${href}"`)
    }
  })

  it('server-renders the sidebar collapsed from the cookie value', () => {
    const html = render('/', null, false)
    expect(html).toContain('data-state="collapsed"')
  })
})
