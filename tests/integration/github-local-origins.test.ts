import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as installCallback from '../../app/routes/github/install-callback.ts'
import * as install from '../../app/routes/github/install.ts'
import { signFlowState } from '../../app/server/domain/github-accounts.server.ts'
import { callRoute } from '../support/call-route.ts'
import { setEnv } from '../support/config.ts'
import { signUp } from '../support/payment-fixtures.ts'

/*
 * Issue 26.19: locally the app answers at http://localhost:PORT and http://127.0.0.1:PORT, each with its
 * own cookies, while GitHub sends every installation back to the App's one Setup URL (localhost's).
 * A seller who connects GitHub at 127.0.0.1 is sent back there before the session is read — not to
 * /login at localhost, signed out — and the flow goes on at 127.0.0.1.
 */

const LOCALHOST = 'http://localhost:3000'
const LOOPBACK = 'http://127.0.0.1:3000'

beforeEach(() => setEnv({ APP_URL: undefined, PORT: '3000' }))
afterEach(() => setEnv({ APP_URL: 'http://localhost:3000' }))

async function startInstall(origin: string, token: string): Promise<string> {
  const response = await callRoute(install, new Request(`${origin}/github/install`, { headers: { Authorization: `Bearer ${token}` } }))
  expect(response.status).toBe(302)
  return new URL(response.headers.get('Location')!).searchParams.get('state')!
}

/** GitHub's redirect to the Setup URL after the installation, at `origin`. */
function setupReturn(origin: string, state: string, headers: Record<string, string> = {}) {
  const query = new URLSearchParams({ installation_id: '4242', setup_action: 'install', state })
  return callRoute(installCallback, new Request(`${origin}/github/install/callback?${query}`, { headers }))
}

describe('connecting GitHub at 127.0.0.1 as well as at localhost', () => {
  it('sends a seller who started at 127.0.0.1 back there from the Setup URL, where the flow goes on', async () => {
    const seller = await signUp('loopback-seller')
    const state = await startInstall(LOOPBACK, seller.token)

    const bounced = await setupReturn(LOCALHOST, state)
    expect(bounced.status).toBe(302)
    const back = new URL(bounced.headers.get('Location')!)
    expect(back.origin).toBe(LOOPBACK)
    expect(back.pathname).toBe('/github/install/callback')
    expect(Object.fromEntries(back.searchParams)).toEqual({ installation_id: '4242', setup_action: 'install', state })

    // At 127.0.0.1 the seller is signed in: on to the App's user authorization, which returns there too.
    const onward = await setupReturn(LOOPBACK, state, { Authorization: `Bearer ${seller.token}` })
    expect(onward.status).toBe(302)
    const authorize = new URL(onward.headers.get('Location')!)
    expect(authorize.pathname).toBe('/login/oauth/authorize')
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${LOOPBACK}/github/oauth/callback`)
  })

  it('a flow begun at localhost stays there; a state we did not sign, or a configured APP_URL, sends nobody elsewhere', async () => {
    const seller = await signUp('localhost-seller')
    const local = await setupReturn(LOCALHOST, await startInstall(LOCALHOST, seller.token))
    expect(new URL(local.headers.get('Location')!, LOCALHOST).pathname).toBe('/login')

    const [body] = signFlowState({ u: seller.id, r: '/profile', p: 'install', o: 'http://127.0.0.1:9999' }).split('.')
    const forged = await setupReturn(LOCALHOST, `${body}.${'A'.repeat(43)}`)
    expect(new URL(forged.headers.get('Location')!, LOCALHOST).pathname).toBe('/login')

    const state = await startInstall(LOOPBACK, seller.token)
    setEnv({ APP_URL: 'https://forkmarket.example' })
    const configured = await setupReturn('https://forkmarket.example', state)
    expect(new URL(configured.headers.get('Location')!, 'https://forkmarket.example').pathname).toBe('/login')
  })
})
