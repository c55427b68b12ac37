import net from 'node:net'

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly what: string,
    readonly variable: string,
  ) {
    super(`Port ${port} (${what}) is already in use: stop the other process or set ${variable} to a free port.`)
  }
}

/** Resolves when nothing listens on host:port; rejects with PortInUseError otherwise. */
export function assertPortFree(port: number, what: string, variable: string, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port, what, variable) : error)
    })
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()))
  })
}

/**
 * A port free right now, for a server that cannot bind port 0 and say which it got: PostgreSQL
 * (embedded.ts retries when it finds the port taken) and nginx. It may be taken before that server binds
 * it, so everything that can report its port binds port 0 instead (scripts/spawn-listening.ts, decision 031).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
