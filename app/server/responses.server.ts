import { data, redirect } from 'react-router'
import { toastCookie } from './cookies.server.ts'
import type { ToastMessage } from '~/components/ui/toaster'

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
