import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'

/**
 * How long the server waits for a client (issue 14.8: slow clients are cut).
 * A client that trickles its headers (slowloris) or its body holds a socket
 * and memory for as long as it is allowed to: Node's defaults are 60 s for
 * the headers and 5 minutes for a request, checked only every 30 s.
 */
export const HTTP_TIMEOUTS = {
  /** The whole request head must arrive within this; else 408 and the connection is closed. */
  headersMs: 15_000,
  /** The whole request, body included: a full listing post (51 MB) needs about 3.5 Mbit/s. */
  requestMs: 120_000,
  /**
   * Idle keep-alive sockets stay open longer than clients and load balancers keep
   * theirs (60 s is common), so a client never reuses one at the instant it closes.
   */
  keepAliveMs: 65_000,
  /** How often the two limits above are checked: a slow client is cut within a second of its limit. */
  checkIntervalMs: 1_000,
} as const

export type HttpTimeouts = { readonly [K in keyof typeof HTTP_TIMEOUTS]: number }

/** The app's HTTP server (server.ts), with the timeouts above. */
export function createHttpServer(listener: RequestListener, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Server {
  const server = createServer(
    { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    listener,
  )
  server.keepAliveTimeout = timeouts.keepAliveMs
  return server
}

/**
 * When the app answers before it has read the whole request body — a 413 for
 * a body over the route's limit, marked `Connection: close` — the rest of the
 * body is still on its way. Closing the socket at once would make the
 * client's system reset the connection while it is still sending, and the
 * client may never read the answer. So the server reads and discards what
 * still comes for a moment, keeping none of it ("lingering close", as nginx
 * does), and closes the connection when the body ends or after `lingerMs`.
 */
export function lingeringClose({ lingerMs = 5_000 }: { lingerMs?: number } = {}): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
    res.writeHead = function (this: typeof res, ...args: unknown[]) {
      if (!req.complete && /\bclose\b/i.test(String(res.getHeader('Connection') ?? ''))) {
        // Node would destroy the socket the moment the answer is written; the close is ours to make.
        res.removeHeader('Connection')
        res.once('finish', () => discardRest(req, lingerMs))
      }
      writeHead(...args)
      return this
    } as typeof res.writeHead
    next()
  }
}

function discardRest(req: IncomingMessage, lingerMs: number) {
  const close = () => req.socket.destroy()
  const timer = setTimeout(close, lingerMs)
  // The app's reader stopped at its limit: nothing may hold on to what follows.
  req.removeAllListeners('data')
  req.on('data', () => {})
  req.once('end', () => {
    clearTimeout(timer)
    close()
  })
  req.once('close', () => clearTimeout(timer))
  req.resume()
}
