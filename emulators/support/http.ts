/**
 * The emulators' sockets: listening on a port (0 picks a free one), the address a URL shows for the
 * host they listen on, the port a stand-alone launcher (`main.ts`) reads from its environment, and
 * the report of the ports it bound to a parent process (decision 031).
 */
import type { AddressInfo, Server } from 'node:net'

/**
 * Listens on `host:port` and resolves with the port bound. `what` names the emulator in the error
 * ("GitHub emulator", "Mail emulator (SMTP)"), so a port in use says whose it was.
 */
export function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new Error(`${what} cannot listen on ${host}:${port}: ${error.message}`))
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** The host part of a URL reaching a server that listens on `host`: the loopback for a wildcard address, IPv6 in brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/** The port in the environment variable `name`, `fallback` when it is unset or empty; throws when it is not a port number. */
export function portFromEnv(name: string, fallback: number): number {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number, got "${value}"`)
  return port
}

/**
 * What a server started with an IPC channel (`spawn(…, { stdio: [..., 'ipc'] })`) sends its parent once
 * it listens: the ports it bound, by name (`http`; the mail emulator's `smtp` and `web`). With port 0
 * the system picks a free port while binding, and this is how the parent learns which: no port is
 * probed and handed over, which another process could take in between (issue 26.18).
 * `scripts/spawn-listening.ts` is the parent's side.
 */
export interface ListeningReport {
  type: 'listening'
  ports: Record<string, number>
}

/** Sends the ListeningReport when this process has an IPC channel to its parent; does nothing otherwise. */
export function reportListening(ports: Record<string, number>): void {
  const report: ListeningReport = { type: 'listening', ports }
  process.send?.(report)
}

/** The port of a URL the emulator built from the port it bound (`http://127.0.0.1:12112`). */
export function urlPort(url: string): number {
  return Number(new URL(url).port)
}
