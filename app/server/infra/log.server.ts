import { config } from './env.server.ts'

/** The header the app keys rate limits and security logs on (set by http/client-ip.server.ts). */
export const CLIENT_IP_HEADER = 'x-forkmarket-client-ip'

/**
 * Structured logs: one JSON line per event. Callers pass only ids and reasons,
 * never tokens, keys, card data or account numbers.
 */
export function logEvent(level: 'info' | 'warn' | 'error', event: string, fields: Record<string, unknown> = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })
  if (level === 'error') console.error(line)
  else if (!config().LOG_SILENT) console.log(line)
}

function clientAddress(request: Request): string | undefined {
  return request.headers.get(CLIENT_IP_HEADER) ?? undefined
}

export function logSecurityEvent(event: string, request: Request, fields: Record<string, unknown>) {
  const url = new URL(request.url)
  logEvent('warn', event, { category: 'security', method: request.method, path: url.pathname, ip: clientAddress(request), ...fields })
}
