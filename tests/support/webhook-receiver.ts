import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/**
 * A webhook receiver as our users would write one: a real HTTP server on 127.0.0.1 that verifies
 * each request with the Standard Webhooks specification's own library (`standardwebhooks`, not our
 * code) and processes each webhook-id once, however often it arrives (at least once means duplicates).
 */
export interface Received {
  id: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The verified payload; null when verification failed (answered 400). */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null
}

export async function startReceiver(options: { secret: () => string; port?: number; answer?: (req: Received) => [number, string] }) {
  const received: Received[] = []
  const processed = new Map<string, Received['payload']>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let payload: Received['payload'] = null
      try {
        payload = new Webhook(options.secret()).verify(body, req.headers as Record<string, string>) as Received['payload']
      } catch {
        payload = null
      }
      const entry = { id: String(req.headers['webhook-id']), headers: req.headers, body, payload }
      received.push(entry)
      if (payload && !processed.has(entry.id)) processed.set(entry.id, payload)
      const [status, text] = options.answer?.(entry) ?? (payload ? [200, 'ok'] : [400, 'bad signature'])
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/forkmarket`,
    received,
    processed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A port nobody listens on (yet): a receiver that is down. */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
