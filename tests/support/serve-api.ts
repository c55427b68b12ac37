import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { matchRoutes } from 'react-router'
import { CLIENT_IP_HEADER } from '../../app/server/http/client-ip.server.ts'
import { callRoute } from './call-route.ts'
import { ROUTES } from './route-table.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const API_ROUTES = ROUTES.filter((route) => route.path.startsWith('api/')).map((route) => ({ path: `/${route.path}`, id: route.file }))

async function readBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined
}

export interface ApiServer {
  url: string
  close: () => Promise<void>
}

/**
 * The app's /api/* routes over real HTTP on a free port of 127.0.0.1, for clients
 * that only speak HTTP (the typed openapi-fetch client): app/routes.ts's /api/*
 * table (ranked as React Router ranks it) picks the route module, and callRoute()
 * answers through the real middleware chain — so every answer is also checked
 * against the API's description. The client's address is the socket's, as
 * clientIpMiddleware makes it (a client cannot send its own).
 */
export async function serveApi(): Promise<ApiServer> {
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? '127.0.0.1'}`)
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (name === CLIENT_IP_HEADER || value === undefined) continue
        for (const one of [value].flat()) headers.append(name, one)
      }
      headers.set(CLIENT_IP_HEADER, incoming.socket.remoteAddress ?? 'unknown')
      const method = incoming.method ?? 'GET'
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(incoming)
      const request = new Request(url, { method, headers, body })
      const match = matchRoutes(API_ROUTES, url.pathname)?.at(-1)
      const response = match
        ? await callRoute((await import(pathToFileURL(path.join(ROOT, 'app', match.route.id)).href)) as object, request, {
            ...(match.params as Record<string, string>),
          })
        : Response.json({ error: 'Not found' }, { status: 404 })
      const answer = new Headers(response.headers)
      const cookies = answer.getSetCookie()
      answer.delete('set-cookie')
      outgoing.writeHead(
        response.status,
        [...answer.entries(), ...cookies.map((cookie) => ['set-cookie', cookie] as [string, string])].flat(),
      )
      outgoing.end(Buffer.from(await response.arrayBuffer()))
    })().catch((error: unknown) => {
      outgoing.writeHead(500, { 'Content-Type': 'text/plain' })
      outgoing.end(`serveApi: ${String(error)}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
