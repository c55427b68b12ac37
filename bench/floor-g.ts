/**
 * Floor G of the benchmark (issue 28.2): the fastest the marketplace and listing pages can be on the
 * stack the user chose. The app's own production build — the same route modules (components, meta,
 * links, headers) and the same `entry.server` — served by React Router's own request handler through
 * the same Express adapter (`@react-router/express`) and the app's own HTML compression
 * (app/server/http/compression.server.ts), with every loader answering from memory what the app's
 * loaders answered an anonymous visitor for the same URL (read once at startup from the app's
 * single-fetch endpoint, bench/lib/app-data.ts). No database, and none of our middleware: the routes'
 * `middleware` exports are left out (the root's session, the route policies — `entry.server` then
 * renders with its default policy), as are our Express middlewares (client IP, host checks, lingering
 * close). What B and C cost beyond G is ours: database, middleware, loaders, session; G over F is what
 * the framework costs (its request pipeline, the route manifest and hydration data, <Meta>/<Links>/<Scripts>).
 *
 * Signed in (issue 28.3: BS and CS against GBS and GCS): `POST /signed-in` with a session cookie reads
 * the same pages as that visitor sees them (their sidebar, their bell, their purchase of a listing);
 * a request carrying exactly that cookie is then answered that data — the same signed-in document,
 * without the session's verification and reads, which are ours.
 *
 * Importing the build evaluates the app's server modules, which read their configuration: the process
 * gets the app's configuration with a DATABASE_URL where nothing listens, so a request that touched
 * the database would fail.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { htmlCompression } from '../app/server/http/compression.server.ts'
import { loadAllFromApp, waitForApp } from './lib/app-data.ts'

const APP_URL = process.env.FLOOR_G_APP_URL ?? 'http://127.0.0.1:3900'
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? 'build')

const build = (await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'index.js')).href)) as ServerBuild
await waitForApp(APP_URL, 'floor G')
const PATHS_FILE = process.env.FLOOR_G_PATHS_FILE
let data = await loadAllFromApp(APP_URL, PATHS_FILE)
let signedIn: { cookie: string; data: Awaited<ReturnType<typeof loadAllFromApp>> } | null = null

/** The URL a loader answers for, as the paths file spells it. */
const pageOf = (request: Request) => {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}

// The same modules, but each loader answers the recorded data and no route runs middleware.
const routes: ServerBuild['routes'] = Object.fromEntries(
  Object.entries(build.routes).map(([id, route]) => {
    if (!route) return [id, route]
    const { middleware: _ours, loader: theirs, ...module } = route.module
    const loader = theirs
      ? ({ request }: { request: Request }) => {
          const pages = signedIn && request.headers.get('Cookie') === signedIn.cookie ? signedIn.data : data
          const recorded = pages.get(pageOf(request))?.[id]
          if (recorded === undefined) throw new Response(`floor G: no data for ${pageOf(request)} (${id})`, { status: 404 })
          return recorded
        }
      : undefined
    return [id, { ...route, module: { ...module, ...(loader ? { loader } : {}) } }]
  }),
)
const floorBuild: ServerBuild = { ...build, routes }

const app = express()
app.disable('x-powered-by')
app.get('/healthz', (_req, res) => {
  res.json({ ok: true, pages: data.size })
})
// Reads the app's data again (bench/run.ts's document check): the loaders word some times ("Updated 49 minutes
// ago", issue 30), so data recorded a minute before the app's document may differ from it by that word only.
app.post('/reload', (_req, res, next) => {
  const cookie = signedIn?.cookie
  Promise.all([loadAllFromApp(APP_URL, PATHS_FILE), cookie ? loadAllFromApp(APP_URL, PATHS_FILE, cookie) : null]).then(([fresh, mine]) => {
    data = fresh
    if (cookie && mine) signedIn = { cookie, data: mine }
    res.json({ ok: true, pages: data.size })
  }, next)
})
app.post('/signed-in', express.json(), (req, res, next) => {
  const cookie = (req.body as { cookie?: unknown } | undefined)?.cookie
  if (typeof cookie !== 'string' || !cookie) {
    res.status(400).json({ error: 'a session cookie is required' })
    return
  }
  loadAllFromApp(APP_URL, PATHS_FILE, cookie).then((mine) => {
    signedIn = { cookie, data: mine }
    res.json({ ok: true, pages: mine.size })
  }, next)
})
app.use(htmlCompression())
app.use(createRequestHandler({ build: floorBuild, mode: 'production' }))

const port = Number(process.env.PORT ?? 3907)
const server = app.listen(port, process.env.HOST ?? '127.0.0.1', () =>
  console.log(`[floor-g] listening on port ${port} with ${data.size} pages`),
)
const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
