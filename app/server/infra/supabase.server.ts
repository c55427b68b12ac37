import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import type { SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { config, isProduction } from './env.server.ts'

/**
 * A Supabase client for one request: reads the session from the request's
 * cookies and collects every cookie it sets (PKCE verifier, silent refresh,
 * sign-out) as Set-Cookie headers for the response.
 */
export function createSupabaseServerClient(request: Request, responseHeaders: Headers): SupabaseClient {
  return createServerClient(config().SUPABASE_URL, config().SUPABASE_ANON_KEY, {
    cookies: {
      getAll() {
        return parseCookieHeader(request.headers.get('Cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' }))
      },
      setAll(cookies, headers) {
        for (const { name, value, options } of cookies) {
          responseHeaders.append(
            'Set-Cookie',
            serializeCookieHeader(name, value, { ...options, httpOnly: true, sameSite: 'lax', secure: isProduction(), path: '/' }),
          )
        }
        for (const [name, value] of Object.entries(headers ?? {})) responseHeaders.set(name, value)
      },
    },
    auth: { flowType: 'pkce', detectSessionInUrl: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; realtime is unused but the client insists on a transport.
    realtime: { transport: WebSocket as never },
  })
}

/** A cookie-less client that checks a bearer access token (API clients). */
export function createSupabaseTokenClient(): SupabaseClient {
  return createServerClient(config().SUPABASE_URL, config().SUPABASE_ANON_KEY, {
    cookies: { getAll: () => [], setAll: () => {} },
    auth: { flowType: 'pkce', detectSessionInUrl: false, autoRefreshToken: false, persistSession: false },
    realtime: { transport: WebSocket as never },
  })
}

export function hasAuthCookie(request: Request): boolean {
  return /(?:^|;\s*)sb-[^=]*-auth-token/.test(request.headers.get('Cookie') ?? '')
}
