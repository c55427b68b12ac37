import { afterEach, describe, expect, it, vi } from 'vitest'
import * as purchases from '../../app/routes/purchases.tsx'
import { routeConsoleToLog } from '../../app/server/infra/log.server.ts'
import { sessionCookieHeader } from '../../emulators/supabase-auth/session-cookie.ts'
import { APP, callRoute } from '../support/call-route.ts'
import { authEmulator } from '../support/services.ts'

/*
 * Issue 26.17: the log stays one JSON object per line. supabase-js prints a refresh the identity provider
 * refused — a visitor's stale refresh token — as an AuthApiError with its stack (a dozen lines) through
 * console.error; server.ts routes the console through the log (routeConsoleToLog).
 */

afterEach(() => vi.restoreAllMocks())

function sessionCookie(session: object) {
  return sessionCookieHeader(authEmulator.url, session)
}

describe('what libraries print', () => {
  it('a stale refresh token is one JSON line (a warning, no stack), and the visitor is signed out', async () => {
    const written: string[] = []
    for (const method of ['debug', 'log', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        written.push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(' '))
      })
    }
    routeConsoleToLog({ plainText: 'as-is' })

    const session = await authEmulator.createSession({ email: `stale-${Date.now()}@example.com` })
    // An access token past its expiry and a refresh token the provider does not know (it was used or revoked).
    const stale = { ...session, expires_at: Math.floor(Date.now() / 1000) - 60, refresh_token: 'stale-refresh-token' }
    const page = await callRoute(purchases, new Request(`${APP}/purchases`, { headers: { Cookie: sessionCookie(stale) } }))
    // Signed out: on to the sign-in page.
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toMatch(/^\/login\b/)

    expect(written.length).toBeGreaterThan(0)
    for (const line of written) {
      expect(line, line).not.toContain('\n')
      expect(() => JSON.parse(line) as unknown, line).not.toThrow()
    }
    const refused = written.map((line) => JSON.parse(line) as Record<string, never>).find((entry) => entry.event === 'console')
    expect(refused).toMatchObject({
      level: 'warn',
      error: { name: 'AuthApiError', code: 'refresh_token_not_found', status: 400 },
    })
    expect(refused?.error).not.toHaveProperty('stack')
  })

  it('in production plain text becomes a JSON line too, and a JSON line stays as it is', () => {
    const written: unknown[][] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void written.push(args))
    routeConsoleToLog({ plainText: 'json' })
    console.log('job worker', { tasks: 3 })
    console.log('{"time":"2026-11-27T00:00:00.000Z","level":"info","event":"job_worker_started"}')
    expect(written).toHaveLength(2)
    expect(JSON.parse(written[0]![0] as string)).toMatchObject({ level: 'info', event: 'console', message: 'job worker { tasks: 3 }' })
    expect(written[1]).toEqual(['{"time":"2026-11-27T00:00:00.000Z","level":"info","event":"job_worker_started"}'])
  })
})
