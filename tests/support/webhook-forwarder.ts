import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { APP, callRoute } from './call-route.ts'

export interface WebhookAnswer {
  headers: Headers
  status: number
  body: string
}

/**
 * A tiny local HTTP server that receives an emulator's signed webhook POSTs and
 * hands them, byte for byte, to the app's real webhook route through callRoute
 * (the same middleware chain as the app). `url` is where the emulator sends.
 */
export async function startWebhookForwarder(options: {
  path: string
  route: () => Promise<Parameters<typeof callRoute>[0]>
  onAnswer?: (answer: WebhookAnswer) => void
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void (async () => {
        try {
          const headers = new Headers()
          for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
          const response = await callRoute(
            await options.route(),
            new Request(`${APP}${options.path}`, { method: 'POST', headers, body: Buffer.concat(chunks) }),
          )
          const body = await response.text()
          options.onAnswer?.({ headers, status: response.status, body })
          res.writeHead(response.status, { 'Content-Type': 'application/json' }).end(body)
        } catch (error) {
          res.writeHead(500).end(String(error))
        }
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
