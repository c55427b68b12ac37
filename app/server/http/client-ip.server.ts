import type { RequestHandler } from 'express'
import { CLIENT_IP_HEADER } from '../infra/log.server.ts'

export { CLIENT_IP_HEADER }

/** TRUST_PROXY: 'false' (default), 'true', a hop count ('1'), or a list of addresses/subnets. */
export function trustProxySetting(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false
  if (value === 'true') return true
  return /^\d+$/.test(value) ? Number(value) : value
}

/**
 * Express middleware: records the real client address (req.ip honours the
 * configured proxies only) and overwrites any copy of the header a client sent,
 * so a spoofed X-Forwarded-For or header cannot reset a rate limit.
 */
export const clientIpMiddleware: RequestHandler = (req, _res, next) => {
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown'
  next()
}
