import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from 'react-router'
import { PreventFlashOnWrongTheme, ThemeProvider, useTheme } from 'remix-themes'
import { AppShell } from '~/components/app-shell/app-shell'
import { ThemeStorageMirror } from '~/components/app-shell/theme-toggle'
import { ErrorPage } from '~/components/error-page'
import { Toaster } from '~/components/ui/toaster'
import { useNonce } from '~/lib/nonce'
import { unreadCount } from '~/server/domain/notification-inbox.server'
import { authContext, authMiddleware, getOptionalUser } from '~/server/http/auth.server'
import { readSidebarOpen, readToast, themeSessionResolver } from '~/server/http/cookies.server'
import { csrfMiddleware } from '~/server/http/csrf.server'
import { dbOutageMiddleware } from '~/server/http/db-outage.server'
import { httpCacheMiddleware } from '~/server/http/http-cache.server'
import { invalidTextMiddleware } from '~/server/http/invalid-text.server'
import { retryAfterMiddleware } from '~/server/http/rate-limit.server'
import { bodyLimitMiddleware } from '~/server/http/route-policy.server'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  // The .ico for browsers without SVG icons (and it answers the root /favicon.ico they request anyway).
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

// Every request, outermost first. Each route adds its own policy (body limit, rate limit, CSP
// variant, compression) as its middleware: app/server/http/route-policy.server.ts.
export const middleware: Route.MiddlewareFunction[] = [
  dbOutageMiddleware,
  httpCacheMiddleware,
  retryAfterMiddleware,
  bodyLimitMiddleware,
  invalidTextMiddleware,
  csrfMiddleware,
  authMiddleware,
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ getTheme }, { toast, setCookie }, user] = await Promise.all([
    themeSessionResolver(request),
    readToast(request),
    getOptionalUser(context),
  ])
  const headers = new Headers()
  if (setCookie) headers.append('Set-Cookie', setCookie)
  // The header's bell (issue 17): one indexed count, only for a signed-in user — asked with their session's read when it could be.
  const unreadNotifications = user ? ((await context.get(authContext).unreadNotifications()) ?? (await unreadCount(user.id))) : 0
  return data(
    {
      // Null until the visitor picks one: the page then follows the system's light or dark (issue 26.14).
      theme: getTheme(),
      sidebarOpen: readSidebarOpen(request),
      toast,
      user: user ? { email: user.email, isAdmin: user.isAdmin, unreadNotifications } : null,
    },
    { headers },
  )
}

function Document({ children, title, ssrTheme }: { children: React.ReactNode; title?: string; ssrTheme: boolean }) {
  const [theme] = useTheme()
  // None on a page a shared cache may keep: its inline scripts are trusted by hash (entry.server.tsx).
  const nonce = useNonce() || undefined
  return (
    // Without a chosen theme the server cannot know the system's: <html> has no class, app.css's media
    // query paints the first frame, and remix-themes' inline script sets the class before <body> is parsed.
    <html lang="en" className={theme ?? undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {title ? <title>{title}</title> : null}
        <Meta />
        <PreventFlashOnWrongTheme ssrTheme={ssrTheme} nonce={nonce} />
        <Links />
      </head>
      <body className="min-h-svh bg-background text-foreground antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>('root')
  return (
    <ThemeProvider specifiedTheme={rootData?.theme ?? null} themeAction="/action/set-theme">
      <ThemeStorageMirror />
      <Document ssrTheme={Boolean(rootData?.theme)}>
        <AppShell user={rootData?.user ?? null} sidebarOpen={rootData?.sidebarOpen ?? true}>
          {children}
        </AppShell>
        <Toaster toast={rootData?.toast ?? null} />
      </Document>
    </ThemeProvider>
  )
}

export default function App() {
  return <Outlet />
}

export function meta() {
  return [
    { title: 'Forkmarket — Buy and sell code-hosted apps and templates' },
    {
      name: 'description',
      content:
        'Forkmarket is the marketplace for apps, templates and full sites built on a code-hosting platform: pay by card, receive the code by GitHub invitation or fork link, money held in escrow until delivery is confirmed.',
    },
  ]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
