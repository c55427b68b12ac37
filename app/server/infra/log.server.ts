import { inspect } from 'node:util'
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

type ConsoleMethod = 'debug' | 'log' | 'info' | 'warn' | 'error'
const CONSOLE_LEVELS: Record<ConsoleMethod, 'info' | 'warn' | 'error'> = {
  debug: 'info',
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
}

/** Already one line of JSON (logEvent's, or a library's own structured line): written as it is. */
const isJsonLine = (value: unknown) => typeof value === 'string' && value.startsWith('{') && value.endsWith('}') && !value.includes('\n')

/**
 * One log line for what a library printed through `console`: supabase-js prints a refresh the identity
 * provider refused (a stale refresh token) as an AuthApiError with its stack, a dozen lines. The log stays
 * one JSON object per line (issue 26.17): the error's name, message, code and status in fields, and its
 * stack only when it is a failure of ours — an error carrying a 4xx status is an answer the caller was
 * given (the session is over), logged as a warning without the stack.
 */
export function consoleLine(method: ConsoleMethod, args: unknown[]): string {
  if (args.length === 1 && isJsonLine(args[0])) return args[0] as string
  let level = CONSOLE_LEVELS[method]
  const error = args.find((arg): arg is Error => arg instanceof Error)
  const fields: Record<string, unknown> = {
    message: args
      .filter((arg) => arg !== error)
      .map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { breakLength: Infinity, depth: 4 })))
      .join(' '),
  }
  if (error) {
    const { code, status } = error as { code?: unknown; status?: unknown }
    const refused = typeof status === 'number' && status >= 400 && status < 500
    if (refused && level === 'error') level = 'warn'
    fields.error = { name: error.name, message: error.message, code, status, stack: refused ? undefined : error.stack }
    if (!fields.message) fields.message = error.message
  }
  return JSON.stringify({ time: new Date().toISOString(), level, event: 'console', ...fields })
}

/**
 * Routes the `console` methods of this process through consoleLine (server.ts installs it once). An error
 * is always one JSON line; plain text too where the whole log is JSON (production), else it is written as
 * it is — what the launcher tells a person at `npm start`.
 */
export function routeConsoleToLog({ plainText }: { plainText: 'json' | 'as-is' }): void {
  for (const method of Object.keys(CONSOLE_LEVELS) as ConsoleMethod[]) {
    const write = console[method].bind(console)
    console[method] = (...args: unknown[]) => {
      if (plainText === 'as-is' && !args.some((arg) => arg instanceof Error)) write(...args)
      else write(consoleLine(method, args))
    }
  }
}
