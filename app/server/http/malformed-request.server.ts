import type { ErrorRequestHandler, RequestHandler } from 'express'

/**
 * A request whose Host (or trusted X-Forwarded-Host) cannot form a URL — e.g.
 * `Host: -7791' IN BOOLEAN MODE)…`, which sqlmap sends — is refused with 400
 * before React Router's adapter tries `new URL()` with it and throws (a 500).
 */
export const rejectMalformedHost: RequestHandler = (req, res, next) => {
  try {
    // The host part as React Router's adapter derives it (the port is a number it parses apart).
    const hostname = req.hostname.split(/[\\/?#@]/)[0] || 'localhost'
    new URL(`${req.protocol}://${hostname}${req.originalUrl}`)
  } catch {
    res.status(400).type('text/plain').send('Bad Request')
    return
  }
  next()
}

/**
 * The last resort for an error that escapes the app: a plain 500, never the
 * stack trace Express prints outside production. The error is logged.
 */
export const plainServerError: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) return next(error)
  console.error(error)
  res.status(500).type('text/plain').send('Internal Server Error')
}
