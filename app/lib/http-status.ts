/**
 * The reason phrase of each status the app answers with (RFC 9110 §15). The error page and the
 * HTTP layer's refusals take their words from here, never from a Response's `statusText`: React
 * Router gives a thrown `data(message, { status })` the text "Internal Server Error" whatever its
 * status (issue 26.7: "409 Internal Server Error").
 */
const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/** "Conflict" for 409; a status without its own phrase gets its class's ("Client Error", "Server Error"). */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 400 && status < 500 ? 'Client Error' : 'Server Error')
}
