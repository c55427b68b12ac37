import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { declaredPolicy } from '../../app/server/http/route-policy.server.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { ROUTES } from '../support/route-table.ts'
import { authEmulator } from '../support/services.ts'

/*
 * Issue 15.6: a route's HTTP policy (body limit, rate limit, CSP variant,
 * compression) is declared on the route itself (app/server/http/route-policy.server.ts),
 * and a route that takes writes cannot silently miss its limits: this test
 * fails for any route of app/routes.ts that answers a write (anything but 405)
 * and declares no body limit or no rate limit.
 */

type Module = Parameters<typeof callRoute>[0]
const WRITES = ['POST', 'PATCH', 'DELETE'] as const

/** Routes with an action on purpose but nothing to limit, with why. */
const EXEMPT: Record<string, string> = {
  'api/*': 'answers 404 to every method and reads no body',
}

async function load(file: string): Promise<Module> {
  return (await import(/* @vite-ignore */ `../../app/${file}`)) as Module
}

/** The write methods a route answers with anything but 405 (probed anonymously, with no body). */
async function writesServed(route: { path: string }, mod: Module): Promise<string[]> {
  if (!mod.action) return []
  const path = `/${route.path.replace(/:[a-zA-Z]+/g, 'x').replace('*', 'x')}`
  const params = Object.fromEntries([...route.path.matchAll(/:([a-zA-Z]+)/g)].map((m) => [m[1]!, 'x']))
  const served: string[] = []
  for (const method of WRITES) {
    const response = await callRoute(mod, new Request(`${APP}${path}`, { method, headers: { Origin: APP } }), params)
    if (response.status !== 405) served.push(method)
  }
  return served
}

/** Every route that takes writes but lacks a declared body limit or rate limit. */
async function undeclared(routes: { path: string; file: string }[], loadModule: (file: string) => Promise<Module>) {
  const missing: string[] = []
  for (const route of routes) {
    if (route.path in EXEMPT) continue
    const mod = await loadModule(route.file)
    const served = await writesServed(route, mod)
    if (served.length === 0) continue
    const policy = declaredPolicy(mod)
    if (policy?.bodyLimit === undefined) missing.push(`${route.path} (${served.join('/')}): no body limit`)
    if (!policy?.rateLimit) missing.push(`${route.path} (${served.join('/')}): no rate limit`)
  }
  return missing
}

describe('route policy', () => {
  it('every route that takes writes declares its body limit and rate limit', async () => {
    expect(await undeclared(ROUTES, load)).toEqual([])
  })

  it('the check catches a route that declares nothing', async () => {
    const bare: Module = { action: () => Response.json({ ok: true }) }
    const listed = { path: 'bare/:id', file: 'bare.ts' }
    expect(await undeclared([listed], async () => bare)).toEqual([
      'bare/:id (POST/PATCH/DELETE): no body limit',
      'bare/:id (POST/PATCH/DELETE): no rate limit',
    ])
  })

  it('declares the CSP variants and compression opt-outs on the routes they govern', async () => {
    const policy = async (file: string) => declaredPolicy(await load(file)) ?? {}
    expect(await policy('routes/checkout.tsx')).toMatchObject({ csp: 'checkout' })
    expect(await policy('routes/login.tsx')).toMatchObject({ csp: 'sign-in' })
    expect(await policy('routes/admin.tsx')).toMatchObject({ compress: false })
    expect(await policy('routes/profile.tsx')).toMatchObject({ compress: false })
    const others = ROUTES.filter((r) => !['checkout/:id', 'login'].includes(r.path))
    for (const route of others) expect((await policy(route.file)).csp, route.path).toBeUndefined()
  })

  it('a page that declares compress: false leaves marked no-transform (the compression layer skips it)', async () => {
    const session = await authEmulator.createSession({ email: `admin-${Date.now()}@policy.test`, fullName: 'Admin' })
    await syncUser({ id: session.user.id, email: session.user.email!, displayName: 'Admin', avatarUrl: null })
    const headers = { Authorization: `Bearer ${session.access_token}` }
    const profile = await callRoute(await load('routes/profile.tsx'), new Request(`${APP}/profile`, { headers }))
    expect(profile.status).toBe(200)
    expect(profile.headers.get('Cache-Control')).toBe('private, no-store, no-transform')
    const marketplace = await callRoute(await load('routes/marketplace.tsx'), new Request(`${APP}/marketplace`))
    expect(marketplace.headers.get('Cache-Control') ?? '').not.toContain('no-transform')
  })
})

describe('callRoute runs the real root middleware chain', () => {
  it('answers 503 with Retry-After (the database-outage middleware) while the database refuses connections', async () => {
    const session = await authEmulator.createSession({ email: `outage-${Date.now()}@policy.test`, fullName: 'Outage' })
    const purchases = await load('routes/api/purchases.ts')
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1)
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') })
    await admin.connect()
    try {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])
      const response = await callRoute(purchases, apiRequest('/api/purchases', { token: session.access_token }))
      expect(response.status).toBe(503)
      expect(response.headers.get('Retry-After')).toBe('5')
      expect(await response.json()).toEqual({ error: 'Service temporarily unavailable. Please try again shortly.' })
    } finally {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
      await admin.end()
    }
    expect((await callRoute(purchases, apiRequest('/api/purchases', { token: session.access_token }))).status).toBe(200)
  })
})
