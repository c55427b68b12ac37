import { createServer, type RequestListener, type Server } from 'node:http'

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
