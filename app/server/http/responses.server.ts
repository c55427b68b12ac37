import { data, redirect } from 'react-router'
import { reasonPhrase } from '~/lib/http-status'
import type { ToastMessage } from '~/lib/toast'
import { toastCookie } from './cookies.server.ts'

/** Redirect after a successful action, showing a toast on the next page. */
export async function redirectWithToast(
  url: string,
  toast: Omit<ToastMessage, 'id' | 'type'> & { type?: ToastMessage['type'] },
  init: ResponseInit = {},
) {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await toastCookie(toast))
  return redirect(url, { ...init, headers })
}

/** JSON error for /api/* routes: always `{ error }`, never HTML or a stack trace. */
export function apiError(status: number, error: string, extra: Record<string, unknown> = {}, init: ResponseInit = {}) {
  return data({ error, ...extra }, { ...init, status })
}

/**
 * A refusal thrown by the HTTP layer (body limits, rate limits, invalid text)
 * where any route may be serving the request: `{ error }` JSON on /api/*, the
 * message as the error page's text on screens.
 */
export function clientError(request: Request, status: number, message: string, headers: HeadersInit = {}) {
  if (new URL(request.url).pathname.startsWith('/api/')) return data({ error: message }, { status, headers })
  return data(message, { status, statusText: reasonPhrase(status), headers })
}
