import { createCookieSessionStorage } from 'react-router'
import { createThemeSessionResolver } from 'remix-themes'
import type { ToastMessage } from '~/lib/toast'
import { config, isProduction } from '../infra/env.server.ts'

const secrets = [config().SESSION_SECRET]
const base = { path: '/', sameSite: 'lax' as const, httpOnly: true, secure: isProduction(), secrets }

export const themeSessionResolver = createThemeSessionResolver(
  createCookieSessionStorage({ cookie: { ...base, name: 'fm_theme', maxAge: 60 * 60 * 24 * 365 } }),
)

const toastStorage = createCookieSessionStorage<Record<string, never>, { toast: ToastMessage }>({
  cookie: { ...base, name: 'fm_toast' },
})

type ToastInput = Omit<ToastMessage, 'id' | 'type'> & { type?: ToastMessage['type'] }

/** A Set-Cookie header carrying one toast to the next page (a flash). */
export async function toastCookie(toast: ToastInput): Promise<string> {
  const session = await toastStorage.getSession()
  session.flash('toast', { id: crypto.randomUUID(), type: 'success', ...toast })
  return toastStorage.commitSession(session)
}

/** Reads (and consumes) the flashed toast of this request. */
export async function readToast(request: Request): Promise<{ toast: ToastMessage | null; setCookie: string | null }> {
  const session = await toastStorage.getSession(request.headers.get('Cookie'))
  const toast = session.get('toast') ?? null
  return { toast, setCookie: toast ? await toastStorage.destroySession(session) : null }
}

export const SIDEBAR_COOKIE = 'sidebar_state'

export function readSidebarOpen(request: Request): boolean {
  const match = /(?:^|;\s*)sidebar_state=(true|false)/.exec(request.headers.get('Cookie') ?? '')
  return match ? match[1] === 'true' : true
}
