/**
 * Floor F of the benchmark (issue 20): the marketplace and listing pages'
 * React trees — the app's own page components (app/routes/marketplace.tsx,
 * app/routes/listing.tsx) inside the app's own shell (AppShell, ThemeProvider,
 * Toaster), as the root route's Layout arranges them — rendered by React alone
 * with `renderToPipeableStream`, from data loaded ONCE at startup, and served by
 * `node:http` through the app's own HTML compression middleware
 * (app/server/http/compression.server.ts: brotli 2 / gzip 1, one call per page).
 *
 * The data is what the app's loaders answer an anonymous visitor for the same URL,
 * read at startup from the running app's single-fetch endpoint (`<path>.data`) and
 * decoded with React Router's own decoder. Per request there is no database, no
 * loader, no middleware and no request pipeline: a static data router is built once
 * per URL at startup, only because the page components use React Router's hooks
 * (`useLocation`, `useNavigation`, `<Form>`, `<Link>`) and need its contexts.
 *
 * What F leaves out on purpose (and B pays): the framework's <Meta>/<Links>/<Scripts>,
 * i.e. the module preloads, the route manifest and the hydration data sent with the
 * page — the issue counts what the loaders send for hydration as ours to cut.
 *
 * The page modules are imported as they are, so their server-only imports load too:
 * the process gets the app's configuration with a DATABASE_URL nothing listens on
 * (FLOOR_F_DATABASE_URL), which proves no request touches a database.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express'
import * as React from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  Outlet,
  StaticRouterProvider,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
  type StaticHandlerContext,
} from 'react-router'
import { PreventFlashOnWrongTheme, ThemeProvider, useTheme, type Theme } from 'remix-themes'
import { loadAllFromApp, waitForApp } from './lib/app-data.ts'

const APP_URL = process.env.FLOOR_F_APP_URL ?? 'http://127.0.0.1:3900'
const PATHS_FILE = process.env.FLOOR_F_PATHS_FILE

// The app's modules read their configuration when imported.
const { AppShell } = await import('../app/components/app-shell/app-shell.tsx')
const { ThemeStorageMirror } = await import('../app/components/app-shell/theme-toggle.tsx')
const { Toaster } = await import('../app/components/ui/toaster.tsx')
const { NonceProvider, useNonce } = await import('../app/lib/nonce.tsx')
const { htmlCompression } = await import('../app/server/http/compression.server.ts')
const marketplace = await import('../app/routes/marketplace.tsx')
const listing = await import('../app/routes/listing.tsx')

type MetaEntry = { title?: string; name?: string; content?: string }

/** The root's Layout and Document (app/root.tsx), without the framework's <Meta>, <Links> and <Scripts>. */
function Shell() {
  const root = useRouteLoaderData('root') as { theme: Theme | null; sidebarOpen: boolean; toast: null; user: null }
  return (
    <ThemeProvider specifiedTheme={root.theme ?? null} themeAction="/action/set-theme">
      <ThemeStorageMirror />
      <Document ssrTheme={Boolean(root.theme)}>
        <AppShell user={root.user} sidebarOpen={root.sidebarOpen}>
          <Outlet />
        </AppShell>
        <Toaster toast={root.toast} />
      </Document>
    </ThemeProvider>
  )
}

function Document({ children, ssrTheme }: { children: React.ReactNode; ssrTheme: boolean }) {
  const [theme] = useTheme()
  const nonce = useNonce()
  const location = useLocation()
  const page = pages.get(`${location.pathname}${location.search}`)!
  return (
    <html lang="en" className={theme ?? undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {page.meta.map((m, i) => (m.title ? <title key={i}>{m.title}</title> : <meta key={i} name={m.name} content={m.content} />))}
        <PreventFlashOnWrongTheme ssrTheme={ssrTheme} nonce={nonce} />
        <link rel="stylesheet" href={stylesheet} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body className="min-h-svh bg-background text-foreground antialiased">{children}</body>
    </html>
  )
}

// The route components get their loader data as a prop in framework mode (withComponentProps does this in the build).
function MarketplaceRoute() {
  const Page = marketplace.default as unknown as React.ComponentType<{ loaderData: unknown; params: unknown; matches: unknown }>
  return <Page loaderData={useLoaderData()} params={{}} matches={[]} />
}
function ListingRoute() {
  const Page = listing.default as unknown as React.ComponentType<{
    loaderData: unknown
    actionData: unknown
    params: unknown
    matches: unknown
  }>
  return <Page loaderData={useLoaderData()} actionData={undefined} params={{}} matches={[]} />
}

// ---------------------------------------------------------------------------
// Startup: the data of every URL, once.

// Started beside the app: wait until it answers.
await waitForApp(APP_URL, 'floor F')
const data = await loadAllFromApp(APP_URL, PATHS_FILE)
let stylesheet = ''
{
  // The stylesheet's hashed name, from the app's own page.
  const html = await (await fetch(new URL('/marketplace', APP_URL), { headers: { Accept: 'text/html' } })).text()
  stylesheet = /<link[^>]* rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] ?? ''
  if (!stylesheet) throw new Error("floor F: no stylesheet link in the app's /marketplace")
}

const metaOf = (id: string, loaderData: unknown): MetaEntry[] => {
  const fn = (id === 'routes/marketplace' ? marketplace.meta : listing.meta) as unknown as
    ((args: { data: unknown; loaderData: unknown; params: unknown }) => MetaEntry[]) | undefined
  return fn?.({ data: loaderData, loaderData, params: {} }) ?? []
}

const current = { path: '' }
const handler = createStaticHandler([
  {
    id: 'root',
    path: '/',
    Component: Shell,
    loader: () => data.get(current.path)!.root!,
    children: [
      {
        id: 'routes/marketplace',
        path: 'marketplace',
        Component: MarketplaceRoute,
        loader: () => data.get(current.path)!['routes/marketplace']!,
      },
      { id: 'routes/listing', path: 'listing/:slug', Component: ListingRoute, loader: () => data.get(current.path)!['routes/listing']! },
    ],
  },
])

/** Per URL, once: the static router's context (matches and the loaded data) and the page's meta tags. */
const pages = new Map<string, { context: StaticHandlerContext; router: ReturnType<typeof createStaticRouter>; meta: MetaEntry[] }>()
for (const path of data.keys()) {
  current.path = path
  const context = (await handler.query(new Request(new URL(path, 'http://floor-f.invalid')))) as StaticHandlerContext
  if (context instanceof Response || context.errors) throw new Error(`floor F: ${path} did not resolve`)
  const id = context.matches.at(-1)!.route.id
  pages.set(path, { context, router: createStaticRouter(handler.dataRoutes, context), meta: metaOf(id, context.loaderData[id]) })
}

// ---------------------------------------------------------------------------
// Per request: render and compress, nothing else.

const compression = htmlCompression()

const server = http.createServer((req, res) => {
  const url = req.url ?? '/'
  if (url === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    res.end(`{"ok":true,"pages":${pages.size}}`)
    return
  }
  const page = pages.get(url)
  if (!page) {
    res.writeHead(404, { 'Content-Type': 'text/plain' })
    res.end('Not a benchmark page')
    return
  }
  // The app's compression middleware, on a bare node:http response (it needs Express's req.path and res.vary).
  const request = Object.assign(req, { path: url.split('?')[0] }) as unknown as ExpressRequest
  const response = Object.assign(res, {
    vary: (field: string) => res.setHeader('Vary', field),
  }) as unknown as ExpressResponse
  compression(request, response, () => {
    const nonce = randomBytes(16).toString('base64')
    const { pipe } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StaticRouterProvider router={page.router} context={page.context} hydrate={false} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          res.statusCode = 200
          res.setHeader('Content-Type', 'text/html; charset=utf-8')
          pipe(res)
        },
        onShellError(error) {
          res.statusCode = 500
          res.end(String(error))
        },
        onError(error) {
          console.error(error)
        },
      },
    )
  })
})

const port = Number(process.env.PORT ?? 3905)
server.listen(port, process.env.HOST ?? '127.0.0.1', () => console.log(`[floor-f] listening on port ${port} with ${pages.size} pages`))
const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
