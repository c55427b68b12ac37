/**
 * compose-check.sh's requests through nginx, as a visitor makes them: the home page, the marketplace
 * with the demo listings, one listing image (the replica reads it from the S3 bucket), the JSON API,
 * and a sign-in with GitHub through the Supabase Auth stand-in (the replica exchanges the code with
 * it), after which the home page shows the signed-in user. Exits 1 naming what failed.
 *
 *   tsx scripts/container/compose-smoke.ts BASE_URL SUPABASE_URL
 */
const [base, supabaseUrl] = process.argv.slice(2)
if (!base || !supabaseUrl) throw new Error('Usage: tsx scripts/container/compose-smoke.ts BASE_URL SUPABASE_URL')

const cookies = new Map<string, string>()
const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
function keepCookies(response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    const name = pair!.slice(0, at)
    const value = pair!.slice(at + 1)
    if (value === '' || /max-age=0\b/i.test(line)) cookies.delete(name)
    else cookies.set(name, value)
  }
}
function fail(message: string): never {
  console.error(`[compose-smoke] FAILED: ${message}`)
  process.exit(1)
}
async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, base), { redirect: 'manual', ...init, headers: { cookie: cookieHeader(), ...init.headers } })
  keepCookies(response)
  return response
}
async function expectPage(path: string, contains: RegExp) {
  const response = await get(path)
  const body = await response.text()
  if (response.status !== 200) fail(`GET ${path}: ${response.status}`)
  if (!contains.test(body)) fail(`GET ${path}: no ${contains}`)
  console.log(`[compose-smoke] GET ${path}: 200, ${body.length} bytes, X-Cache-Status ${response.headers.get('x-cache-status')}`)
  return body
}

await expectPage('/', /Forkmarket/)
const marketplace = await expectPage('/marketplace', /\/uploads\/[0-9a-f]{32}\//)
// nginx's shared cache for anonymous pages: the same page again is nginx's copy.
const again = await get('/marketplace')
await again.arrayBuffer()
if (again.headers.get('x-cache-status') !== 'HIT')
  fail(`GET /marketplace again: X-Cache-Status ${again.headers.get('x-cache-status')}, not HIT`)
console.log('[compose-smoke] GET /marketplace again: X-Cache-Status HIT (nginx answered from its cache)')

// A listing image: stored in the bucket by the demo data, served by a replica from S3.
const image = /\/uploads\/[0-9a-f]{32}\/[a-z]+\.webp/.exec(marketplace)![0]
const imageResponse = await get(image)
const imageBytes = (await imageResponse.arrayBuffer()).byteLength
if (imageResponse.status !== 200 || !imageResponse.headers.get('content-type')?.startsWith('image/')) {
  fail(`GET ${image}: ${imageResponse.status} ${imageResponse.headers.get('content-type')}`)
}
console.log(`[compose-smoke] GET ${image}: 200 ${imageResponse.headers.get('content-type')}, ${imageBytes} bytes`)

// The JSON API.
const api = await get('/api/listings?limit=5')
const apiBody = (await api.json()) as Record<string, unknown>
const listed = Object.values(apiBody).find(Array.isArray)
if (api.status !== 200 || !listed?.length) fail(`GET /api/listings: ${api.status} ${JSON.stringify(apiBody).slice(0, 200)}`)
console.log(`[compose-smoke] GET /api/listings?limit=5: 200, ${listed.length} listings`)

// Sign in with GitHub: the app redirects to Supabase's /authorize (the PKCE verifier in a cookie),
// the stand-in provider page posts the account, Supabase redirects back with a code, the replica
// exchanges it with Supabase and sets the session.
const login = await get('/login', {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(base).origin },
  body: new URLSearchParams({ provider: 'github', redirectTo: '/' }),
})
const authorize = new URL(login.headers.get('location') ?? fail(`POST /login: ${login.status}, no redirect`))
if (!authorize.href.startsWith(`${supabaseUrl}/auth/v1/authorize?`)) fail(`POST /login redirected to ${authorize}`)
const consent = new URL(authorize.pathname + '/consent', authorize)
const form = new URLSearchParams(authorize.searchParams)
form.set('email', `compose-check-${Date.now().toString(36)}@example.com`)
form.set('full_name', 'Compose Check')
const consented = await fetch(consent, { method: 'POST', body: form, redirect: 'manual' })
const callback = consented.headers.get('location') ?? fail(`the provider page answered ${consented.status}`)
const signedIn = await get(new URL(callback).pathname + new URL(callback).search)
if (signedIn.status !== 302 && signedIn.status !== 303) fail(`GET /auth/callback: ${signedIn.status}`)
if (![...cookies.keys()].some((name) => /^sb-.*-auth-token/.test(name))) fail('no session cookie after the callback')
await expectPage('/', /Sign Out/)
console.log('[compose-smoke] signed in with GitHub through the Supabase stand-in: the home page shows Sign Out')

export {}
