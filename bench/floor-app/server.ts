/**
 * Floor E: serves the floor app exactly the way server.ts serves ours —
 * Express, express.static for the assets, @react-router/express's request
 * handler, HTML compression — and nothing else (no database, no emulators, no jobs).
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { htmlCompression } from '../../app/server/http/compression.server.ts'

const BUILD_DIR = path.resolve(process.env.FLOOR_BUILD_DIR ?? path.join(import.meta.dirname, 'build'))
const port = Number(process.env.PORT ?? 3902)
const host = process.env.HOST ?? '127.0.0.1'

const build = (await import(pathToFileURL(path.join(BUILD_DIR, 'server', 'index.js')).href)) as ServerBuild
const app = express()
app.disable('x-powered-by')
app.use('/assets', express.static(path.join(BUILD_DIR, 'client', 'assets'), { immutable: true, maxAge: '1y' }))
app.use(express.static(path.join(BUILD_DIR, 'client'), { maxAge: '1h' }))
// The same HTML compression as ours (it costs CPU per request; the floor pays it too).
app.use(htmlCompression())
app.use(createRequestHandler({ build, mode: process.env.NODE_ENV }))

const server = app.listen(port, host, () => console.log(`[floor-e] listening on http://${host}:${port}`))
const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
